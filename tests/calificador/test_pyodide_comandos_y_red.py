"""Los dos desafíos de «Comandos y red» en Pyodide bajo Node: la misma respuesta inmediata que en CPython.

Lo que más depende del intérprete: shlex y urllib.parse (que quita tabuladores y saltos de la URL)
tienen que estar en la biblioteca estándar de Pyodide y leer igual.
"""

import pytest

from cursos.desafio import Desafio
from tests.calificador.ayudas import PROGRAMA_PYODIDE
from tests.pyodide_node import ejecuta_en_pyodide

CASOS = {  # desafío: (una solución a medias, la prueba que pierde)
    "permiso-de-comando": ("def permiso_de_comando(orden, lectura):\n    return permiso_por_argv(orden)\n", "opciones"),
    "decide-peticion": ("def decide_peticion(url, ejecucion):\n    return decide_por_host(url, ejecucion)\n", "fuga"),
}


@pytest.mark.parametrize("slug", CASOS)
def test_las_pruebas_visibles_responden_igual_en_pyodide(tmp_path, slug):
    desafio = Desafio(slug)
    a_medias, pierde = CASOS[slug]
    modulos = dict(desafio.modulos()) | {"partida.py": desafio.partida(), "pruebas.py": desafio.pruebas()}
    bien, mal = ejecuta_en_pyodide(
        modulos, PROGRAMA_PYODIDE, {"soluciones": [desafio.lee("solucion.py"), a_medias]}, tmp_path
    )
    visibles = [p for p in desafio.puntos() if p != "variaciones"]
    assert all(bien["pasan"].values()), bien["salida"]
    assert f"{len(visibles)} de {len(visibles)} pruebas visibles pasan" in bien["salida"]
    assert not mal["pasan"][pierde] and f"✘ {pierde}" in mal["salida"], mal["salida"]
