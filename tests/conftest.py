"""Utilidades comunes de las pruebas, y sus capas.

Cada prueba cae en una capa por su carpeta, su fichero o los fixtures que usa (aquí, una vez:
los ficheros de prueba no se marcan a mano). Las marcas están registradas en pyproject.toml:

- `navegador`: Chromium contra el sitio construido (`tests/navegador/`, o usa su fixture);
- `calificador`: reparte o califica con nbgrader y la caja (`tests/calificador/`, `tests/profesor/`, o lo hace);
- `lento`: tarda minutos (sigue la guía de autores, califica todos los lotes, entrega cada desafío).

`./curso pruebas --rapidas` pasa sólo las que no tienen ninguna de las tres (un par de minutos como mucho);
`-m calificador`, `-m navegador`… eligen una capa, como en .ci/run.
"""

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


@pytest.fixture
def g():
    """Un espacio de nombres nuevo con los módulos compartidos, como el de un cuaderno."""
    return carga_modulos()


# La carpeta de tests/ que da su capa a todo lo que contiene.
CAPA_DE_LA_CARPETA = {"navegador": "navegador", "calificador": "calificador", "profesor": "calificador"}
# Fixtures que traen su capa a la prueba que los usa, viva donde viva.
CAPA_DEL_FIXTURE = {
    "navegador": "navegador",
    "sitio": "navegador",
    "pagina": "navegador",
    "url_raiz": "navegador",
    "release": "calificador",
    "postgres": "calificador",
    "lote": "calificador",
    "lote_calificado": "calificador",
}
# Fixtures caros: califican los lotes de todos los desafíos (minutos).
FIXTURES_LENTOS = {"lote_calificado", "lote"}
# Ficheros que son de una capa más que la de su carpeta, y por qué (ruta desde tests/).
# test_lecciones.py (~17 s, un núcleo de Jupyter por lección) y test_laboratorio_pyodide.py
# (~9 s, Pyodide bajo Node) se quedan en las rápidas: son la primera prueba de una lección.
CAPAS_DEL_FICHERO = {
    "test_guia_de_autores.py": ("lento", "calificador"),  # ~100 s: sigue la guía en una copia y califica
    "navegador/test_entrega.py": ("lento",),  # ~2–3 min: cada desafío, de la página al libro de notas
    "test_capas.py": ("lento",),  # ~20–50 s: pytest recoge tres veces una muestra con las capas de .ci/run
}


def capas_de(item) -> set[str]:
    """Las capas de una prueba, por su carpeta, su fichero y sus fixtures."""
    if not item.path.is_relative_to(RAIZ / "tests"):
        return set()  # una prueba de fuera de tests/ (pytest la recoge si se le da su ruta): sin capa
    ruta = item.path.relative_to(RAIZ / "tests")
    capas = {CAPA_DE_LA_CARPETA[parte] for parte in ruta.parts[:-1] if parte in CAPA_DE_LA_CARPETA}
    capas.update(CAPAS_DEL_FICHERO.get(ruta.as_posix(), ()))
    fixtures = set(getattr(item, "fixturenames", ()))
    capas.update(CAPA_DEL_FIXTURE[f] for f in fixtures & CAPA_DEL_FIXTURE.keys())
    if fixtures & FIXTURES_LENTOS:
        capas.add("lento")
    return capas


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
