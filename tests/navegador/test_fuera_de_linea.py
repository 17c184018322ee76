"""Sin conexión después de una visita completa (Chromium con context.set_offline).

Una página de lección, visitada y ejecutada una vez, se recarga y ejecuta sus celdas sin red; y la
portada, que comparte recursos con ella, se lee.
JupyterLite, visitado y ejecutado una vez, se recarga sin red en español con su cuaderno; lo que no
funciona sin red está en docs/arquitectura.md («Sin conexión»).
"""

import pytest

from cursos.manifiesto import leer_curso
from cursos.sitio.lite import url_del_cuaderno
from tests.navegador.ayudas import NUCLEO_LISTO, TODAS_EJECUTADAS, sin_problemas

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida

CONTROLADA = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
# La visita completa ha dejado Pyodide en la caché del service worker (al irse la página, o ya al pedirlo).
PYODIDE_GUARDADO = """async () => (await caches.keys()).includes('curso-inmutable')
  && !!(await (await caches.open('curso-inmutable')).match(new URL('{ruta}pyodide.asm.wasm', location.href)))"""
SALIDAS = "() => [...document.querySelectorAll('.celda .salida')].filter(s => s.textContent.trim()).length"


# «Ejecutar todo» ha terminado: ninguna celda queda sin ejecutar ni ejecutándose, y ninguna falló.
TERMINADA = """() => [...document.querySelectorAll('.celda')].every(c => c.dataset.estado === 'hecha')"""


def _ejecuta_la_leccion(pagina, url):
    pagina.goto(url)
    pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
    pagina.click("button[data-accion=ejecutar-todo]")
    pagina.wait_for_function(TERMINADA, timeout=ESPERA)


@pytest.mark.con_problemas  # sin conexión, lo que no está en caché falla: se comprueba antes, en línea
def test_una_leccion_se_recarga_y_ejecuta_sin_conexion(pagina, url_raiz):
    primera = CURSO.lecciones[0]
    url = f"{url_raiz}courses/{CURSO.slug}/{primera.slug}/"
    _ejecuta_la_leccion(pagina, url)
    con_red = pagina.evaluate(SALIDAS)
    assert con_red > 0
    sin_problemas(pagina)  # en línea, todo bien; sin red, lo que falle es a propósito

    pagina.context.set_offline(True)
    pagina.reload()
    pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
    pagina.click("button[data-accion=ejecutar-todo]")
    pagina.wait_for_function(TERMINADA, timeout=ESPERA)
    assert pagina.evaluate(SALIDAS) == con_red
    assert "No se ha podido" not in pagina.inner_text("main")
    assert pagina.evaluate(PYODIDE_GUARDADO.replace("{ruta}", _ruta_pyodide(pagina)))

    pagina.goto(url_raiz)  # la portada (precargada por el service worker): lleva a todas las lecciones
    assert all(lc.titulo in pagina.inner_text("main") for lc in CURSO.lecciones)


def _ruta_pyodide(pagina) -> str:
    return pagina.evaluate(
        "() => new URL(JSON.parse(document.getElementById('python').textContent).pyodide,"
        " new URL('../../../', location.href)).href"
    )


def _ejecuta_en_lite(pagina):
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(TODAS_EJECUTADAS, timeout=ESPERA)
    return pagina.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type*=error]").count()


@pytest.mark.con_problemas  # sin conexión, lo que no está en caché falla: se comprueba antes, en línea
def test_jupyterlite_se_recarga_sin_conexion(pagina, url_raiz):
    leccion = CURSO.lecciones[0]
    pagina.goto(url_raiz + url_del_cuaderno(CURSO, leccion))
    assert _ejecuta_en_lite(pagina) == 0
    pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
    sin_problemas(pagina)  # en línea, todo bien; sin red, lo que falle es a propósito

    pagina.context.set_offline(True)
    pagina.reload()
    assert _ejecuta_en_lite(pagina) == 0, pagina.locator(".jp-Notebook").inner_text()[-2000:]
    assert "Archivo" in pagina.locator(".lm-MenuBar-itemLabel").all_inner_texts()  # la traducción, también


# Cuándo se llama a register() y cuándo aparece la primera salida (reloj de la página).
MARCAS = """
window.__registro = null; window.__primera = null;
const registra = ServiceWorkerContainer.prototype.register;
ServiceWorkerContainer.prototype.register = function (...args) {
  window.__registro ??= performance.now();
  return registra.apply(this, args);
};
new MutationObserver(() => {
  if (window.__primera === null && [...document.querySelectorAll('.celda .salida')].some(s => s.textContent))
    window.__primera = performance.now();
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_el_service_worker_espera_a_la_primera_salida(pagina, url_raiz):
    """Al instalarse pide ~100 KB: si quien abre la página pulsa «Ejecutar todo» enseguida, se
    registra después de la primera salida; si nadie ejecuta nada, poco después de cargar."""
    pagina.add_init_script(MARCAS)
    url = f"{url_raiz}courses/{CURSO.slug}/{CURSO.lecciones[0].slug}/"
    pagina.goto(url, wait_until="domcontentloaded")
    pagina.evaluate("() => document.querySelector('button[data-accion=ejecutar-todo]').click()")
    pagina.wait_for_function("() => window.__registro !== null", timeout=ESPERA)
    primera, registro = pagina.evaluate("() => [window.__primera, window.__registro]")
    assert primera is not None and registro >= primera, (primera, registro)
    pagina.wait_for_function(CONTROLADA, timeout=ESPERA)  # y el modo sin conexión sigue llegando

    pagina.goto(url_raiz + f"courses/{CURSO.slug}/{CURSO.lecciones[1].slug}/", wait_until="load")
    pagina.wait_for_function("() => window.__registro !== null", timeout=ESPERA)  # y en la siguiente
