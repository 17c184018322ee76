"""Tres entregas que el calificador no califica como Jupyter, y lo que les dice.

Lo decidido y por qué está en docs/alumnos.md («Lo que el calificador no acepta»):
- `import numpy`: el calificador no tiene paquetes (el navegador sí los descarga): 0 en lo que dependa
  de él, y una nota que dice qué paquete, por qué y qué hacer;
- la solución partida en dos celdas con los mismos metadatos (dividir la celda en Jupyter): se
  rechaza, y el motivo dice cómo juntarlas;
- la solución en una celda nueva tras borrar la dada: se rechaza, y el motivo dice dónde ponerla.
"""

import copy

import nbformat
import pytest

from cursos.calificador.aislamiento import detecta
from cursos.calificador.califica import califica_entrega
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, genera


@pytest.fixture(scope="module")
def aislamiento():
    aislamiento = detecta()
    if not aislamiento.con_pyodide():
        pytest.fail("aquí no arranca Pyodide bajo Node: " + aislamiento.describe())
    return aislamiento


@pytest.fixture(scope="module")
def repartido(tmp_path_factory):
    curso, cuaderno = genera(tmp_path_factory, DESAFIO)
    return curso / "release" / DESAFIO.slug, cuaderno


def califica(aislamiento, repartido, nb, tmp_path):
    carpeta, _ = repartido
    ruta = tmp_path / DESAFIO.cuaderno
    nbformat.write(nbformat.from_dict(nb), ruta)
    return califica_entrega(DESAFIO, carpeta, ruta, aislamiento, plazo=5)


def _indice_de_la_solucion(nb) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "ejecutar")


def test_import_numpy_dice_que_no_hay_paquetes_y_que_hacer(aislamiento, repartido, tmp_path):
    nb = con_solucion(repartido[1], "import numpy as np\n\n" + SOLUCION)
    r = califica(aislamiento, repartido, nb, tmp_path)
    assert r.puntos() == 0
    assert "No module named 'numpy'" in r.motivo  # lo que ha pasado, con las palabras de Python
    assert "tu código importa «numpy», que no es de la biblioteca estándar" in r.motivo, r.motivo
    assert "sin paquetes" in r.motivo and "Escribe esa parte sin «numpy»" in r.motivo


def test_un_import_de_la_biblioteca_estandar_o_dentro_de_un_try_no_lleva_nota(aislamiento, repartido, tmp_path):
    codigo = "import statistics\ntry:\n    import numpy\nexcept ImportError:\n    numpy = None\n\n" + SOLUCION
    r = califica(aislamiento, repartido, con_solucion(repartido[1], codigo), tmp_path)
    assert r.puntos() == 10, r.motivo
    assert r.motivo == "" and r.notas == ()


def test_la_solucion_partida_en_dos_celdas_dice_como_juntarlas(aislamiento, repartido, tmp_path):
    """Dividir la celda en Jupyter: las dos mitades con los metadatos de la de la solución."""
    nb = con_solucion(repartido[1], SOLUCION)
    i = _indice_de_la_solucion(nb)
    primera, segunda = copy.deepcopy(nb.cells[i]), nb.cells[i]
    corte = SOLUCION.index("def ejecutar")
    primera.source, segunda.source = SOLUCION[:corte] or "import json\n", SOLUCION[corte:]
    primera["id"] = "mitad"
    nb.cells.insert(i, primera)
    r = califica(aislamiento, repartido, nb, tmp_path)
    assert r.puntos() == 0 and not r.calificable
    assert "está repetida" in r.motivo and "dividir la celda" in r.motivo, r.motivo
    assert "Mayús+M" in r.motivo


def test_la_solucion_en_una_celda_nueva_dice_donde_ponerla(aislamiento, repartido, tmp_path):
    nb = copy.deepcopy(repartido[1])
    i = _indice_de_la_solucion(nb)
    del nb.cells[i]
    nb.cells.insert(i, nbformat.v4.new_code_cell(SOLUCION))
    r = califica(aislamiento, repartido, nb, tmp_path)
    assert r.puntos() == 0 and not r.calificable
    assert "falta la celda de la solución" in r.motivo
    assert "tu código está en una celda nueva" in r.motivo and "«Tu solución»" in r.motivo, r.motivo


def test_sin_celda_nueva_no_se_habla_de_ella(aislamiento, repartido, tmp_path):
    nb = copy.deepcopy(repartido[1])
    del nb.cells[_indice_de_la_solucion(nb)]
    r = califica(aislamiento, repartido, nb, tmp_path)
    assert "falta la celda de la solución" in r.motivo and "celda nueva" not in r.motivo
