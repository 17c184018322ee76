"""El Python del navegador para el calificador: Pyodide bajo Node, preparado una vez.

El alumno comprueba su código en la página con Pyodide (Python 3.14); el calificador lo corre
con el mismo Pyodide (el paquete npm que fija el sitio, cursos/sitio/distribucion.py) bajo Node,
dentro del mismo encierro de siempre. Así la página y el calificador aceptan y rechazan el
mismo código (un f-string de PEP 701, `def f[T]`, `itertools.batched`...).

La carpeta que ve el proceso del alumno (de sólo lectura) tiene el núcleo de Pyodide,
lanzador.mjs, hijo.py y una instantánea de memoria del intérprete sin paquetes (las
instantáneas sólo funcionan sin paquetes, ver docs/arquitectura.md; el calificador no necesita
ninguno). Se prepara la primera vez, en build/descargas/, y se reutiliza.
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
NUCLEO = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
          "package.json")
# Sólo el compilador rápido de WebAssembly: arrancar cuesta ~40 % menos CPU (se cobra al alumno).
OPCIONES_NODE = ["--liftoff-only", "--v8-pool-size=1", "--no-warnings"]


@dataclass(frozen=True)
class Interprete:
    node: str
    carpeta: Path
    version: str

    def config(self) -> dict:
        return {Claves.NODE: self.node, Claves.CARPETA: str(self.carpeta), Claves.OPCIONES: OPCIONES_NODE}


class SinInterprete(ErrorDelCurso):
    """No hay Pyodide bajo Node en esta máquina; el mensaje dice por qué y qué hacer."""


def _node(visible) -> str:
    node = shutil.which("node")
    if not node:
        raise SinInterprete("no hay node (apt-get install nodejs)")
    real = os.path.realpath(node)
    if not visible(real):
        raise SinInterprete(f"{real} no se ve desde la caja del alumno (tiene que estar en /usr o /bin y "
                            "ser legible por todos): instala el node de la distribución")
    return real


def _huella(*textos: bytes) -> str:
    h = hashlib.sha256()
    for texto in textos:
        h.update(hashlib.sha256(texto).digest())
    return h.hexdigest()[:16]


def _prepara(paquete: Path, node: str, destino: Path, lanzador: bytes) -> None:
    """El núcleo, lanzador.mjs y la instantánea, en una carpeta nueva que se renombra al final."""
    destino.parent.mkdir(parents=True, exist_ok=True)
    obra = Path(tempfile.mkdtemp(prefix=destino.name + ".", dir=destino.parent))
    try:
        for nombre in NUCLEO:
            shutil.copyfile(paquete / nombre, obra / nombre)
        (obra / "lanzador.mjs").write_bytes(lanzador)
        # Sin código de nadie: sólo el intérprete recién arrancado. Fuera de la caja (escribe aquí).
        hecho = subprocess.run([node, *OPCIONES_NODE, str(obra / "lanzador.mjs"), str(obra), "--instantanea"],
                               capture_output=True, text=True, timeout=300, cwd=obra)
        if hecho.returncode != 0 or not (obra / "instantanea.bin").is_file():
            raise SinInterprete("no se ha podido hacer la instantánea de Pyodide: " + hecho.stderr[-500:])
        for ruta in (obra, *obra.iterdir()):
            ruta.chmod(0o755 if ruta.is_dir() else 0o644)
        try:
            obra.rename(destino)
        except OSError:  # otro calificador la ha preparado a la vez: vale la suya
            if not (destino / "instantanea.bin").is_file():
                raise
    finally:
        shutil.rmtree(obra, ignore_errors=True)


def _escribe_hijo(carpeta: Path, programa: str) -> None:
    """hijo.py (con el protocolo dentro), si ha cambiado; de una vez, para quien lo esté leyendo."""
    ruta = carpeta / "hijo.py"
    if ruta.is_file() and ruta.read_text(encoding="utf-8") == programa:
        return
    temporal = ruta.with_name(f".hijo-{os.getpid()}.py")
    temporal.write_text(programa, encoding="utf-8")
    temporal.chmod(0o644)
    temporal.replace(ruta)


@functools.cache
def interprete(programa_del_hijo: str, visible) -> Interprete:
    """El Pyodide del sitio bajo Node, listo para la caja; SinInterprete si aquí no se puede.

    programa_del_hijo es hijo.py con el protocolo dentro; visible(ruta) dice si la caja ve esa ruta.
    Los da aislamiento.py, que es quien sabe de la caja (así este módulo no lo importa).
    """
    from cursos.sitio.descargas import DESCARGAS, ErrorDeDistribucion
    from cursos.sitio.distribucion import fijado, paquete_pyodide

    node = _node(visible)
    version = fijado()["pyodide"]["version"]
    try:
        paquete = paquete_pyodide()
    except (ErrorDeDistribucion, OSError) as e:
        raise SinInterprete(f"no está el paquete de Pyodide {version} ({e})") from None
    lanzador = (CAJA / "lanzador.mjs").read_bytes()
    version_node = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    carpeta = DESCARGAS / f"calificador-pyodide-{version}-{_huella(lanzador, version_node.encode())}"
    if not (carpeta / "instantanea.bin").is_file():
        _prepara(paquete, node, carpeta, lanzador)
    _escribe_hijo(carpeta, programa_del_hijo)
    return Interprete(node, carpeta, version)
