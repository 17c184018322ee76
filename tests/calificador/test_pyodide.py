"""El cuaderno del desafío en Pyodide bajo Node: las mismas pruebas dan la misma respuesta inmediata.

Busca el núcleo de Pyodide como las demás pruebas de Pyodide (PYODIDE_DIR o build/); sin él
o sin node, se salta y lo dice.
"""

import json
import shutil
import subprocess

import pytest

from tests.calificador.conftest import DESAFIO, SOLUCION
from tests.test_laboratorio_pyodide import nucleo_de_pyodide

PROGRAMA = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [dir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(dir + "/pyodide.mjs"));
const py = await loadPyodide({ indexURL: dir + "/" });
const entrada = JSON.parse(fs.readFileSync(0, "utf8"));
for (const [nombre, texto] of Object.entries(entrada.modulos)) py.FS.writeFile(nombre, texto);
py.globals.set("soluciones", py.toPy(entrada.soluciones));
console.log(py.runPython(`
import contextlib, io, json
resultados = []
for solucion in soluciones:
    espacio, salida = {"__name__": "__main__"}, io.StringIO()
    with contextlib.redirect_stdout(salida):
        for fuente in (open("partida.py").read(), solucion, open("pruebas.py").read()):
            exec(fuente, espacio)
        pasan = espacio["comprueba_todas"]()
    resultados.append({"pasan": pasan, "salida": salida.getvalue()})
json.dumps(resultados)
`));
"""
ORIGINAL = SOLUCION.split("    ### BEGIN SOLUTION")[0] + SOLUCION.split("    ### END SOLUTION\n")[1]


def test_las_pruebas_visibles_responden_igual_en_pyodide(tmp_path):
    nucleo, node = nucleo_de_pyodide(), shutil.which("node")
    if not node or not nucleo or not (nucleo / "pyodide.mjs").exists():
        pytest.skip("sin node o sin el núcleo de Pyodide (PYODIDE_DIR o build/): capa de Pyodide saltada")
    programa = tmp_path / "desafio.mjs"
    programa.write_text(PROGRAMA, encoding="utf-8")
    modulos = dict(DESAFIO.modulos())
    modulos |= {"partida.py": DESAFIO.partida(), "pruebas.py": DESAFIO.lee("pruebas.py")}
    entrada = {"modulos": modulos, "soluciones": [SOLUCION, ORIGINAL]}
    hecho = subprocess.run([node, str(programa), str(nucleo)], input=json.dumps(entrada), capture_output=True,
                           text=True, timeout=300, check=True)
    bien, sin_permisos = json.loads(hecho.stdout.strip().splitlines()[-1])
    assert all(bien["pasan"].values()), bien["salida"]
    assert "✔ salmorejo" in bien["salida"] and "7 de 7 pruebas visibles pasan" in bien["salida"]
    assert not sin_permisos["pasan"]["salmorejo"] and "✘ salmorejo" in sin_permisos["salida"]
    assert "no se ha ejecutado: el usuario no lo ha permitido" in sin_permisos["salida"]
