"""Un trimestre de verdad: quién entrega lo deciden el LMS y la lista del libro, y nada calificado
se sustituye en silencio (revisión del profesor, 2026-12: Moodle, Canvas, un ordenador compartido,
una entrega rota después de una buena, notas a mano que se movían solas)."""

import csv
import json
import zipfile
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import escribe_informe, recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, por_alumno

DESAFIOS = {DESAFIO.slug}
MOODLE = "{}_{}_assignsubmission_file_/permiso-en-ejecutar.ipynb"
A_MEDIAS = "def ejecutar(ll, entorno):\n    pass\n"
LISTA = [
    ("ana.garcia", "Ana", "García Pérez", None),
    ("maria.sanchez", "María", "Sánchez", None),
    ("ines.lopez", "Inés", "López Ruiz", None),
    ("begona.pena", "Begoña", "Peña", "4480"),
]


@pytest.fixture
def curso(release, tmp_path):
    curso = curso_nuevo(release, tmp_path / "curso")
    with Gradebook(url_del_libro(curso)) as libro:
        for id_, nombre, apellidos, lms in LISTA:
            libro.add_student(id_, first_name=nombre, last_name=apellidos, lms_user_id=lms)
    return curso


def de_la_pagina(cuaderno, alumno, codigo=SOLUCION):
    nb = con_solucion(cuaderno, codigo)
    if alumno is not None:
        nb.metadata["curso"]["alumno"] = alumno
    return nb


def zip_de(ruta: Path, ficheros: dict, hora=(2026, 11, 20, 10, 0, 0)) -> Path:
    with zipfile.ZipFile(ruta, "w") as z:
        for nombre, contenido in ficheros.items():
            datos = contenido if isinstance(contenido, (str, bytes)) else json.dumps(contenido)
            z.writestr(zipfile.ZipInfo(nombre, hora), datos)
    return ruta


def lineas(informe):
    return {linea.origen: linea for linea in informe}


def entregado(curso: Path, alumno: str) -> Path:
    return curso / "submitted" / alumno / DESAFIO.slug / DESAFIO.cuaderno


def test_un_ordenador_compartido_no_da_el_trabajo_de_maria_a_ana(release, curso, tmp_path):
    _, cuaderno = release
    maria = MOODLE.format("María Sánchez", 4476)
    ana = MOODLE.format("Ana García", 4471)  # Moodle pone un solo apellido; el libro, los dos
    primera = zip_de(tmp_path / "moodle.zip", {maria: de_la_pagina(cuaderno, "ana.garcia")})
    linea = recoge(primera, curso, DESAFIOS)[0]
    assert linea.recogida and linea.alumno == "maria.sanchez", linea.motivo
    assert "⚠" in linea.motivo and "«ana.garcia»" in linea.motivo and "María Sánchez" in linea.motivo
    assert "compruébalo con los dos alumnos" in linea.motivo  # lo que dice la guía
    assert not (curso / "submitted" / "ana.garcia").exists()
    # La de Ana, más tarde, desde su carpeta: se recoge, sin «conflicto».
    segunda = zip_de(
        tmp_path / "moodle2.zip", {ana: de_la_pagina(cuaderno, "ana.garcia", A_MEDIAS)}, (2026, 11, 21, 10, 0, 0)
    )
    linea = recoge(segunda, curso, DESAFIOS)[0]
    assert linea.recogida and linea.alumno == "ana.garcia" and "conflicto" not in linea.motivo, linea.motivo
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False))
    assert filas["maria.sanchez"]["puntos"] == 10 and "«ana.garcia»" in filas["maria.sanchez"]["motivo"]
    assert filas["ana.garcia"]["puntos"] < 10 and "⚠" not in filas["ana.garcia"]["motivo"]
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8") as f:
        csv_ = {fila["alumno"]: fila for fila in csv.DictReader(f)}
    assert "«ana.garcia»" in csv_["maria.sanchez"]["motivo"]


def test_canvas_y_jupyterlite_con_cualquier_identificador(release, curso, tmp_path):
    """Canvas: ficheros sueltos «apellidonombre_<id>_<envío>_<fichero>»; los de JupyterLite no traen
    identificador y tampoco hace falta renombrar nada. Con el patrón de la guía, igual."""
    _, cuaderno = release
    sin_id = con_solucion(cuaderno, SOLUCION)
    assert "alumno" not in sin_id.metadata["curso"]  # el repartido, como lo baja JupyterLite
    ficheros = {
        "garciaperezana_4471_98765_permiso-en-ejecutar.ipynb": sin_id,
        "sanchezmaria_late_4476_98766_permiso-en-ejecutar-1.ipynb": de_la_pagina(cuaderno, "maria.sanchez"),
        "lopezines_4477_98767_permiso-en-ejecutar.ipynb": sin_id,
        "penabego_4480_98768_permiso-en-ejecutar.ipynb": sin_id,
    }  # otro nombre, pero su lms_user_id
    for patron in ({}, {"patron": r"(?P<alumno>[^_/]+)_"}):
        entrada = zip_de(tmp_path / f"canvas{len(patron)}.zip", ficheros)
        informe = recoge(entrada, curso, DESAFIOS, **patron)
        assert {linea.alumno for linea in informe if linea.recogida or linea.ya_estaba} == {
            "ana.garcia",
            "maria.sanchez",
            "ines.lopez",
            "begona.pena",
        }, escribe_informe(informe)
    assert (
        curso / "submitted" / "ana.garcia" / DESAFIO.slug / ".carpeta-del-aula"
    ).read_text() == "garciaperezana_4471_98765"


def test_jupyterlite_desde_moodle_y_despues_desde_la_pagina(release, curso, tmp_path):
    """El remedio de antes (renombrar la carpeta) bloqueaba la entrega siguiente con un «conflicto»."""
    _, cuaderno = release
    sin_id = con_solucion(cuaderno, A_MEDIAS)
    assert "alumno" not in sin_id.metadata["curso"]  # el repartido, como lo baja JupyterLite
    ines = MOODLE.format("Inés López Ruiz", 4477)
    assert recoge(zip_de(tmp_path / "a.zip", {ines: sin_id}), curso, DESAFIOS)[0].alumno == "ines.lopez"
    despues = zip_de(tmp_path / "b.zip", {ines: de_la_pagina(cuaderno, "ines.lopez")}, (2026, 11, 22, 9, 0, 0))
    linea = recoge(despues, curso, DESAFIOS)[0]
    assert linea.recogida and "conflicto" not in linea.motivo, linea.motivo


def test_una_carpeta_de_nadie_o_de_dos_no_se_adivina(release, curso, tmp_path):
    _, cuaderno = release
    with Gradebook(url_del_libro(curso)) as libro:
        libro.add_student("ana.garcia2", first_name="Ana", last_name="García López")
    informe = lineas(
        recoge(
            zip_de(
                tmp_path / "m.zip",
                {
                    MOODLE.format("Ana García", 11): de_la_pagina(cuaderno, None),
                    MOODLE.format("Zoe Quintana", 12): de_la_pagina(cuaderno, "zoe"),
                    MOODLE.format("Luis García", 13): de_la_pagina(cuaderno, "ana.garcia"),
                },
            ),
            curso,
            DESAFIOS,
        )
    )
    dos = informe[MOODLE.format("Ana García", 11)]
    assert not dos.recogida and "ana.garcia " in dos.motivo and "ana.garcia2" in dos.motivo, dos.motivo
    nadie = informe[MOODLE.format("Zoe Quintana", 12)]
    assert not nadie.recogida and "ningún alumno del libro" in nadie.motivo
    # En Moodle el número es de la tarea: lo que arregla es el nombre en el libro, no --lms-user-id.
    assert "--last-name" in nadie.motivo and "--lms-user-id" not in nadie.motivo, nadie.motivo
    # Ni por lo que diga su cuaderno: el LMS dice que es de Luis García, que no está en el libro.
    luis = informe[MOODLE.format("Luis García", 13)]
    assert not luis.recogida and "ana.garcia" in luis.motivo  # el parecido, nombrado
    assert not (curso / "submitted").exists()


def test_ficheros_rotos_y_vacios_en_espanol(release, curso, tmp_path):
    entrada = tmp_path / "e"
    (entrada / "ana.garcia").mkdir(parents=True)
    (entrada / "ana.garcia" / "permiso-en-ejecutar.ipynb").write_text('{"cells": ["sin cerrar', encoding="utf-8")
    (entrada / "maria.sanchez").mkdir()
    (entrada / "maria.sanchez" / "permiso-en-ejecutar.ipynb").write_bytes(b"")
    informe = lineas(recoge(entrada, curso, DESAFIOS))
    roto = informe["ana.garcia/permiso-en-ejecutar.ipynb"].motivo
    assert "JSON" in roto and "línea 1" in roto and "Unterminated" not in roto and "Expecting" not in roto
    vacio = informe["maria.sanchez/permiso-en-ejecutar.ipynb"].motivo
    assert "vacío" in vacio and "Expecting" not in vacio


def _pon_notas_a_mano(curso: Path, alumno: str):
    with Gradebook(url_del_libro(curso)) as libro:
        nota = libro.find_grade("prueba_denegar", DESAFIO.cuaderno.removesuffix(".ipynb"), DESAFIO.slug, alumno)
        nota.manual_score = 0
        nota.extra_credit = 0.5
        comentario = libro.find_comment(
            DESAFIO.celda_solucion, DESAFIO.cuaderno.removesuffix(".ipynb"), DESAFIO.slug, alumno
        )
        comentario.manual_comment = "el caso Permitir debía denegarse"
        libro.db.commit()


def _notas_a_mano(curso: Path, alumno: str):
    with Gradebook(url_del_libro(curso)) as libro:
        nb = libro.find_submission(DESAFIO.slug, alumno).notebooks[0]
        return (
            {
                g.name: (g.manual_score, g.extra_credit)
                for g in nb.grades
                if g.manual_score is not None or g.extra_credit
            },
            [c.manual_comment for c in nb.comments if c.manual_comment],
        )


def test_nada_calificado_se_sustituye_en_silencio(release, curso, tmp_path, capsys):
    _, cuaderno = release
    carpeta = MOODLE.format("Begoña Peña", 4480)
    buena = zip_de(tmp_path / "1.zip", {carpeta: de_la_pagina(cuaderno, "begona.pena")}, (2026, 11, 20, 9, 0, 0))
    assert recoge(buena, curso, DESAFIOS)[0].recogida
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    _pon_notas_a_mano(curso, "begona.pena")
    guardada = entregado(curso, "begona.pena").read_bytes()

    # Más nuevas pero rotas: sin la celda de la solución, vacía, no JSON. Ninguna sustituye a la buena.
    sin_celda = de_la_pagina(cuaderno, "begona.pena")
    sin_celda.cells = [
        c for c in sin_celda.cells if c.metadata.get("nbgrader", {}).get("grade_id") != DESAFIO.celda_solucion
    ]
    for n, rota in enumerate([sin_celda, b"", b'{"cells": []}']):
        linea = recoge(zip_de(tmp_path / f"rota{n}.zip", {carpeta: rota}, (2026, 11, 21, 9, n, 0)), curso, DESAFIOS)[0]
        assert not linea.recogida, linea.motivo
        assert entregado(curso, "begona.pena").read_bytes() == guardada
    assert (
        "falta la celda de la solución"
        in recoge(zip_de(tmp_path / "r.zip", {carpeta: sin_celda}, (2026, 11, 21, 9, 0, 0)), curso, DESAFIOS)[0].motivo
    )

    # Una nueva de verdad sí: la buena se guarda, con sus notas a mano, que salen del libro.
    nueva = zip_de(
        tmp_path / "2.zip", {carpeta: de_la_pagina(cuaderno, "begona.pena", A_MEDIAS)}, (2026, 11, 22, 9, 0, 0)
    )
    linea = recoge(nueva, curso, DESAFIOS)[0]
    assert linea.recogida and "sustituye" in linea.motivo and "./curso restaurar" in linea.motivo, linea.motivo
    assert "⚠" in linea.motivo and "0,5 puntos de crédito extra y 1 comentario" in linea.motivo
    anteriores = list((entregado(curso, "begona.pena").parent / ".anteriores").iterdir())
    assert len(anteriores) == 1 and (anteriores[0] / DESAFIO.cuaderno).read_bytes() == guardada
    assert _notas_a_mano(curso, "begona.pena") == ({}, [])
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False))
    assert filas["begona.pena"]["puntos"] < 10 and "0,5 puntos de crédito extra" in filas["begona.pena"]["motivo"]
    assert "se quitan del libro" in filas["begona.pena"]["motivo"]

    # Una orden la vuelve a poner, con sus notas; la que se quita, también se guarda.
    capsys.readouterr()
    codigo = main(["restaurar", "--alumno", "begona.pena", "--nbgrader", str(curso)])
    salida = capsys.readouterr()
    assert codigo == 0, salida.err
    assert "restaurada" in salida.out and "curso calificar --alumno begona.pena" in salida.out
    assert "restaurada la entrega de begona.pena del 2026-11-2" in salida.out and "(versión 2026-" in salida.out
    assert entregado(curso, "begona.pena").read_bytes() == guardada
    assert _notas_a_mano(curso, "begona.pena") == ({"prueba_denegar": (0, 0.5)}, ["el caso Permitir debía denegarse"])
    assert len(list((entregado(curso, "begona.pena").parent / ".anteriores").iterdir())) == 1
    # La restaurada es la misma que la del primer zip: recogerlo otra vez no cambia nada.
    linea = recoge(buena, curso, DESAFIOS)[0]
    assert not linea.recogida and "ya estaba recogida" in linea.motivo, linea.motivo


def test_la_hora_del_zip_en_la_zona_del_curso(release, curso, tmp_path, monkeypatch):
    _, cuaderno = release
    entrada = {"ana.garcia/permiso-en-ejecutar.ipynb": de_la_pagina(cuaderno, "ana.garcia")}
    sellos = {}
    for zona in ("UTC", "Europe/Madrid"):
        ajustes = tmp_path / f"{zona.replace('/', '-')}.toml"
        ajustes.write_text(f'zona_horaria = "{zona}"\n', encoding="utf-8")
        monkeypatch.setenv("CURSO_PROFESOR", str(ajustes))
        otro = curso_nuevo(release, tmp_path / zona.replace("/", "-"))
        linea = recoge(zip_de(tmp_path / "z.zip", entrada, (2026, 11, 20, 12, 0, 0)), otro, DESAFIOS)[0]
        sellos[zona] = (otro / "submitted" / "ana.garcia" / DESAFIO.slug / "timestamp.txt").read_text()
        assert zona in linea.motivo if zona != "UTC" else "12:00:00 UTC" in linea.motivo, linea.motivo
    assert sellos == {"UTC": "2026-11-20 12:00:00.000000 UTC", "Europe/Madrid": "2026-11-20 11:00:00.000000 UTC"}
    assert "2026-11-20 12:00:00 Europe/Madrid (11:00:00 UTC)" in linea.motivo


def test_una_carpeta_con_el_identificador_de_un_alumno_del_libro_manda(release, curso, tmp_path):
    """Una carpeta que es el identificador de un alumno de la lista: el cuaderno que dice otro se recoge
    para el de la carpeta, marcado, y no toca la entrega del otro."""
    _, cuaderno = release
    entrada = tmp_path / "e"
    (entrada / "ines.lopez").mkdir(parents=True)
    (entrada / "ines.lopez" / "x.ipynb").write_text(json.dumps(de_la_pagina(cuaderno, "ana.garcia")), encoding="utf-8")
    linea = recoge(entrada, curso, DESAFIOS)[0]
    assert linea.recogida and linea.alumno == "ines.lopez" and "⚠" in linea.motivo and "«ana.garcia»" in linea.motivo
    assert not (curso / "submitted" / "ana.garcia").exists()


def test_moodle_sin_carpetas(release, curso, tmp_path):
    """Moodle sin «descargar en carpetas»: ficheros sueltos con el prefijo del alumno."""
    _, cuaderno = release
    nombre = "Inés López_4477_assignsubmission_file_permiso-en-ejecutar.ipynb"
    linea = recoge(zip_de(tmp_path / "plano.zip", {nombre: con_solucion(cuaderno, SOLUCION)}), curso, DESAFIOS)[0]
    assert linea.recogida and linea.alumno == "ines.lopez", linea.motivo
    assert (
        curso / "submitted" / "ines.lopez" / DESAFIO.slug / ".carpeta-del-aula"
    ).read_text() == "Inés López_4477_assignsubmission_file_"


def test_una_sola_recogida_se_dice_en_singular(release, curso, tmp_path, capsys, monkeypatch):
    (tmp_path / "profesor.toml").write_text('zona_horaria = "Europe/Madrid"\n', encoding="utf-8")
    monkeypatch.setenv("CURSO_PROFESOR", str(tmp_path / "profesor.toml"))
    _, cuaderno = release
    nb = de_la_pagina(cuaderno, "ines.lopez")
    nb.metadata["curso"]["descargado"] = "2026-11-19T12:00:00Z"  # la víspera, en su ordenador
    zip_ = zip_de(tmp_path / "m.zip", {MOODLE.format("Inés López", 4477): nb})
    assert main(["recoger", str(zip_), "--nbgrader", str(curso)]) == 0
    salida = capsys.readouterr().out
    assert "1 recogida." in salida and "sin recoger" not in salida and "Califícala con: ./curso calificar" in salida
    # La hora del alumno se dice como las demás (zona del curso y UTC), sin microsegundos.
    assert "se descargó el 2026-11-19 13:00:00 Europe/Madrid (12:00:00 UTC)" in salida and ".000000" not in salida
