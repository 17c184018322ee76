"""El proceso que corre el código del alumno. Sólo biblioteca estándar: se pasa entero con -c.

Con protocolo.py delante: aislamiento.programa_del_hijo cambia la línea que lo importa por
su texto (en la caja no se ve el repositorio).

Lo único que hace es llamar a las funciones del alumno que le pidan (ejecutar,
puerta...) con argumentos JSON y devolver lo que devuelven. Lo que esas funciones
llaman y vive en el calificador (permiso, preguntar, las funciones de las
herramientas) son apoderados: cada llamada se la pregunta al proceso de confianza
por el canal (una línea JSON por mensaje) y éste cuenta, ejecuta sobre su entorno
y contesta. Nada de lo que diga este proceso es una nota: son sólo respuestas.

Si arranca como root (dentro de los espacios de nombres que ha creado unshare),
primero se encierra: tapa las carpetas con datos, pone límites y se hace nobody.
"""

import builtins
import ctypes
import importlib
import importlib.util
import json
import os
import re
import resource
import signal
import sys
import types
from collections.abc import Mapping

from cursos.calificador.caja.protocolo import ENTORNO, SIN_CPU, Arranque, Clave, Marca, Pide  # PROTOCOLO

MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
PR_SET_NO_NEW_PRIVS = 38


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def tapa(carpetas):
    """Monta un tmpfs vacío encima de cada carpeta: dentro no se ve nada de lo que había."""
    libc = _libc()
    for carpeta in carpetas:
        if os.path.isdir(carpeta):
            if libc.mount(b"tmpfs", carpeta.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                          b"size=4m,mode=1777") != 0:
                raise OSError(ctypes.get_errno(), "no se puede tapar " + carpeta)
    # Un /proc nuevo: sólo los procesos de este espacio de nombres.
    libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)


def limita(limites):
    for nombre, valor in limites.items():
        if nombre == "RLIMIT_CPU":
            # Al llegar al límite blando, SIGXCPU: se sale con SIN_CPU para que el motivo lo diga.
            # Si el alumno quita el manejador, el duro (un segundo después) lo mata igual.
            signal.signal(signal.SIGXCPU, lambda *_: os._exit(SIN_CPU))
            resource.setrlimit(resource.RLIMIT_CPU, (valor, valor + 1))
        else:
            resource.setrlimit(getattr(resource, nombre), (valor, valor))


def hazte(uid, gid):
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


class Canal:
    def __init__(self):
        # El canal es una copia de la salida estándar; la salida estándar de verdad
        # pasa a ser la de errores, para que los print del alumno no se mezclen.
        self.entrada = os.fdopen(0, "rb", buffering=0)
        self.salida = os.fdopen(os.dup(1), "wb", buffering=0)
        os.dup2(2, 1)
        self.resto = b""

    def envia(self, mensaje):
        self.salida.write(json.dumps(mensaje, default=_marca).encode() + b"\n")

    def recibe(self):
        while b"\n" not in self.resto:
            trozo = self.entrada.read(65536)
            if not trozo:
                raise SystemExit(0)
            self.resto += trozo
        linea, self.resto = self.resto.split(b"\n", 1)
        return json.loads(linea)


FUNCIONES = []  # lo que han devuelto las funciones del alumno y se puede llamar


def _marca(objeto):
    """Lo que no es JSON viaja como una marca: el otro lado no lo ejecuta.

    Una función (la herramienta que devuelve crear_herramienta_perfil) se queda aquí
    y viaja su número: el otro lado puede pedir que se llame, aquí.
    """
    if objeto is ENTORNO_REMOTO:
        return dict(ENTORNO)
    if callable(objeto):
        FUNCIONES.append(objeto)
        return {Marca.FUNCION: len(FUNCIONES) - 1}
    return {Marca.NO_ES_JSON: type(objeto).__name__}


class EntornoRemoto(Mapping):
    """El entorno que recibe ejecutar: los ficheros viven en el otro proceso.

    Se lee como el diccionario que representa (len, in, [], get, keys, values, items,
    iteración, ==, bool, repr, copy...): cada lectura se la pregunta al proceso de
    confianza. Escribir se hace, como en la lección, con las funciones de las herramientas.
    """

    def _pide(self, operacion, *args):
        return apoderado(CANAL[0], Pide.ENTORNO, operacion)(*args)

    def __getitem__(self, ruta):
        return self._pide(Pide.LEE, ruta)

    def __len__(self):
        return self._pide(Pide.CUANTOS)

    def __iter__(self):
        return iter(self._pide(Pide.CLAVES))

    def __contains__(self, ruta):
        return isinstance(ruta, str) and self._pide(Pide.CONTIENE, ruta)

    def todo(self):
        return self._pide(Pide.TODO)

    def keys(self):
        return self.todo().keys()

    def values(self):
        return self.todo().values()

    def items(self):
        return self.todo().items()

    def copy(self):
        return self.todo()

    def __eq__(self, otro):
        return self.todo() == (otro.todo() if isinstance(otro, EntornoRemoto) else otro)

    __hash__ = None

    def __or__(self, otro):
        return self.todo() | otro

    def __ror__(self, otro):
        return otro | self.todo()

    def __repr__(self):
        return repr(self.todo())

    def __setitem__(self, ruta, contenido):
        raise TypeError("en el calificador, el entorno que recibe ejecutar sólo se lee: los ficheros se cambian "
                        "con las funciones de las herramientas, como en la lección")

    __delitem__ = __setitem__


ENTORNO_REMOTO = EntornoRemoto()
CANAL = []  # el canal, para el entorno remoto


class _IPythonMudo:
    """Lo que devuelve get_ipython(): las órdenes de IPython no hacen nada aquí (ni !, ni %pip, ni nombre?).

    Salvo las que sólo miden o capturan (%time, %timeit, %%capture...): corren su código una vez,
    como en Jupyter, para que lo que definen exista.
    """

    CORREN = {"time", "timeit", "capture", "prun"}
    QUEDA = {"time", "capture"}  # como en IPython: lo que asignan se queda; lo de %timeit y %prun, no

    def __init__(self, g):
        self.user_ns = g

    def _corre(self, nombre, codigo):
        if nombre in self.CORREN:
            exec(compile(codigo, "<%" + nombre + ">", "exec"), self.user_ns, None if nombre in self.QUEDA else {})

    def run_line_magic(self, nombre, linea, *args, **kwargs):
        self._corre(nombre, re.sub(r"^\s*(-[A-Za-z]\s*\d*\s+)*", "", linea))  # %timeit -n 1 -r 1 f()

    def run_cell_magic(self, nombre, linea, celda, *args, **kwargs):
        if nombre in ("writefile", "file"):
            self._escribe(linea, celda)
        self._corre(nombre, celda)

    @staticmethod
    def _escribe(linea, celda):
        """%%writefile [-a] nombre: el fichero queda en la carpeta de trabajo y se puede importar."""
        partes = linea.split()
        anade = "-a" in partes or "--append" in partes
        nombres = [p for p in partes if not p.startswith("-")]
        if not nombres:
            return
        with open(nombres[0].strip("'\""), "a" if anade else "w", encoding="utf-8") as f:
            f.write(celda)
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        importlib.invalidate_caches()

    def system(self, *args, **kwargs):
        return None

    def getoutput(self, *args, **kwargs):
        return []

    def __getattr__(self, nombre):
        return lambda *args, **kwargs: None


def del_cuaderno(g):
    """Lo que un núcleo de Jupyter da a cada celda: display, get_ipython, In y Out."""
    ipython = _IPythonMudo(g)

    def display(*objetos, **kwargs):
        for objeto in objetos:
            print(repr(objeto))
    g.update(display=display, get_ipython=lambda: ipython, In=[""], Out={})
    _ipython_de_mentira(display, lambda: ipython)


class _Mostrable:
    """Markdown("…"), HTML("…")…: en el cuaderno se pintan; aquí sólo se guardan."""

    def __init__(self, data=None, *args, **kwargs):
        self.data = data

    def __repr__(self):
        return "<%s>" % type(self).__name__


MOSTRABLES = ("Markdown", "HTML", "Latex", "Math", "JSON", "Image", "SVG", "Javascript", "Code", "Pretty",
              "FileLink", "Audio", "Video", "IFrame")


def _ipython_de_mentira(display, get_ipython):
    """`from IPython.display import display, Markdown` funciona como en el cuaderno (sin IPython instalado)."""
    if importlib.util.find_spec("IPython") is not None:
        return
    ipython = types.ModuleType("IPython")
    pantalla = types.ModuleType("IPython.display")
    pantalla.display = display
    pantalla.clear_output = lambda *args, **kwargs: None
    for nombre in MOSTRABLES:
        setattr(pantalla, nombre, type(nombre, (_Mostrable,), {}))
    ipython.display, ipython.get_ipython = pantalla, get_ipython
    sys.modules.update({"IPython": ipython, "IPython.display": pantalla})


def excepcion(tipo, args):
    clase = getattr(builtins, tipo, None)
    if not (isinstance(clase, type) and issubclass(clase, Exception)):
        clase = type(tipo, (Exception,), {})
    return clase(*args)


def apoderado(canal, que, nombre):
    def pide(*args, **kwargs):
        canal.envia({Clave.PIDE: que, Clave.NOMBRE: nombre, Clave.ARGS: args, Clave.KWARGS: kwargs})
        respuesta = canal.recibe()
        if Clave.LANZA in respuesta:
            raise excepcion(*respuesta[Clave.LANZA])
        return respuesta[Clave.VALOR]
    return pide


def instala(g, canal, orden):
    """Los datos y apoderados que pide esta orden, en los globales del alumno (sobre los suyos, si los hay)."""
    g.update(orden.get(Clave.DATOS, {}))
    for nombre in orden.get(Clave.APODERADOS, []):
        g[nombre] = apoderado(canal, Pide.APODERADO, nombre)
    if Clave.HERRAMIENTAS in orden:
        g["HERRAMIENTAS"] = {n: {"description": "", "input_schema": e,
                                 "funcion": apoderado(canal, Pide.HERRAMIENTA, n)}
                             for n, e in orden[Clave.HERRAMIENTAS].items()}


def argumento(valor):
    """La marca del entorno vuelve a ser el entorno de ejecutar; lo demás llega tal cual."""
    return ENTORNO_REMOTO if valor == ENTORNO else valor


def llamable(g, que):
    """Una función del alumno por su nombre, o una de las que ha devuelto por su número."""
    if isinstance(que, dict):
        return FUNCIONES[que[Marca.FUNCION]]
    return g[que]


def atiende(canal, g, orden):
    instala(g, canal, orden)
    try:
        funcion = llamable(g, orden[Clave.LLAMA])
        args = [argumento(a) for a in orden[Clave.ARGS]]
        valor = funcion(*args, **orden.get(Clave.KWARGS, {}))
        if orden.get(Clave.CON_ARGUMENTOS):  # una función que cambia sus argumentos: también cómo han quedado
            canal.envia({Clave.DEVUELVE: valor, Clave.ARGUMENTOS: args})
        else:
            canal.envia({Clave.DEVUELVE: valor})
    except BaseException as e:  # también SystemExit: la función no debe terminar el proceso
        canal.envia({Clave.EXCEPCION: tipo_y_texto(e)})


def definidas(g, de_partida):
    """Las funciones que el alumno ha dejado definidas: un llamable con ese nombre que no es el de partida.

    Da igual cómo (def con decoradores, un objeto con __call__, functools.partial, lambda).
    """
    return [nombre for nombre, antes in de_partida.items()
            if callable(g.get(nombre)) and g.get(nombre) is not antes]


def tipo_y_texto(e):
    try:
        return [type(e).__name__, str(e)]
    except BaseException:  # una excepción cuyo str también lanza
        return [type(e).__name__, "(sin texto)"]


def describe(e):
    return "%s: %s" % tuple(tipo_y_texto(e))


def main():
    config = json.loads(sys.argv[1])
    if config.get(Arranque.TAPAR) is not None:
        tapa(config[Arranque.TAPAR])
        os.chdir("/tmp")  # un tmpfs propio
    elif config.get(Arranque.CARPETA):
        os.chdir(config[Arranque.CARPETA])
    limita(config.get(Arranque.LIMITES, {}))
    canal = Canal()
    CANAL.append(canal)
    inicio = canal.recibe()  # viene del lado de confianza
    # Como en el cuaderno: los módulos al lado, el código de partida y después el del alumno
    # (en el primer desafío, con el permiso y el usuario de la lección). Sólo al final,
    # en cada orden, entran los apoderados. Los módulos se escriben antes de dejar de ser root
    # y quedan de sólo lectura: en un /tmp con sticky bit, nobody no puede cambiarlos ni
    # borrarlos para volver a cargar otro harness.py con la línea de carga del curso.
    for nombre, fuente in inicio[Clave.MODULOS]:
        with open(nombre, "w", encoding="utf-8") as f:
            f.write(fuente)
        os.chmod(nombre, 0o444)
    if config.get(Arranque.UID) is not None:
        hazte(config[Arranque.UID], config[Arranque.GID])
    g = {"__name__": "__main__", "__builtins__": builtins}
    del_cuaderno(g)
    errores = []
    for n, fuente in enumerate(inicio[Clave.CELDAS]):
        if n == 1:  # tras el código de partida: lo que ya estaba no lo ha definido el alumno
            de_partida = {nombre: g.get(nombre) for nombre in inicio.get(Clave.FUNCIONES, [])}
        try:
            exec(compile(fuente, "<celda %d>" % n, "exec"), g)
        except BaseException as e:
            errores.append("celda %d: %s" % (n, describe(e)))
    canal.envia({Clave.LISTO: True, Clave.ERRORES: errores, Clave.DEFINIDAS: definidas(g, de_partida if len(
        inicio[Clave.CELDAS]) > 1 else {})})
    while True:
        atiende(canal, g, canal.recibe())


if __name__ == "__main__":
    main()
