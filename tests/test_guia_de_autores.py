"""docs/autores.md, seguida al pie de la letra en una copia del curso: la guía no se queda vieja.

Se copian al disco los bloques de la guía (los que empiezan por «fichero:» o «añadir al final
de:»), y en esa copia se construye el cuaderno de la lección, se ejecuta y dice lo que afirma
su salidas.toml, y el desafío se reparte con nbgrader y se califica: la solución saca 10 y una
entrega equivocada, 0; y lotes() encuentra el lote de la guía y calificarlo da lo que dice. En
un proceso aparte, para que RAIZ sea la copia. La misma copia, con su sitio construido y abierta
en Chromium, está en tests/navegador/test_guia_en_el_navegador.py.
"""

import json
import subprocess
import sys

from cursos import RAIZ
from tests.guia_de_autores import bloques, copia_siguiendo_la_guia, en_la_copia

# Las rápidas que no son del curso sino de esta copia del repositorio: su guion ./curso y su .venv,
# Pyodide descargado y sus documentos (la copia no los trae). Las demás, que recorren todo
# lo que dice el manifiesto, se recogen en la copia (abajo, cuáles se pasan): seguir la guía no deja
# ninguna en rojo.
NO_SON_DEL_CURSO = [
    "tests/test_guion_curso.py",
    "tests/test_capas.py",
    "tests/lecciones/test_laboratorio_pyodide.py",
    "tests/test_documentacion.py",
    "tests/test_javascript.py",
]

SIGUE_LA_GUIA = r"""
import json, sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from cursos import RAIZ
from cursos.profesor.calificar import califica
from cursos.desafio import Desafio
from cursos.profesor.fuente import genera_version_del_alumno
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
"""

# El lote de la guía, declarado en su test_saluda.py: lotes() lo encuentra y se califica como en
# test_lotes.py (entrega_el_lote, con carpetas temporales en lugar del tmp_path_factory de pytest).
CALIFICA_EL_LOTE = r"""
import json, sys, tempfile
from pathlib import Path

from tests.calificador.ayudas import EDITADA, calificado, entrega_el_lote
from tests.calificador.lotes import lotes


class Temporales:
    def mktemp(self, nombre):
        return Path(tempfile.mkdtemp(prefix=nombre, dir=sys.argv[1]))


declarados = lotes()
lote = declarados["saluda"]
hecho = entrega_el_lote(Temporales(), lote)
alumno, secretos = lote.lee_ocultas
texto = calificado(hecho["curso"], alumno, lote.desafio)
print(json.dumps({"lotes": sorted(declarados), "puntos": {a: f["puntos"] for a, f in hecho["filas"].items()},
                  "honestas": {a: p for a, (_, p) in lote.honestas.items()}, "trampas": hecho["trampas"],
                  "minimo": lote.minimo, "con_puntos": sorted(lote.con_puntos), "editada": EDITADA,
                  "lee_ocultas": alumno, "no_la_encuentra": "No such file or directory" in texto,
                  "desvela": [s for s in secretos if s in texto]}))
"""


def test_la_guia_trae_todos_los_ficheros_de_una_leccion_y_su_desafio():
    rutas = {ruta for _, ruta, _ in bloques()}
    assert {
        "lecciones/saludo/leccion.md",
        "lecciones/saludo/salidas.toml",
        "cursos/llm-agents.toml",
        *(
            f"desafios/saluda/{f}"
            for f in (
                "desafio.toml",
                "enunciado.md",
                "solucion.py",
                "pruebas.py",
                "ocultas.py",
                "pistas.toml",
                "CALIFICACION.md",
            )
        ),
        "tests/calificador/test_saluda.py",
    } == rutas


def test_seguir_la_guia_da_una_leccion_que_se_ejecuta_y_un_desafio_que_se_califica(tmp_path):
    copia = copia_siguiendo_la_guia(tmp_path / "curso")
    resultado = json.loads(en_la_copia(copia, SIGUE_LA_GUIA, str(tmp_path)).strip().splitlines()[-1])
    assert resultado["salidas"] == {"1": [], "2": []}, "la lección dice lo que afirma su salidas.toml"
    assert resultado["modulos"] == ["guionizado.py"] and resultado["partida"].startswith("exec(open(")
    assert resultado["puntos"] == {"ana": 10, "beto": 0}
    # El lote de la guía: lotes() lo encuentra (test_cada_desafio_tiene_su_lote pasa) y calificarlo da lo que dice.
    lote = json.loads(en_la_copia(copia, CALIFICA_EL_LOTE, str(tmp_path)).strip().splitlines()[-1])
    assert "saluda" in lote["lotes"]
    puntos = lote["puntos"]
    assert lote["honestas"] and {a: puntos[a] for a in lote["honestas"]} == lote["honestas"]
    a_cero = [a for a in lote["trampas"] if a not in lote["con_puntos"]]
    assert len(a_cero) >= lote["minimo"] and {a: puntos[a] for a in a_cero} == dict.fromkeys(a_cero, 0)
    assert puntos["x_stub"] == 0 and puntos["zz_honesta_despues"] == puntos[lote["editada"]] == 10
    assert lote["lee_ocultas"] in lote["trampas"] and lote["no_la_encuentra"] and lote["desvela"] == []
    # Las rápidas del curso (manifiesto, referencias, celdas, pistas…), en la copia: las nuevas y las que miran
    # el curso entero. Las parametrizadas que ya están aquí con el mismo id (la misma prueba sobre una lección
    # que la guía no toca, p. ej. ejecutar otra lección en Pyodide) ya las pasa la capa rápida: no se repiten.
    opciones = ["--rapidas", "-q", "-p", "no:cacheprovider", *(f"--ignore={f}" for f in NO_SON_DEL_CURSO), "tests"]
    aqui = subprocess.run([sys.executable, "-c", RECOGE, *opciones], cwd=RAIZ, capture_output=True, text=True)
    assert aqui.returncode == 0, aqui.stdout[-3000:] + aqui.stderr[-3000:]
    aqui, en_la_guia = ids_recogidos(aqui.stdout), ids_recogidos(en_la_copia(copia, RECOGE, *opciones))
    nuevas = sorted(i for i in en_la_guia if "[" not in i or i not in aqui)
    assert any("saludo" in i for i in nuevas) and len(nuevas) < len(en_la_guia)
    pytest = "import sys, pytest; print('\\nsale con', int(pytest.main(sys.argv[1:])))"
    salida = en_la_copia(copia, pytest, *opciones[:-1], *nuevas)
    assert salida.splitlines()[-1] == "sale con 0", salida[-4000:]


RECOGE = "import sys, pytest; sys.exit(pytest.main(['--collect-only', *sys.argv[1:]]))"


def ids_recogidos(salida: str) -> set[str]:
    """Los ids de lo que escribe pytest --collect-only -q (una línea por prueba)."""
    return {linea for linea in salida.splitlines() if "::" in linea}
