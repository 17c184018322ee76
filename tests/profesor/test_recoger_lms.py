"""`curso recoger` como se portan de verdad Moodle y Canvas (revisión del profesor, M1, M2, m2-m5):
zips dentro de zips con su hora, el número de Moodle que no es el id del alumno, la zona horaria
del curso, desafíos sin repartir y descargas repetidas."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor import configuracion
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import escribe_informe, recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo

DESAFIOS = {DESAFIO.slug, "puerta-corregida"}
CUADERNO = DESAFIO.cuaderno
MOODLE = "{}_{}_assignsubmission_file_/"
A_MEDIAS = "def ejecutar(ll, entorno):\n    pass\n"
SIN_HORA = (1980, 1, 1, 0, 0, 0)  # el cero del formato zip: lo que deja quien no pone la hora
LISTA = [  # el de la revisión: lms_user_id 4471-4480
    ("ana.garcia", "Ana", "García Pérez"),
    ("ana.munoz", "Ana", "Muñoz Rivas"),
    ("ines.lopez", "Inés", "López Núñez"),
    ("jose.rodriguez", "José Manuel", "Rodríguez"),
    ("maria.delatorre", "María", "de la Torre Vélez"),
    ("nicolas.pena", "Nicolás", "Peña"),
    ("camila.ortiz", "Camila", "Ortiz-Bernal"),
    ("andres.zuniga", "Andrés", "Zúñiga"),
    ("sofia.echeverri", "Sofía", "Echeverri"),
    ("julian.cardenas", "Julián", "Cárdenas"),
]


@pytest.fixture(autouse=True)
def sin_ajustes(tmp_path, monkeypatch):
    """Sin profesor.toml (salvo que la prueba lo ponga) y sin la zona de otro curso leído antes."""
    monkeypatch.setenv("CURSO_PROFESOR", str(tmp_path / "no-hay-profesor.toml"))
    monkeypatch.setattr(configuracion, "_ZONA_DEL_CURSO", {"nombre": None, "carpeta": None}, raising=False)


@pytest.fixture
def curso(release, tmp_path):
    """El curso de la revisión: zona de Bogotá en su nbgrader_config.py y la lista con lms_user_id."""
    curso = curso_nuevo(release, tmp_path / "curso")
    with (curso / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write('\nc.Exchange.timezone = "America/Bogota"\n')
    with Gradebook(url_del_libro(curso)) as libro:
        for n, (id_, nombre, apellidos) in enumerate(LISTA):
            libro.add_student(id_, first_name=nombre, last_name=apellidos, lms_user_id=str(4471 + n))
    return curso


def zip_en_bytes(ficheros: dict) -> bytes:
    """Un zip con cada entrada a su hora: {nombre: (hora, contenido)}."""
    datos = io.BytesIO()
    with zipfile.ZipFile(datos, "w") as z:
        for nombre, (hora, contenido) in ficheros.items():
            if not isinstance(contenido, (str, bytes)):
                contenido = json.dumps(contenido)
            z.writestr(zipfile.ZipInfo(nombre, hora), contenido)
    return datos.getvalue()


def zip_de(ruta: Path, ficheros: dict) -> Path:
    ruta.write_bytes(zip_en_bytes(ficheros))
    return ruta


def del_alumno(cuaderno, alumno: str, codigo: str = SOLUCION):
    nb = con_solucion(cuaderno, codigo)
    nb.metadata["curso"]["alumno"] = alumno
    return nb


def sello(curso: Path, alumno: str) -> str:
    return (curso / "submitted" / alumno / DESAFIO.slug / "timestamp.txt").read_text(encoding="utf-8")


def entregado(curso: Path, alumno: str) -> bytes:
    return (curso / "submitted" / alumno / DESAFIO.slug / CUADERNO).read_bytes()


def por_origen(informe):
    return {linea.origen: linea for linea in informe}


# M1: un zip dentro de otro zip conserva la hora de la entrega.


def test_el_entrega_zip_de_un_alumno_tiene_la_hora_a_la_que_lo_recibio_el_aula(release, curso, tmp_path):
    _, cuaderno = release
    maria = MOODLE.format("María de la Torre Vélez", 4475)
    a_tiempo = del_alumno(cuaderno, "maria.delatorre", A_MEDIAS)
    nueva = del_alumno(cuaderno, "maria.delatorre")
    # A las 20:00 sube el cuaderno y a las 21:05 (hora de Bogotá) entrega.zip, con el cuaderno de las 21:00.
    entrega_zip = zip_en_bytes({CUADERNO: ((2026, 11, 20, 21, 0, 0), nueva)})
    moodle = {
        maria + CUADERNO: ((2026, 11, 20, 20, 0, 0), a_tiempo),
        maria + "entrega.zip": ((2026, 11, 20, 21, 5, 0), entrega_zip),
    }
    informe = por_origen(recoge(zip_de(tmp_path / "moodle.zip", moodle), curso, DESAFIOS))
    dentro = informe[maria + f"entrega/{CUADERNO}"]
    assert dentro.recogida and "que subió el alumno" in dentro.motivo, escribe_informe(list(informe.values()))
    assert sello(curso, "maria.delatorre") == "2026-11-21 02:05:00.000000 UTC"  # 21:05 en Bogotá: la del aula
    assert entregado(curso, "maria.delatorre") == json.dumps(nueva).encode()
    assert informe[maria + CUADERNO].duplicada


def test_la_hora_de_dentro_del_zip_de_un_alumno_no_cuenta(release, curso, tmp_path):
    """Trampa: el alumno atrasa el reloj de su ordenador antes de comprimir. Vale la hora del aula."""
    _, cuaderno = release
    maria = MOODLE.format("María de la Torre Vélez", 4475)
    atrasado = zip_en_bytes({CUADERNO: ((2026, 11, 1, 9, 0, 0), del_alumno(cuaderno, "maria.delatorre"))})
    moodle = {maria + "entrega.zip": ((2026, 11, 25, 23, 0, 0), atrasado)}
    linea = recoge(zip_de(tmp_path / "1.zip", moodle), curso, DESAFIOS)[0]
    assert linea.recogida, linea.motivo
    assert sello(curso, "maria.delatorre") == "2026-11-26 04:00:00.000000 UTC"  # el 25 a las 23:00 en Bogotá


def test_un_zip_del_alumno_sin_la_hora_del_aula_no_se_recoge(release, curso, tmp_path):
    _, cuaderno = release
    maria = MOODLE.format("María de la Torre Vélez", 4475)
    a_tiempo = del_alumno(cuaderno, "maria.delatorre")
    sin_horas = zip_en_bytes({CUADERNO: (SIN_HORA, del_alumno(cuaderno, "maria.delatorre", A_MEDIAS))})
    # Las entradas de entrega.zip no tienen hora: vale la de entrega.zip en el zip de Moodle.
    moodle = {maria + "entrega.zip": ((2026, 11, 20, 21, 5, 0), sin_horas)}
    linea = recoge(zip_de(tmp_path / "1.zip", moodle), curso, DESAFIOS)[0]
    assert linea.recogida and "que subió el alumno" in linea.motivo, linea.motivo
    assert sello(curso, "maria.delatorre") == "2026-11-21 02:05:00.000000 UTC"

    # Ni las de dentro ni la de fuera: no se recoge, y la entrega a tiempo que había se queda.
    otro = curso_nuevo(release, tmp_path / "otro")
    moodle = {
        maria + CUADERNO: ((2026, 11, 20, 20, 0, 0), a_tiempo),
        maria + "entrega.zip": (SIN_HORA, sin_horas),
    }
    informe = por_origen(recoge(zip_de(tmp_path / "2.zip", moodle), otro, DESAFIOS))
    sin = informe[maria + f"entrega/{CUADERNO}"]
    assert not sin.recogida and "no se sabe a qué hora se entregó" in sin.motivo, sin.motivo
    assert "lo subió el alumno y el aula no dice a qué hora" in sin.motivo and "--hora alumno" in sin.motivo
    assert informe[maria + CUADERNO].recogida
    assert entregado(otro, "maria.delatorre") == json.dumps(a_tiempo).encode()


def test_el_zip_de_moodle_comprimido_otra_vez_conserva_las_horas(release, curso, tmp_path):
    _, cuaderno = release
    moodle = zip_en_bytes(
        {
            MOODLE.format("Ana García Pérez", 4471) + CUADERNO: ((2026, 11, 20, 23, 58, 40), del_alumno(cuaderno, "x")),
            MOODLE.format("Camila Ortiz-Bernal", 4477) + CUADERNO: (
                (2026, 11, 21, 5, 0, 0),
                con_solucion(cuaderno, ""),
            ),
        }
    )
    # El profesor lo copia comprimiéndolo otra vez, diez días después.
    fuera = zip_de(tmp_path / "outer.zip", {"AGENTES-permiso-1234567.zip": ((2026, 12, 1, 20, 7, 25), moodle)})
    informe = recoge(fuera, curso, DESAFIOS)
    assert all(linea.recogida for linea in informe), escribe_informe(informe)
    assert sello(curso, "ana.garcia") == "2026-11-21 04:58:40.000000 UTC"  # a tiempo: 23:58:40 en Bogotá
    assert sello(curso, "camila.ortiz") == "2026-11-21 10:00:00.000000 UTC"  # tarde, como era


def test_un_zip_de_dentro_roto_no_para_lo_demas_y_se_dice_en_espanol(release, curso, tmp_path):
    _, cuaderno = release
    moodle = {
        MOODLE.format("Ana García Pérez", 4471) + CUADERNO: ((2026, 11, 20, 10, 0, 0), del_alumno(cuaderno, "x")),
        MOODLE.format("Inés López Núñez", 4473) + "entrega.zip": ((2026, 11, 20, 10, 0, 0), b"PK\x03\x04 cortado"),
    }
    informe = por_origen(recoge(zip_de(tmp_path / "m.zip", moodle), curso, DESAFIOS))
    roto = informe[MOODLE.format("Inés López Núñez", 4473) + "entrega.zip"]
    assert not roto.recogida and "no es un zip válido" in roto.motivo and "File is not" not in roto.motivo
    assert informe[MOODLE.format("Ana García Pérez", 4471) + CUADERNO].recogida


def test_un_zip_cortado_en_espanol(curso, tmp_path, capsys):
    cortado = tmp_path / "entregas.zip"
    cortado.write_bytes(zip_en_bytes({"a/x.ipynb": ((2026, 11, 20, 10, 0, 0), "{}")})[:40])
    assert main(["recoger", str(cortado), "--nbgrader", str(curso)]) == 2
    error = capsys.readouterr().err
    assert "no es un zip válido" in error and "descárgalo otra vez" in error
    assert "File is not" not in error and "zip file" not in error, error


# M2: el número de la carpeta de Moodle es de la tarea, no el lms_user_id del alumno.


def test_el_numero_de_moodle_de_otro_alumno_no_le_da_la_entrega(release, curso, tmp_path, capsys):
    _, cuaderno = release
    ines = MOODLE.format("Inés López Núñez", 4472) + CUADERNO  # 4472 es el lms_user_id de Ana Muñoz
    sola = zip_de(tmp_path / "solo.zip", {ines: ((2026, 11, 20, 10, 0, 0), con_solucion(cuaderno, SOLUCION))})
    linea = recoge(sola, curso, DESAFIOS)[0]
    assert not linea.recogida and linea.para, linea.motivo
    for dice in ("Inés López Núñez_4472_assignsubmission_file_", "ines.lopez", "ana.munoz", "no se recoge nada"):
        assert dice in linea.motivo, linea.motivo
    assert "--lms-user-id ''" in linea.motivo and "--last-name 'Muñoz Rivas'" in linea.motivo
    assert not (curso / "submitted").exists()

    # Con la carpeta de Ana también: la suya se recoge para ella, la de Inés no se le atribuye a nadie.
    ana = MOODLE.format("Ana Muñoz Rivas", 4481) + CUADERNO
    suya = del_alumno(cuaderno, "ana.munoz", A_MEDIAS)
    las_dos = {
        ines: ((2026, 11, 20, 11, 0, 0), con_solucion(cuaderno, SOLUCION)),
        ana: ((2026, 11, 20, 10, 0, 0), suya),
    }
    capsys.readouterr()
    assert main(["recoger", str(zip_de(tmp_path / "dos.zip", las_dos)), "--nbgrader", str(curso)]) == 1
    salida = capsys.readouterr()
    assert f"✔ {ana}: → submitted/ana.munoz/" in salida.out and f"✘ {ines}:" in salida.out, salida.out
    assert "duplicada" not in salida.out and "decidas de quién es" in salida.err
    assert entregado(curso, "ana.munoz") == json.dumps(suya).encode()
    assert not (curso / "submitted" / "ines.lopez").exists()


def test_un_numero_de_moodle_que_no_es_de_nadie_no_estorba(release, curso, tmp_path):
    _, cuaderno = release
    moodle = {
        MOODLE.format("Inés López Núñez", 310203) + CUADERNO: ((2026, 11, 20, 10, 0, 0), con_solucion(cuaderno, ""))
    }
    linea = recoge(zip_de(tmp_path / "m.zip", moodle), curso, DESAFIOS)[0]
    assert linea.recogida and linea.alumno == "ines.lopez", linea.motivo


# m2: la zona horaria del curso es la de su nbgrader_config.py.


def test_la_zona_del_curso_sale_de_nbgrader_config_y_manda_sobre_profesor_toml(
    release, curso, tmp_path, monkeypatch, capsys
):
    _, cuaderno = release
    entrada = {"ana.garcia/" + CUADERNO: ((2026, 11, 20, 12, 0, 0), del_alumno(cuaderno, "ana.garcia"))}
    linea = recoge(zip_de(tmp_path / "z.zip", entrada), curso, DESAFIOS)[0]
    assert sello(curso, "ana.garcia") == "2026-11-20 17:00:00.000000 UTC", linea.motivo  # 12:00 en Bogotá
    assert "2026-11-20 12:00:00 America/Bogota (17:00:00 UTC)" in linea.motivo

    # profesor.toml dice otra: se usa la del curso, y se avisa de cuál y por qué.
    ajustes = tmp_path / "profesor.toml"
    ajustes.write_text('zona_horaria = "Europe/Madrid"\n', encoding="utf-8")
    monkeypatch.setenv("CURSO_PROFESOR", str(ajustes))
    otro = curso_nuevo(release, tmp_path / "otro")
    with (otro / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write('\nc.Exchange.timezone = "America/Bogota"\n')
    capsys.readouterr()
    assert main(["recoger", str(zip_de(tmp_path / "z2.zip", entrada)), "--nbgrader", str(otro)]) == 0
    salida = capsys.readouterr()
    assert sello(otro, "ana.garcia") == "2026-11-20 17:00:00.000000 UTC"
    assert "«America/Bogota»" in salida.err and "«Europe/Madrid»" in salida.err, salida.err
    assert "Se usa «America/Bogota», la del curso" in salida.err

    # Sin c.Exchange.timezone, la de profesor.toml, como antes, y sin aviso.
    tercero = curso_nuevo(release, tmp_path / "tercero")
    capsys.readouterr()
    assert main(["recoger", str(zip_de(tmp_path / "z3.zip", entrada)), "--nbgrader", str(tercero)]) == 0
    assert sello(tercero, "ana.garcia") == "2026-11-20 11:00:00.000000 UTC"
    assert "zonas horarias" not in capsys.readouterr().err


# m5: un desafío que este curso no ha repartido no se recoge.


def test_un_desafio_sin_repartir_no_se_recoge(release, curso, tmp_path, capsys):
    _, cuaderno = release
    otro = del_alumno(cuaderno, "ana.garcia")
    otro.metadata["curso"]["desafio"] = "puerta-corregida"
    entrada = zip_de(
        tmp_path / "m.zip",
        {MOODLE.format("Ana García Pérez", 4471) + "puerta-corregida.ipynb": ((2026, 11, 20, 10, 0, 0), otro)},
    )
    assert main(["recoger", str(entrada), "--nbgrader", str(curso)]) == 1
    salida = capsys.readouterr().out
    assert "✘" in salida and "no se ha repartido en este curso" in salida, salida
    assert "release/puerta-corregida/" in salida and "./curso desafio --desafio puerta-corregida" in salida
    assert not (curso / "submitted").exists()
    assert main(["recoger", str(entrada), "--desafio", "puerta-corregida", "--nbgrader", str(curso)]) == 1
    assert "no se ha repartido en este curso" in capsys.readouterr().out


# m3: descargar otra vez lo mismo no es un fallo.


def test_una_descarga_repetida_no_es_un_fallo(release, curso, tmp_path, capsys):
    _, cuaderno = release
    canvas = {
        "garciaperezana_4471_7001_permiso-en-ejecutar.ipynb": (
            (2026, 11, 20, 10, 0, 0),
            con_solucion(cuaderno, SOLUCION),
        ),
        "ortizbernalcamila_late_4477_7007_permiso-en-ejecutar.ipynb": (
            (2026, 11, 21, 10, 0, 0),
            con_solucion(cuaderno, ""),
        ),
    }
    descarga = zip_de(tmp_path / "canvas.zip", canvas)
    assert main(["recoger", str(descarga), "--nbgrader", str(curso)]) == 0
    capsys.readouterr()
    assert main(["recoger", str(descarga), "--nbgrader", str(curso)]) == 0
    salida = capsys.readouterr().out
    assert "✘" not in salida and salida.count("· ") == 2 and "ya estaba recogida" in salida, salida
    assert "Nada nuevo: las 2 entregas ya estaban recogidas." in salida

    # Una descarga posterior con sólo una reentrega cortada: la buena se queda, y se dice.
    buena = entregado(curso, "ana.garcia")
    cortada = {"garciaperezana_4471_7011_permiso-en-ejecutar-1.ipynb": ((2026, 11, 22, 10, 0, 0), '{"cells": [')}
    assert main(["recoger", str(zip_de(tmp_path / "canvas2.zip", cortada)), "--nbgrader", str(curso)]) == 0
    salida = capsys.readouterr().out
    assert "no se puede leer" in salida and "se queda la entrega que ya había de ana.garcia" in salida, salida
    assert "sin cambios" in salida and "Nada nuevo" in salida
    assert entregado(curso, "ana.garcia") == buena
