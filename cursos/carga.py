"""La línea que carga un módulo del curso en una celda: exec(open("harness.py", encoding="utf-8").read()).

Un solo lector para todos: los cuadernos (qué ficheros tienen que estar al lado), el
calificador (qué líneas sobran en el proceso de confianza, donde los módulos ya están
cargados) y las pruebas. Se reconoce por su árbol de Python, no por cómo empieza la
línea: con sangría, con comillas simples, sin encoding, con un espacio de nombres
(`exec(open("x.py").read(), ns)`) o con un comentario detrás, es la misma línea.
"""

import ast
import functools


@functools.cache
def fichero_cargado(linea: str) -> str | None:
    """El fichero que carga la línea, o None si no es una línea de carga."""
    texto = linea.strip()
    if not texto.startswith("exec"):
        return None  # casi todas: sin analizar
    try:
        arbol = ast.parse(texto)
    except SyntaxError:
        return None
    if len(arbol.body) != 1 or not isinstance(arbol.body[0], ast.Expr):
        return None
    llamada = arbol.body[0].value
    if not (
        isinstance(llamada, ast.Call)
        and isinstance(llamada.func, ast.Name)
        and llamada.func.id == "exec"
        and 1 <= len(llamada.args) <= 2
        and not llamada.keywords
    ):
        return None
    lee = llamada.args[0]  # open(...).read()
    if not (
        isinstance(lee, ast.Call)
        and isinstance(lee.func, ast.Attribute)
        and lee.func.attr == "read"
        and not lee.args
        and not lee.keywords
    ):
        return None
    abre = lee.func.value
    if not (
        isinstance(abre, ast.Call)
        and isinstance(abre.func, ast.Name)
        and abre.func.id == "open"
        and len(abre.args) == 1
        and isinstance(abre.args[0], ast.Constant)
        and isinstance(abre.args[0].value, str)
        and all(k.arg == "encoding" for k in abre.keywords)
    ):
        return None
    return abre.args[0].value


def ficheros_cargados(fuente: str) -> list[str]:
    """Los ficheros que cargan las líneas de carga de la fuente, en orden (con repeticiones)."""
    return [f for f in map(fichero_cargado, fuente.splitlines()) if f is not None]


def sin_cargas(fuente: str) -> str:
    """La fuente sin sus líneas de carga (donde los módulos ya están cargados).

    Una línea de carga con sangría (dentro de un if o una función) se cambia por un pass
    con la misma sangría: quitarla dejaría el bloque vacío, y dejarla volvería a cargar el
    módulo de disco en el proceso de confianza.
    """
    lineas = []
    for linea in fuente.splitlines():
        if fichero_cargado(linea) is None:
            lineas.append(linea)
        elif linea[:1] in (" ", "\t"):
            lineas.append(linea[: len(linea) - len(linea.lstrip())] + "pass")
    return "\n".join(lineas)
