"""El editor de código de las páginas: CodeMirror 6, fijado, empaquetado con esbuild y autoalojado.

Las versiones exactas van en codemirror/package.json y, con la huella sha512 de cada paquete
(también la de esbuild), en codemirror/package-lock.json: `npm ci` instala exactamente eso y
se niega si una huella no cuadra, como distribucion.py con el paquete de Pyodide. esbuild
junta lo que exporta codemirror/entrada.mjs en un solo módulo, codemirror.mjs, que va a
recursos-<huella>/. La página lo importa sólo cuando el alumno empieza a editar (editor.mjs):
quien sólo lee no lo descarga. El resultado se guarda en build/descargas/codemirror-<huella>/
y sólo se rehace si cambian esos tres ficheros.
"""

import hashlib
import shutil
from pathlib import Path

from cursos.pyodide.distribucion import DESCARGAS, ErrorDeDistribucion, _ejecuta

FUENTES = Path(__file__).with_name("codemirror")
FICHEROS = ("package.json", "package-lock.json", "entrada.mjs")


def _huella() -> str:
    h = hashlib.sha256()
    for nombre in FICHEROS:
        h.update(nombre.encode() + b"\0" + (FUENTES / nombre).read_bytes())
    return h.hexdigest()[:16]


def modulo_del_editor() -> Path:
    """codemirror.mjs, de la caché o recién empaquetado."""
    destino = DESCARGAS / f"codemirror-{_huella()}"
    salida = destino / "codemirror.mjs"
    if salida.is_file():
        return salida
    if shutil.which("npm") is None:
        raise ErrorDeDistribucion("hace falta npm para empaquetar el editor: instálalo (apt-get install npm)")
    trabajo = destino.with_name(destino.name + ".nuevo")
    shutil.rmtree(trabajo, ignore_errors=True)
    trabajo.mkdir(parents=True)
    for nombre in FICHEROS:
        shutil.copy2(FUENTES / nombre, trabajo / nombre)
    # --ignore-scripts: el binario de esbuild llega como paquete opcional (@esbuild/<plataforma>),
    # también fijado en el lock; su script de instalación sólo lo comprobaría.
    _ejecuta(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"], cwd=trabajo)
    _ejecuta(
        [
            str(trabajo / "node_modules" / ".bin" / "esbuild"),
            "entrada.mjs",
            "--bundle",
            "--format=esm",
            "--minify",
            "--target=es2020",
            "--legal-comments=eof",
            "--log-level=warning",
            "--outfile=codemirror.mjs",
        ],
        cwd=trabajo,
    )
    shutil.rmtree(trabajo / "node_modules")
    shutil.rmtree(destino, ignore_errors=True)
    trabajo.rename(destino)
    return salida
