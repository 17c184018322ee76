"""Lo que vale para todos los desafíos, una vez y para cada uno (los que hay en desafios/)."""

import pytest

from cursos import RAIZ
from cursos.calificador.desafio import Desafio
from tests.calificador.conftest import con_solucion, ejecuta_cuaderno, genera

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
