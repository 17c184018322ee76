"""La lección del laboratorio en Pyodide bajo Node: las mismas salidas y la misma evidencia.

Capa intermedia, sin navegador: busca el núcleo de Pyodide (PYODIDE_DIR o el que la
construcción del sitio deja en build/) y node. Si falta alguno, la prueba se salta y lo dice.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import jupytext
import pytest

from cursos import RAIZ, laboratorio
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos

LECCION = leer_curso().leccion("la-propuesta-no-es-el-permiso")

# Ejecuta en Pyodide las celdas que llegan por stdin, cada una con su salida capturada, y
# calcula la evidencia completa del laboratorio con el mismo texto canónico que la referencia.
PROGRAMA = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [dir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs"));
const py = await loadPyodide({ indexURL: dir + "/" });
const entrada = JSON.parse(fs.readFileSync(0, "utf8"));
for (const [nombre, texto] of Object.entries(entrada.modulos)) py.FS.writeFile(nombre, texto);
py.globals.set("celdas", py.toPy(entrada.celdas));
console.log(py.runPython(`
import contextlib, io, json
espacio, salidas = {}, []
for celda in celdas:
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        exec(celda, espacio)
    salidas.append(salida.getvalue())
lab = {}
exec(open("laboratorio_puerta.py", encoding="utf-8").read(), lab)
evidencia = lab["evidencia"](open("laboratorio_puerta.py", "rb").read())
json.dumps({"salidas": salidas,
            "evidencia": json.dumps(evidencia, ensure_ascii=False, indent=1, sort_keys=True) + "\\n"})
`));
"""


def nucleo_de_pyodide() -> Path | None:
    if os.environ.get("PYODIDE_DIR"):
        return Path(os.environ["PYODIDE_DIR"])
    encontrados = sorted(RAIZ.glob("build/**/pyodide.mjs"))
    return encontrados[0].parent if encontrados else None


@pytest.fixture(scope="module")
def en_pyodide(tmp_path_factory):
    nucleo, node = nucleo_de_pyodide(), shutil.which("node")
    if not node or not nucleo or not (nucleo / "pyodide.mjs").exists():
        pytest.skip("sin node o sin el núcleo de Pyodide (PYODIDE_DIR o build/): capa de Pyodide saltada")
    programa = tmp_path_factory.mktemp("pyodide") / "leccion.mjs"
    programa.write_text(PROGRAMA, encoding="utf-8")
    celdas = [c.source for c in jupytext.read(LECCION.fuente, fmt="md").cells if c.cell_type == "code"]
    entrada = {"modulos": {"laboratorio_puerta.py": laboratorio.LABORATORIO.read_text(encoding="utf-8")},
               "celdas": celdas}
    hecho = subprocess.run([node, str(programa), str(nucleo)], input=json.dumps(entrada), capture_output=True,
                           text=True, timeout=300, check=True)
    return json.loads(hecho.stdout.strip().splitlines()[-1])


def test_las_celdas_dicen_en_pyodide_lo_que_afirma_la_prosa(en_pyodide):
    for n, lineas in afirmaciones(LECCION).items():
        assert fallos(en_pyodide["salidas"][n - 1], lineas) == [], f"celda {n} en Pyodide"


def test_la_evidencia_en_pyodide_es_identica_a_la_referencia(en_pyodide):
    assert en_pyodide["evidencia"] == laboratorio.REFERENCIA.read_text(encoding="utf-8")
