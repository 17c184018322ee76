"""Las páginas de lección en Chromium: todas sus celdas corren en Pyodide y dicen lo que afirman."""

import json
import re

import pytest

from cursos.preguntas import preguntas_de
from cursos.salidas import afirmaciones
from cursos.sitio.lite import ruta_del_cuaderno, ruta_del_desafio
from tests.navegador.ayudas import CURSO, ESPERA, comprueba_afirmaciones, espera_celdas, salidas, url_de_leccion


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_la_pagina_ejecuta_todas_sus_celdas(pagina, url_raiz, leccion):
    pagina.goto(url_de_leccion(url_raiz, leccion))
    # Lo que pesa Python por la red, comprimido (comprimir.py): unos 6 MB, no los 15 sin comprimir.
    assert re.search(r"unos [1-6] MB", pagina.locator(".aviso-interprete").inner_text())
    pagina.click("button[data-accion=ejecutar-todo]")
    espera_celdas(pagina)
    vistas = salidas(pagina)
    assert vistas and all(estado == "hecha" for estado, _ in vistas.values()), vistas
    comprueba_afirmaciones(leccion, vistas)
    # Preguntas pintadas y activadas por su gancho (autoevaluacion.js); el desafío, pintado.
    assert pagina.locator("[data-gancho=preguntas] .pregunta").count() == len(preguntas_de(leccion))
    assert pagina.locator("[data-gancho=preguntas] button.comprobar").count() == len(preguntas_de(leccion))
    assert pagina.locator("[data-gancho=desafio]").count() == (1 if leccion.desafio else 0)
    # Las figuras de la prosa llegan (un 404 también lo cuenta el vigilante) y se pintan al verlas
    # (son perezosas: no compiten con Python al abrir la página).
    for imagen in pagina.locator("article img").all():
        imagen.scroll_into_view_if_needed()
    # Una función, no una expresión: Playwright evalúa las expresiones con eval(), que la CSP no deja.
    pagina.wait_for_function(
        "() => [...document.querySelectorAll('article img')].every(i => i.complete && i.naturalWidth > 0)",
        timeout=ESPERA,
    )
    assert pagina.locator("article img").count() == len(leccion.imagenes)
    enlace = pagina.locator("a.abrir-lite").get_attribute("href")
    assert enlace.endswith(f"lite/notebooks/index.html?path={ruta_del_cuaderno(CURSO, leccion)}")
    if leccion.desafio:  # y al cuaderno del desafío, en la carpeta de la lección
        enlace = pagina.locator("a.abrir-desafio-lite").get_attribute("href")
        assert enlace.endswith(f"?path={ruta_del_desafio(CURSO, leccion)}")


def test_bajo_una_subruta_una_celda_ejecuta_antes_las_que_necesita(pagina, url_subruta):
    leccion = CURSO.lecciones[0]
    pagina.goto(url_de_leccion(url_subruta, leccion))
    ultima = pagina.locator(".celda").last
    assert re.search(r"se ejecutan? antes", ultima.locator(".depende").inner_text())
    ultima.locator("button[data-accion=ejecutar]").click()
    pagina.wait_for_function(
        "() => [...document.querySelectorAll('.celda')].at(-1).dataset.estado === 'hecha'"
        " || [...document.querySelectorAll('.celda')].some(c => c.dataset.estado === 'error')",
        timeout=ESPERA,
    )
    # Se han ejecutado ella y las que definen lo que usa (la nota las nombra); ninguna más.
    celdas = {c["numero"]: c for c in json.loads(pagina.locator("#celdas").text_content())}
    numero = max(celdas)
    necesarias = {numero, *celdas[numero]["depende_de"]}
    vistas = salidas(pagina)
    assert {n for n, (estado, _) in vistas.items() if estado == "hecha"} == necesarias, vistas
    comprueba_afirmaciones(
        leccion,
        {n: v for n, v in vistas.items() if n in necesarias},
        {n: a for n, a in afirmaciones(leccion).items() if n in necesarias},
    )


@pytest.mark.con_problemas  # el 404 de entorno.py es a propósito
def test_sin_un_modulo_la_celda_lo_dice_en_espanol(pagina, url_raiz):
    leccion = CURSO.lecciones[0]
    pagina.route("**/courses/*/entorno.py", lambda ruta: ruta.fulfill(status=404, body="<h1>404</h1>"))
    pagina.goto(url_de_leccion(url_raiz, leccion))
    pagina.locator(".celda").first.locator("button[data-accion=ejecutar]").click()
    pagina.wait_for_selector("#celda-1:is([data-estado=hecha], [data-estado=error])", timeout=ESPERA)
    estado, texto = salidas(pagina)[1]
    assert estado == "error"
    assert "No se ha podido descargar el módulo del curso entorno.py" in texto and "404" in texto
    assert "SyntaxError" not in texto


def test_quien_solo_lee_no_descarga_el_interprete(pagina, url_raiz):
    """Al abrir: los módulos que cargan sus celdas y el cargador (KB); el intérprete (MB), sólo al
    ir a ejecutar. La primera lección no carga harness.py ni los módulos de otras lecciones."""
    pedidas = []
    pagina.on("request", lambda peticion: pedidas.append(peticion.url.rsplit("/", 1)[-1]))
    # Sin esperas fijas: hasta que el worker ha pedido lo ligero (cada expect_request escucha
    # desde antes de abrir la página, así que ninguna petición se escapa) y la red lleva un rato
    # quieta (networkidle: 500 ms sin peticiones); si bajara el intérprete, no estaría quieta.
    ligero = [
        pagina.expect_request(lambda p, n=nombre: p.url.endswith("/" + n), timeout=ESPERA)
        for nombre in ("entorno.py", "ejecutor.py", "pyodide.mjs")
    ]
    with ligero[0], ligero[1], ligero[2]:
        pagina.goto(url_de_leccion(url_raiz, CURSO.lecciones[0]), wait_until="load")
    pagina.wait_for_load_state("networkidle", timeout=ESPERA)
    assert {"guionizado.py", "entorno.py", "ejecutor.py", "pyodide.mjs"} <= set(pedidas)
    assert not {"harness.py", "terminal.py", "web.py", "cadenas.py", "laboratorio_puerta.py"} & set(pedidas)
    assert "pyodide.asm.wasm" not in pedidas
    pagina.hover("button[data-accion=ejecutar-todo]")  # va a pulsar: ya se descarga
    pagina.wait_for_selector(".estado:has-text('Python está listo')", timeout=ESPERA)
    assert "pyodide.asm.wasm" in pedidas
