"""formgrader dice lo que dice el CSV (revisión del profesor: Manage Submissions enseñaba `11 / 10` y
luego `10 / 10` a quien el CSV y `nbgrader export` daban 9 y 8).

Un curso de verdad: la política de retrasos del profesor (un punto por hora), Inés entrega con
1 h 12 min de retraso (2 puntos) y María a tiempo; el profesor les pone 1 punto de crédito extra en
formgrader. El CSV dice 9 y 11 de 10. `./curso formgrader` (JupyterLab con formgrader y la
extensión del curso) tiene que decir «9 / 10 (−2 por retraso, +1 extra)» y «10 / 10 + 1 extra» en las
páginas que mira el profesor, y nunca `11 / 10`; las notas del profesor no se tocan.
"""

import contextlib
import csv
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from datetime import datetime, timedelta
from types import SimpleNamespace

import pytest
from nbgrader.api import Gradebook

from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, VENCE, con_solucion, curso_con_penalizacion_por_hora, exporta

MOODLE = "{}_{}_assignsubmission_file_/permiso-en-ejecutar.ipynb"
CUADERNO = DESAFIO.cuaderno.removesuffix(".ipynb")


@pytest.fixture(scope="module")
def curso(release, tmp_path_factory):
    """Calificado, con el crédito extra del profesor puesto después, y el CSV escrito otra vez."""
    carpeta = tmp_path_factory.mktemp("formgrader")
    with pytest.MonkeyPatch.context() as parche:
        curso = curso_con_penalizacion_por_hora(release, carpeta, parche)
        _, cuaderno = release
        zip_ = carpeta / "moodle.zip"
        with zipfile.ZipFile(zip_, "w") as z:
            for nombre, id_, hora in (
                ("Inés López", 4477, VENCE + timedelta(minutes=72)),
                ("María Sánchez", 4476, VENCE - timedelta(hours=1)),
            ):
                z.writestr(
                    zipfile.ZipInfo(MOODLE.format(nombre, id_), hora.timetuple()[:6]),
                    json.dumps(con_solucion(cuaderno, SOLUCION)),
                )
        assert all(linea.recogida for linea in recoge(zip_, curso, {DESAFIO.slug}))
        califica(curso, DESAFIO, plazo=5.0, progreso=False)
        with Gradebook(url_del_libro(curso)) as libro:  # el profesor, en formgrader
            for alumno in ("ines.lopez", "maria.sanchez"):
                libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, alumno).extra_credit = 1
            libro.db.commit()
        califica(curso, DESAFIO, plazo=5.0, progreso=False)  # el CSV entero, desde el libro
    return curso


def csv_del_curso(curso) -> dict[str, dict]:
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8", newline="") as f:
        return {fila["alumno"]: fila for fila in csv.DictReader(f)}


def navegador_http():
    """Un cliente HTTP con cookies, como un navegador: la clave de la URL se queda en una cookie."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


@contextlib.contextmanager
def curso_formgrader(curso, carpeta, entorno=None):
    """`./curso formgrader` de verdad (con --como-root si se prueba como root): la URL que escribe, su
    base y su clave. Jupyter abre un navegador: aquí, BROWSER=true, uno que no hace nada."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    orden = [sys.executable, "-m", "cursos", "formgrader", "--nbgrader", str(curso), "--puerto", str(puerto)]
    if os.geteuid() == 0:
        orden.append("--como-root")
    registro = carpeta / "stderr.log"  # a un fichero: una tubería sin leer se llena
    with registro.open("w") as errores:
        orden_curso = subprocess.Popen(
            orden,
            cwd=curso,
            env={**os.environ, "BROWSER": "true", **(entorno or {})},
            stdout=subprocess.PIPE,
            stderr=errores,
            text=True,
            start_new_session=True,  # su grupo: al acabar, se para también el Jupyter que lanza
        )
    try:
        primera = orden_curso.stdout.readline()
        url = re.search(r"http://\S+", primera)
        assert url, (primera, registro.read_text())
        url = url.group()
        base, clave = url.split("/formgrader?token=")
        for _ in range(600):  # hasta 60 s para arrancar JupyterLab en una máquina cargada; no es una medida
            try:
                peticion = urllib.request.Request(
                    f"{base}/formgrader/api/status", headers={"Authorization": f"token {clave}"}
                )
                with urllib.request.urlopen(peticion, timeout=20):
                    break
            except OSError:
                assert orden_curso.poll() is None, registro.read_text()[-3000:]
                time.sleep(0.1)
        yield SimpleNamespace(url=url, base=base, clave=clave, primera=primera)
    finally:
        os.killpg(orden_curso.pid, signal.SIGTERM)
        orden_curso.wait(timeout=30)


@pytest.fixture(scope="module")
def formgrader(curso, tmp_path_factory):
    with curso_formgrader(curso, tmp_path_factory.mktemp("jupyter")) as servidor:
        yield servidor


def api(servidor, ruta: str):
    peticion = urllib.request.Request(
        f"{servidor.base}/formgrader/api/{ruta}", headers={"Authorization": f"token {servidor.clave}"}
    )
    with urllib.request.urlopen(peticion, timeout=20) as respuesta:
        return json.loads(respuesta.read())


def test_formgrader_dice_las_horas_en_la_zona_del_curso(curso, formgrader, tmp_path):
    """Sin decírselo, formgrader escribe las horas en UTC; `./curso formgrader` le da la zona del curso."""
    en_utc = {e["student"]: e["display_timestamp"] for e in api(formgrader, f"submissions/{DESAFIO.slug}")}
    ajustes = tmp_path / "profesor.toml"
    ajustes.write_text('zona_horaria = "America/Bogota"\n', encoding="utf-8")
    with curso_formgrader(curso, tmp_path, {"CURSO_PROFESOR": str(ajustes)}) as en_bogota:
        en_bogota = {e["student"]: e["display_timestamp"] for e in api(en_bogota, f"submissions/{DESAFIO.slug}")}
    assert set(en_utc) == set(en_bogota) == {"ines.lopez", "maria.sanchez"}
    for alumno, utc in en_utc.items():
        assert utc.endswith(" UTC") and en_bogota[alumno].endswith(" -05"), (utc, en_bogota[alumno])
        assert datetime.strptime(utc[:19], "%Y-%m-%d %H:%M:%S") - datetime.strptime(
            en_bogota[alumno][:19], "%Y-%m-%d %H:%M:%S"
        ) == timedelta(hours=5)


def filas(pagina) -> list[str]:
    """El texto de cada fila de la tabla de formgrader, cuando ha terminado de cargar."""
    pagina.wait_for_function("() => !document.body.innerText.includes('Loading, please wait')")
    return [f.inner_text() for f in pagina.locator("#main-table tr").all()]


def celda_de_nota(pagina, alumno: str) -> str:
    fila = pagina.locator("#main-table tr", has_text=alumno)
    return fila.locator("td.score").inner_text().strip()


def test_formgrader_dice_la_nota_del_csv_y_nunca_11_de_10(curso, formgrader, navegador):
    tabla = csv_del_curso(curso)
    assert tabla["ines.lopez"]["puntos"] == "9" and tabla["ines.lopez"]["penalizacion"] == "2"
    assert tabla["maria.sanchez"]["puntos"] == "11"
    exportado = exporta(curso)
    assert float(exportado[(DESAFIO.slug, "ines.lopez")]["score"]) == 9
    assert float(exportado[(DESAFIO.slug, "maria.sanchez")]["score"]) == 11
    esperado = {"ines.lopez": "9 / 10 (−2 por retraso, +1 extra)", "maria.sanchez": "10 / 10 + 1 extra"}

    base = formgrader.base
    contexto = navegador.new_context()
    pagina = contexto.new_page()
    pagina.goto(formgrader.url)  # la clave queda en una cookie

    # Manage Submissions: la columna Score.
    pagina.goto(f"{base}/formgrader/manage_submissions/{DESAFIO.slug}")
    vistas = filas(pagina)
    assert len(vistas) == 2
    for alumno, texto in esperado.items():
        assert celda_de_nota(pagina, alumno) == texto, vistas
    assert "11 / 10" not in pagina.inner_text("body")

    # Manual Grading → el cuaderno: la lista de entregas (sin nombres: se busca la fila por su enlace).
    ids = {
        nb["student"]: nb["id"]
        for nb in pagina.request.get(f"{base}/formgrader/api/submitted_notebooks/{DESAFIO.slug}/{CUADERNO}").json()
    }
    pagina.goto(f"{base}/formgrader/gradebook/{DESAFIO.slug}/{CUADERNO}")
    filas(pagina)
    for alumno, texto in esperado.items():
        fila = pagina.locator("#main-table tr", has=pagina.locator(f"a[href$='/submissions/{ids[alumno]}']"))
        assert fila.locator("td.score").inner_text().strip() == texto
        # la columna de código no lleva penalización, pero sí el crédito extra: tampoco «11 / 10»
        assert fila.locator("td.code-score").inner_text().strip() == "10 / 10 + 1 extra"
    assert "11 / 10" not in pagina.inner_text("body")

    # Manual Grading: la media del desafío es la de las notas finales (9 y 11), no la de nbgrader (11,5).
    pagina.goto(f"{base}/formgrader/gradebook")
    filas(pagina)
    media = pagina.locator("#main-table tr", has_text=DESAFIO.slug).locator("td.score")
    assert media.inner_text().strip() == "10 / 10"

    # Manage Students: la suma de sus desafíos.
    pagina.goto(f"{base}/formgrader/manage_students")
    filas(pagina)
    for alumno, texto in esperado.items():
        assert celda_de_nota(pagina, alumno) == texto
    assert "11 / 10" not in pagina.inner_text("body")

    # Los desafíos de cada alumno, y los cuadernos de su entrega.
    for alumno, texto in esperado.items():
        pagina.goto(f"{base}/formgrader/manage_students/{alumno}")
        filas(pagina)
        assert pagina.locator("#main-table tr", has_text=DESAFIO.slug).locator("td.score").inner_text().strip() == texto
        pagina.goto(f"{base}/formgrader/manage_students/{alumno}/{DESAFIO.slug}")
        filas(pagina)
        assert pagina.locator("#main-table td.score").first.inner_text().strip() == texto
        assert "11 / 10" not in pagina.inner_text("body")

    # La vista de calificar de Inés: la nota final arriba; un crédito extra más la pone al día.
    pagina.goto(f"{base}/formgrader/submissions/{ids['ines.lopez']}/")
    nota = pagina.locator("#nota-del-curso-texto")
    nota.wait_for()
    assert nota.inner_text() == esperado["ines.lopez"]
    assert "de nbgrader export" in pagina.inner_text("#nota-del-curso")
    pagina.fill("#prueba_bucle_extra_credit", "2")
    pagina.press("#prueba_bucle_extra_credit", "Tab")  # formgrader guarda al cambiar
    pagina.wait_for_function(
        "() => document.querySelector('#nota-del-curso-texto').innerText === '10 / 10 (−2 por retraso, +2 extra)'"
    )
    contexto.close()

    # Lo que ha escrito el profesor se queda como lo escribió, y el CSV y nbgrader export lo siguen.
    with Gradebook(url_del_libro(curso)) as libro:
        bucle = libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, "ines.lopez")
        assert bucle.extra_credit == 2
    assert float(exporta(curso)[(DESAFIO.slug, "ines.lopez")]["score"]) == 10


@pytest.mark.parametrize(
    ("final", "maximo", "penalizacion", "extra", "texto"),
    [
        (9, 10, 2, 1, "9 / 10 (−2 por retraso, +1 extra)"),
        (11, 10, 0, 1, "10 / 10 + 1 extra"),
        (9, 10, 0, 1, "9 / 10 (+1 extra)"),
        (8, 10, 2, 0, "8 / 10 (−2 por retraso)"),
        (12, 10, 1, 3, "10 / 10 + 2 extra (−1 por retraso, +3 extra)"),
        (9.5, 10, 0.5, 0, "9,5 / 10 (−0,5 por retraso)"),
        (10.25, 10, 0, 0.25, "10 / 10 + 0,25 extra"),
        (0, 10, 10, 0, "0 / 10 (−10 por retraso)"),
    ],
)
def test_la_nota_se_lee_como_en_el_csv(final, maximo, penalizacion, extra, texto):
    from cursos.profesor.libro import nota_en_texto

    assert nota_en_texto(final, maximo, penalizacion, extra) == texto


@pytest.mark.parametrize("final", [10.01, 10.5, 11, 15, 100])
def test_por_encima_del_maximo_nunca_se_lee_mas_que_el_maximo(final):
    from cursos.profesor.libro import nota_en_texto

    texto = nota_en_texto(final, 10, 0, final - 10)
    assert texto.startswith("10 / 10 + ") and texto.endswith(" extra"), texto


def test_cada_pagina_de_formgrader_escribe_la_nota_del_curso():
    """Si una versión nueva de nbgrader cambia la línea de la celda de nota, esta prueba lo dice (la
    extensión serviría entonces el JavaScript de nbgrader tal cual, con su `11 / 10`)."""
    from cursos.profesor.formgrader import PAGINAS, TEXTO, javascript

    for pagina in PAGINAS:
        cambiado = javascript(pagina)
        assert cambiado is not None, pagina
        assert "notaDelCurso(this.model, " in cambiado and not TEXTO.search(cambiado), pagina


def test_curso_formgrader_explica_en_espanol_lo_que_no_puede_hacer(tmp_path, capsys):
    from cursos.cli import main

    assert main(["formgrader", "--nbgrader", str(tmp_path / "no-existe")]) == 2
    assert "no existe la carpeta del curso de nbgrader" in capsys.readouterr().err
    with socket.socket() as ocupado:
        ocupado.bind(("127.0.0.1", 0))
        ocupado.listen()
        puerto = ocupado.getsockname()[1]
        assert main(["formgrader", "--nbgrader", str(tmp_path), "--puerto", str(puerto), "--como-root"]) == 2
    assert f"el puerto {puerto} está ocupado" in capsys.readouterr().err


# formgrader no califica ni escribe devoluciones (revisión del profesor, M4: su «Autograde» cambió un 10
# por un 2), arranca como root si se pide (M5) y escribe la URL con su clave.


def test_curso_formgrader_como_root_sin_la_opcion_para_y_dice_por_que(tmp_path, capsys, monkeypatch):
    from cursos.cli import main

    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(subprocess, "call", lambda *a, **k: pytest.fail("no tenía que lanzar Jupyter"))
    assert main(["formgrader", "--nbgrader", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "estás como root" in error and "añade --como-root" in error and "Running as root" not in error


@pytest.mark.parametrize(("uid", "opcion", "allow_root"), [(0, True, True), (1000, False, False)])
def test_curso_formgrader_pasa_allow_root_solo_con_como_root(tmp_path, capsys, monkeypatch, uid, opcion, allow_root):
    from cursos.cli import main

    lanzado = {}
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    monkeypatch.setattr(subprocess, "call", lambda orden, **k: lanzado.update(orden=orden, **k) or 0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    argumentos = ["formgrader", "--nbgrader", str(tmp_path), "--puerto", str(puerto)]
    assert main(argumentos + ["--como-root"] * opcion) == 0
    assert ("--allow-root" in lanzado["orden"]) == allow_root
    clave = lanzado["env"]["JUPYTER_TOKEN"]
    assert f"http://127.0.0.1:{puerto}/formgrader?token={clave}" in capsys.readouterr().out
    assert not any(clave in parte for parte in lanzado["orden"])  # la orden la ve cualquiera con `ps`


def test_la_url_que_escribe_curso_formgrader_abre_formgrader(formgrader):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/formgrader\?token=[\w-]{30,}", formgrader.url), formgrader.primera
    with navegador_http().open(formgrader.url, timeout=20) as respuesta:
        assert respuesta.status == 200
        assert "/login" not in respuesta.url, respuesta.url
        pagina = respuesta.read().decode()
    assert "Manage Assignments" in pagina and 'id="ordenes-del-curso"' in pagina
    with navegador_http().open(f"{formgrader.base}/formgrader", timeout=20) as respuesta:  # sin clave: no entra
        assert "/login" in respuesta.url


def test_las_paginas_de_formgrader_esconden_autograde_y_generate_feedback(formgrader):
    """Lo que lee el navegador (la prueba con Chromium, abajo, mira que de verdad no se vean)."""
    abre = navegador_http()
    abre.open(formgrader.url, timeout=20).close()
    for pagina, columnas in (
        (f"manage_submissions/{DESAFIO.slug}", ("autograde", "generate-feedback")),
        ("manage_assignments", ("generate-feedback",)),
    ):
        with abre.open(f"{formgrader.base}/formgrader/{pagina}", timeout=20) as respuesta:
            html = respuesta.read().decode()
        assert "td.autograde, td.generate-feedback { display: none; }" in html, pagina
        for columna in columnas:
            assert re.search(rf'<th class="[^"]*\b{columna}">', html), (pagina, columna)
        assert 'id="ordenes-del-curso"' in html and "nbgrader autograde" not in html, pagina


def huella(curso) -> dict:
    """Lo que escriben autograde y generate_feedback de nbgrader, con la fecha de cada fichero."""
    return {f: f.stat().st_mtime_ns for carpeta in ("autograded", "feedback") for f in (curso / carpeta).rglob("*")}


def nota(curso, alumno: str) -> float:
    with Gradebook(url_del_libro(curso)) as libro:
        return libro.find_submission(DESAFIO.slug, alumno).score


def test_formgrader_no_califica_ni_escribe_devoluciones_ni_llamando_a_su_api(curso, formgrader):
    alumno, desafio = "ines.lopez", DESAFIO.slug
    antes, ficheros = nota(curso, alumno), huella(curso)
    assert any("autograded" in f.parts for f in ficheros)  # hay lo que autograde volvería a escribir
    rechazos = {
        f"submission/{desafio}/{alumno}/autograde": f"./curso calificar --desafio {desafio} --alumno {alumno}",
        f"assignment/{desafio}/{alumno}/generate_feedback": f"./curso devolver --desafio {desafio}",
        f"assignment/{desafio}/generate_feedback": f"./curso devolver --desafio {desafio}",
    }
    for ruta, orden in rechazos.items():
        peticion = urllib.request.Request(
            f"{formgrader.base}/formgrader/api/{ruta}",
            data=b"",
            method="POST",
            headers={"Authorization": f"token {formgrader.clave}"},
        )
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(peticion, timeout=60)
        assert error.value.code == 403, ruta
        respuesta = json.loads(error.value.read())
        assert respuesta["success"] is False and orden in respuesta["error"], (ruta, respuesta)
    assert nota(curso, alumno) == antes
    assert huella(curso) == ficheros


def test_formgrader_no_ensena_autograde_ni_generate_feedback(formgrader, navegador):
    contexto = navegador.new_context()
    pagina = contexto.new_page()
    pagina.goto(formgrader.url)

    pagina.goto(f"{formgrader.base}/formgrader/manage_submissions/{DESAFIO.slug}")
    assert len(filas(pagina)) == 2
    assert pagina.locator("td.autograde a").count() == 2  # nbgrader los pinta; no se ven
    for boton in ("td.autograde a", "td.generate-feedback a", "th.autograde", "th.generate-feedback"):
        assert pagina.locator(f"{boton} >> visible=true").count() == 0, boton
    assert pagina.locator(".glyphicon-flash >> visible=true").count() == 0
    assert pagina.locator("td.release-feedback a >> visible=true").count() == 2  # reparte la de ./curso devolver
    # las columnas que se ven siguen en su sitio: tantas cabeceras como celdas
    visibles = "els => els.filter(e => e.offsetParent !== null).length"
    assert pagina.locator("thead th").evaluate_all(visibles) == pagina.locator("#main-table tr").first.locator(
        "td"
    ).evaluate_all(visibles)
    ordenes = pagina.inner_text("#ordenes-del-curso")
    assert f"./curso calificar --desafio {DESAFIO.slug}" in ordenes and "./curso devolver" in ordenes
    assert "nbgrader autograde" not in pagina.inner_text("body")

    pagina.goto(f"{formgrader.base}/formgrader/manage_assignments")
    filas(pagina)
    assert pagina.locator("td.generate-feedback a").count() >= 1
    assert pagina.locator("td.generate-feedback a >> visible=true").count() == 0
    assert pagina.locator("th.generate-feedback >> visible=true").count() == 0
    assert pagina.locator("td.release-feedback a >> visible=true").count() >= 1
    contexto.close()
