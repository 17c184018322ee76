"""El protocolo entre el calificador (banco.py, de confianza) y el proceso del alumno (hijo.py, aislado).

Una línea JSON por mensaje. Aquí están los nombres de los mensajes y de las marcas, una
sola vez para los dos lados, y las excepciones con que el lado de confianza dice qué ha
pasado (el tipo decide; el texto sólo se enseña). Sólo biblioteca estándar y sin importar
nada: en la caja no se ve el repositorio, así que aislamiento.py manda este texto delante
del de hijo.py (ver programa_del_hijo).

Arranque: aislamiento.py pasa al proceso, como argumento JSON, {[TAPAR], [CARPETA], LIMITES,
  [UID, GID], [INTERPRETE]} (claves de Arranque). El canal llega por la entrada y la salida
  estándar y el proceso lo pasa enseguida a los descriptores 3 y 4.
Inicio (confianza → alumno): {MODULOS: [[nombre, texto]], CELDAS: [...], FUNCIONES: [...]}
  y el alumno contesta {LISTO: true, ERRORES: [...], SINTAXIS: [[celda, mensaje, línea]],
  VERSION: "3.14.2", DEFINIDAS: [...]}.
Orden: {LLAMA: nombre o marca de función, ARGS, KWARGS, [CON_ARGUMENTOS], [DATOS], [APODERADOS],
  [HERRAMIENTAS]}; el alumno contesta {DEVUELVE: valor, [ARGUMENTOS]} o {EXCEPCION: [tipo, texto]},
  y entre medias puede pedir {PIDE: Pide.*, NOMBRE, ARGS, KWARGS}, que se contesta con
  {VALOR: valor} o {LANZA: [tipo, args]}.
"""

SIN_CPU = 77  # código de salida del alumno al agotar su CPU: se distingue de una caída


class Arranque:
    """Las claves de la configuración con que arranca el proceso del alumno (su argumento JSON)."""

    TAPAR, CARPETA, LIMITES, UID, GID = "tapar", "carpeta", "limites", "uid", "gid"
    INTERPRETE = "interprete"  # un diccionario con las claves de Interprete: el código del alumno, en Pyodide


class Interprete:
    """Las claves de Arranque.INTERPRETE: con qué node y qué Pyodide corre el código del alumno."""

    NODE, CARPETA, OPCIONES = "node", "carpeta", "opciones"
    INSTANTANEA = "instantanea"  # el nombre del fichero, en CARPETA: el intérprete con hijo.py ya cargado


class Clave:
    """Las claves de los mensajes."""

    MODULOS, CELDAS, FUNCIONES = "modulos", "celdas", "funciones"
    LISTO, ERRORES, DEFINIDAS, SINTAXIS, VERSION = "listo", "errores", "definidas", "sintaxis", "version"
    LLAMA, ARGS, KWARGS, CON_ARGUMENTOS = "llama", "args", "kwargs", "con_argumentos"
    DATOS, APODERADOS, HERRAMIENTAS = "datos", "apoderados", "herramientas"
    DEVUELVE, ARGUMENTOS, EXCEPCION = "devuelve", "argumentos", "excepcion"
    PIDE, NOMBRE, VALOR, LANZA = "pide", "nombre", "valor", "lanza"


class Pide:
    """Qué pide el alumno al otro lado, y qué lectura del entorno."""

    APODERADO, HERRAMIENTA, ENTORNO = "apoderado", "herramienta", "entorno"
    LEE, CUANTOS, CLAVES, CONTIENE, TODO = "lee", "cuantos", "claves", "contiene", "todo"


class Marca:
    """Lo que no viaja como valor: el entorno de ejecutar (se queda en el calificador), una función
    del alumno (se queda en su proceso, viaja su número) y lo que no es JSON."""

    ENTORNO, FUNCION, NO_ES_JSON = "entorno_de_ejecutar", "funcion_del_alumno", "no_es_json"


ENTORNO = {Marca.ENTORNO: True}  # cómo viaja el entorno de la mesa


def es_funcion(valor) -> bool:
    """¿Es la marca de una función que ha devuelto el alumno?"""
    return isinstance(valor, dict) and set(valor) == {Marca.FUNCION} and isinstance(valor[Marca.FUNCION], int)


class SinRespuesta(BaseException):
    """El proceso del alumno no contesta o se le deja de escuchar. Cada subclase es un motivo (tipo).

    BaseException y no Exception: el `except Exception` de una prueba (que convierte en un
    Fallo lo que lanza el alumno) no debe tragárselo y decir que ha sido un error de lógica.
    """

    tipo = "caida"


class Caida(SinRespuesta):
    """El proceso del alumno ha terminado o no ha arrancado."""


class SinCPU(SinRespuesta):
    """Ha gastado su tiempo de CPU."""

    tipo = "cpu"


class SinReloj(SinRespuesta):
    """Ha pasado el plazo de reloj sin gastar su CPU."""

    tipo = "reloj"


class Rechazo(SinRespuesta):
    """Ha mandado algo que no se acepta (demasiado grande, mal formado, desconocido)."""

    tipo = "rechazo"
