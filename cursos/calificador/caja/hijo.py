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
primero se encierra: tapa las carpetas con datos, pone límites, se hace un usuario sin
privilegios propio de este proceso y filtra las llamadas al llavero del núcleo.

Dos intérpretes: si la configuración trae INTERPRETE, este programa (en el Python de la
máquina) sólo encierra el proceso y se convierte en Node con el Pyodide del navegador,
que vuelve a correr este mismo programa (principal_pyodide): el código del alumno corre
en el Python que usó el alumno. Si no, lo corre aquí mismo (main).
"""

import builtins
import importlib
import importlib.util
import json
import marshal
import os
import re
import sys
import types

from cursos.calificador.caja.protocolo import ENTORNO, SIN_CPU, Arranque, Clave, Interprete, Marca, Pide  # PROTOCOLO

MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC = 2, 4, 8, 1, 32, 4096, 16384
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
ENTRADA, SALIDA = 3, 4  # los descriptores del canal: la entrada estándar del alumno no es el canal
DENTRO = "/tmp/interprete"  # donde se ve, dentro de la caja, la carpeta del intérprete (sólo lectura)


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _monta(libc, origen, destino, tipo, opciones, datos=None):
    import ctypes

    if libc.mount(origen, destino.encode(), tipo, opciones, datos) != 0:
        raise OSError(ctypes.get_errno(), "no se puede montar " + destino)


def tapa(carpetas, interprete=None):
    """Monta un tmpfs vacío encima de cada carpeta: dentro no se ve nada de lo que había.

    interprete: una carpeta que se ve después en DENTRO, de sólo lectura (Node y Pyodide).
    """
    libc = _libc()
    origen = os.open(interprete, os.O_PATH | os.O_DIRECTORY) if interprete else None
    for carpeta in carpetas:
        if os.path.isdir(carpeta):
            _monta(libc, b"tmpfs", carpeta, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=4m,mode=1777")
    # Un /proc nuevo: sólo los procesos de este espacio de nombres.
    libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    if origen is not None:
        os.mkdir(DENTRO, 0o755)
        _monta(libc, ("/proc/self/fd/%d" % origen).encode(), DENTRO, None, MS_BIND | MS_REC)
        _monta(libc, None, DENTRO, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        os.close(origen)


def limita(limites):
    import resource
    import signal

    for nombre, valor in limites.items():
        if nombre == "RLIMIT_CPU":
            # Al llegar al límite blando, SIGXCPU: se sale con SIN_CPU para que el motivo lo diga.
            # Si el alumno quita el manejador, el duro (un segundo después) lo mata igual. Node, el
            # primer proceso de su espacio de procesos, no recibe SIGXCPU (no tiene manejador): muere
            # con el duro, y el otro lado lo reconoce porque ha gastado al menos el blando.
            signal.signal(signal.SIGXCPU, lambda *_: os._exit(SIN_CPU))
            resource.setrlimit(resource.RLIMIT_CPU, (valor, valor + 1))
        else:
            resource.setrlimit(getattr(resource, nombre), (valor, valor))


def hazte(uid, gid):
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


# El llavero del núcleo (add_key, request_key, keyctl) no lo aísla ningún espacio de nombres de
# los que se crean, ni el cambio de usuario: lo que una entrega guarda en él lo leería la
# siguiente. Ningún código del curso lo usa, así que esas llamadas devuelven EPERM.
LLAVERO = {
    0xC000003E: (248, 249, 250, 0x40000000 | 248, 0x40000000 | 249, 0x40000000 | 250),  # x86_64 (y x32)
    0x40000003: (286, 287, 288),  # i386, también desde un x86_64
    0xC00000B7: (217, 218, 219),
}  # aarch64


def _filtro_del_llavero():
    """El programa BPF de seccomp: por cada arquitectura, EPERM a sus llamadas del llavero."""
    LD_W_ABS, JEQ, RET = 0x20, 0x15, 0x06
    PERMITE, EPERM = 0x7FFF0000, 0x00050000 | 1
    programa = []
    for arquitectura, llamadas in LLAVERO.items():
        programa.append((LD_W_ABS, 0, 0, 4))  # seccomp_data.arch
        programa.append((JEQ, 0, len(llamadas) + 3, arquitectura))  # otra: salta este bloque
        programa.append((LD_W_ABS, 0, 0, 0))  # seccomp_data.nr
        for n, llamada in enumerate(llamadas):
            programa.append((JEQ, len(llamadas) - n, 0, llamada))  # a la instrucción EPERM
        programa.append((RET, 0, 0, PERMITE))
        programa.append((RET, 0, 0, EPERM))
    programa.append((RET, 0, 0, PERMITE))
    return programa


def filtra_el_llavero():
    """Instala el filtro (hace falta no_new_privs, que pone hazte). Se hereda en exec: también en Node."""
    import ctypes

    class Instruccion(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]

    class Programa(ctypes.Structure):
        _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(Instruccion))]

    instrucciones = _filtro_del_llavero()
    tabla = (Instruccion * len(instrucciones))(*[Instruccion(*i) for i in instrucciones])
    programa = Programa(len(instrucciones), tabla)
    libc = _libc()
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(programa), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "no se puede filtrar el llavero del núcleo")


def separa_el_canal():
    """El canal pasa de la entrada y la salida estándar a ENTRADA y SALIDA; 0, 1 y 2 son /dev/null.

    Así input() del alumno no lee (ni se come) los mensajes del calificador: lanza EOFError
    enseguida, como un cuaderno sin entrada.
    """
    os.dup2(0, ENTRADA)
    os.dup2(1, SALIDA)
    nulo = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(nulo, fd)
    os.close(nulo)


class Canal:
    """Una línea JSON por mensaje, por ENTRADA y SALIDA (en CPython)."""

    def __init__(self):
        self.resto = b""

    def escribe(self, datos):
        while datos:
            datos = datos[os.write(SALIDA, datos) :]

    def lee(self):
        return os.read(ENTRADA, 65536)

    def envia(self, mensaje):
        self.escribe(a_json(mensaje).encode() + b"\n")

    def recibe(self):
        while b"\n" not in self.resto:
            trozo = self.lee()
            if not trozo:
                raise SystemExit(0)
            self.resto += trozo
        linea, self.resto = self.resto.split(b"\n", 1)
        return json.loads(linea)


class CanalDeNode(Canal):
    """El mismo canal desde Pyodide: lanzador.mjs lee y escribe los descriptores por nosotros."""

    def __init__(self, node):
        super().__init__()
        self.node = node

    def escribe(self, datos):
        self.node.escribe(datos.decode("utf-8"))

    def lee(self):
        trozo = self.node.lee()
        return trozo.encode("utf-8") if trozo else b""


FUNCIONES = []  # lo que han devuelto las funciones del alumno y se puede llamar
_JSON_EN_C = json.encoder.c_make_encoder  # sirve() lo quita para el alumno (ver allí); el canal lo guarda


def a_json(mensaje):
    """El mensaje en JSON, el mismo texto que json.dumps(mensaje, default=_marca).

    Con el codificador de json en C si marshal lo acepta: marshal sólo admite los tipos exactos
    (ni subclases, ni el entorno remoto, ni funciones), y con ellos los dos codificadores dan lo mismo
    sin correr código del alumno. El de Python era casi la mitad de la CPU de una entrega en Pyodide.
    Si el de C no puede (un ciclo, una clave que no vale...), el de Python, que dice por qué.
    """
    if _JSON_EN_C is not None:
        try:
            marshal.dumps(mensaje)
            codifica = _JSON_EN_C(
                {}, _marca, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True
            )
            return "".join(codifica(mensaje, 0))
        except Exception:
            pass
    return json.dumps(mensaje, default=_marca)


def _marca(objeto):
    """Lo que no es JSON viaja como una marca: el otro lado no lo ejecuta.

    Una función (la herramienta que devuelve crear_herramienta_perfil) se queda aquí
    y viaja su número: el otro lado puede pedir que se llame, aquí.
    """
    if callable(objeto):
        FUNCIONES.append(objeto)
        return {Marca.FUNCION: len(FUNCIONES) - 1}
    return {Marca.NO_ES_JSON: type(objeto).__name__}


class EntornoRemoto(dict):
    """El entorno que recibe ejecutar: los ficheros viven en el otro proceso.

    Es un dict (isinstance, json.dumps, dict(...), {**entorno} funcionan como en la lección),
    pero vacío por dentro: cada lectura (len, in, [], get, keys, values, items, iteración, ==,
    bool, repr, copy...) se la pregunta al proceso de confianza, así que ve lo que han escrito
    las herramientas. Escribir se hace, como en la lección, con las funciones de las herramientas.
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

    def get(self, ruta, defecto=None):
        return self[ruta] if ruta in self else defecto

    def __reversed__(self):
        return reversed(list(self))

    def __ne__(self, otro):
        return not self == otro

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

    def __setitem__(self, *args, **kwargs):
        raise TypeError(
            "en el calificador, el entorno que recibe ejecutar sólo se lee: los ficheros se cambian "
            "con las funciones de las herramientas, como en la lección"
        )

    __delitem__ = update = setdefault = pop = popitem = clear = __ior__ = __setitem__

    def __reduce_ex__(self, protocolo):  # copy.copy, copy.deepcopy y pickle: un dict de verdad
        return dict, (self.todo(),)


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
        if nombre == "run":
            return self._run(linea)
        self._corre(nombre, re.sub(r"^\s*(-[A-Za-z]\s*\d*\s+)*", "", linea))  # %timeit -n 1 -r 1 f()

    def _run(self, linea):
        """%run [-i] fichero.py (p. ej. uno escrito con %%writefile): como en IPython, corre como
        __main__ y lo que define queda en el cuaderno; con -i, en el espacio del cuaderno."""
        partes = linea.split()
        nombres = [p for p in partes if not p.startswith("-")]
        if not nombres:
            return
        with open(nombres[0].strip("'\""), encoding="utf-8") as f:
            codigo = compile(f.read(), nombres[0], "exec")
        if "-i" in partes:
            exec(codigo, self.user_ns)
            return
        espacio = {"__name__": "__main__", "__builtins__": builtins, "__file__": nombres[0]}
        exec(codigo, espacio)
        self.user_ns.update({k: v for k, v in espacio.items() if k != "__builtins__"})

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


MOSTRABLES = (
    "Markdown",
    "HTML",
    "Latex",
    "Math",
    "JSON",
    "Image",
    "SVG",
    "Javascript",
    "Code",
    "Pretty",
    "FileLink",
    "Audio",
    "Video",
    "IFrame",
)


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
    nucleo = types.ModuleType("IPython.core")
    nucleo.display = pantalla  # `from IPython.core.display import HTML`, como en IPython
    ipython.display, ipython.core, ipython.get_ipython = pantalla, nucleo, get_ipython
    sys.modules.update(
        {"IPython": ipython, "IPython.display": pantalla, "IPython.core": nucleo, "IPython.core.display": pantalla}
    )


# Lo que el alumno ve de lo que le da este proceso (una clase, un apoderado, el entorno) es lo que
# ve en el cuaderno: allí las herramientas y el código de partida viven en __main__, no en «hijo»
# (traceback.format_exception_only, logging y repr escriben el módulo si no es __main__ ni builtins).
DEL_CUADERNO = "__main__"
CLASES = {}  # una clase por nombre, como en el cuaderno: dos excepciones iguales son del mismo tipo


def como_en_el_cuaderno(objeto, nombre, modulo=DEL_CUADERNO):
    """El objeto con el nombre, el nombre calificado y el módulo que tiene en el cuaderno."""
    objeto.__name__ = objeto.__qualname__ = nombre
    objeto.__module__ = modulo
    return objeto


def excepcion(tipo, args):
    """La excepción que ha lanzado el otro lado: la de Python si lo es, o una como la del cuaderno."""
    clase = getattr(builtins, tipo, None)
    if not (isinstance(clase, type) and issubclass(clase, Exception)):
        if tipo not in CLASES:
            CLASES[tipo] = como_en_el_cuaderno(type(tipo, (Exception,), {}), tipo)
        clase = CLASES[tipo]
    return clase(*args)


# En el cuaderno, el entorno que recibe ejecutar es un dict: su tipo se llama igual aquí
# (type(entorno).__name__, su repr); type(entorno) is dict sigue sin serlo.
como_en_el_cuaderno(EntornoRemoto, "dict", "builtins")


def apoderado(canal, que, nombre):
    def pide(*args, **kwargs):
        # El entorno de ejecutar viaja como su marca (en JSON, un dict se copiaría entero).
        args = [_marca_del_entorno(a) for a in args]
        kwargs = {k: _marca_del_entorno(v) for k, v in kwargs.items()}
        canal.envia({Clave.PIDE: que, Clave.NOMBRE: nombre, Clave.ARGS: args, Clave.KWARGS: kwargs})
        respuesta = canal.recibe()
        if Clave.LANZA in respuesta:
            raise excepcion(*respuesta[Clave.LANZA])
        return respuesta[Clave.VALOR]

    return como_en_el_cuaderno(pide, str(nombre))


def instala(g, canal, orden):
    """Los datos y apoderados que pide esta orden, en los globales del alumno (sobre los suyos, si los hay)."""
    g.update(orden.get(Clave.DATOS, {}))
    for nombre in orden.get(Clave.APODERADOS, []):
        g[nombre] = apoderado(canal, Pide.APODERADO, nombre)
    if Clave.HERRAMIENTAS in orden:
        g["HERRAMIENTAS"] = {
            n: {"description": "", "input_schema": e, "funcion": apoderado(canal, Pide.HERRAMIENTA, n)}
            for n, e in orden[Clave.HERRAMIENTAS].items()
        }


def argumento(valor):
    """La marca del entorno vuelve a ser el entorno de ejecutar; lo demás llega tal cual."""
    return ENTORNO_REMOTO if valor == ENTORNO else valor


def _marca_del_entorno(valor):
    """El entorno de ejecutar vuelve como la marca con que vino, no como una copia de sus ficheros."""
    return ENTORNO if valor is ENTORNO_REMOTO else valor


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
        valor = _marca_del_entorno(funcion(*args, **orden.get(Clave.KWARGS, {})))
        if orden.get(Clave.CON_ARGUMENTOS):  # una función que cambia sus argumentos: también cómo han quedado
            canal.envia({Clave.DEVUELVE: valor, Clave.ARGUMENTOS: [_marca_del_entorno(a) for a in args]})
        else:
            canal.envia({Clave.DEVUELVE: valor})
    except BaseException as e:  # también SystemExit: la función no debe terminar el proceso
        canal.envia({Clave.EXCEPCION: tipo_y_texto(e)})


def definidas(g, de_partida):
    """Las funciones que el alumno ha dejado definidas: un llamable con ese nombre que no es el de partida.

    Da igual cómo (def con decoradores, un objeto con __call__, functools.partial, lambda).
    """
    return [nombre for nombre, antes in de_partida.items() if callable(g.get(nombre)) and g.get(nombre) is not antes]


def tipo_y_texto(e):
    try:
        return [type(e).__name__, str(e)]
    except BaseException:  # una excepción cuyo str también lanza
        return [type(e).__name__, "(sin texto)"]


def describe(e):
    return "%s: %s" % tuple(tipo_y_texto(e))


def con_lo_de_site():
    """help, exit y quit, como en un cuaderno (python -I -S no carga site, que los pone; Pyodide sí)."""
    import _sitebuiltins

    if not hasattr(builtins, "help"):
        builtins.help = _sitebuiltins._Helper()
    for nombre in ("exit", "quit"):
        if not hasattr(builtins, nombre):
            setattr(builtins, nombre, _sitebuiltins.Quitter(nombre, "Ctrl-D (i.e. EOF)"))


def encierra(config):
    """Lo que se hace como root antes de leer nada del alumno: canal aparte, carpetas tapadas, límites."""
    separa_el_canal()
    interprete = config.get(Arranque.INTERPRETE) or {}
    if config.get(Arranque.TAPAR) is not None:
        tapa(config[Arranque.TAPAR], interprete.get(Interprete.CARPETA))
        os.chdir("/tmp")  # un tmpfs propio
    elif config.get(Arranque.CARPETA):
        os.chdir(config[Arranque.CARPETA])
    limita(config.get(Arranque.LIMITES, {}))


def sin_privilegios(config):
    """Un usuario propio (si se es root) y el llavero del núcleo cerrado (en Linux)."""
    if config.get(Arranque.UID) is not None:
        hazte(config[Arranque.UID], config[Arranque.GID])
    if sys.platform.startswith("linux"):
        _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        filtra_el_llavero()


def hazte_node(config):
    """Este proceso pasa a ser Node con el Pyodide del navegador (lanzador.mjs), ya encerrado.

    Node sólo puede leer la carpeta del intérprete (su modelo de permisos: ni escribir, ni
    procesos, ni hilos, ni módulos nativos); el encierro del sistema sigue alrededor.
    """
    interprete = config[Arranque.INTERPRETE]
    carpeta = DENTRO if config.get(Arranque.TAPAR) is not None else interprete[Interprete.CARPETA]
    node = interprete[Interprete.NODE]
    os.execve(
        node,
        [
            node,
            *interprete.get(Interprete.OPCIONES, []),
            "--experimental-permission",
            "--allow-fs-read=%s/*" % carpeta,
            carpeta + "/lanzador.mjs",
            carpeta,
            interprete[Interprete.INSTANTANEA],
        ],
        {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )


def escribe_modulos(inicio):
    """Los módulos del curso en la carpeta de trabajo, de sólo lectura (se escriben siendo root)."""
    for nombre, fuente in inicio[Clave.MODULOS]:
        with open(nombre, "w", encoding="utf-8") as f:
            f.write(fuente)
        os.chmod(nombre, 0o444)


def sirve(canal, inicio):
    """Corre las celdas como en el cuaderno y atiende las órdenes del calificador hasta que cierre."""
    CANAL.append(canal)
    con_lo_de_site()
    # El codificador de json en C lee el dict por dentro (vacío en EntornoRemoto); el de Python llama a
    # sus métodos: json.dumps(entorno) da sus ficheros, como en la lección.
    json.encoder.c_make_encoder = None
    g = {"__name__": "__main__", "__builtins__": builtins}
    del_cuaderno(g)
    errores, sintaxis, de_partida = [], [], {}
    for n, fuente in enumerate(inicio[Clave.CELDAS]):
        if n == 1:  # tras el código de partida: lo que ya estaba no lo ha definido el alumno
            de_partida = {nombre: g.get(nombre) for nombre in inicio.get(Clave.FUNCIONES, [])}
        try:
            codigo = compile(fuente, "<celda %d>" % n, "exec")
        except (SyntaxError, ValueError) as e:  # como en Jupyter: la celda no corre y las demás sí
            sintaxis.append([n, str(getattr(e, "msg", e)), getattr(e, "lineno", None)])
            continue
        except BaseException as e:
            errores.append("celda %d: %s" % (n, describe(e)))
            continue
        try:
            exec(codigo, g)
        except BaseException as e:
            errores.append("celda %d: %s" % (n, describe(e)))
    canal.envia(
        {
            Clave.LISTO: True,
            Clave.ERRORES: errores,
            Clave.SINTAXIS: sintaxis,
            Clave.VERSION: "%d.%d.%d" % sys.version_info[:3],
            Clave.DEFINIDAS: definidas(g, de_partida),
        }
    )
    while True:
        atiende(canal, g, canal.recibe())


def main():
    """En el Python de la máquina: se encierra y se hace Node, o corre aquí el código del alumno."""
    config = json.loads(sys.argv[1])
    encierra(config)
    if config.get(Arranque.INTERPRETE):
        sin_privilegios(config)
        hazte_node(config)
    canal = Canal()
    inicio = canal.recibe()  # viene del lado de confianza
    # Como en el cuaderno: los módulos al lado, el código de partida y después el del alumno
    # (en el primer desafío, con el permiso y el usuario de la lección). Sólo al final,
    # en cada orden, entran los apoderados. Los módulos se escriben antes de dejar de ser root
    # y quedan de sólo lectura: en un /tmp con sticky bit, el alumno no puede cambiarlos ni
    # borrarlos para volver a cargar otro harness.py con la línea de carga del curso.
    escribe_modulos(inicio)
    sin_privilegios(config)
    sirve(canal, inicio)


def principal_pyodide():
    """En Pyodide (lanzador.mjs): el canal lo da Node con un módulo que se quita antes del alumno.

    Este programa ya está cargado como módulo `hijo` en la instantánea (sin correr): se quita de
    sys.modules para que un hijo.py del alumno (%%writefile hijo.py) se importe como en el cuaderno.
    """
    import _canal_del_calificador as node
    import pyodide_js

    sys.modules.pop("hijo", None)
    pyodide_js.unregisterJsModule("_canal_del_calificador")
    sys.modules.pop("_canal_del_calificador", None)
    canal = CanalDeNode(node)
    inicio = canal.recibe()
    escribe_modulos(inicio)
    sirve(canal, inicio)


if __name__ == "__main__":
    principal_pyodide() if sys.platform == "emscripten" else main()
