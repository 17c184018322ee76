"""Ejecuta las celdas de una lección en Pyodide, como lo haría un cuaderno.

Todas las celdas comparten un espacio de nombres; la última expresión de una celda se
muestra, como en Jupyter; y un error sale como el traceback de Python, sin las líneas de
este ejecutor, que no son del alumno. Lo carga recursos/trabajador.mjs.
"""

import ast
import contextlib
import io
import json
import linecache
import pathlib
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


def comprueba_desafio(peticion, escribe):
    """Pasa las pruebas visibles del desafío; devuelve el JSON de {prueba: pasa} o "null".

    peticion (JSON): desafio, archivos {nombre: texto}, partida, codigo (el del alumno) y
    pruebas. Corre en su propia carpeta y su propio espacio de nombres: los ficheros del
    desafío (p. ej. el laboratorio sin la función que escribe el alumno) no pisan los de la
    lección, y las celdas de la lección no cambian lo que ven las pruebas.
    """
    datos = json.loads(peticion)
    carpeta = pathlib.Path(".desafios", datos["desafio"]).resolve()
    carpeta.mkdir(parents=True, exist_ok=True)
    for nombre, texto in datos["archivos"].items():
        (carpeta / nombre).write_text(texto, encoding="utf-8")
    propio = {"__name__": "__main__"}
    errores = Flujo("error", escribe)
    with contextlib.chdir(carpeta), contextlib.redirect_stderr(errores):
        try:
            # La partida imprime la traza de la lección: aquí sólo distraería de las pruebas.
            with contextlib.redirect_stdout(io.StringIO()):
                _ejecuta_en(datos["partida"], "<código de partida>", propio)
            with contextlib.redirect_stdout(Flujo("salida", escribe)):
                _ejecuta_en(datos["codigo"], "<tu código>", propio)
                _ejecuta_en(datos["pruebas"], "<pruebas.py>", propio)
                return json.dumps(propio["comprueba_todas"]())
        except BaseException as e:  # un error en su código: que vea el traceback, como en una celda
            traceback.print_exception(type(e), e, _sin_ejecutor(e.__traceback__), file=errores)
            return "null"


def _ejecuta_en(codigo, nombre, espacio_propio):
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)
    exec(compile(codigo, nombre, "exec"), espacio_propio)


def _ejecuta(codigo, nombre):
    arbol = ast.parse(codigo, nombre)
    ultima = arbol.body.pop() if arbol.body and isinstance(arbol.body[-1], ast.Expr) else None
    exec(compile(arbol, nombre, "exec"), espacio)
    if ultima is not None:
        valor = eval(compile(ast.Expression(ultima.value), nombre, "eval"), espacio)
        if valor is not None:
            print(repr(valor))


def _sin_ejecutor(tb):
    """El traceback desde la primera línea que no es de este ejecutor ni de lo que él llama para
    compilar (ast.parse): un SyntaxError se lee sin «File "ast.py", line 46, in parse» delante."""
    while tb is not None and (tb.tb_frame.f_globals is globals() or tb.tb_frame.f_globals is vars(ast)):
        tb = tb.tb_next
    return tb
