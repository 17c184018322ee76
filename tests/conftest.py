"""Utilidades comunes de las pruebas."""

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso


def modulos_compartidos() -> tuple[str, ...]:
    """Los módulos que comparten todas las lecciones, sacados del manifiesto (su única fuente).

    Son los que viven en la raíz del repositorio; los laboratorios de una lección, que el
    manifiesto también nombra, viven en la carpeta de su lección.
    """
    curso = leer_curso()
    return tuple(nombre for nombre in curso.modulos if curso.modulo(nombre).parent == RAIZ)


MODULOS = modulos_compartidos()


def carga_modulos() -> dict:
    """Los módulos compartidos cargados como en las lecciones: exec en un mismo espacio de nombres."""
    espacio = {"__name__": "__leccion__"}
    for nombre in MODULOS:
        exec((RAIZ / nombre).read_text(encoding="utf-8"), espacio)
    return espacio


@pytest.fixture
def g():
    """Un espacio de nombres nuevo con los módulos compartidos, como el de un cuaderno."""
    return carga_modulos()
