"""El alumno con una conexión lenta, sin conexión desde la primera visita y junto a JupyterLite.

- `curso servir` manda Pyodide comprimido (Brotli o gzip, según lo que acepte el navegador).
- La celda pulsada enseña la descarga de Python: una barra con los MB que van y los que son.
- Una lección abierta y ejecutada una sola vez funciona sin conexión, con su entrega.
- Visitar JupyterLite no borra el service worker del curso; JupyterLite nunca visitado, sin red,
  da la página «Sin conexión» del curso.
"""

import json
import threading
import urllib.request
import zipfile

import pytest

from cursos.chromium import frena, red_lenta
from cursos.manifiesto import leer_curso
from cursos.pyodide.distribucion import ruta_en_el_sitio
from cursos.sitio.lite import url_del_cuaderno
from cursos.sitio.servir import crea_servidor, url_de
from tests.navegador.ayudas import NUCLEO_LISTO, TODAS_EJECUTADAS

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida
PRIMERA = CURSO.lecciones[0]

CONTROLADA = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
GUARDADO = """async (url) => !!(await caches.match(new URL(url, location.href).href))"""
# Una red lenta para que la descarga dure lo bastante para verla (no se mide el tiempo).
RED_LENTA = red_lenta(8, 40)


def _leccion(url_raiz, leccion=PRIMERA):
    return f"{url_raiz}courses/{CURSO.slug}/{leccion.slug}/index.html"


def _pide(url, codificaciones):
    peticion = urllib.request.Request(url, headers={"Accept-Encoding": codificaciones})
    with urllib.request.urlopen(peticion) as respuesta:
        return respuesta.headers, len(respuesta.read())


def test_servir_manda_pyodide_comprimido_si_el_navegador_lo_acepta(sitio):
    carpeta = sitio / ruta_en_el_sitio()
    servidor = crea_servidor(sitio, 0)
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    try:
        url = url_de(servidor) + ruta_en_el_sitio() + "pyodide.asm.wasm"
        for aceptadas, codificacion, copia in (("br, gzip", "br", ".br"), ("gzip", "gzip", ".gz")):
            cabeceras, bytes_ = _pide(url, aceptadas)
            assert cabeceras["Content-Encoding"] == codificacion
            assert cabeceras["Content-Type"] == "application/wasm"  # el del original, no el de la copia
            assert "Accept-Encoding" in cabeceras["Vary"]
            assert "immutable" in cabeceras["Cache-Control"]
            assert bytes_ == (carpeta / f"pyodide.asm.wasm{copia}").stat().st_size
        cabeceras, bytes_ = _pide(url, "identity")
        assert cabeceras["Content-Encoding"] is None and "Accept-Encoding" in cabeceras["Vary"]
        assert bytes_ == (carpeta / "pyodide.asm.wasm").stat().st_size
    finally:
        servidor.shutdown()
    # La biblioteca estándar, con sus miembros sin comprimir (Brotli la comprime entera).
    with zipfile.ZipFile(carpeta / "python_stdlib.zip") as zip_:
        assert {m.compress_type for m in zip_.infolist()} == {zipfile.ZIP_STORED}
    grandes = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs")
    total = sum((carpeta / f"{n}.br").stat().st_size for n in grandes)
    assert total < 6_000_000, total


# Lo que enseña la celda mientras Python baja, anotado cada vez que cambia.
VIGILA_LA_DESCARGA = """() => {
  window.__descarga = [];
  new MutationObserver(() => {
    const caja = document.querySelector('.celda .descarga-python');
    if (!caja) return;
    const barra = caja.querySelector('progress');
    window.__descarga.push({ celda: caja.closest('.celda').dataset.celda, texto: caja.textContent,
      valor: barra.hasAttribute('value') ? barra.value : null, max: barra.max,
      etiqueta: document.getElementById(barra.getAttribute('aria-labelledby'))?.textContent });
  }).observe(document.querySelector('article'), { childList: true, subtree: true, characterData: true });
}"""


def test_la_celda_pulsada_ensena_la_descarga_de_python(pagina, url_raiz):
    frena(pagina, RED_LENTA)
    pagina.goto(_leccion(url_raiz), wait_until="domcontentloaded")
    pagina.evaluate(VIGILA_LA_DESCARGA)
    numero = pagina.locator(".celda").nth(1).get_attribute("data-celda")
    pagina.click(f"#celda-{numero} button[data-accion=ejecutar]")
    pagina.wait_for_selector(f"#celda-{numero}[data-estado=hecha]", timeout=ESPERA)
    vistas = pagina.evaluate("() => window.__descarga")
    assert vistas, "la celda no ha enseñado la descarga"
    assert {v["celda"] for v in vistas} == {numero}  # en la pulsada, no en la primera que se ejecuta
    bajando = [v for v in vistas if v["valor"] is not None and "Descargando Python" in v["texto"]]
    assert bajando and bajando[-1]["valor"] <= bajando[-1]["max"] < 6_000_000
    assert all(v["etiqueta"] == v["texto"] for v in bajando)  # la barra tiene nombre accesible
    assert " de " in bajando[-1]["texto"] and "MB" in bajando[-1]["texto"]
    assert any(v["texto"] == "Arrancando Python…" for v in vistas)
    assert pagina.locator(".descarga-python").count() == 0  # con Python listo, se va


def _ejecuta_la_celda(pagina, numero):
    pagina.click(f"#celda-{numero} button[data-accion=ejecutar]")
    pagina.wait_for_function(
        f"() => ['hecha', 'error'].includes(document.querySelector('#celda-{numero}').dataset.estado)", timeout=ESPERA
    )
    return pagina.locator(f"#celda-{numero}").get_attribute("data-estado")


def _primera_visita(pagina, url_raiz):
    """Abre la lección 1, ejecuta su primera celda y espera a que Pyodide y el cuaderno estén guardados."""
    pagina.goto(_leccion(url_raiz))
    numero = pagina.locator(".celda").first.get_attribute("data-celda")
    assert _ejecuta_la_celda(pagina, numero) == "hecha"
    pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
    pyodide = f"../../../{ruta_en_el_sitio()}"
    cuaderno = json.loads(pagina.inner_text("#python"))["cuaderno"]
    for ruta in (pyodide + "pyodide.asm.wasm", pyodide + "python_stdlib.zip", cuaderno):
        pagina.wait_for_function(GUARDADO, arg=ruta, timeout=ESPERA)
    return numero


@pytest.mark.con_problemas  # sin conexión, lo que no está guardado falla a propósito
def test_una_sola_visita_basta_para_ejecutar_y_entregar_sin_conexion(pagina, url_raiz):
    numero = _primera_visita(pagina, url_raiz)
    pagina.context.set_offline(True)
    pagina.reload()
    assert _ejecuta_la_celda(pagina, numero) == "hecha"
    assert pagina.locator(f"#celda-{numero} .salida").inner_text().strip()
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled", timeout=ESPERA)
    pagina.fill("#desafio input.identificador", "alu-0427")
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.click("#desafio button.entregar-desafio")
    assert espera.value.suggested_filename.endswith(".ipynb")


@pytest.mark.con_problemas
def test_jupyterlite_no_borra_el_del_curso_y_sin_red_dice_sin_conexion(pagina, url_raiz):
    numero = _primera_visita(pagina, url_raiz)
    ambitos = "() => navigator.serviceWorker.getRegistrations().then(rs => rs.map(r => r.scope).sort())"
    pagina.wait_for_function(f"async () => ({ambitos})().then(a => a.length === 2)", timeout=ESPERA)

    pagina.context.set_offline(True)  # JupyterLite nunca visitado, sin red: la página del curso
    pagina.goto(url_raiz + url_del_cuaderno(CURSO, PRIMERA))
    assert pagina.locator("h1").inner_text() == "Sin conexión"
    assert PRIMERA.titulo in pagina.inner_text("main")  # enlaza la lección guardada

    pagina.context.set_offline(False)
    pagina.goto(url_raiz + url_del_cuaderno(CURSO, PRIMERA))
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(TODAS_EJECUTADAS, timeout=ESPERA)
    assert pagina.evaluate(ambitos) == [url_raiz, url_raiz + "lite/"]  # no ha desregistrado nada

    pagina.context.set_offline(True)
    pagina.goto(_leccion(url_raiz))  # la lección, sin red, después de JupyterLite
    assert _ejecuta_la_celda(pagina, numero) == "hecha"
