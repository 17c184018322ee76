"""«Cadenas peligrosas» e «Identidad delegada» en Pyodide bajo Node: las salidas que afirma la prosa.

Capa intermedia, sin navegador, con el Pyodide fijado del sitio (tests/pyodide_node.py). Importa
sobre todo en «Cadenas peligrosas»: su filtro de salida cambia el ejecutar global durante un paso
(global ejecutar), y eso tiene que decidir igual en el navegador que en CPython.
"""

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos
from tests.pyodide_node import PROGRAMA_DE_SALIDAS, ejecuta_en_pyodide

CURSO = leer_curso()
MODULOS = ["guionizado.py", "entorno.py", "harness.py", "lecciones/cadenas-peligrosas/cadenas.py"]

PROGRAMA = PROGRAMA_DE_SALIDAS


@pytest.fixture(scope="module", params=["cadenas-peligrosas", "identidad-delegada"])
def en_pyodide(request, tmp_path_factory):
    leccion = CURSO.leccion(request.param)
    celdas = [c.fuente for c in leccion.celdas() if c.es_codigo]
    ficheros = {ruta.rsplit("/", 1)[-1]: (RAIZ / ruta).read_text(encoding="utf-8") for ruta in MODULOS}
    return leccion, ejecuta_en_pyodide(ficheros, PROGRAMA, {"celdas": celdas}, tmp_path_factory.mktemp("pyodide"))


def test_las_celdas_dicen_en_pyodide_lo_que_afirma_la_prosa(en_pyodide):
    leccion, resultado = en_pyodide
    for n, lineas in afirmaciones(leccion).items():
        assert fallos(resultado["salidas"][n - 1], lineas) == [], f"{leccion.slug}, celda {n} en Pyodide"
