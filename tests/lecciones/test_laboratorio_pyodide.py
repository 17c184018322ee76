"""La lección del laboratorio en Pyodide bajo Node: las mismas salidas y la misma evidencia.

Capa intermedia, sin navegador, con el Pyodide fijado del sitio (tests/pyodide_node.py).
"""

import pytest

from cursos import evidencia
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos
from tests.pyodide_node import CELDAS_CON_SALIDAS, ejecuta_en_pyodide

LECCION = leer_curso().leccion("la-propuesta-no-es-el-permiso")

# Ejecuta en Pyodide las celdas de la lección, cada una con su salida capturada, y
# calcula la evidencia completa del laboratorio con el mismo texto canónico que la referencia.
PROGRAMA = (
    CELDAS_CON_SALIDAS
    + """
lab = {}
codigo = {n: open(n, "rb").read() for n in ("harness.py", "laboratorio_puerta.py")}
for n in codigo:
    exec(codigo[n].decode("utf-8"), lab)
evidencia = lab["evidencia"](codigo)
json.dumps({"salidas": salidas,
            "evidencia": json.dumps(evidencia, ensure_ascii=False, indent=1, sort_keys=True) + "\\n"})
"""
)


@pytest.fixture(scope="module")
def en_pyodide(tmp_path_factory):
    celdas = [c.fuente for c in LECCION.celdas() if c.es_codigo]
    ficheros = {ruta.name: ruta.read_text(encoding="utf-8") for ruta in (evidencia.HARNESS, evidencia.LABORATORIO)}
    return ejecuta_en_pyodide(ficheros, PROGRAMA, {"celdas": celdas}, tmp_path_factory.mktemp("pyodide"))


def test_las_celdas_dicen_en_pyodide_lo_que_afirma_la_prosa(en_pyodide):
    for n, lineas in afirmaciones(LECCION).items():
        assert fallos(en_pyodide["salidas"][n - 1], lineas) == [], f"celda {n} en Pyodide"


def test_la_evidencia_en_pyodide_es_identica_a_la_referencia(en_pyodide):
    assert en_pyodide["evidencia"] == evidencia.REFERENCIA.read_text(encoding="utf-8")
