"""El cuaderno del desafío en Pyodide bajo Node: las mismas pruebas dan la misma respuesta inmediata.

Usa el Pyodide fijado del sitio (tests/pyodide_node.py).
"""

from tests.calificador.ayudas import DESAFIO, PROGRAMA_PYODIDE, SOLUCION
from tests.pyodide_node import ejecuta_en_pyodide

ORIGINAL = SOLUCION.split("    ### BEGIN SOLUTION")[0] + SOLUCION.split("    ### END SOLUTION\n")[1]


def test_las_pruebas_visibles_responden_igual_en_pyodide(tmp_path):
    modulos = dict(DESAFIO.modulos())
    modulos |= {"partida.py": DESAFIO.partida(), "pruebas.py": DESAFIO.pruebas()}
    resultados = ejecuta_en_pyodide(modulos, PROGRAMA_PYODIDE, {"soluciones": [SOLUCION, ORIGINAL]}, tmp_path)
    bien, sin_permisos = resultados
    assert all(bien["pasan"].values()), bien["salida"]
    assert "✔ salmorejo" in bien["salida"] and "7 de 7 pruebas visibles pasan" in bien["salida"]
    assert not sin_permisos["pasan"]["salmorejo"] and "✘ salmorejo" in sin_permisos["salida"]
    assert "no se ha ejecutado: el usuario no lo ha permitido" in sin_permisos["salida"]


# Python 3.12+ (PEP 701 y PEP 695): la página lo acepta; test_interprete.py comprueba que el
# calificador, con el mismo Pyodide, le da la nota entera.
MODERNA = (
    'ETIQUETAS = {"permitir": "sí"}\nassert f"{ETIQUETAS["permitir"]}" == "sí"\n'
    "def _igual[T](x: T) -> T:\n    return x\n"
    + SOLUCION.replace("decision = permiso(ll)", "decision = _igual(permiso(ll))")
)


def test_la_pagina_acepta_la_sintaxis_de_su_python(tmp_path):
    modulos = dict(DESAFIO.modulos())
    modulos |= {"partida.py": DESAFIO.partida(), "pruebas.py": DESAFIO.pruebas()}
    (moderna,) = ejecuta_en_pyodide(modulos, PROGRAMA_PYODIDE, {"soluciones": [MODERNA]}, tmp_path)
    assert all(moderna["pasan"].values()), moderna["salida"]
