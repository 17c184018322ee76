"""Bytecode de Python 3.14 ya compilado, hecho por el propio Pyodide bajo Node.

La biblioteca estándar del paquete npm (python_stdlib.zip) y las ruedas de PyPI traen .py:
el navegador compila en cada arranque todo lo que importa (y el núcleo de JupyterLite importa
IPython, jedi, prompt_toolkit, asyncio...). Pyodide 314 corre Python 3.14 y las máquinas del
proyecto no lo tienen (`pyodide py-compile` compila con el Python de la máquina y su bytecode
no le sirve), así que compila el Python de Pyodide, en Node: mismo intérprete que el navegador.

Cada .py se sustituye por su .pyc al lado (sin fuente, el import lo carga igual) y la rueda
pasa a llamarse py314-none-any (sólo para Python 3.14): otro contenido, otro nombre, así la caché inmutable del
navegador nunca mezcla las dos. Se guardan en build/descargas/bytecode/<huella>/ para no
recompilar mientras no cambie la rueda de origen.
"""

import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from cursos.pyodide.descargas import DESCARGAS, ErrorDeDistribucion

# Compila dentro de Pyodide todas las ruedas de /entrada y deja las nuevas en /salida.
COMPILADOR = r"""
import importlib._bootstrap_external as externo
import sys, zipfile
from pathlib import Path

def compila(origen, destino):
    with zipfile.ZipFile(origen) as zin, zipfile.ZipFile(destino, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            nombre, datos = info.filename, zin.read(info)
            if nombre.endswith(".py") and ".dist-info/" not in nombre:
                try:
                    codigo = compile(datos, nombre, "exec", dont_inherit=True)
                except SyntaxError:
                    zout.writestr(info, datos)  # p. ej. plantillas con .py: tal cual
                    continue
                pyc = zipfile.ZipInfo(nombre + "c", date_time=info.date_time)  # misma fecha: reproducible
                zout.writestr(pyc, bytes(externo._code_to_timestamp_pyc(codigo, 0, len(datos))), zipfile.ZIP_DEFLATED)
            elif nombre.endswith(".dist-info/RECORD"):
                lineas = [l.split(",")[0] for l in datos.decode().splitlines() if l]
                zout.writestr(info, "".join(f"{l}c,,\n" if l.endswith(".py") and ".dist-info/" not in l
                                            else f"{l},,\n" for l in lineas))
            else:
                zout.writestr(info, datos)

for origen in sorted(Path("/entrada").iterdir()):
    nuevo = origen.name
    if origen.suffix == ".whl":
        nombre, version = origen.name.split("-")[:2]
        nuevo = f"{nombre}-{version}-py{sys.version_info[0]}{sys.version_info[1]}-none-any.whl"
    compila(origen, Path("/salida") / nuevo)
"""

PROGRAMA = """
import {{ pathToFileURL }} from "node:url";
const [paquete, entrada, salida] = process.argv.slice(1);
const {{ loadPyodide }} = await import(pathToFileURL(paquete + "/pyodide.mjs"));
const py = await loadPyodide({{ indexURL: paquete + "/" }});
py.FS.mkdir("/entrada"); py.FS.mount(py.FS.filesystems.NODEFS, {{ root: entrada }}, "/entrada");
py.FS.mkdir("/salida"); py.FS.mount(py.FS.filesystems.NODEFS, {{ root: salida }}, "/salida");
py.runPython({compilador});
"""


def _huella(ficheros: list[Path]) -> str:
    h = hashlib.sha256(COMPILADOR.encode())
    for fichero in sorted(ficheros):
        h.update(fichero.name.encode() + hashlib.sha256(fichero.read_bytes()).digest())
    return h.hexdigest()[:16]


def compila(ficheros: list[Path], paquete_pyodide: Path) -> list[Path]:
    """Las ruedas (y zips) con bytecode en vez de fuente (de la caché si ya se hicieron)."""
    carpeta = DESCARGAS / "bytecode" / _huella(ficheros)
    if not carpeta.exists():
        if shutil.which("node") is None:
            raise ErrorDeDistribucion("hace falta node para compilar las ruedas con Pyodide (apt-get install nodejs)")
        with tempfile.TemporaryDirectory(dir=DESCARGAS) as temporal:
            entrada, salida = Path(temporal, "entrada"), Path(temporal, "salida")
            entrada.mkdir(), salida.mkdir()
            for fichero in ficheros:
                shutil.copy2(fichero, entrada / fichero.name)
            programa = PROGRAMA.format(compilador=json.dumps(COMPILADOR))
            resultado = subprocess.run(
                ["node", "--input-type=module", "-e", programa, str(paquete_pyodide), str(entrada), str(salida)],
                capture_output=True,
                text=True,
            )
            if resultado.returncode != 0:
                raise ErrorDeDistribucion(f"no se ha podido compilar el bytecode:\n{resultado.stderr[-3000:]}")
            carpeta.parent.mkdir(parents=True, exist_ok=True)
            salida.rename(carpeta)
    return sorted(carpeta.iterdir())
