"""Cómo se arranca el proceso del alumno y qué mecanismos de encierro hay en esta máquina.

Como root (Linux): `unshare` crea espacios de nombres nuevos de procesos, red,
montajes, IPC y UTS; dentro, hijo.py tapa las carpetas con datos con un tmpfs vacío,
pone límites (CPU, memoria, tamaño de fichero, procesos, descriptores), se hace un
usuario sin privilegios propio de ese proceso (ninguno otro a la vez tiene el mismo) y
cierra el llavero del núcleo con seccomp antes de leer el código del alumno. Después se
convierte en Node con el Pyodide del navegador (interprete.py), si lo hay. Al terminar se
mata al proceso que encabeza el espacio de procesos, y con él muere todo lo que haya lanzado.
Sin root se prueba lo mismo con un espacio de usuario; si tampoco, sólo quedan
los límites y el grupo de procesos, y se dice qué falta.
"""

import collections
import contextlib
import functools
import itertools
import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from cursos import RAIZ
from cursos.calificador.caja.protocolo import Arranque, Clave

IMPORTA_PROTOCOLO = (
    "from cursos.calificador.caja.protocolo import ENTORNO, SIN_CPU, Arranque, Clave, Interprete, "
    "Marca, Pide  # PROTOCOLO\n"
)


def programa_del_hijo() -> str:
    """hijo.py con el texto de protocolo.py en lugar de la línea que lo importa.

    En la caja sólo hay biblioteca estándar y el repositorio no se ve: el protocolo viaja
    con el programa, y así los dos lados usan el mismo.
    """
    carpeta = Path(__file__).parent / "caja"
    hijo = (carpeta / "hijo.py").read_text(encoding="utf-8")
    if hijo.count(IMPORTA_PROTOCOLO) != 1:
        raise RuntimeError("hijo.py tiene que importar el protocolo con la línea de IMPORTA_PROTOCOLO, una vez")
    return hijo.replace(IMPORTA_PROTOCOLO, (carpeta / "protocolo.py").read_text(encoding="utf-8") + "\n")


HIJO = programa_del_hijo()
NOBODY = 65534
# Cada proceso del alumno tiene su usuario (sin nombre, sin grupos): dos a la vez no comparten
# nada que cuelgue del usuario (su cuenta de procesos, el llavero aunque no estuviera cerrado).
# Uno posterior puede repetir número: para entonces el anterior ha muerto con todo lo suyo.
PRIMER_USUARIO, USUARIOS = 0x7A000, 4096
_usuarios = itertools.count()
_cerrojo = threading.Lock()
_cerrojo_de_la_reserva = threading.Lock()


def usuario_nuevo() -> int:
    with _cerrojo:
        return PRIMER_USUARIO + next(_usuarios) % USUARIOS


# Node reserva memoria virtual de sobra para WebAssembly (RLIMIT_AS no le deja arrancar): con
# Pyodide se limita la memoria que de verdad se escribe (RLIMIT_DATA), también 1 GB.
MEMORIA_PYODIDE = {"RLIMIT_DATA": 1 << 30}
ARRANQUE_CPU = 1  # segundo de CPU de más con Pyodide: arrancarlo (~0,45 s) no es del alumno
ESPACIOS = ["--pid", "--fork", "--kill-child", "--net", "--mount", "--ipc", "--uts"]
# Se tapa todo lo que cuelga de / salvo lo que Python necesita para arrancar: una lista de lo
# que se deja ver, no de lo que se esconde, para que una copia del curso en /cualquier-sitio
# tampoco se vea. /dev/shm aparte: /dev se queda (dev/null, dev/urandom).
A_LA_VISTA = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "sys"}
TAPAR_DENTRO = ["/dev/shm"]
LIMITES = {"RLIMIT_AS": 1 << 30, "RLIMIT_FSIZE": 1 << 20, "RLIMIT_NOFILE": 64, "RLIMIT_CORE": 0}
# Cuenta por usuario (nobody, el de todos los hijos a la vez): con 1 GB cada uno, 16 procesos
# son como mucho 16 GB aunque una entrega haga fork; un hijo normal usa uno.
LIMITE_PROCESOS = {"RLIMIT_NPROC": 16}


def carpetas_a_tapar() -> list[str]:
    """Cada carpeta de / que no está A_LA_VISTA (los enlaces, como /bin → usr/bin, no se tocan)."""
    raiz = Path("/")
    return sorted(
        {str(p) for p in raiz.iterdir() if p.name not in A_LA_VISTA and p.is_dir() and not p.is_symlink()}
        | set(TAPAR_DENTRO)
    )


@dataclass
class Aislamiento:
    prefijo: list[str]
    python: str
    config: dict
    faltan: list[str] = field(default_factory=list)
    interprete: str = ""  # con qué Python corre el código del alumno, para describe()
    # De reserva: procesos ya lanzados que aún no han recibido nada (ver con_reserva), por su CPU.
    reserva: dict = field(default_factory=lambda: collections.defaultdict(collections.deque), repr=False)
    en_reserva: int = 0  # cuántos se tienen lanzados de antemano (0: ninguno)

    def describe(self) -> str:
        con = f" El código del alumno corre con {self.interprete}." if self.interprete else ""
        if not self.faltan:
            return (
                "aislamiento completo: un usuario sin privilegios propio de cada entrega, sin red, espacios "
                "de procesos, montajes e IPC propios, carpetas con datos tapadas, llavero del núcleo cerrado, "
                "límites de CPU, memoria, ficheros y procesos." + con
            )
        return "aislamiento PARCIAL, falta: " + "; ".join(self.faltan) + "." + con

    def con_pyodide(self) -> bool:
        return Arranque.INTERPRETE in self.config

    def arranca(self, plazo: float) -> subprocess.Popen:
        """El proceso del alumno, con plazo segundos de CPU (RLIMIT_CPU): se cobra lo que gasta él.

        El tiempo de reloj que consuman otros (otra entrega, otra tarea de la máquina) no cuenta.
        Con reserva (con_reserva), uno de los lanzados de antemano, que sale de ella para siempre:
        se lanza otro en su lugar, que arranca mientras se usa éste.
        """
        cpu = max(1, math.ceil(plazo)) + (ARRANQUE_CPU if self.con_pyodide() else 0)
        with _cerrojo_de_la_reserva:
            cola = self.reserva[cpu] if self.en_reserva else None
            proceso = None
            while cola and proceso is None:
                proceso = cola.popleft()
                if proceso.poll() is not None:  # murió esperando (no por culpa de nadie): no se cobra
                    termina(proceso)
                    proceso = None
            while cola is not None and len(cola) < self.en_reserva:
                cola.append(self._lanza(cpu))
        return proceso or self._lanza(cpu)

    @contextlib.contextmanager
    def con_reserva(self, cuantos: int):
        """Mientras dure, arranca() tiene `cuantos` procesos lanzados de antemano (por cada plazo que se pida).

        Casi todo el coste de una entrega con Pyodide es arrancar Node y el intérprete (~0,5 s de CPU,
        uno por entrega, también con partes ocultas); así arranca el de la siguiente mientras se califica la
        actual. Un proceso de reserva está encerrado como cualquiera y esperando su primer mensaje:
        no ha corrido código de nadie, y lo usa una sola entrega (nunca vuelve a la reserva). Al
        salir, los que no se han usado se matan.
        """
        self.en_reserva = cuantos
        try:
            yield self
        finally:
            with _cerrojo_de_la_reserva:
                self.en_reserva = 0
                sobran = [p for cola in self.reserva.values() for p in cola]
                self.reserva.clear()
            for proceso in sobran:
                termina(proceso)

    def _lanza(self, cpu: int) -> subprocess.Popen:
        config = {**self.config, Arranque.LIMITES: dict(self.config[Arranque.LIMITES], RLIMIT_CPU=cpu)}
        if Arranque.UID in config:
            config[Arranque.UID] = config[Arranque.GID] = usuario_nuevo()
        carpeta = None
        if Arranque.TAPAR not in config:  # sin montajes propios, una carpeta de trabajo temporal
            carpeta = config[Arranque.CARPETA] = tempfile.mkdtemp(prefix="calificador-")
        proceso = subprocess.Popen(
            [*self.prefijo, self.python, "-I", "-S", "-c", HIJO, json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd="/",  # el hijo pasa el canal a los descriptores 3 y 4
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        )
        proceso.carpeta = carpeta
        proceso.cpu = cpu  # su RLIMIT_CPU blando: quien lo agota ha gastado su CPU, muera como muera
        return proceso


def termina(proceso: subprocess.Popen) -> None:
    """Mata el grupo entero (y, con unshare, el espacio de procesos entero)."""
    try:
        os.killpg(proceso.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proceso.kill()
    proceso.wait()
    for tubo in (proceso.stdin, proceso.stdout):
        if tubo:
            tubo.close()
    if getattr(proceso, "carpeta", None):
        shutil.rmtree(proceso.carpeta, ignore_errors=True)


def _python_para_nobody() -> str | None:
    """Un intérprete que nobody pueda ejecutar (el de pyenv suele estar dentro de /root)."""
    for candidato in ("/usr/bin/python3", "/usr/local/bin/python3", sys._base_executable):
        ruta = os.path.realpath(candidato)
        if os.path.exists(ruta) and legible_por_todos(ruta):
            return candidato
    return None


def legible_por_todos(ruta: str) -> bool:
    partes = Path(ruta).parents
    return all(os.stat(p).st_mode & 0o001 for p in partes) and os.stat(ruta).st_mode & 0o005 == 0o005


def _funciona(orden: list[str]) -> bool:
    try:
        return subprocess.run(orden, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _tapar(python: str, extra: list[Path]) -> list[str]:
    """Las carpetas que se tapan, sin tocar las que llevan al intérprete."""
    interprete = os.path.realpath(python)
    carpetas = set(carpetas_a_tapar()) | {str(p.resolve()) for p in extra} | {str(RAIZ)}
    return sorted(c for c in carpetas if not (interprete + "/").startswith(c.rstrip("/") + "/") and c != "/")


@functools.cache
def _unshare_disponible(como_usuario: bool) -> bool:
    if not shutil.which("unshare"):
        return False
    usuario = ["--user", "--map-root-user"] if como_usuario else []
    return _funciona(["unshare", *usuario, *ESPACIOS, "true"])


def visible_desde_la_caja(ruta: str) -> bool:
    """¿Ve la caja esta ruta real? Tiene que colgar de una carpeta que no se tapa y ser legible por todos."""
    partes = Path(ruta).parts
    return len(partes) > 1 and partes[1] in A_LA_VISTA and legible_por_todos(ruta)


def _con_interprete(config: dict) -> tuple[dict, str, list[str]]:
    """La configuración con Pyodide bajo Node si lo hay (el Python del navegador), y qué falta si no."""
    from cursos.calificador.interprete import SinInterprete, interprete

    try:
        pyodide = interprete(HIJO, visible_desde_la_caja)
    except SinInterprete as e:
        return (
            config,
            f"el Python de esta máquina ({sys.version.split()[0]})",
            [
                f"el Python del navegador (Pyodide bajo Node): {e}; el código del alumno corre con el Python de esta "
                "máquina, y lo que sólo existe en el 3.14 del navegador no califica"
            ],
        )
    limites = {k: v for k, v in config[Arranque.LIMITES].items() if k != "RLIMIT_AS"}
    return (
        {**config, Arranque.LIMITES: {**limites, **MEMORIA_PYODIDE}, Arranque.INTERPRETE: pyodide.config()},
        f"el Python del navegador (Pyodide {pyodide.version} bajo Node)",
        [],
    )


def candidatos(extra: tuple[Path, ...] = (), pyodide: bool = True) -> list[Aislamiento]:
    """Los encierros posibles aquí, del mejor al peor (con pyodide=False, con el Python de la máquina)."""
    lista = []
    es_root = hasattr(os, "geteuid") and os.geteuid() == 0
    python = _python_para_nobody() if es_root else None
    interprete = (
        _con_interprete if pyodide else lambda c: (c, f"el Python de esta máquina ({sys.version.split()[0]})", [])
    )
    if es_root and python and _unshare_disponible(False):
        config = {
            Arranque.TAPAR: _tapar(python, list(extra)),
            Arranque.LIMITES: {**LIMITES, **LIMITE_PROCESOS},
            Arranque.UID: NOBODY,
            Arranque.GID: NOBODY,
        }
        config, cual, falta = interprete(config)
        lista.append(Aislamiento(["unshare", *ESPACIOS], python, config, falta, cual))
    python = python or sys._base_executable
    faltan = [
        "usuario propio (hace falta root y un Python que nobody pueda ejecutar): "
        "el código del alumno corre con tu usuario"
    ]
    limites = {**LIMITES, **_procesos_de_mas(64)}
    if sys.platform.startswith("linux") and _unshare_disponible(True):
        config = {Arranque.TAPAR: _tapar(python, list(extra)), Arranque.LIMITES: limites}
        config, cual, falta = interprete(config)
        lista.append(
            Aislamiento(["unshare", "--user", "--map-root-user", *ESPACIOS], python, config, faltan + falta, cual)
        )
    faltan = [
        *faltan,
        "espacios de nombres (sin unshare aquí, p. ej. macOS): el alumno tiene red, ve tus "
        "ficheros y sus procesos con setsid pueden sobrevivir",
    ]
    config, cual, falta = interprete({Arranque.LIMITES: limites})
    lista.append(Aislamiento([], python, config, faltan + falta, cual))
    return lista


def _procesos_de_mas(cuantos: int) -> dict:
    """RLIMIT_NPROC cuenta todos los procesos del usuario: con el tuyo, los que ya tienes y unos más."""
    if not os.path.isdir("/proc"):
        return {}
    uid = os.getuid()
    mios = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            mios += os.stat(f"/proc/{pid}").st_uid == uid
        except OSError:
            pass
    return {"RLIMIT_NPROC": mios + cuantos}


def arranca_bien(aislamiento: Aislamiento) -> bool:
    """¿Llega el proceso a estar listo con este encierro? (un montaje puede fallar en un contenedor)"""
    proceso = aislamiento.arranca(5)
    try:
        proceso.stdin.write(json.dumps({Clave.MODULOS: [], Clave.CELDAS: []}).encode() + b"\n")
        proceso.stdin.flush()
        listo = select.select([proceso.stdout], [], [], 10)[0] and proceso.stdout.readline()
        return bool(listo) and json.loads(listo).get(Clave.LISTO) is True
    except (OSError, ValueError):
        return False
    finally:
        termina(proceso)


# Los encierros que ya han arrancado en este proceso, por lo que decide si arrancan (su clave_de_la_sonda).
_ARRANCAN: set[str] = set()


def clave_de_la_sonda(aislamiento: Aislamiento) -> str:
    """Lo que decide si un encierro arranca: su orden, su Python, su configuración menos las carpetas
    tapadas (las de extra cambian con cada curso), y quién lo lanza."""
    config = {k: v for k, v in aislamiento.config.items() if k != Arranque.TAPAR}
    usuario = os.geteuid() if hasattr(os, "geteuid") else None
    return json.dumps([aislamiento.prefijo, aislamiento.python, config, usuario], sort_keys=True)


def _tapa_la_caja(extra: tuple[Path, ...]) -> bool:
    """¿Cae alguna carpeta de extra en lo que la caja deja ver (/usr, /lib, /etc…)? Taparla podría dejar
    a Node o a Python sin algo que necesitan: entonces la sonda se repite. Las demás (/home, /work,
    /tmp…) ya están tapadas enteras, y la carpeta del intérprete se monta aparte (hijo.tapa)."""
    return any(len(p.resolve().parts) > 1 and p.resolve().parts[1] in A_LA_VISTA for p in extra)


def arranca_ya_visto(aislamiento: Aislamiento, extra: tuple[Path, ...]) -> bool:
    """arranca_bien, una vez por proceso y por clave_de_la_sonda: cada sonda arranca un proceso (~3 s con
    Pyodide) y cada calificación llama a detecta(). Sólo se recuerda que arranca: un fallo (p. ej. la
    máquina tan ocupada que el proceso no llega a tiempo) se vuelve a probar la vez siguiente."""
    clave = clave_de_la_sonda(aislamiento)
    if clave in _ARRANCAN and not _tapa_la_caja(extra):
        return True
    if not arranca_bien(aislamiento):
        return False
    _ARRANCAN.add(clave)
    return True


def detecta(extra: tuple[Path, ...] = (), pyodide: bool = True) -> Aislamiento:
    """El mejor encierro que de verdad arranca aquí; su describe() dice lo que falta.

    pyodide=False: con el Python de esta máquina aunque haya Pyodide (las pruebas del encierro
    del sistema, que atacan con ctypes: en Pyodide no hay llamadas al sistema que probar).
    """
    descartados = []
    for aislamiento in candidatos(extra, pyodide):
        if not aislamiento.prefijo or arranca_ya_visto(aislamiento, tuple(extra)):
            aislamiento.faltan = [*descartados, *aislamiento.faltan] if aislamiento.faltan else []
            return aislamiento
        if aislamiento.con_pyodide():  # el encierro sí puede valer con el Python de la máquina
            otro = detecta(extra, pyodide=False)
            otro.faltan = [*otro.faltan, "el Python del navegador: Pyodide bajo Node no arranca en el encierro"]
            return otro
        descartados.append("el encierro con %s no arranca aquí" % " ".join(aislamiento.prefijo[:2]))
    raise AssertionError("la última opción no necesita nada")
