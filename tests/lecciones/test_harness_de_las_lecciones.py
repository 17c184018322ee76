"""Lo que el bloque 1 enseña en sus celdas es lo que guarda harness.py.

«Los errores» escribe el ejecutar definitivo y «La especificación» acaba con ejecutar y el
bucle enteros; «Permisos y confianza» dice que son los de la lección anterior, ahora cargados
de harness.py. Aquí se comparan, función a función, los árboles sintácticos (docstrings
incluidos, comentarios no) de la última definición de cada una en las celdas con los de harness.py.
"""

import ast

import pytest

from cursos import RAIZ
from cursos.celdas import celdas_de

HARNESS = RAIZ / "harness.py"


def definiciones(fuente: str) -> dict[str, ast.FunctionDef]:
    """La última definición de cada función de nivel superior."""
    return {n.name: n for n in ast.parse(fuente).body if isinstance(n, ast.FunctionDef)}


def de_la_leccion(slug: str) -> dict[str, ast.FunctionDef]:
    finales = {}
    for celda in celdas_de(RAIZ / "lecciones" / slug / "leccion.md"):
        if celda.es_codigo:
            finales.update(definiciones(celda.fuente))
    return finales


@pytest.mark.parametrize(
    ("slug", "nombres"),
    [
        ("los-errores", ["problema_de_llamada", "ejecutar"]),
        ("la-especificacion", ["ejecutar", "llamadas_de", "texto_de", "bucle"]),
    ],
)
def test_las_funciones_finales_son_las_de_harness(slug, nombres):
    harness, leccion = definiciones(HARNESS.read_text(encoding="utf-8")), de_la_leccion(slug)
    for nombre in nombres:
        assert nombre in leccion, f"{slug} no define {nombre}"
        assert ast.dump(leccion[nombre]) == ast.dump(harness[nombre]), f"{nombre} de {slug} no es la de harness.py"


def test_la_comparacion_ve_un_cambio_de_una_letra():
    """La prueba de arriba puede fallar: un mensaje con una letra cambiada ya no es el de harness.py."""
    harness = HARNESS.read_text(encoding="utf-8")
    cambiado = harness.replace('"%s: %s" % (type(e).__name__, e)', '"%s:  %s" % (type(e).__name__, e)')
    assert cambiado != harness
    assert ast.dump(definiciones(cambiado)["ejecutar"]) != ast.dump(definiciones(harness)["ejecutar"])


def test_el_bloque_llega_a_permisos_en_orden():
    """«Permisos y confianza» va justo detrás de «La especificación», y ésta detrás de «Los errores»."""
    from cursos.manifiesto import leer_curso

    slugs = [lec.slug for lec in leer_curso().lecciones]
    i = slugs.index("permisos-y-confianza")
    assert slugs[i - 2 : i] == ["los-errores", "la-especificacion"]
