"""`curso recoger`: de una carpeta o el zip del LMS a submitted/, con un motivo por fichero."""

import copy
import json
import os
import subprocess
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.utils import parse_utc

from cursos import RAIZ
from cursos.profesor.calificar import califica
from cursos.profesor.coloca import FORMATO_HORA
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import EntradaInvalida, escribe_informe, recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, por_alumno

DESAFIOS = {"permiso-en-ejecutar", "puerta-corregida", "identidad-delegada", "acumulador-de-hechos"}


def de_la_pagina(cuaderno, alumno: str | None, descargado: str | None, codigo: str = SOLUCION):
    """Lo que baja «Descargar para entregar»: el repartido con el código y, en metadatos, quién y cuándo."""
    nb = con_solucion(cuaderno, codigo)
    if alumno is not None:
        nb.metadata["curso"]["alumno"] = alumno
    if descargado is not None:
        nb.metadata["curso"]["descargado"] = descargado
    return nb


def escribe(ruta: Path, nb, fecha: str | None = None) -> Path:
    """El cuaderno en ruta; con fecha (ISO, UTC), ésa es la del fichero, como la deja el aula virtual."""
    ruta.parent.mkdir(parents=True, exist_ok=True)
    ruta.write_text(json.dumps(nb), encoding="utf-8")
    if fecha is not None:
        segundos = datetime.fromisoformat(fecha).replace(tzinfo=UTC).timestamp()
        os.utime(ruta, (segundos, segundos))
    return ruta


def por_origen(informe):
    return {linea.origen: linea for linea in informe}


@pytest.fixture
def curso(release, tmp_path):
    return curso_nuevo(release, tmp_path / "curso")


def test_una_carpeta_de_entregas_con_cada_caso_y_su_motivo(release, curso, tmp_path):
    _, cuaderno = release
    entrada = tmp_path / "entregas"
    escribe(
        entrada / "permiso-en-ejecutar.ipynb",
        de_la_pagina(cuaderno, "ana", "2026-11-20T10:00:00.000Z", codigo="def ejecutar(ll, entorno):\n    pass\n"),
        "2026-11-20T10:01:00",
    )
    # La misma alumna vuelve a descargar más tarde: el navegador le cambia el nombre.
    escribe(
        entrada / "permiso-en-ejecutar (1).ipynb",
        de_la_pagina(cuaderno, "ana", "2026-11-20T11:00:00.000Z"),
        "2026-11-20T11:00:30",
    )
    # Bajado de JupyterLite (sin metadatos), en la carpeta del alumno.
    escribe(entrada / "luis" / "permiso-en-ejecutar.ipynb", con_solucion(cuaderno, SOLUCION))
    escribe(entrada / "suelto.ipynb", con_solucion(cuaderno, SOLUCION))  # sin identificador
    otro = de_la_pagina(cuaderno, "eva", "2026-11-30T10:00:00Z")
    otro.metadata["curso"]["desafio"] = "puerta-corregida"
    escribe(entrada / "puerta-corregida.ipynb", otro)
    (entrada / "progreso.json").write_text("{}", encoding="utf-8")
    (entrada / "roto.ipynb").write_text("{no es json", encoding="utf-8")
    escribe(entrada / "malo.ipynb", de_la_pagina(cuaderno, "../../fuera", "2026-11-30T10:00:00Z"))

    informe = recoge(entrada, curso, DESAFIOS, solo=DESAFIO.slug)
    lineas = por_origen(informe)
    texto = escribe_informe(informe)
    assert lineas["permiso-en-ejecutar (1).ipynb"].recogida, texto
    assert "duplicada" in lineas["permiso-en-ejecutar.ipynb"].motivo, texto
    assert "permiso-en-ejecutar (1).ipynb" in lineas["permiso-en-ejecutar.ipynb"].motivo
    assert lineas["luis/permiso-en-ejecutar.ipynb"].recogida, texto
    assert "sin identificador" in lineas["suelto.ipynb"].motivo
    # Un desafío que este curso no ha repartido no se recoge (ni se manda recogerlo con --desafio).
    sin_repartir = lineas["puerta-corregida.ipynb"].motivo
    assert "no se ha repartido en este curso" in sin_repartir and "--desafio puerta-corregida" in sin_repartir
    assert "recógelo" not in sin_repartir
    assert "Descargar mi progreso" in lineas["progreso.json"].motivo
    assert "no se puede leer" in lineas["roto.ipynb"].motivo and "JSON" in lineas["roto.ipynb"].motivo
    assert "no vale como nombre de carpeta" in lineas["malo.ipynb"].motivo
    assert not (curso / "fuera").exists() and not (curso.parent / "fuera").exists()
    assert sorted(p.name for p in (curso / "submitted").iterdir()) == ["ana", "luis"]

    ana = curso / "submitted" / "ana" / DESAFIO.slug
    assert sorted(p.name for p in ana.iterdir() if not p.name.startswith(".")) == [
        DESAFIO.cuaderno,
        "submission_secret.txt",
        "timestamp.txt",
    ]
    sello = (ana / "timestamp.txt").read_text(encoding="utf-8")  # la hora del fichero, no la del navegador
    assert sello == "2026-11-20 11:00:30.000000 UTC" and parse_utc(sello).hour == 11
    # La entrega se copia tal cual (byte a byte), con el nombre que espera nbgrader.
    assert (ana / DESAFIO.cuaderno).read_bytes() == (entrada / "permiso-en-ejecutar (1).ipynb").read_bytes()

    notas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False))
    assert (notas["ana"]["puntos"], notas["luis"]["puntos"]) == (10, 10), notas


def test_nunca_cambia_una_entrega_nueva_por_una_vieja(release, curso, tmp_path):
    _, cuaderno = release
    nueva = escribe(
        tmp_path / "a" / "nueva.ipynb", de_la_pagina(cuaderno, "ana", "2026-11-21T09:00:00Z"), "2026-11-21T09:00:00"
    )
    vieja = escribe(
        tmp_path / "b" / "vieja.ipynb",
        de_la_pagina(cuaderno, "ana", "2026-11-20T09:00:00Z", codigo="def ejecutar(ll, entorno):\n    pass\n"),
        "2026-11-20T09:00:00",
    )
    assert recoge(nueva.parent, curso, DESAFIOS)[0].recogida
    linea = recoge(vieja.parent, curso, DESAFIOS)[0]
    assert not linea.recogida and "ya hay una entrega más nueva" in linea.motivo
    destino = curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno
    assert destino.read_bytes() == nueva.read_bytes()
    assert "ya estaba recogida" in recoge(nueva.parent, curso, DESAFIOS)[0].motivo
    # Y una más nueva sí sustituye a la que había, sin dejar dos cuadernos en la carpeta.
    mas = escribe(
        tmp_path / "c" / "otra-cosa.ipynb", de_la_pagina(cuaderno, "ana", "2026-11-22T09:00:00Z"), "2026-11-22T09:00:00"
    )
    linea = recoge(mas.parent, curso, DESAFIOS)[0]
    assert linea.recogida and "sustituye" in linea.motivo
    assert [p.name for p in destino.parent.glob("*.ipynb")] == [DESAFIO.cuaderno]


def test_el_zip_del_lms_con_un_patron_y_los_alumnos_del_libro(release, curso, tmp_path):
    _, cuaderno = release
    with Gradebook(url_del_libro(curso)) as libro:
        libro.add_student("ana")
        libro.add_student("luis")
    zip_ = tmp_path / "descarga-del-lms.zip"
    with zipfile.ZipFile(zip_, "w") as z:
        # Como lo bajan muchos LMS: una carpeta por alumno con su identificador delante.
        z.writestr("ana_4471_entrega/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
        z.writestr(
            "luis_4472_entrega/mi-copia.ipynb", json.dumps(de_la_pagina(cuaderno, "luis", "2026-11-30T10:00:00Z"))
        )
        z.writestr("zoe_4473_entrega/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
        # Dice ser de otro: con el patrón del profesor, no se recoge.
        z.writestr(
            "eva_4474_entrega/permiso-en-ejecutar.ipynb",
            json.dumps(de_la_pagina(cuaderno, "ana", "2026-11-30T12:00:00Z")),
        )
        z.writestr("__MACOSX/._basura", "x")
    informe = por_origen(recoge(zip_, curso, DESAFIOS, patron=r"(?P<alumno>[^_/]+)_"))
    assert informe["ana_4471_entrega/permiso-en-ejecutar.ipynb"].recogida
    assert informe["luis_4472_entrega/mi-copia.ipynb"].recogida
    assert "alumno desconocido «zoe»" in informe["zoe_4473_entrega/permiso-en-ejecutar.ipynb"].motivo
    conflicto = informe["eva_4474_entrega/permiso-en-ejecutar.ipynb"]
    assert not conflicto.recogida and "«ana»" in conflicto.motivo and "«eva»" in conflicto.motivo
    assert not any("MACOSX" in o for o in informe)
    # Sin hora en el cuaderno, la de su entrada en el zip.
    sello = (curso / "submitted" / "ana" / DESAFIO.slug / "timestamp.txt").read_text(encoding="utf-8")
    with zipfile.ZipFile(zip_) as z:
        fecha = z.getinfo("ana_4471_entrega/permiso-en-ejecutar.ipynb").date_time
    esperada = datetime.fromtimestamp(datetime(*fecha).timestamp(), UTC).replace(tzinfo=None)
    assert parse_utc(sello) == esperada and sello.endswith(" UTC")


def test_entradas_que_no_sirven_dicen_que_hacer(curso, tmp_path):
    with pytest.raises(EntradaInvalida, match="no existe"):
        recoge(tmp_path / "nada", curso, DESAFIOS)
    roto = tmp_path / "roto.zip"
    roto.write_bytes(b"PK\x03\x04 esto no es un zip")
    with pytest.raises(EntradaInvalida, match="zip"):
        recoge(roto, curso, DESAFIOS)
    with pytest.raises(EntradaInvalida, match="no tiene el desafío"):
        recoge(tmp_path, curso, DESAFIOS, solo="otro")
    with pytest.raises(EntradaInvalida, match="expresión regular"):
        recoge(tmp_path, curso, DESAFIOS, patron="(")


def test_la_orden_resuelve_las_rutas_desde_donde_se_ejecuta(release, curso, tmp_path):
    _, cuaderno = release
    escribe(tmp_path / "entregas" / "x.ipynb", de_la_pagina(cuaderno, "ana", "2026-11-30T10:00:00Z"))
    entorno = dict(os.environ, CURSO_DIRECTORIO=str(tmp_path))  # lo exporta ./curso
    orden = [sys.executable, "-m", "cursos", "recoger", "--nbgrader", curso.name]
    hecho = subprocess.run([*orden, "no-hay"], cwd=RAIZ, env=entorno, capture_output=True, text=True)
    assert hecho.returncode == 2 and "no se puede recoger: no existe" in hecho.stderr
    hecho = subprocess.run([*orden, "entregas"], cwd=RAIZ, env=entorno, capture_output=True, text=True)
    assert hecho.returncode == 0, hecho.stderr
    assert "✔ x.ipynb: → submitted/ana/permiso-en-ejecutar/" in hecho.stdout
    assert (curso / "submitted" / "ana" / DESAFIO.slug / "timestamp.txt").is_file()


def test_sin_desafio_cada_cuaderno_va_al_suyo(release, curso, tmp_path):
    _, cuaderno = release
    otro = copy.deepcopy(de_la_pagina(cuaderno, "ana", "2026-11-30T10:00:00Z"))
    otro.metadata["curso"]["desafio"] = "puerta-corregida"
    escribe(tmp_path / "e" / "a.ipynb", otro)
    sin_nada = nbformat.v4.new_notebook()
    escribe(tmp_path / "e" / "ana" / "cualquiera.ipynb", sin_nada)
    (curso / "release" / "puerta-corregida").mkdir()  # repartido en este curso: se recoge
    informe = por_origen(recoge(tmp_path / "e", curso, DESAFIOS))
    assert informe["a.ipynb"].recogida and informe["a.ipynb"].desafio == "puerta-corregida"
    otra_asignatura = informe["ana/cualquiera.ipynb"].motivo
    assert "no es la entrega de ningún desafío de este curso" in otra_asignatura and "se salta" in otra_asignatura
    assert "llámalo" not in otra_asignatura  # renombrarlo lo haría pasar por una entrega
    assert FORMATO_HORA.endswith("UTC")


def test_un_zip_de_la_carpeta_de_entregas_no_hace_alumno_a_la_carpeta(release, curso, tmp_path):
    _, cuaderno = release
    zip_ = tmp_path / "entregas.zip"
    with zipfile.ZipFile(zip_, "w") as z:  # como sale de comprimir la carpeta entera
        z.writestr("entregas/ana/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
        z.writestr("entregas/luis/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
    informe = recoge(zip_, curso, DESAFIOS)
    assert sorted(linea.alumno for linea in informe if linea.recogida) == ["ana", "luis"], escribe_informe(informe)
    # El zip de una sola entrega: su carpeta es la del alumno.
    solo = tmp_path / "eva.zip"
    with zipfile.ZipFile(solo, "w") as z:
        z.writestr("eva/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
    assert [linea.alumno for linea in recoge(solo, curso, DESAFIOS)] == ["eva"]


def sin_marca_utf8(zip_: Path) -> None:
    """Como el zip de Windows o el de Info-ZIP: los nombres en UTF-8 pero sin la marca (bit 11)."""
    datos = bytearray(zip_.read_bytes())
    for firma, posicion in ((b"PK\x03\x04", 7), (b"PK\x01\x02", 9)):
        inicio = datos.find(firma)
        while inicio != -1:
            datos[inicio + posicion] &= ~0x08  # 0x800 es el bit 3 del segundo byte de las banderas
            inicio = datos.find(firma, inicio + 4)
    zip_.write_bytes(bytes(datos))


def test_un_zip_sin_la_marca_utf8_conserva_los_nombres(release, curso, tmp_path):
    _, cuaderno = release
    zip_ = tmp_path / "aula.zip"
    with zipfile.ZipFile(zip_, "w") as z:
        z.writestr("josé/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
        z.writestr("ñoño/niño/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
        z.writestr("luis/permiso-en-ejecutar.ipynb", json.dumps(con_solucion(cuaderno, SOLUCION)))
    sin_marca_utf8(zip_)
    with zipfile.ZipFile(zip_) as z:
        assert "jos├⌐/permiso-en-ejecutar.ipynb" in z.namelist()  # lo que leería Python sin arreglo
    informe = recoge(zip_, curso, DESAFIOS)
    assert sorted(linea.alumno for linea in informe if linea.recogida) == ["josé", "luis", "ñoño"], escribe_informe(
        informe
    )
    assert sorted(linea.origen for linea in informe) == [
        "josé/permiso-en-ejecutar.ipynb",
        "luis/permiso-en-ejecutar.ipynb",
        "ñoño/niño/permiso-en-ejecutar.ipynb",
    ]


def test_la_hora_es_la_del_profesor_y_no_la_del_navegador(release, curso, tmp_path):
    _, cuaderno = release
    # Un reloj adelantado un mes en el navegador: no bloquea la entrega siguiente.
    adelantado = de_la_pagina(cuaderno, "ana", "2027-01-01T00:00:00Z", codigo="def ejecutar(ll, entorno):\n    pass\n")
    primera = escribe(tmp_path / "a" / "ana" / "x.ipynb", adelantado, "2026-11-20T09:00:00")
    linea = recoge(primera.parent.parent, curso, DESAFIOS)[0]
    sello = curso / "submitted" / "ana" / DESAFIO.slug / "timestamp.txt"
    assert linea.recogida and sello.read_text(encoding="utf-8") == "2026-11-20 09:00:00.000000 UTC"
    assert "se descargó el 2027-01-01 00:00:00" in linea.motivo  # se informa de las dos horas
    segunda = escribe(
        tmp_path / "b" / "ana" / "x.ipynb", de_la_pagina(cuaderno, "ana", "2026-11-21T09:00:00Z"), "2026-11-21T09:00:20"
    )
    linea = recoge(segunda.parent.parent, curso, DESAFIOS)[0]
    assert linea.recogida and "sustituye" in linea.motivo, linea.motivo
    assert "descargado" not in linea.motivo  # 20 s de diferencia: no merece nota
    # Un reloj atrasado en el navegador no hace puntual una entrega tardía.
    tarde = escribe(
        tmp_path / "c" / "luis" / "x.ipynb",
        de_la_pagina(cuaderno, "luis", "2026-11-01T09:00:00Z"),
        "2026-11-25T09:00:00",
    )
    linea = recoge(tarde.parent.parent, curso, DESAFIOS)[0]
    assert (
        curso / "submitted" / "luis" / DESAFIO.slug / "timestamp.txt"
    ).read_text() == "2026-11-25 09:00:00.000000 UTC"
    assert "se descargó el 2026-11-01 09:00:00" in linea.motivo


def test_bajado_y_subido_en_el_mismo_segundo_no_es_del_futuro(release, curso, tmp_path):
    """Un zip guarda la hora redondeada a 2 s hacia abajo: el cuaderno dice 09:00:01.6 y el fichero
    09:00:00. No es un reloj mal puesto, y la línea no lo dice."""
    _, cuaderno = release
    nb = de_la_pagina(cuaderno, "ana", "2026-11-20T09:00:01.600Z")
    ruta = escribe(tmp_path / "z" / "ana" / "x.ipynb", nb, "2026-11-20T09:00:00")
    linea = recoge(ruta.parent.parent, curso, DESAFIOS)[0]
    assert linea.recogida and "no se usa" not in linea.motivo and "descargó" not in linea.motivo, linea.motivo
    # --hora alumno: vale la del navegador, que es 1,6 s posterior (no hace puntual nada).
    otra = escribe(
        tmp_path / "y" / "luis" / "x.ipynb",
        de_la_pagina(cuaderno, "luis", "2026-11-20T09:00:01Z"),
        "2026-11-20T09:00:00",
    )
    linea = recoge(otra.parent.parent, curso, DESAFIOS, hora="alumno")[0]
    assert linea.recogida and "no se usa" not in linea.motivo, linea.motivo
    assert (
        curso / "submitted" / "luis" / DESAFIO.slug / "timestamp.txt"
    ).read_text() == "2026-11-20 09:00:01.000000 UTC"


def test_con_hora_alumno_vale_la_del_navegador_salvo_si_es_imposible(release, curso, tmp_path):
    _, cuaderno = release
    # Copiados y sin su fecha: todos con la de hoy; manda «descargado».
    escribe(tmp_path / "e" / "ana" / "x.ipynb", de_la_pagina(cuaderno, "ana", "2026-11-20T09:00:00Z"))
    escribe(tmp_path / "e" / "luis" / "x.ipynb", de_la_pagina(cuaderno, "luis", "2099-01-01T00:00:00Z"))
    informe = por_origen(recoge(tmp_path / "e", curso, DESAFIOS, hora="alumno"))
    assert (
        curso / "submitted" / "ana" / DESAFIO.slug / "timestamp.txt"
    ).read_text() == "2026-11-20 09:00:00.000000 UTC"
    assert "descargado: 2026-11-20" in informe["ana/x.ipynb"].motivo
    # La del futuro no se usa: la fecha del fichero.
    assert "fecha del fichero" in informe["luis/x.ipynb"].motivo and "no se usa" in informe["luis/x.ipynb"].motivo
    sello = parse_utc((curso / "submitted" / "luis" / DESAFIO.slug / "timestamp.txt").read_text())
    assert sello.year == datetime.now(UTC).year
    with pytest.raises(EntradaInvalida, match="--hora"):
        recoge(tmp_path / "e", curso, DESAFIOS, hora="reloj")


def test_a_la_misma_hora_no_es_mas_nueva(release, curso, tmp_path):
    _, cuaderno = release
    primera = escribe(tmp_path / "a" / "ana" / "x.ipynb", de_la_pagina(cuaderno, "ana", None), "2026-11-20T09:00:00")
    otra = escribe(
        tmp_path / "b" / "ana" / "x.ipynb",
        de_la_pagina(cuaderno, "ana", None, codigo="def ejecutar(ll, entorno):\n    pass\n"),
        "2026-11-20T09:00:00",
    )
    assert recoge(primera.parent.parent, curso, DESAFIOS)[0].recogida
    linea = recoge(otra.parent.parent, curso, DESAFIOS)[0]
    assert not linea.recogida and "es la misma hora" in linea.motivo and "más nueva" not in linea.motivo
    assert (curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno).read_bytes() == primera.read_bytes()
    # Dos a la misma hora en una entrada: duplicada «a la misma hora», no «más nueva».
    escribe(tmp_path / "c" / "luis" / "a.ipynb", de_la_pagina(cuaderno, "luis", None), "2026-11-20T09:00:00")
    escribe(tmp_path / "c" / "luis" / "b.ipynb", de_la_pagina(cuaderno, "luis", None), "2026-11-20T09:00:00")
    motivos = [linea.motivo for linea in recoge(tmp_path / "c", curso, DESAFIOS)]
    assert any("a la misma hora" in m for m in motivos) and not any("más nueva" in m for m in motivos), motivos


def test_un_cuaderno_nunca_sustituye_la_entrega_de_otro_por_lo_que_dice(release, curso, tmp_path):
    """Un ordenador compartido: la página recuerda el identificador del anterior (localStorage)."""
    _, cuaderno = release
    a_medias = "def ejecutar(ll, entorno):\n    pass\n"
    # Carpetas con identificador: la de ana y la de carla, con un cuaderno que dice «ana».
    escribe(tmp_path / "e" / "ana" / "x.ipynb", de_la_pagina(cuaderno, "ana", None), "2026-11-20T09:00:00")
    escribe(tmp_path / "e" / "carla" / "x.ipynb", de_la_pagina(cuaderno, "ana", None, a_medias), "2026-11-20T10:00:00")
    informe = por_origen(recoge(tmp_path / "e", curso, DESAFIOS))
    assert informe["ana/x.ipynb"].recogida
    motivo = informe["carla/x.ipynb"].motivo
    assert not informe["carla/x.ipynb"].recogida and "«ana»" in motivo and "«carla»" in motivo
    ana = curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno
    assert ana.read_bytes() == (tmp_path / "e" / "ana" / "x.ipynb").read_bytes()
    assert not (curso / "submitted" / "carla").exists()
    # Y lo mismo en otra recogida posterior, más nueva: no sustituye.
    escribe(tmp_path / "f" / "carla" / "x.ipynb", de_la_pagina(cuaderno, "ana", None, a_medias), "2026-11-21T10:00:00")
    assert not recoge(tmp_path / "f", curso, DESAFIOS)[0].recogida
    assert ana.read_bytes() == (tmp_path / "e" / "ana" / "x.ipynb").read_bytes()


def test_carpetas_con_nombre_completo_que_dicen_ser_del_mismo_alumno(release, curso, tmp_path):
    _, cuaderno = release
    a_medias = "def ejecutar(ll, entorno):\n    pass\n"
    # Como Moodle: «Nombre Apellidos_id_assignsubmission_file_»; con eso no se sabe el identificador.
    moodle = "{}_{}_assignsubmission_file_/permiso-en-ejecutar.ipynb"
    escribe(
        tmp_path / "e" / moodle.format("Ana García", 11), de_la_pagina(cuaderno, "ana", None), "2026-11-20T09:00:00"
    )
    escribe(
        tmp_path / "e" / moodle.format("Luis Pérez", 12), de_la_pagina(cuaderno, "luis", None), "2026-11-20T09:00:00"
    )
    informe = por_origen(recoge(tmp_path / "e", curso, DESAFIOS))
    assert all(linea.recogida for linea in informe.values()), escribe_informe(list(informe.values()))
    guardada = (curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno).read_bytes()
    # Otra descarga del aula: Carla entregó en el ordenador de Ana y su cuaderno dice «ana».
    escribe(
        tmp_path / "f" / moodle.format("Ana García", 11), de_la_pagina(cuaderno, "ana", None), "2026-11-21T09:00:00"
    )
    escribe(
        tmp_path / "f" / moodle.format("Carla Ruiz", 13),
        de_la_pagina(cuaderno, "ana", None, a_medias),
        "2026-11-21T10:00:00",
    )
    informe = recoge(tmp_path / "f", curso, DESAFIOS)
    assert not any(linea.recogida for linea in informe), escribe_informe(informe)
    assert all("conflicto" in linea.motivo and "«ana»" in linea.motivo for linea in informe)
    assert any("Carla Ruiz" in linea.motivo for linea in informe)
    # Lo que ya estaba en submitted/ no se toca.
    assert (curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno).read_bytes() == guardada
    # En una recogida sola, la carpeta de Carla no sustituye a la de Ana ya recogida.
    escribe(
        tmp_path / "g" / moodle.format("Carla Ruiz", 13),
        de_la_pagina(cuaderno, "ana", None, a_medias),
        "2026-11-22T10:00:00",
    )
    linea = recoge(tmp_path / "g", curso, DESAFIOS)[0]
    assert not linea.recogida and "conflicto" in linea.motivo and "Ana García" in linea.motivo
    assert (curso / "submitted" / "ana" / DESAFIO.slug / DESAFIO.cuaderno).read_bytes() == guardada


def _curso(*argumentos, cwd=RAIZ, entorno=None):
    return subprocess.run(
        [sys.executable, "-m", "cursos", *argumentos], cwd=cwd, env=entorno, capture_output=True, text=True
    )


def test_los_mensajes_de_las_opciones_en_espanol():
    for valor in ("abc", "0", "-1", "nan"):
        hecho = _curso("calificar", "--plazo", valor)
        assert hecho.returncode == 2 and "--plazo" in hecho.stderr, hecho.stderr
        assert "argument" not in hecho.stderr and "invalid" not in hecho.stderr, hecho.stderr
        assert "segundos" in hecho.stderr and len(hecho.stderr.strip().splitlines()) == 1, hecho.stderr
    hecho = _curso("servir", "--puerto", "x")
    assert hecho.returncode == 2 and "argument" not in hecho.stderr and "--puerto" in hecho.stderr


def test_un_patron_sin_el_grupo_del_alumno_no_vale(curso, tmp_path):
    with pytest.raises(EntradaInvalida, match=r"\(\?P<alumno>"):
        recoge(tmp_path, curso, DESAFIOS, patron=r"([^_/]+)_")


def test_sin_nada_recogido_la_orden_acaba_con_1_y_lo_dice(release, curso, tmp_path):
    _, cuaderno = release
    escribe(tmp_path / "entregas" / "suelto.ipynb", con_solucion(cuaderno, SOLUCION))  # sin identificador
    entorno = dict(os.environ, CURSO_DIRECTORIO=str(tmp_path))
    hecho = _curso("recoger", "--nbgrader", curso.name, "entregas", entorno=entorno)
    assert hecho.returncode == 1 and "no se ha recogido ninguna entrega" in hecho.stderr, hecho.stderr
    hecho = _curso("recoger", "--nbgrader", curso.name, "entregas", "--patron", "(?P<otro>.*)", entorno=entorno)
    assert hecho.returncode == 2 and "grupo del alumno" in hecho.stderr, hecho.stderr
    # Repetir una recogida ya hecha no es un error.
    escribe(tmp_path / "otra" / "ana" / "x.ipynb", con_solucion(cuaderno, SOLUCION))
    assert _curso("recoger", "--nbgrader", curso.name, "otra", entorno=entorno).returncode == 0
    hecho = _curso("recoger", "--nbgrader", curso.name, "otra", entorno=entorno)
    assert hecho.returncode == 0 and "ya estaba recogida" in hecho.stdout, hecho.stderr
