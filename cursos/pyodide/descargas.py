"""Lo que comparten las piezas que el sitio descarga o construye (distribucion, bytecode, codemirror).

Aparte para que bytecode.py no tenga que importar distribucion.py, que lo usa a él: sin ciclos.
"""

from cursos import RAIZ
from cursos.errores import ErrorDelCurso

DESCARGAS = RAIZ / "build" / "descargas"


class ErrorDeDistribucion(ErrorDelCurso):
    """Falta una pieza fijada o su huella no cuadra; el mensaje dice cuál."""

    prefijo = "no se ha podido construir el sitio"
