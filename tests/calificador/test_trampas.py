"""Entregas tramposas, todas en un mismo lote: ninguna gana un punto que no merece y el lote termina.

Cubre las trampas que dieron puntos con `nbgrader autograde` en esta máquina
(DESIGN.md) y otras. Cada una va sobre un ejecutar que no hace nada útil, así
que cualquier punto sería regalado. Los caminos que tocan son los del curso de
usar y tirar, nunca los del repositorio.
"""

import os
import sqlite3
from pathlib import Path

import nbformat
import pytest

from tests.calificador.ayudas import (
    DESAFIO,
    SOLUCION,
    califica_lote,
    con_solucion,
    curso_nuevo,
    entrega,
    genera,
)
from tests.calificador.trampas import CUADERNO, MARCA, procesos_con


@pytest.fixture(scope="module")
def lote(lote_calificado):
    """El lote de este desafío: LOTE, en test_permiso_en_ejecutar.py (honestas, rotas y trampas en un solo lote)."""
    return lote_calificado(DESAFIO.slug)


def test_el_lote_termina_con_todos(lote):
    """Ni el que envenena source/ ni el que mata procesos paran el lote (las notas: test_lotes.py)."""
    assert set(lote["filas"]) == set(lote["alumnos"])


def test_todas_sobre_10(lote):
    assert all(f["maximo"] == 10 for f in lote["filas"].values())


def test_cada_entrega_invalida_dice_por_que(lote):
    motivos = {a: lote["filas"][a]["motivo"] for a in lote["trampas"] if a.startswith("n")}
    # Editar, borrar, mover o cambiar de tipo una celda bloqueada: se restaura y se dice (como nbgrader).
    for alumno, gid in (
        ("n01_prueba_editada", "prueba_salmorejo"),
        ("n02_prueba_borrada", "prueba_denegar"),
        ("n03_prueba_movida", "prueba_nadie"),
        ("n04_prueba_retipada", "prueba_bucle"),
    ):
        assert f"«{gid}»" in motivos[alumno] and "restaurado" in motivos[alumno], motivos[alumno]
    assert "repetida" in motivos["n07_html_en_el_tipo"]
    assert "enlace simbólico" in motivos["n06_enlace_a_otra"]


def test_nada_compartido_cambia(lote, tmp_path_factory):
    """Ni el libro (manual_score), ni source/, ni la red, ni procesos que sobrevivan."""
    curso = lote["curso"]
    with sqlite3.connect(curso / "gradebook.db") as db:
        assert db.execute("SELECT COUNT(*) FROM grade WHERE manual_score IS NOT NULL").fetchone()[0] == 0
    harness = Path("source") / DESAFIO.slug / "harness.py"
    plantilla, _ = genera(tmp_path_factory, DESAFIO)  # el curso del que sale el del lote, sin calificar
    assert (curso / harness).read_bytes() == (plantilla / harness).read_bytes()
    assert lote["conexion"] is None, "el código de un alumno ha llegado a la red"
    assert procesos_con("sleep 7777") == [], "un proceso del alumno ha sobrevivido a la calificación"


def calificado(lote, alumno: str) -> str:
    return (lote["curso"] / "autograded" / alumno / DESAFIO.slug / CUADERNO).read_text(encoding="utf-8")


def test_no_se_lee_nada_de_fuera(lote):
    """Lo que el alumno intenta leer (pruebas ocultas, otras entregas) no existe para él."""
    for alumno in ("t16_lee_las_pruebas_ocultas", "t17_lee_otra_entrega"):
        texto = calificado(lote, alumno)
        assert "No such file or directory" in texto
        # No «VARIACIONES»: desafios/base.py, que va en la celda de pruebas visible, nombra la tabla;
        # «GAZPACHO» y «azafrán» sólo están en ocultas.py.
        assert "GAZPACHO" not in texto and "azafrán" not in texto and MARCA not in texto


def test_la_respuesta_de_las_ocultas_no_las_desvela(lote):
    texto = calificado(lote, "t01_helper_redefinido")
    assert "variación oculta 1 de 6 no pasa" in texto
    assert "gazpacho" not in texto.lower() and "g1" not in texto
    assert "ajoblanco" not in texto.lower()  # la variación del «no», tampoco


def test_lo_que_cita_la_entrega_no_entra_como_html(lote):
    """El motivo cita el cell_type de la entrega: en la respuesta de nbgrader se lee, no se ejecuta."""
    import subprocess
    import sys

    from cursos.profesor.fuente import con_herramientas_del_venv

    con_herramientas_del_venv()
    for alumno in ("n07_html_en_el_tipo", "n08_markdown_en_el_tipo"):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "nbgrader",
                "generate_feedback",
                DESAFIO.slug,
                "--student",
                alumno,
                "--log-level=ERROR",
            ],
            cwd=lote["curso"],
            check=True,
        )
    feedback = lote["curso"] / "feedback"
    texto = (feedback / "n07_html_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "la celda «&lt;img src=x onerror=alert(1)&gt;» está repetida" in texto
    assert "<img" not in texto.replace("&lt;img", ""), "el HTML del alumno ha entrado tal cual"
    texto = (feedback / "n08_markdown_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "fuera.invalid" in texto  # se lee…
    assert "<img" not in texto and 'href="http://fuera.invalid' not in texto  # …pero no es imagen ni enlace


def test_una_carpeta_con_nombre_no_utf8_no_para_el_lote(release, tmp_path):
    """En un curso propio: el formgrader de nbgrader sí la lista, y en el lote descuadraría su prueba."""
    curso = curso_nuevo(release, tmp_path / "curso")
    _, cuaderno = release
    rara = os.path.join(os.fsencode(curso / "submitted"), b"m\xff", os.fsencode(DESAFIO.slug))
    os.makedirs(rara)
    nbformat.write(con_solucion(cuaderno, SOLUCION), os.path.join(os.fsdecode(rara), CUADERNO))
    entrega(curso, "zz_honesta_despues", con_solucion(cuaderno, SOLUCION))
    filas = califica_lote(curso, DESAFIO)
    assert filas["zz_honesta_despues"]["puntos"] == 10
    assert not any(alumno.startswith("m") and not alumno.isascii() for alumno in filas)


def test_lo_que_manda_el_alumno_tiene_tope(lote):
    """Ni una lista enorme ni 150 ficheros de 900 KB: se cortan en el canal, con su motivo."""
    filas = lote["filas"]
    assert "más de 20000 elementos" in filas["t31_lista_enorme"]["motivo"]
    assert "más de 16 MB en total" in filas["t32_escribe_mucho"]["motivo"]
    calificado = lote["curso"] / "autograded" / "t32_escribe_mucho" / DESAFIO.slug / CUADERNO
    assert calificado.stat().st_size < 1 << 20
