"""Lo que vale para todos los desafíos, una vez y para cada uno (los que hay en desafios/)."""

import pytest

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.calificador.ayudas import con_solucion, ejecuta_cuaderno, genera

DESAFIOS = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))


@pytest.mark.parametrize("slug", DESAFIOS)
def test_el_cuaderno_del_alumno_se_prueba_solo(slug, tmp_path_factory):
    """La respuesta inmediata: el cuaderno repartido, con la solución, pasa sus pruebas en un kernel."""
    desafio = Desafio(slug)
    curso, cuaderno = genera(tmp_path_factory, desafio)
    carpeta = curso / "release" / desafio.slug
    nb = con_solucion(cuaderno, desafio.lee("solucion.py"), desafio)
    salida = ejecuta_cuaderno(nb, carpeta)
    for prueba in desafio.puntos():
        if prueba != "variaciones":
            assert f"✔ {prueba}" in salida


@pytest.mark.parametrize("slug", DESAFIOS)
def test_el_esqueleto_de_la_pagina_es_el_del_cuaderno_repartido(slug, tmp_path_factory):
    """La página de la lección no usa nbgrader: su esqueleto tiene que salir igual que el de release/
    (también con varias regiones de solución en la celda)."""
    desafio = Desafio(slug)
    _, cuaderno = genera(tmp_path_factory, desafio)
    celda = next(c for c in cuaderno.cells if c.metadata["nbgrader"]["grade_id"] == desafio.celda_solucion)
    assert desafio.esqueleto() == celda.source


@pytest.mark.parametrize("slug", DESAFIOS)
def test_la_solucion_pasa_tambien_las_ocultas_en_el_espacio_de_pruebas(slug):
    """Todas las pruebas de la nota, visibles y ocultas, con la solución de referencia: ninguna lanza."""
    desafio = Desafio(slug)
    g = espacio_de_pruebas(desafio)
    exec(desafio.lee("solucion.py"), g)
    assert set(g["PRUEBAS"]) == set(desafio.puntos())
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
