"""El Python del navegador para el calificador: Pyodide bajo Node, preparado una vez.

El alumno comprueba su código en la página con Pyodide (Python 3.14); el calificador lo corre
con el mismo Pyodide (el paquete npm que fija el sitio, cursos/pyodide/distribucion.py) bajo Node,
dentro del mismo encierro de siempre. Así la página y el calificador aceptan y rechazan el
mismo código (un f-string de PEP 701, `def f[T]`, `itertools.batched`...).

La carpeta que ve el proceso del alumno (de sólo lectura) tiene el núcleo de Pyodide,
lanzador.mjs y una instantánea de memoria del intérprete sin paquetes con hijo.py ya cargado
(las instantáneas sólo funcionan sin paquetes, ver docs/decisiones/007-sin-instantaneas-de-pyodide.md; el calificador no
necesita ninguno). Se prepara la primera vez, en build/descargas/, y se reutiliza; la
instantánea, otra vez cada vez que cambia hijo.py.
"""

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cursos.calificador.caja.protocolo import Interprete as Claves
from cursos.errores import ErrorDelCurso

CAJA = Path(__file__).parent / "caja"
NUCLEO = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
# Sólo el compilador rápido de WebAssembly: arrancar cuesta ~40 % menos CPU (se cobra al alumno).
# Y cada función de WebAssembly se compila cuando se llama por primera vez, y el JavaScript de
# Pyodide, que casi sólo corre al arrancar, no se optimiza: otro ~13 % menos (bench/arranque.py).
# El código del alumno corre en WebAssembly, no en JavaScript. Sin --wasm-lazy-validation: Pyodide
# mira si Node tiene WebAssembly GC compilando un módulo de prueba, y con la validación perezosa
# la compilación no falla donde debe y la instantánea no se puede hacer («Invalid opcode 0xfb»).
# Las opciones entran en la huella de la carpeta: cambiarlas rehace la instantánea.
OPCIONES_NODE = [
    "--liftoff-only",
    "--wasm-lazy-compilation",
    "--no-opt",
    "--no-sparkplug",
    "--v8-pool-size=1",
    "--no-warnings",
]


@dataclass(frozen=True)
class Interprete:
    node: str
    carpeta: Path
    version: str
    instantanea: str  # el nombre del fichero en carpeta

    def config(self) -> dict:
        return {
            Claves.NODE: self.node,
            Claves.CARPETA: str(self.carpeta),
            Claves.OPCIONES: OPCIONES_NODE,
            Claves.INSTANTANEA: self.instantanea,
        }


class SinInterprete(ErrorDelCurso):
    """No hay Pyodide bajo Node en esta máquina; el mensaje dice por qué y qué hacer."""


def _node(visible) -> str:
    node = shutil.which("node")
    if not node:
        raise SinInterprete("no hay node (apt-get install nodejs)")
    real = os.path.realpath(node)
    if not visible(real):
        raise SinInterprete(
            f"{real} no se ve desde la caja del alumno (tiene que estar en /usr o /bin y "
            "ser legible por todos): instala el node de la distribución"
        )
    return real


def _huella(*textos: bytes) -> str:
    h = hashlib.sha256()
    for texto in textos:
        h.update(hashlib.sha256(texto).digest())
    return h.hexdigest()[:16]


def _prepara(paquete: Path, destino: Path, lanzador: bytes) -> None:
    """El núcleo y lanzador.mjs, en una carpeta nueva que se renombra al final."""
    destino.parent.mkdir(parents=True, exist_ok=True)
    obra = Path(tempfile.mkdtemp(prefix=destino.name + ".", dir=destino.parent))
    try:
        for nombre in NUCLEO:
            shutil.copyfile(paquete / nombre, obra / nombre)
        (obra / "lanzador.mjs").write_bytes(lanzador)
        for ruta in (obra, *obra.iterdir()):
            ruta.chmod(0o755 if ruta.is_dir() else 0o644)
        try:
            obra.rename(destino)
        except OSError:  # otro calificador la ha preparado a la vez: vale la suya
            if not (destino / "lanzador.mjs").is_file():
                raise
    finally:
        shutil.rmtree(obra, ignore_errors=True)


def _instantanea(carpeta: Path, node: str, programa: str) -> str:
    """instantanea-<huella de hijo.py>.bin: el intérprete recién arrancado con hijo.py cargado (sin correr).

    La hace el calificador, fuera de la caja y antes de calificar: no tiene código de ningún alumno.
    Cada proceso del alumno arranca de ella y no compila hijo.py. Devuelve el nombre del fichero.
    """
    huella = _huella(programa.encode())
    nombre = f"instantanea-{huella}.bin"
    if (carpeta / nombre).is_file():
        return nombre
    with tempfile.TemporaryDirectory(prefix="instantanea-", dir=carpeta) as obra:
        hijo, hecha = Path(obra) / "hijo.py", Path(obra) / nombre
        hijo.write_text(programa, encoding="utf-8")
        hecho = subprocess.run(
            [node, *OPCIONES_NODE, str(carpeta / "lanzador.mjs"), str(carpeta), "--instantanea", str(hijo), str(hecha)],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=obra,
        )
        if hecho.returncode != 0 or not hecha.is_file():
            raise SinInterprete("no se ha podido hacer la instantánea de Pyodide: " + hecho.stderr[-500:])
        _cache_de_codigo(carpeta, node, hecha, obra)
        hecha.chmod(0o644)
        hecha.replace(carpeta / nombre)  # de una vez: quien la lea a la vez ve la entera o ninguna
    for vieja in [*carpeta.glob("instantanea-*.bin"), *carpeta.glob("instantanea-*.v8")]:
        if vieja.stem != Path(nombre).stem:  # las de otro hijo.py ya no sirven (31 MB cada una)
            vieja.unlink(missing_ok=True)
    return nombre


def _cache_de_codigo(carpeta: Path, node: str, instantanea: Path, obra: str) -> None:
    """instantanea-<huella>.v8, al lado: la caché de código de V8 de pyodide.asm.mjs (lanzador.mjs --cache).

    Se hace con las opciones de Node de la caja, y sólo se guarda si V8 la acepta con ellas. Va antes
    que la instantánea (quien ve la instantánea ve ya su caché). Es sólo una ayuda: si no se puede
    hacer, cada proceso compila ese JavaScript, como antes, y la nota es la misma.
    """
    hecha = instantanea.with_suffix(".v8")
    como_en_la_caja = ["--experimental-permission", f"--allow-fs-read={carpeta}/*", f"--allow-fs-write={obra}/*"]
    lanzador = [node, *OPCIONES_NODE, *como_en_la_caja, str(carpeta / "lanzador.mjs"), str(carpeta)]
    hecho = subprocess.run(
        [*lanzador, "--cache", str(instantanea), str(hecha)], capture_output=True, timeout=300, cwd=obra
    )
    if hecho.returncode == 0 and hecha.is_file():
        hecha.chmod(0o644)
        hecha.replace(carpeta / hecha.name)


@functools.cache
def interprete(programa_del_hijo: str, visible) -> Interprete:
    """El Pyodide del sitio bajo Node, listo para la caja; SinInterprete si aquí no se puede.

    programa_del_hijo es hijo.py con el protocolo dentro; visible(ruta) dice si la caja ve esa ruta.
    Los da aislamiento.py, que es quien sabe de la caja (así este módulo no lo importa).
    """
    from cursos.pyodide.descargas import DESCARGAS, ErrorDeDistribucion
    from cursos.pyodide.distribucion import fijado, paquete_pyodide

    node = _node(visible)
    version = fijado()["pyodide"]["version"]
    try:
        paquete = paquete_pyodide()
    except (ErrorDeDistribucion, OSError) as e:
        raise SinInterprete(f"no está el paquete de Pyodide {version} ({e})") from None
    lanzador = (CAJA / "lanzador.mjs").read_bytes()
    version_node = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    huella = _huella(lanzador, version_node.encode(), " ".join(OPCIONES_NODE).encode())
    carpeta = DESCARGAS / f"calificador-pyodide-{version}-{huella}"
    if not (carpeta / "lanzador.mjs").is_file():
        _prepara(paquete, carpeta, lanzador)
    return Interprete(node, carpeta, version, _instantanea(carpeta, node, programa_del_hijo))
