"""Lo que corre en cada trabajador de Dask (`dask worker`): calificar una entrega que manda el coordinador.

El trabajador tiene su copia del proyecto, con su .venv y el Pyodide de `./curso construir`; no
escribe nada del curso. La entrega y lo repartido (release/<desafío>/) le llegan como bytes, los
escribe en una carpeta temporal suya y los califica con los mismos pasos que una calificación local
(una_entrega.califica_sin_fallar, que llama a califica_entrega), en su propia caja.

Antes de calificar compara lo suyo con lo del coordinador (Identidad): el commit del curso, la huella
de lo repartido con las partes ocultas del desafío y el intérprete de la caja. Si algo difiere no
califica (TrabajadorDistinto): una nota no puede depender de la máquina en la que cae.

Está en cursos/profesor/ y no en el núcleo: cada trabajador tiene el proyecto entero (hace falta
para comparar el commit), y así el núcleo sigue sin saber de lotes ni de clusters.
"""

import atexit
import contextlib
import hashlib
import platform
import subprocess
import tempfile
import threading
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

from cursos import RAIZ, contrato
from cursos.calificador.aislamiento import HIJO, Aislamiento, detecta
from cursos.calificador.resultado import Resultados
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso
from cursos.profesor.carpetas import PASOS, Carpetas
from cursos.profesor.una_entrega import Entregada, Lote, califica_sin_fallar


@dataclass(frozen=True)
class Identidad:
    """Lo que tiene que ser igual en el coordinador y en cada trabajador para que la nota sea la misma."""

    commit: str  # git HEAD de la copia del proyecto
    repartido: str  # huella de release/<desafío>/ y de desafios/<desafío>/ con desafios/base.py
    interprete: str  # el Python de la caja: el Pyodide fijado y su instantánea, o el de la máquina


@dataclass(frozen=True)
class Tarea:
    """Una entrega, tal como viaja al trabajador."""

    desafio: str  # el slug
    alumno: str  # sólo para los mensajes: en el trabajador la carpeta no lleva su nombre
    cuaderno: bytes
    plazo: float
    pyodide: bool
    esperada: Identidad  # la del coordinador


@dataclass(frozen=True)
class Calificada:
    resultados: Resultados
    trabajador: str  # su nombre y su dirección
    encierro: str  # Aislamiento.describe() del trabajador: qué le falta, si le falta algo


class TrabajadorDistinto(ErrorDelCurso):
    """El trabajador no es igual que el coordinador; el mensaje dice en qué, con los dos valores, y qué hacer."""


def commit() -> str:
    """El commit (git HEAD) de esta copia del proyecto."""
    try:
        hecho = subprocess.run(
            ["git", "-C", str(RAIZ), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return "ninguno (no hay git)"
    return hecho.stdout.strip() if hecho.returncode == 0 else "ninguno (la copia no es un repositorio de git)"


def lo_repartido(carpeta: Path) -> dict[str, bytes]:
    """{ruta relativa: bytes} de cada fichero de release/<desafío>/ (carpeta)."""
    return {p.relative_to(carpeta).as_posix(): p.read_bytes() for p in sorted(carpeta.rglob("*")) if p.is_file()}


def huella_de_lo_repartido(desafio: Desafio, repartido: dict[str, bytes]) -> str:
    """Lo repartido y lo que el núcleo lee del desafío (sus pruebas, sus partes ocultas, la base)."""
    leidos = {"release/" + nombre: datos for nombre, datos in repartido.items()}
    for ruta in sorted(desafio.carpeta.rglob("*")):
        if ruta.is_file() and "__pycache__" not in ruta.parts:
            leidos[ruta.relative_to(RAIZ).as_posix()] = ruta.read_bytes()
    leidos["desafios/base.py"] = contrato.BASE.read_bytes()
    h = hashlib.sha256()
    for nombre, datos in sorted(leidos.items()):
        h.update(nombre.encode() + b"\0" + hashlib.sha256(datos).digest())
    return h.hexdigest()[:16]


def interprete_fijado(pyodide: bool) -> str:
    """El Python de la caja que pide esta copia: el Pyodide de cursos/pyodide/fijado.toml con la
    instantánea de su hijo.py, o (sin Pyodide) el de esta máquina."""
    if not pyodide:
        return f"el Python de la máquina {platform.python_version()}"
    from cursos.pyodide.distribucion import fijado

    datos = fijado()["pyodide"]
    instantanea = hashlib.sha256(HIJO.encode()).hexdigest()[:12]
    return f"Pyodide {datos['version']} (sha512 {datos['sha512'][:12]}…) con la instantánea de hijo.py {instantanea}"


def identidad(desafio: Desafio, repartido: dict[str, bytes], pyodide: bool) -> Identidad:
    """La del coordinador: la que cada trabajador tiene que tener."""
    return Identidad(commit(), huella_de_lo_repartido(desafio, repartido), interprete_fijado(pyodide))


def _de_la_caja(aislamiento: Aislamiento, pyodide: bool) -> str:
    """El intérprete con el que de verdad corre aquí el alumno (detecta() puede haberse quedado sin Pyodide)."""
    return interprete_fijado(pyodide and aislamiento.con_pyodide())


def diferencia(quien: str, suya: Identidad, esperada: Identidad, slug: str) -> str | None:
    """El primer valor que no coincide, dicho con los dos y con qué hacer; None si son iguales."""
    if suya.commit != esperada.commit:
        return (
            f"el trabajador {quien} no califica: su copia del curso está en el commit {suya.commit} y la del "
            f"coordinador en {esperada.commit}. En esa máquina, `git checkout {esperada.commit}` en su copia "
            "del proyecto y vuelve a arrancar `dask worker`"
        )
    if suya.repartido != esperada.repartido:
        return (
            f"el trabajador {quien} no califica: la huella de lo repartido con las partes ocultas de {slug} es "
            f"{suya.repartido} allí y {esperada.repartido} en el coordinador (una de las dos copias tiene cambios "
            f"sin commit en desafios/{slug}/ o desafios/base.py). Deja las dos copias iguales y vuelve a calificar"
        )
    if suya.interprete != esperada.interprete:
        return (
            f"el trabajador {quien} no califica: su Python de la caja es «{suya.interprete}» y el del coordinador "
            f"«{esperada.interprete}». En esa máquina, instala node y pasa `./curso construir` (descarga el Pyodide "
            "fijado); y vuelve a arrancar `dask worker`"
        )
    return None


# Lo de este proceso trabajador, preparado una vez: la caja (con sus procesos de reserva abiertos hasta que
# el proceso acaba) y, por cada huella de lo repartido, su carpeta temporal ya comprobada.
_cerrojo = threading.Lock()
_cajas: dict[bool, Aislamiento] = {}
_carpetas: dict[tuple, Path] = {}
_al_salir = contextlib.ExitStack()
atexit.register(_al_salir.close)


def _caja(pyodide: bool, hilos: int) -> Aislamiento:
    if pyodide not in _cajas:
        base = Path(_al_salir.enter_context(tempfile.TemporaryDirectory(prefix="curso-trabajador-")))
        aislamiento = detecta((base, Path.cwd()), pyodide)
        _cajas[pyodide] = _al_salir.enter_context(aislamiento.con_reserva(hilos))
    return _cajas[pyodide]


def _curso(tarea: Tarea, desafio: Desafio, repartido: dict[str, bytes], quien: str, hilos: int) -> Path:
    """La carpeta de curso temporal con release/<desafío>/, si este trabajador es igual que el coordinador."""
    clave = (tarea.esperada, tarea.pyodide)
    if clave not in _carpetas:
        # Lo barato primero: con otro commit no hace falta preparar la caja para saber que no califica.
        suya = Identidad(commit(), huella_de_lo_repartido(desafio, repartido), tarea.esperada.interprete)
        motivo = diferencia(quien, suya, tarea.esperada, desafio.slug)
        if motivo is None:
            suya = replace(suya, interprete=_de_la_caja(_caja(tarea.pyodide, hilos), tarea.pyodide))
            motivo = diferencia(quien, suya, tarea.esperada, desafio.slug)
        if motivo:
            raise TrabajadorDistinto(motivo)
        raiz = Path(_al_salir.enter_context(tempfile.TemporaryDirectory(prefix="curso-trabajador-")))
        release = raiz / "release" / desafio.slug
        for nombre, datos in repartido.items():
            (release / nombre).parent.mkdir(parents=True, exist_ok=True)
            (release / nombre).write_bytes(datos)
        _carpetas[clave] = raiz
    return _carpetas[clave]


def _quien() -> tuple[str, int]:
    """(nombre y dirección de este trabajador, cuántas entregas califica a la vez)."""
    from distributed import get_worker

    trabajador = get_worker()
    nombre = str(trabajador.name)
    quien = trabajador.address if nombre == trabajador.address else f"{nombre} ({trabajador.address})"
    return quien, trabajador.state.nthreads


def recibe(repartido: dict[str, bytes]) -> dict[str, bytes]:
    """Lo repartido, como tarea de Dask: si muere el trabajador que lo guarda, el planificador lo rehace."""
    return repartido


def califica_aqui(tarea: Tarea, repartido: dict[str, bytes]) -> Calificada:
    """La entrega de la tarea, calificada en este trabajador como en una calificación local."""
    quien, hilos = _quien()
    desafio = Desafio(tarea.desafio)
    with _cerrojo:
        raiz = _curso(tarea, desafio, repartido, quien, hilos)
        aislamiento = _caja(tarea.pyodide, hilos)
    rutas = Carpetas(raiz, {paso: paso for paso in PASOS}, "{nbgrader_step}/{student_id}/{assignment_id}")
    lote = Lote(desafio, aislamiento, tarea.plazo, rutas)
    if not _calentado.is_set():
        with _primera:
            if not _calentado.is_set():
                resultados = _califica(lote, tarea.cuaderno)
                _calentado.set()
                return Calificada(resultados, quien, aislamiento.describe())
    return Calificada(_califica(lote, tarea.cuaderno), quien, aislamiento.describe())


# La primera entrega de cada trabajador se califica a solas: las de los demás hilos, que esperaban a que
# se preparase la caja, arrancarían todas a la vez con nada compilado, y en CPython 3.11 dos ast.parse
# a la vez pueden chocar (SystemError «AST constructor recursion depth mismatch») y dar un 0 que en una
# calificación local, donde los hilos no arrancan a la par, no sale.
_primera = threading.Lock()
_calentado = threading.Event()


def _califica(lote: Lote, cuaderno: bytes) -> Resultados:
    alumno = "e-" + uuid.uuid4().hex  # su carpeta aquí: el nombre del alumno no toca el disco del trabajador
    carpeta = lote.rutas.de_alumno("submitted", alumno, lote.desafio.slug)
    carpeta.mkdir(parents=True)
    try:
        (carpeta / lote.desafio.cuaderno).write_bytes(cuaderno)
        return califica_sin_fallar(lote, Entregada(alumno, carpeta)).resultados
    finally:
        (carpeta / lote.desafio.cuaderno).unlink(missing_ok=True)
        carpeta.rmdir()
        carpeta.parent.rmdir()
