"""Los nombres que comparten las pruebas de los desafíos, el calificador y nbgrader, de una sola fuente.

La fuente es desafios/base.py, que va delante de cada pruebas.py (en la página, en el cuaderno
y en el calificador) y declara los nombres de sus tablas. Aquí se leen de su árbol, sin
ejecutarlo: cambiar un nombre allí lo cambia para todos, y un nombre que falta allí es un
error al importar este módulo, no una prueba que deja de contar.
"""

import ast

from cursos import RAIZ

BASE = RAIZ / "desafios" / "base.py"


def _declarados(fuente: str) -> tuple[dict[str, str], frozenset[str]]:
    """({CONSTANTE: "texto"} de las asignaciones de base.py, los nombres que define en lo más alto)."""
    textos, nombres = {}, set()
    for nodo in ast.parse(fuente).body:
        if isinstance(nodo, ast.Assign):
            for destino in nodo.targets:
                if isinstance(destino, ast.Name):
                    nombres.add(destino.id)
                    if isinstance(nodo.value, ast.Constant) and isinstance(nodo.value.value, str):
                        textos[destino.id] = nodo.value.value
        elif isinstance(nodo, (ast.FunctionDef, ast.ClassDef)):
            nombres.add(nodo.name)
    return textos, frozenset(nombres)


_TEXTOS, DE_LA_BASE = _declarados(BASE.read_text(encoding="utf-8"))

#: La tabla de pruebas.py: {nombre: (puntos, prueba)}.
PRUEBAS = _TEXTOS["TABLA_DE_PRUEBAS"]
#: La tabla de ocultas.py que recibe la prueba de las variaciones.
VARIACIONES = _TEXTOS["TABLA_DE_VARIACIONES"]
#: La tabla de ocultas.py con los casos ocultos de cada prueba (opcional).
PARTES_OCULTAS = _TEXTOS["TABLA_DE_PARTES_OCULTAS"]
#: La prueba que recibe VARIACIONES: nbgrader la esconde y sólo la pasa el calificador.
PRUEBA_DE_VARIACIONES = _TEXTOS["PRUEBA_DE_VARIACIONES"]
#: La clase de una prueba que no pasa, y la de una variación oculta (que sólo dice su pista).
FALLO, VARIACION_OCULTA = "Fallo", "VariacionOculta"
#: Lo único de la base que pruebas.py puede ampliar, y sólo como subclase: class BancoLocal(BancoLocal).
BANCO_LOCAL = "BancoLocal"

#: El grade_id de la celda de cada prueba: prueba_<nombre> (en el cuaderno y en el libro de notas).
PREFIJO_PRUEBA = "prueba_"  # el grade_id de la celda de cada prueba: prueba_<nombre>
# El calificador corre el código del alumno con el mismo Python que la página y JupyterLite
# (Pyodide, 3.14: interprete.py), sin paquetes: sólo la biblioteca estándar.
AVISO_PYTHON = (
    "El calificador corre tu código con el mismo Python que el navegador (Pyodide, Python 3.14), "
    "sólo con la biblioteca estándar: `numpy` y los demás paquetes no están. `display`, "
    "`IPython.display`, `%%writefile` y `%run` funcionan; las órdenes `!` no hacen nada e `input()` "
    "no puede leer nada (lanza `EOFError`). Lo que devuelven tus funciones llega a las pruebas como "
    "JSON: una tupla cuenta como la lista que representa."
)


def id_de_prueba(nombre: str) -> str:
    """El grade_id de la celda de una prueba (en el cuaderno y en el libro de notas)."""
    return PREFIJO_PRUEBA + nombre


def prueba_del_id(grade_id: str) -> str | None:
    """La prueba de la celda con ese grade_id, o None si no es la celda de una prueba."""
    return grade_id.removeprefix(PREFIJO_PRUEBA) if grade_id.startswith(PREFIJO_PRUEBA) else None
