"""Chromium de Debian contra el sitio construido, servido por `curso servir` en 127.0.0.1.

Cada prueba abre un contexto nuevo (caché vacía) vigilado: cualquier petición a otro host,
petición fallida, respuesta >= 400 o error de consola hace fallar la prueba, al cerrar su
pestaña (el fixture pagina lo comprueba; la prueba no tiene que acordarse). La que los
provoca a propósito (un módulo que no está) lo dice con @pytest.mark.con_problemas. Una
prueba que necesita otra pestaña aparte la abre con `pestana_vigilada`, que comprueba lo mismo
al cerrarla. Lo que no es un fixture ni un hook está en tests/navegador/ayudas.py.
"""

import pytest

from cursos.manifiesto import leer_curso
from cursos.sitio import SITIO
from cursos.sitio.construir import construir, hace_falta_construir
from tests.navegador.ayudas import pestana, servido, sin_problemas


@pytest.fixture(scope="session")
def curso():
    return leer_curso()


@pytest.fixture(scope="session")
def sitio(curso):
    if hace_falta_construir(curso):
        construir(curso)
    return SITIO


@pytest.fixture(scope="session")
def url_raiz(sitio):
    with servido(sitio) as url:
        yield url


@pytest.fixture(scope="session")
def url_subruta(sitio):
    with servido(sitio, "/curso/") as url:
        yield url


def pytest_configure(config):
    config.addinivalue_line("markers", "con_problemas: la prueba provoca a propósito peticiones fallidas o errores")


@pytest.fixture
def pagina(navegador, request):
    """La pestaña de la prueba: al acabar, si no ha fallado ya ni es con_problemas, sin problemas."""
    with pestana(navegador) as pagina:
        yield pagina
        if request.node.get_closest_marker("con_problemas") is None and not _fallo(request):
            sin_problemas(pagina)


def _fallo(request) -> bool:
    """¿Ya ha fallado la prueba? Entonces su fallo es el que cuenta (y la página puede estar cerrada)."""
    informe = getattr(request.node, "informe_call", None)
    return informe is not None and informe.failed


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    informe = yield
    if informe.when == "call":
        item.informe_call = informe
    return informe
