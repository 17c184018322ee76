"""«Un comando en la terminal» y «La red» en Pyodide bajo Node: cada celda dice lo que afirma la prosa.

Lo que más depende del intérprete está en estas dos lecciones: shlex, urllib.parse (cómo lee el
host, el usuario o la barra invertida, y los tabuladores que quita) y el códec idna. El navegador
corre Python 3.14; aquí se comprueba que sus salidas son las que salidas.toml afirma.
"""

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos
from tests.ayudas import celdas_de_codigo
from tests.pyodide_node import PROGRAMA_DE_SALIDAS, ejecuta_en_pyodide

CURSO = leer_curso()
MODULOS = {"un-comando-en-la-terminal": "terminal.py", "la-red": "web.py"}

PROGRAMA = PROGRAMA_DE_SALIDAS


@pytest.mark.parametrize("slug", MODULOS)
def test_las_celdas_dicen_en_pyodide_lo_que_afirma_la_prosa(slug, tmp_path):
    leccion = CURSO.leccion(slug)
    nombres = ["guionizado.py", "entorno.py", "harness.py", "lecciones/%s/%s" % (slug, MODULOS[slug])]
    ficheros = {n.split("/")[-1]: (RAIZ / n).read_text(encoding="utf-8") for n in nombres}
    hecho = ejecuta_en_pyodide(ficheros, PROGRAMA, {"celdas": celdas_de_codigo(leccion)}, tmp_path)
    for n, lineas in afirmaciones(leccion).items():
        assert fallos(hecho["salidas"][n - 1], lineas) == [], f"celda {n} de {slug} en Pyodide"
