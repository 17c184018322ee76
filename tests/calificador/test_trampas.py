"""Entregas tramposas, todas en un mismo lote: ninguna gana un punto que no merece y el lote termina.

Cubre las trampas que dieron puntos con `nbgrader autograde` en esta máquina
(DESIGN.md) y otras. Cada una va sobre un ejecutar que no hace nada útil, así
que cualquier punto sería regalado. Los caminos que tocan son los del curso de
usar y tirar, nunca los del repositorio.
"""

import copy
import os
import sqlite3

import nbformat
import pytest

from tests.calificador.conftest import (
    DESAFIO,
    SOLUCION,
    califica_lote,
    con_solucion,
    curso_nuevo,
    entrega,
    escucha_la_red,
)
from tests.calificador.trampas import CUADERNO, MARCA, NADA, procesos_con, trampas


def cuadernos_tramposos(cuaderno) -> dict[str, nbformat.NotebookNode]:
    """Trampas en el cuaderno mismo: metadatos y celdas de prueba."""
    def cambia(funcion):
        nb = con_solucion(cuaderno, NADA)
        funcion(nb)
        return nb

    def celda(nb, gid):
        return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == gid)

    def prueba_editada(nb):
        celda(nb, "prueba_salmorejo").source = "print('✔ salmorejo')"

    def prueba_borrada(nb):
        nb.cells.remove(celda(nb, "prueba_denegar"))

    def prueba_movida(nb):
        c = celda(nb, "prueba_nadie")
        nb.cells.remove(c)
        nb.cells.insert(1, c)

    def prueba_retipada(nb):
        c = celda(nb, "prueba_bucle")
        c.cell_type = "markdown"
        c.pop("outputs", None)
        c.pop("execution_count", None)

    def puntos_inflados(nb):
        extra = copy.deepcopy(celda(nb, "prueba_bucle"))
        extra.metadata["nbgrader"].update(grade_id="prueba_extra", points=100)
        extra.source, extra.id = "pass", "extra"
        nb.cells.append(extra)
        celda(nb, "ejecutar").metadata["nbgrader"].update(grade=True, points=50)

    def repetida_con(gid):
        def cambia_(nb):  # dos celdas del alumno con el mismo grade_id, que el motivo cita
            for texto in ("1", "2"):
                nb.cells.append(nbformat.v4.new_code_cell(texto, metadata={"nbgrader": {"grade_id": gid}}))
        return cambia_

    html_en_el_tipo = repetida_con("<img src=x onerror=alert(1)>")
    markdown_en_el_tipo = repetida_con("![r](http://fuera.invalid/p.png) [enlace](http://fuera.invalid)")

    return {"n07_html_en_el_tipo": cambia(html_en_el_tipo), "n08_markdown_en_el_tipo": cambia(markdown_en_el_tipo),
            "n01_prueba_editada": cambia(prueba_editada), "n02_prueba_borrada": cambia(prueba_borrada),
            "n03_prueba_movida": cambia(prueba_movida), "n04_prueba_retipada": cambia(prueba_retipada),
            "n05_puntos_inflados": cambia(puntos_inflados)}


@pytest.fixture(scope="module")
def lote(release, tmp_path_factory):
    curso = curso_nuevo(release, tmp_path_factory.mktemp("trampas") / "curso")
    _, cuaderno = release
    entrega(curso, "aa_honesta", con_solucion(cuaderno, SOLUCION + "\n# " + MARCA + "\n"))
    with escucha_la_red() as red:
        codigos = trampas(curso, red["puerto"])
        for alumno, codigo in codigos.items():
            entrega(curso, alumno, con_solucion(cuaderno, codigo))
        for alumno, nb in cuadernos_tramposos(cuaderno).items():
            entrega(curso, alumno, nb)
        enlace = curso / "submitted" / "n06_enlace_a_otra" / DESAFIO.slug
        enlace.mkdir(parents=True)
        (enlace / CUADERNO).symlink_to(curso / "submitted" / "aa_honesta" / DESAFIO.slug / CUADERNO)
        rara = os.path.join(os.fsencode(curso / "submitted"), b"m\xff", os.fsencode(DESAFIO.slug))
        os.makedirs(rara)
        nbformat.write(con_solucion(cuaderno, SOLUCION), os.path.join(os.fsdecode(rara), CUADERNO))
        entrega(curso, "zz_honesta_despues", con_solucion(cuaderno, SOLUCION))
        fuente = (curso / "source" / DESAFIO.slug / "harness.py").read_text(encoding="utf-8")
        filas = califica_lote(curso, DESAFIO)
    return {"curso": curso, "filas": filas, "alumnos": [*codigos, *cuadernos_tramposos(cuaderno),
                                                        "n06_enlace_a_otra"],
            "conexion": red["conexion"], "fuente": fuente}


def test_hay_al_menos_25_trampas(lote):
    assert len(lote["alumnos"]) >= 25


def test_el_lote_termina_con_todos(lote):
    assert set(lote["filas"]) == {*lote["alumnos"], "aa_honesta", "zz_honesta_despues"}


def test_las_honestas_siguen_teniendo_la_nota_entera(lote):
    """Ni el que envenena source/ ni el que mata procesos cambian la nota de los demás."""
    for alumno in ("aa_honesta", "zz_honesta_despues"):
        assert lote["filas"][alumno]["puntos"] == 10, lote["filas"][alumno]["motivo"]


def test_ninguna_trampa_gana_puntos(lote):
    regaladas = {a: lote["filas"][a] for a in lote["alumnos"] if lote["filas"][a]["puntos"] != 0}
    assert not regaladas, regaladas
    assert all(f["maximo"] == 10 for f in lote["filas"].values())


def test_cada_entrega_invalida_dice_por_que(lote):
    motivos = {a: lote["filas"][a]["motivo"] for a in lote["alumnos"] if a.startswith("n")}
    # Editar, borrar, mover o cambiar de tipo una celda bloqueada: se restaura y se dice (como nbgrader).
    for alumno, gid in (("n01_prueba_editada", "prueba_salmorejo"), ("n02_prueba_borrada", "prueba_denegar"),
                        ("n03_prueba_movida", "prueba_nadie"), ("n04_prueba_retipada", "prueba_bucle")):
        assert f"«{gid}»" in motivos[alumno] and "restaurado" in motivos[alumno], motivos[alumno]
    assert "repetida" in motivos["n07_html_en_el_tipo"]
    assert "enlace simbólico" in motivos["n06_enlace_a_otra"]


def test_nada_compartido_cambia(lote):
    """Ni el libro (manual_score), ni source/, ni la red, ni procesos que sobrevivan."""
    curso = lote["curso"]
    with sqlite3.connect(curso / "gradebook.db") as db:
        assert db.execute("SELECT COUNT(*) FROM grade WHERE manual_score IS NOT NULL").fetchone()[0] == 0
    assert (curso / "source" / DESAFIO.slug / "harness.py").read_text(encoding="utf-8") == lote["fuente"]
    assert lote["conexion"] is None, "el código de un alumno ha llegado a la red"
    assert procesos_con("sleep 7777") == [], "un proceso del alumno ha sobrevivido a la calificación"


def calificado(lote, alumno: str) -> str:
    return (lote["curso"] / "autograded" / alumno / DESAFIO.slug / CUADERNO).read_text(encoding="utf-8")


def test_no_se_lee_nada_de_fuera(lote):
    """Lo que el alumno intenta leer (pruebas ocultas, otras entregas) no existe para él."""
    for alumno in ("t16_lee_las_pruebas_ocultas", "t17_lee_otra_entrega"):
        texto = calificado(lote, alumno)
        assert "No such file or directory" in texto
        assert "VARIACIONES" not in texto and "azafrán" not in texto and MARCA not in texto


def test_la_respuesta_de_las_ocultas_no_las_desvela(lote):
    texto = calificado(lote, "t01_helper_redefinido")
    assert "variación oculta 1 de 4 no pasa" in texto
    assert "gazpacho" not in texto.lower() and "g1" not in texto


def test_lo_que_cita_la_entrega_no_entra_como_html(lote):
    """El motivo cita el cell_type de la entrega: en la respuesta de nbgrader se lee, no se ejecuta."""
    import subprocess
    import sys

    from cursos.calificador.fuente import con_herramientas_del_venv

    con_herramientas_del_venv()
    for alumno in ("n07_html_en_el_tipo", "n08_markdown_en_el_tipo"):
        subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", DESAFIO.slug, "--student",
                        alumno, "--log-level=ERROR"], cwd=lote["curso"], check=True)
    feedback = lote["curso"] / "feedback"
    texto = (feedback / "n07_html_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "la celda «&lt;img src=x onerror=alert(1)&gt;» está repetida" in texto
    assert "<img" not in texto.replace("&lt;img", ""), "el HTML del alumno ha entrado tal cual"
    texto = (feedback / "n08_markdown_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "fuera.invalid" in texto  # se lee…
    assert "<img" not in texto and 'href="http://fuera.invalid' not in texto  # …pero no es imagen ni enlace


def test_una_carpeta_con_nombre_no_utf8_no_para_el_lote(lote):
    assert lote["filas"]["zz_honesta_despues"]["puntos"] == 10
    assert not any(alumno.startswith("m") and not alumno.isascii() for alumno in lote["filas"])


def test_lo_que_manda_el_alumno_tiene_tope(lote):
    """Ni una lista enorme ni 150 ficheros de 900 KB: se cortan en el canal, con su motivo."""
    filas = lote["filas"]
    assert "más de 20000 elementos" in filas["t31_lista_enorme"]["motivo"]
    assert "más de 16 MB en total" in filas["t32_escribe_mucho"]["motivo"]
    calificado = lote["curso"] / "autograded" / "t32_escribe_mucho" / DESAFIO.slug / CUADERNO
    assert calificado.stat().st_size < 1 << 20
