"""docs/autores.md, seguida al pie de la letra en una copia del curso: la guía no se queda vieja.

Se copian al disco los bloques de la guía (los que empiezan por «fichero:» o «añadir al final
de:»), y en esa copia se construye el cuaderno de la lección, se ejecuta y dice lo que afirma
su salidas.toml, y el desafío se reparte con nbgrader y se califica: la solución saca 10 y una
entrega equivocada, 0. En un proceso aparte, para que RAIZ sea la copia. La misma copia, con su
sitio construido y abierta en Chromium, está en tests/navegador/test_guia_en_el_navegador.py.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from cursos import RAIZ

from .conftest import MODULOS

GUIA = RAIZ / "docs" / "autores.md"
BLOQUE = re.compile(r"^(`{3,})[a-z]*\n[^\n]*?(fichero|añadir al final de): (\S+?)(?: -->)?\n(.*?)^\1$", re.M | re.S)
COPIAR = ["cursos", "desafios", "lecciones", *MODULOS, "pyproject.toml"]

SIGUE_LA_GUIA = r'''
import json, sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from cursos import RAIZ
from cursos.calificador.calificar import califica
from cursos.calificador.desafio import Desafio
from cursos.calificador.fuente import genera_version_del_alumno
from cursos.cuadernos import escribe_cuadernos
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos

assert RAIZ == Path.cwd(), RAIZ
trabajo = Path(sys.argv[1])
curso = leer_curso()
leccion = curso.leccion("saludo")
rutas = {r.stem: r for r in escribe_cuadernos(curso, trabajo / "cuadernos")}
ruta = rutas["saludo"]
cuaderno = nbformat.read(ruta, as_version=4)
NotebookClient(cuaderno, timeout=120, kernel_name="python3",
               resources={"metadata": {"path": str(ruta.parent)}}).execute()
codigo = [c for c in cuaderno.cells if c.cell_type == "code"][1:]  # sin la de preparación
textos = ["".join(s.get("text", "") for s in c.outputs) for c in codigo]
salidas = {n: fallos(textos[n - 1], lineas) for n, lineas in afirmaciones(leccion).items()}

desafio = Desafio(leccion.desafio)
nbgrader = trabajo / "nbgrader"
release = genera_version_del_alumno(desafio, nbgrader)
repartido = nbformat.read(release / desafio.cuaderno, as_version=4)
for alumno, codigo in {"ana": desafio.lee("solucion.py"), "beto": "def saluda(nombre):\n    return 'Adiós'\n"}.items():
    nb = nbformat.from_dict(json.loads(nbformat.writes(repartido)))
    for celda in nb.cells:
        if celda.metadata.get("nbgrader", {}).get("grade_id") == desafio.celda_solucion:
            celda.source = codigo
    carpeta = nbgrader / "submitted" / alumno / desafio.slug
    carpeta.mkdir(parents=True)
    nbformat.write(nb, carpeta / desafio.cuaderno)
filas = {f["alumno"]: f["puntos"] for f in califica(nbgrader, desafio, plazo=5.0, progreso=False)}
print(json.dumps({"salidas": salidas, "modulos": [n for n, _ in desafio.modulos()], "puntos": filas,
                  "partida": desafio.partida()}))
'''


def bloques() -> list[tuple[str, str, str]]:
    """(qué: «fichero» o «añadir al final de», ruta, texto) de cada bloque de la guía."""
    return [(que, ruta, texto) for _, que, ruta, texto in BLOQUE.findall(GUIA.read_text(encoding="utf-8"))]


def test_la_guia_trae_todos_los_ficheros_de_una_leccion_y_su_desafio():
    rutas = {ruta for _, ruta, _ in bloques()}
    assert {"lecciones/saludo/leccion.md", "lecciones/saludo/salidas.toml", "cursos/llm-agents.toml",
            *(f"desafios/saluda/{f}" for f in ("desafio.toml", "enunciado.md", "solucion.py", "pruebas.py",
                                                "ocultas.py", "pistas.toml"))} == rutas


def copia_siguiendo_la_guia(copia: Path) -> Path:
    """El curso copiado en copia, con los bloques de la guía escritos encima, como lo haría un autor."""
    for nombre in COPIAR:
        origen = RAIZ / nombre
        if origen.is_dir():
            shutil.copytree(origen, copia / nombre, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
        else:
            shutil.copy2(origen, copia / nombre)
    for que, ruta, texto in bloques():
        destino = copia / ruta
        destino.parent.mkdir(parents=True, exist_ok=True)
        if que == "fichero":
            assert not destino.exists(), f"la guía pisa {ruta}, que ya existe"
            destino.write_text(texto, encoding="utf-8")
        else:
            destino.write_text(destino.read_text(encoding="utf-8") + texto, encoding="utf-8")
    return copia


def en_la_copia(copia: Path, programa: str, *argumentos: str) -> str:
    """Corre programa con el Python del proyecto en un proceso cuyo RAIZ es la copia; devuelve su salida."""
    hecho = subprocess.run([sys.executable, "-c", programa, *argumentos], cwd=copia, capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(copia), "HOME": str(copia.parent)},
                           timeout=900)
    assert hecho.returncode == 0, hecho.stderr[-3000:]
    return hecho.stdout


def test_seguir_la_guia_da_una_leccion_que_se_ejecuta_y_un_desafio_que_se_califica(tmp_path):
    copia = copia_siguiendo_la_guia(tmp_path / "curso")
    resultado = json.loads(en_la_copia(copia, SIGUE_LA_GUIA, str(tmp_path)).strip().splitlines()[-1])
    assert resultado["salidas"] == {"1": [], "2": []}, "la lección dice lo que afirma su salidas.toml"
    assert resultado["modulos"] == ["guionizado.py"] and resultado["partida"].startswith("exec(open(")
    assert resultado["puntos"] == {"ana": 10, "beto": 0}
