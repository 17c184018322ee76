"""La base de todo error que puede causar quien usa el curso.

Un autor que escribe mal una clave, un profesor que da una ruta que no existe, una entrega
que no se puede leer: son errores de uso, no fallos del programa. Todos derivan de
`ErrorDelCurso` y su mensaje, en español y en una línea, dice qué fichero o qué dato falla y
qué hacer. `cursos.cli.main` los atrapa una sola vez con esta clase: los enseña sin
traceback y sale con `CODIGO_DE_SALIDA`. Cualquier otra excepción es un fallo del curso y se
cuenta como tal.

Quedan fuera, a propósito, los motivos con los que el banco deja de escuchar al alumno
(`banco.NoDefinida`, `caja.protocolo.SinRespuesta`): son `BaseException` para que el
`except Exception` de una prueba no se los trague, y `protocolo.py` corre en la caja sin
ver el repositorio, así que no puede importar este módulo.
"""

# La salida de argparse con una orden mal escrita: el mismo código para todo error de uso.
CODIGO_DE_SALIDA = 2


class ErrorDelCurso(Exception):
    """Algo que ha escrito o pedido quien usa el curso no se puede usar; el mensaje dice qué corregir."""
