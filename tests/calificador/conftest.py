"""Los fixtures del calificador: el lote de cada desafío, entregado y calificado una vez por sesión.

release y postgres, que también usa tests/profesor/, están en tests/conftest.py; lo que no es un
fixture (entregas, cursos de usar y tirar, formgrader…) está en tests/calificador/ayudas.py.
"""

import pytest

from tests.calificador.ayudas import entrega_el_lote
from tests.calificador.lotes import lote_de


@pytest.fixture(scope="session")
def lote_calificado(tmp_path_factory):
    """lote_calificado(slug): el lote del desafío, entregado y calificado una sola vez por sesión
    (calificar es lo lento). Quien lo usa sólo lo lee: el curso es de todos."""
    calificados = {}

    def de(slug: str) -> dict:
        if slug not in calificados:
            calificados[slug] = entrega_el_lote(tmp_path_factory, lote_de(slug))  # lote_de dice si falta
        return calificados[slug]

    return de


@pytest.fixture(scope="module")
def lote(request, lote_calificado):
    """El lote calificado del LOTE que declara el módulo."""
    return lote_calificado(request.module.LOTE.slug)
