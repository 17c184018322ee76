"""Un solo lector de la línea de carga: los cuadernos y el calificador la reconocen igual."""

import nbformat
import pytest

from cursos import desafio as modelo
from cursos.calificador import banco
from cursos.carga import fichero_cargado, ficheros_cargados, sin_cargas
from cursos.cuadernos import cuaderno_de, ficheros_que_abre
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso

CARGA = 'exec(open("harness.py", encoding="utf-8").read())'


@pytest.mark.parametrize(
    "linea",
    [
        CARGA,
        "    " + CARGA,
        "\t" + CARGA,
        CARGA + "  # el bucle",
        "exec(open('harness.py').read())",
        'exec(open("harness.py", encoding="utf-8").read(), espacio)',
        'exec( open( "harness.py" ).read() )',
    ],
)
def test_reconoce_la_linea_de_carga_se_escriba_como_se_escriba(linea):
    assert fichero_cargado(linea) == "harness.py"


@pytest.mark.parametrize(
    "linea",
    [
        "exec(texto)",
        'print(open("harness.py").read())',
        'x = exec(open("harness.py").read())',
        "exec(open(nombre).read())",
        "\"exec(open('harness.py').read())\"",
        'exec(open("a.py", "rb").read())',
        "exec(open(",
        "",
        "# " + CARGA,
    ],
)
def test_lo_demas_no_es_una_linea_de_carga(linea):
    assert fichero_cargado(linea) is None


def test_sin_cargas_deja_python_valido_tambien_con_sangria():
    fuente = f"{CARGA}\nif True:\n    {CARGA}  # dentro\nx = 1"
    assert sin_cargas(fuente) == "if True:\n    pass\nx = 1"
    assert ficheros_cargados(fuente) == ["harness.py", "harness.py"]


def test_las_lecciones_cargan_lo_que_dice_el_lector():
    """Cada línea con exec(open( de las lecciones es una línea de carga: ninguna se escapa."""
    for leccion in leer_curso().lecciones:
        for celda in cuaderno_de(leccion).cells:
            if celda.cell_type == "code":
                sospechosas = [linea for linea in celda.source.splitlines() if "exec(open(" in linea]
                assert len(ficheros_cargados(celda.source)) == len(sospechosas), (leccion.slug, sospechosas)


def test_una_carga_con_sangria_en_la_partida_se_trata_igual_en_el_cuaderno_y_en_el_calificador(monkeypatch):
    desafio = Desafio("compacta")
    sangrada = CARGA.replace("harness.py", "otro.py")
    partida = desafio.partida() + f"\n\nif True:\n    {sangrada}  # con sangría"
    monkeypatch.setattr(modelo, "_partida", lambda d: partida)
    confianza = banco._partida_sin_cargas(desafio.partida())
    assert ficheros_cargados(confianza) == [] and "    pass" in confianza
    compile(confianza, "partida", "exec")
    cuaderno = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(partida)])
    leccion = leer_curso().leccion(desafio.leccion)
    assert ficheros_cargados(partida)[-1] == "otro.py" and "otro.py" in ficheros_que_abre(cuaderno, leccion)
