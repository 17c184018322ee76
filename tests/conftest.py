"""Utilidades comunes de las pruebas."""

import pytest

from cursos import RAIZ

MODULOS = ("guionizado.py", "entorno.py", "harness.py")


def carga_modulos() -> dict:
    """Los tres módulos cargados como en las lecciones: exec en un mismo espacio de nombres."""
    espacio = {"__name__": "__leccion__"}
    for nombre in MODULOS:
        exec((RAIZ / nombre).read_text(encoding="utf-8"), espacio)
    return espacio


@pytest.fixture
def g():
    """Un espacio de nombres nuevo con los tres módulos, como el de un cuaderno."""
    return carga_modulos()
