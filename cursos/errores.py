"""La base de todo error que puede causar quien usa el curso.

Un autor que escribe mal una clave, un profesor que da una ruta que no existe, una entrega
que no se puede leer: son errores de uso, no fallos del programa. Todos derivan de
`ErrorDelCurso` y su mensaje, en español y en una línea, dice qué fichero o qué dato falla y
qué hacer. `cursos.cli.main` los atrapa una sola vez con esta clase: los enseña sin
traceback (con `para_la_orden`) y sale con `CODIGO_DE_SALIDA`. Cualquier otra excepción es un
fallo del curso y se cuenta como tal. Ninguna orden atrapa un error para decirlo de otra
manera: lo que va delante del mensaje lo declara la clase del error (`prefijo`).

Quedan fuera, a propósito, los motivos con los que el banco deja de escuchar al alumno
(`banco.NoDefinida`, `caja.protocolo.SinRespuesta`): son `BaseException` para que el
`except Exception` de una prueba no se los trague, y `protocolo.py` corre en la caja sin
ver el repositorio, así que no puede importar este módulo.
"""

# La salida de argparse con una orden mal escrita: el mismo código para todo error de uso.
CODIGO_DE_SALIDA = 2


class ErrorDelCurso(Exception):
    """Algo que ha escrito o pedido quien usa el curso no se puede usar; el mensaje dice qué corregir."""

    # Lo que no se ha podido hacer, delante del mensaje cuando lo enseña la orden, p. ej.
    # «no se puede recoger»; «{orden}» es la orden que se ha lanzado. Vacío: el mensaje solo.
    prefijo = ""

    def para_la_orden(self, orden: str) -> str:
        """El mensaje tal como lo enseña `curso ORDEN`: con su prefijo, si la clase tiene uno."""
        return f"{self.prefijo.format(orden=orden)}: {self}" if self.prefijo else str(self)


class ErrorDeOrden(ErrorDelCurso):
    """Lo pedido en la línea de órdenes no se puede hacer; el mensaje (una línea en español) dice qué hacer."""
