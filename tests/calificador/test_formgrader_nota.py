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
import json
import socket
import subprocess
import time
import urllib.request
import zipfile
from datetime import timedelta

import pytest
from nbgrader.api import Gradebook

from cursos.calificador.calificar import califica
from cursos.calificador.fuente import con_herramientas_del_venv
from cursos.calificador.libro import url_del_libro
from cursos.calificador.recoger import recoge
from cursos.chromium import CHROMIUM, lanza
from tests.calificador.conftest import DESAFIO, SOLUCION, VENCE, con_solucion, curso_con_penalizacion_por_hora, exporta

MOODLE = "{}_{}_assignsubmission_file_/permiso-en-ejecutar.ipynb"
CUADERNO = DESAFIO.cuaderno.removesuffix(".ipynb")
TOKEN = "prueba"


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
        califica(curso, DESAFIO, plazo=5.0, progreso=False, alumno="maria.sanchez")  # el CSV, desde el libro
    return curso


def csv_del_curso(curso) -> dict[str, dict]:
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8", newline="") as f:
        return {fila["alumno"]: fila for fila in csv.DictReader(f)}


@contextlib.contextmanager
def formgrader_del_curso(curso):
    """Lo que arranca `./curso formgrader` (sin abrir el navegador y con una clave fija): la URL base."""
    from cursos.calificador.formgrader import orden_de_jupyter

    con_herramientas_del_venv()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    orden = [
        *orden_de_jupyter(curso, puerto),
        "--no-browser",
        f"--ServerApp.token={TOKEN}",
        "--ServerApp.allow_root=True",
    ]
    servidor = subprocess.Popen(orden, cwd=curso, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{puerto}"
    try:
        for _ in range(600):  # hasta 60 s para arrancar JupyterLab en una máquina cargada; no es una medida
            try:
                peticion = urllib.request.Request(
                    f"{base}/formgrader/api/status", headers={"Authorization": f"token {TOKEN}"}
                )
                with urllib.request.urlopen(peticion, timeout=20):
                    break
            except OSError:
                assert servidor.poll() is None, servidor.stderr.read().decode()[-3000:]
                time.sleep(0.1)
        yield base
    finally:
        servidor.terminate()
        servidor.wait(timeout=30)


@pytest.fixture(scope="module")
def navegador():
    if not CHROMIUM.exists():
        pytest.skip("falta /usr/bin/chromium: ./curso pruebas lo instala con apt-get")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        navegador = lanza(p)
        yield navegador
        navegador.close()


def filas(pagina) -> list[str]:
    """El texto de cada fila de la tabla de formgrader, cuando ha terminado de cargar."""
    pagina.wait_for_function("() => !document.body.innerText.includes('Loading, please wait')")
    return [f.inner_text() for f in pagina.locator("#main-table tr").all()]


def celda_de_nota(pagina, alumno: str) -> str:
    fila = pagina.locator("#main-table tr", has_text=alumno)
    return fila.locator("td.score").inner_text().strip()


def test_formgrader_dice_la_nota_del_csv_y_nunca_11_de_10(curso, navegador):
    tabla = csv_del_curso(curso)
    assert tabla["ines.lopez"]["puntos"] == "9" and tabla["ines.lopez"]["penalizacion"] == "2"
    assert tabla["maria.sanchez"]["puntos"] == "11"
    exportado = exporta(curso)
    assert float(exportado[(DESAFIO.slug, "ines.lopez")]["score"]) == 9
    assert float(exportado[(DESAFIO.slug, "maria.sanchez")]["score"]) == 11
    esperado = {"ines.lopez": "9 / 10 (−2 por retraso, +1 extra)", "maria.sanchez": "10 / 10 + 1 extra"}

    with formgrader_del_curso(curso) as base:
        contexto = navegador.new_context()
        pagina = contexto.new_page()
        pagina.goto(f"{base}/formgrader?token={TOKEN}")  # la clave queda en una cookie

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
            assert (
                pagina.locator("#main-table tr", has_text=DESAFIO.slug).locator("td.score").inner_text().strip()
                == texto
            )
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
    from cursos.calificador.libro import nota_en_texto

    assert nota_en_texto(final, maximo, penalizacion, extra) == texto


@pytest.mark.parametrize("final", [10.01, 10.5, 11, 15, 100])
def test_por_encima_del_maximo_nunca_se_lee_mas_que_el_maximo(final):
    from cursos.calificador.libro import nota_en_texto

    texto = nota_en_texto(final, 10, 0, final - 10)
    assert texto.startswith("10 / 10 + ") and texto.endswith(" extra"), texto


def test_cada_pagina_de_formgrader_escribe_la_nota_del_curso():
    """Si una versión nueva de nbgrader cambia la línea de la celda de nota, esta prueba lo dice (la
    extensión serviría entonces el JavaScript de nbgrader tal cual, con su `11 / 10`)."""
    from cursos.calificador.formgrader import PAGINAS, TEXTO, javascript

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
        assert main(["formgrader", "--nbgrader", str(tmp_path), "--puerto", str(puerto)]) == 2
    assert f"el puerto {puerto} está ocupado" in capsys.readouterr().err
