"""Ejecuta las celdas de una lección en Pyodide, como lo haría un cuaderno.

Todas las celdas comparten un espacio de nombres; la última expresión de una celda se
muestra, como en Jupyter; y un error sale como el traceback de Python, sin las líneas de
este ejecutor, que no son del alumno. Lo carga recursos/trabajador.mjs.
"""

import ast
import contextlib
import linecache
import traceback

espacio = {"__name__": "__main__"}


class Flujo:
    """sys.stdout o sys.stderr de la celda: cada escritura va directa a la página."""

    def __init__(self, nombre, escribe):
        self.nombre, self.escribe = nombre, escribe

    def write(self, texto):
        self.escribe(self.nombre, texto)
        return len(texto)

    def flush(self):
        pass


def ejecuta(codigo, nombre, escribe):
    """Ejecuta una celda; True si ha ido bien. escribe(flujo, texto) recibe su salida."""
    # Así el traceback puede enseñar la línea de la celda que ha fallado.
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)
    errores = Flujo("error", escribe)
    with contextlib.redirect_stdout(Flujo("salida", escribe)), contextlib.redirect_stderr(errores):
        try:
            _ejecuta(codigo, nombre)
            return True
        except BaseException as e:  # también SystemExit: el alumno tiene que verlo
            traceback.print_exception(type(e), e, _sin_ejecutor(e.__traceback__), file=errores)
            return False


def _ejecuta(codigo, nombre):
    arbol = ast.parse(codigo, nombre)
    ultima = arbol.body.pop() if arbol.body and isinstance(arbol.body[-1], ast.Expr) else None
    exec(compile(arbol, nombre, "exec"), espacio)
    if ultima is not None:
        valor = eval(compile(ast.Expression(ultima.value), nombre, "eval"), espacio)
        if valor is not None:
            print(repr(valor))


def _sin_ejecutor(tb):
    while tb is not None and tb.tb_frame.f_globals is globals():
        tb = tb.tb_next
    return tb
