"""Las lecciones como cuadernos en JupyterLite: se ejecutan enteras, dicen lo que afirman y
los widgets de las preguntas se pintan."""

import pytest

from cursos.manifiesto import leer_curso
from cursos.preguntas import preguntas_de
from cursos.salidas import afirmaciones, fallos
from cursos.sitio.lite import ruta_del_cuaderno
from tests.navegador.ayudas import NUCLEO_LISTO, TODAS_EJECUTADAS

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida (las medidas están en bench/)


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_el_cuaderno_se_ejecuta_en_jupyterlite(pagina, url_raiz, leccion):
    ejecuta_y_comprueba(pagina, url_raiz, leccion)


def test_jupyterlite_bajo_una_subruta(pagina, url_subruta):
    ejecuta_y_comprueba(pagina, url_subruta, CURSO.lecciones[0])


def ejecuta_y_comprueba(pagina, base, leccion):
    pagina.goto(f"{base}lite/notebooks/index.html?path={ruta_del_cuaderno(CURSO, leccion)}")
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(TODAS_EJECUTADAS, timeout=ESPERA)

    celdas = pagina.locator(".jp-Notebook .jp-CodeCell").all()  # la 0 es la de preparación
    errores = [i + 1 for i, c in enumerate(celdas) if c.locator(".jp-OutputArea-output[data-mime-type*=error]").count()]
    assert errores == [], [celdas[i - 1].locator(".jp-Cell-outputArea").inner_text() for i in errores]
    assert "# Preparación" in celdas[0].inner_text()  # su código, plegado (ver test_lite_es.py)
    assert celdas[0].locator(".jp-OutputArea-output").count() == 0  # no falta nada: callada
    for numero, lineas in afirmaciones(leccion).items():
        texto = celdas[numero].locator(".jp-Cell-outputArea").inner_text()
        assert fallos(texto, lineas) == [], f"celda {numero} de {leccion.slug} en JupyterLite"
    if leccion.imagenes:  # la figura de la prosa, servida junto al cuaderno
        pagina.wait_for_function(
            "() => [...document.querySelectorAll('.jp-RenderedMarkdown img')]"
            ".some(i => i.complete && i.naturalWidth > 0)",
            timeout=ESPERA,
        )
    if preguntas_de(leccion):
        # Un widget de ipywidgets pintado por el gestor de widgets, no su repr de texto.
        pagina.wait_for_selector(".jp-OutputArea-output .jupyter-widgets", timeout=ESPERA)
        assert pagina.locator(".jp-OutputArea-output .jupyter-widgets").count() > 0
