"""Los fixtures comunes de las pruebas, y sus capas.

Cada prueba cae en una capa por lo que usa, no por su carpeta: sus fixtures, lo caro que importa su
fichero o lo que se dice a mano de su fichero (las tablas y el porqué, en tests/ayudas.py; aquí sólo se
aplican). Las marcas están registradas en pyproject.toml:

- `navegador`: Chromium contra el sitio construido (usa su fixture, o Playwright);
- `calificador`: reparte o califica con nbgrader, arranca la caja o Pyodide bajo Node;
- `lento`: tarda minutos (sigue la guía de autores, califica todos los lotes, entrega cada desafío).

`./curso pruebas --rapidas` pasa sólo las que no tienen ninguna de las tres (un par de minutos como
mucho), también las unidades de Python puro de tests/calificador/, tests/profesor/ y tests/navegador/;
`-m calificador`, `-m navegador`… eligen una capa, como en .ci/run.
"""

import itertools

import pytest

from tests.ayudas import capas_de, carga_modulos


@pytest.fixture(scope="session")
def navegador():
    """Un solo Chromium por sesión para todas las pruebas que lo usan, estén en la carpeta que estén:
    Playwright síncrono no deja abrir un segundo mientras el primero vive (el de una prueba de
    tests/profesor/ chocaba con el de tests/navegador/)."""
    from cursos.chromium import CHROMIUM, lanza

    if not CHROMIUM.exists():
        pytest.skip("falta /usr/bin/chromium: ./curso pruebas lo instala con apt-get")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        navegador = lanza(p)
        yield navegador
        navegador.close()


@pytest.fixture(scope="session")
def release(tmp_path_factory):
    """(curso plantilla, cuaderno repartido) de permiso-en-ejecutar, generado una vez por sesión:
    lo usan tests/calificador/ y tests/profesor/ (por eso está aquí)."""
    from tests.calificador.ayudas import DESAFIO, genera

    return genera(tmp_path_factory, DESAFIO)


_BASES = itertools.count(1)


@pytest.fixture(scope="session")
def bases_postgres():
    """base_nueva(nombre) de un solo PostgreSQL de Debian por sesión (tests/calificador/ayudas.py):
    arrancarlo y pararlo cuesta ~15 s con la máquina cargada."""
    from tests.calificador.ayudas import servidor_postgres

    with servidor_postgres() as base_nueva:
        yield base_nueva


@pytest.fixture(scope="module")
def postgres(bases_postgres):
    """La db_url de una base vacía para cada módulo: lo que escribe uno no lo ve otro."""
    return bases_postgres(f"libro_{next(_BASES)}")


@pytest.fixture
def g():
    """Un espacio de nombres nuevo con los módulos compartidos, como el de un cuaderno."""
    return carga_modulos()


def pytest_addoption(parser):
    parser.addoption(
        "--rapidas",
        action="store_true",
        help="sólo las rápidas: ni navegador, ni calificador, ni lentas (un par de minutos como mucho)",
    )


def pytest_collection_modifyitems(config, items):
    rapidas, quitadas = [], []
    for item in items:
        capas = capas_de(item)
        for capa in sorted(capas):
            item.add_marker(getattr(pytest.mark, capa))
        (quitadas if capas else rapidas).append(item)
    if config.getoption("rapidas"):
        config.hook.pytest_deselected(items=quitadas)
        items[:] = rapidas
