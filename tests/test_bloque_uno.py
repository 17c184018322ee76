"""Lo que las primeras lecciones escriben en sus celdas es lo que el curso usa después.

«Las cuatro herramientas» escribe en sus celdas los bloques, muestra, llamadas_de, texto_de
y el bucle, y dice que son los de harness.py; ejecutar y problema_de_esquema los deja en una
primera versión, y lo dice. Aquí se comparan con harness.py sin contar docstrings ni comentarios.
"""

import ast
import re

from cursos import RAIZ
from cursos.manifiesto import leer_curso

CURSO = leer_curso()
IGUALES = ["llamada", "texto", "resultado", "muestra", "llamadas_de", "texto_de", "bucle"]
PRIMERAS_VERSIONES = ["ejecutar", "problema_de_esquema"]


def funciones(fuente: str) -> dict[str, str]:
    """{nombre: su árbol sin docstring}, de las funciones de primer nivel de un código."""
    encontradas = {}
    for nodo in ast.parse(fuente).body:
        if isinstance(nodo, ast.FunctionDef):
            if ast.get_docstring(nodo) is not None:
                nodo.body = nodo.body[1:]
            encontradas[nodo.name] = ast.dump(nodo)
    return encontradas


def celdas(slug: str) -> str:
    fuente = CURSO.leccion(slug).fuente.read_text(encoding="utf-8")
    return "\n".join(re.findall(r"```python[^\n]*\n(.*?)```", fuente, re.S))  # con o sin etiquetas


def test_las_cuatro_herramientas_escribe_las_piezas_de_harness():
    leccion, harness = funciones(celdas("las-cuatro-herramientas")), funciones((RAIZ / "harness.py").read_text("utf-8"))
    for nombre in IGUALES:
        assert leccion[nombre] == harness[nombre], "%s de la lección no es el de harness.py" % nombre


def test_y_dice_cuales_son_primeras_versiones():
    fuente = celdas("las-cuatro-herramientas")
    leccion, harness = funciones(fuente), funciones((RAIZ / "harness.py").read_text("utf-8"))
    for nombre in PRIMERAS_VERSIONES:
        assert leccion[nombre] != harness[nombre]
        docstring = re.search(r"def %s\(.*?\):\n\s+\"\"\"(.*?)\"\"\"" % nombre, fuente, re.S).group(1)
        assert docstring.startswith("Primera versión"), nombre


# --- El primer agente, Las cuatro herramientas, Los errores (b1a) ---------------------------------
#
# CURSO.md: «Permisos y confianza» es la primera lección que carga harness.py. «Las cuatro
# herramientas» lo dice («a partir de «Permisos y confianza», se carga de un fichero»), y «Los
# errores» escribe en sus celdas lo que necesita, igual que harness.py.


def test_las_lecciones_uno_a_tres_no_cargan_el_harness():
    for slug in ("el-primer-agente", "las-cuatro-herramientas", "los-errores"):
        assert 'open("harness.py"' not in celdas(slug), f"{slug} carga harness.py; lo carga la lección 5"


def test_los_errores_escribe_lo_que_usa_igual_que_harness():
    """Lo que «Los errores» repite y lo que termina escribiendo (ejecutar) es lo de harness.py, sin cambios."""
    leccion, harness = funciones(celdas("los-errores")), funciones((RAIZ / "harness.py").read_text("utf-8"))
    usadas = IGUALES + ["error", "es_del_tipo", "problema_de_esquema", "problema_de_llamada", "ejecutar"]
    distintas = [n for n in usadas if leccion.get(n) != harness[n]]
    assert not distintas, f"«Los errores» no escribe igual que harness.py: {distintas}"
    assert re.search(r'^NO_EJECUTADA = "no se ha ejecutado: "$', celdas("los-errores"), re.M)


def test_el_primer_agente_no_carga_el_harness():
    """El primer agente construye su bucle en celdas: harness.py aún no existe para el alumno."""
    fuente = celdas("el-primer-agente")
    assert "harness.py" not in fuente and "def bucle_de_texto" in fuente and "def lee_accion" in fuente
