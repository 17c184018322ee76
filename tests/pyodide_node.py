"""Pyodide bajo Node: la capa intermedia de pruebas, más rápida que un navegador.

Usa el mismo paquete npm de Pyodide que sirve el sitio (fijado y comprobado con su
sha512 por cursos.pyodide.distribucion), o el de PYODIDE_DIR si se da. Sin node la
prueba se salta y lo dice, salvo en CI, donde falla: allí siempre debe correr.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

# Escribe los ficheros en la carpeta de trabajo de Pyodide (como hacen la página y
# JupyterLite), ejecuta el programa Python y devuelve el valor de su última expresión.
LANZADOR = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [dir, datos] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs"));
const py = await loadPyodide({ indexURL: dir + "/" });
const entrada = JSON.parse(fs.readFileSync(datos, "utf8"));
for (const [nombre, texto] of Object.entries(entrada.ficheros)) py.FS.writeFile(nombre, texto);
py.globals.set("datos", py.toPy(entrada.datos));
console.log(py.runPython(entrada.programa));
"""


# Las celdas de una lección (datos["celdas"]) en un mismo espacio de nombres, como en el cuaderno,
# cada una con lo que imprime; para ejecuta_en_pyodide.
CELDAS_CON_SALIDAS = """
import contextlib, io, json
espacio, salidas = {}, []
for celda in datos["celdas"]:
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        exec(celda, espacio)
    salidas.append(salida.getvalue())
"""
PROGRAMA_DE_SALIDAS = CELDAS_CON_SALIDAS + 'json.dumps({"salidas": salidas})\n'


def nucleo_de_pyodide() -> Path:
    """La carpeta con pyodide.mjs; la descarga (npm) la primera vez si hace falta."""
    if os.environ.get("PYODIDE_DIR"):
        return Path(os.environ["PYODIDE_DIR"])
    from cursos.pyodide.distribucion import paquete_pyodide

    return paquete_pyodide()


def ejecuta_en_pyodide(ficheros: dict[str, str], programa: str, datos=None, carpeta: Path | None = None):
    """Ejecuta `programa` en Pyodide con `datos` como variable global y devuelve su resultado JSON.

    La última expresión del programa debe ser un texto JSON (json.dumps(...)).
    """
    node = shutil.which("node")
    if not node:
        mensaje = "sin node: la capa de Pyodide bajo Node no se ha ejecutado"
        pytest.fail(mensaje) if os.environ.get("CI") else pytest.skip(mensaje)
    lanzador = Path(carpeta or os.environ.get("TMPDIR", "/tmp")) / "pyodide_node.mjs"
    lanzador.write_text(LANZADOR, encoding="utf-8")
    # La entrada va en un fichero y no por la entrada estándar: con una entrada grande, Node lee la
    # tubería antes de que esté llena y readFileSync(0) falla con EAGAIN.
    entrada = lanzador.with_name("pyodide_node_entrada.json")
    entrada.write_text(json.dumps({"ficheros": ficheros, "programa": programa, "datos": datos}), encoding="utf-8")
    hecho = subprocess.run(
        [node, str(lanzador), str(nucleo_de_pyodide()), str(entrada)], capture_output=True, text=True, timeout=300
    )
    assert hecho.returncode == 0, hecho.stderr[-3000:]
    return json.loads(hecho.stdout.strip().splitlines()[-1])
