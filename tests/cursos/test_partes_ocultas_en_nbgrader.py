"""El cuaderno fuente de nbgrader carga ocultas.py en una región oculta de la primera prueba: así
`nbgrader autograde` pasa también las partes ocultas (PARTES_OCULTAS) de cada prueba visible, y
da la misma nota que el calificador del curso (bench/califica.py compara las dos). El alumno sólo
ve `comprueba(...)`."""

import pytest

from cursos import contrato
from cursos.cuaderno_del_desafio import cuaderno_fuente, tiene_partes_ocultas
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso

DESAFIOS = [leccion.desafio for leccion in leer_curso().lecciones if leccion.desafio]


def _pruebas(cuaderno):
    return [c.source for c in cuaderno.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")]


@pytest.mark.parametrize("slug", DESAFIOS)
def test_la_primera_prueba_carga_las_partes_ocultas_antes_de_pasarse(slug):
    desafio = Desafio(slug)
    primera, *resto = _pruebas(cuaderno_fuente(desafio))
    if not tiene_partes_ocultas(desafio):  # sólo variaciones, en la última celda: nada que cargar antes
        assert primera.startswith("comprueba(") and "HIDDEN" not in primera
        return
    oculta, visible = primera.split("### END HIDDEN TESTS\n")
    assert oculta.startswith("### BEGIN HIDDEN TESTS\n") and desafio.lee("ocultas.py").strip() in oculta
    assert contrato.PARTES_OCULTAS in oculta and visible.startswith("comprueba(")
    assert all("HIDDEN" not in p for p in resto[:-1]), "las demás visibles, sin región"


@pytest.mark.parametrize("slug", DESAFIOS)
def test_lo_que_ve_el_alumno_no_trae_nada_oculto(slug):
    desafio = Desafio(slug)
    pruebas = _pruebas(cuaderno_fuente(desafio, ocultas=False))
    assert not any("HIDDEN" in p or contrato.PARTES_OCULTAS in p for p in pruebas)
    assert desafio.lee("ocultas.py").strip() not in "\n".join(pruebas)
