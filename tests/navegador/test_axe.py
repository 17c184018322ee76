"""Cero violaciones de axe-core (el fijado en tests/javascript/package-lock.json), como las cuenta
un lector de pantalla o el teclado: en la portada, en una lección de cada bloque con una celda
ejecutada (y, si tiene desafío, con «Comprobar» hecho) y en la página del laboratorio con su tabla.

axe se inyecta con page.evaluate: la CSP del sitio no deja un <script> en línea
(page.add_script_tag), y así no hace falta quitarla para la prueba.
"""

import dataclasses

import pytest

from cursos.manifiesto import ServidorDelModelo
from cursos.sitio.servir import politica_de_contenido
from tests.ayudas import modelos_que_obedecen
from tests.navegador.ayudas import (
    CURSO,
    ESPERA,
    comprueba,
    montado,
    paquetes_de_npm,
    servido,
    sitio_con_servidores,
    url_de_leccion,
)

# Una lección por bloque, la primera de cada uno.
POR_BLOQUE = [next(lc for lc in CURSO.lecciones if lc.bloque == b.slug) for b in CURSO.bloques]

# Las violaciones, cada una con su regla, su gravedad y dónde (los selectores de sus nodos).
VIOLACIONES = """async () => {
  const { violations } = await axe.run(document, { resultTypes: ["violations"] });
  const donde = (v) => v.nodes.map((n) => n.target.join(" ")).join(", ");
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}; en ${donde(v)}`);
}"""


@pytest.fixture(scope="module")
def axe():
    return (paquetes_de_npm() / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def violaciones(pagina, axe) -> list[str]:
    if not pagina.evaluate("() => 'axe' in window"):
        pagina.evaluate(axe)
    return pagina.evaluate(VIOLACIONES)


def test_axe_ve_una_violacion_de_verdad(pagina, url_raiz, axe):
    """Inyectado así, axe mira la página de verdad: una imagen sin texto alternativo, la ve."""
    pagina.goto(url_raiz + "index.html")
    pagina.evaluate("() => document.querySelector('main').append(document.createElement('img'))")
    assert [v for v in violaciones(pagina, axe) if v.startswith("image-alt ")], "axe no ha mirado la página"


def test_la_portada(pagina, url_raiz, axe):
    pagina.goto(url_raiz + "index.html")
    pagina.wait_for_load_state("load")
    assert violaciones(pagina, axe) == []


@pytest.mark.parametrize("leccion", POR_BLOQUE, ids=lambda lc: lc.slug)
def test_una_leccion_de_cada_bloque_con_una_celda_ejecutada(pagina, url_raiz, axe, leccion):
    pagina.goto(url_de_leccion(url_raiz, leccion))
    numero = pagina.locator(".celda").first.get_attribute("data-celda")
    pagina.click(f"#celda-{numero} button[data-accion=ejecutar]")
    pagina.wait_for_selector(f"#celda-{numero}[data-estado=hecha]", timeout=ESPERA)
    if leccion.desafio:
        montado(pagina)
        assert comprueba(pagina)  # con el código de partida: las pruebas dicen qué falta
    assert violaciones(pagina, axe) == []


@pytest.fixture(scope="module")
def sitio_del_laboratorio(sitio, tmp_path_factory):
    """El sitio con un servidor del modelo (local, sin clave) en el manifiesto: con la página del laboratorio."""
    with modelos_que_obedecen(local=None) as urls:
        servidores = (ServidorDelModelo("El local", urls["local"] + "/v1", "openai", "sordo", False),)
        curso = dataclasses.replace(CURSO, servidores_del_modelo=servidores)
        destino = sitio_con_servidores(sitio, tmp_path_factory.mktemp("laboratorio") / "sitio", curso, lite=False)
        with servido(destino, politica=politica_de_contenido(servidores)) as url:
            yield url


def test_el_laboratorio_con_su_tabla(pagina, sitio_del_laboratorio, axe):
    pagina.goto(sitio_del_laboratorio + "laboratorio/index.html")
    pagina.wait_for_load_state("load")
    assert violaciones(pagina, axe) == [], "recién cargado"
    pagina.fill("#veces", "1")
    pagina.click(".ejecutar-laboratorio")
    pagina.wait_for_function(
        "() => document.querySelector('.estado-laboratorio').textContent.startsWith('Hecho')", timeout=ESPERA * 3
    )
    assert pagina.locator(".tabla-laboratorio tbody tr").count() > 0
    assert violaciones(pagina, axe) == [], "con la tabla y el gráfico"
