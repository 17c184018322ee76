"""JupyterLite, lo que faltaba tras la revisión del alumno: el diálogo de reiniciar en español y
«Archivo › Descargar» con los mismos metadatos de cuaderno que «Descargar para entregar» de la página."""

import json

from cursos.desafio import Desafio
from cursos.sitio.lite import ruta_del_desafio
from tests.navegador.ayudas import CURSO, ESPERA, NUCLEO_LISTO

LECCION = next(lc for lc in CURSO.lecciones if lc.desafio)


def _abre_el_desafio(pagina, url_raiz):
    pagina.goto(f"{url_raiz}lite/notebooks/index.html?path={ruta_del_desafio(CURSO, LECCION)}")
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate("() => window.jupyterapp.shell.currentWidget.context.ready")
    pagina.evaluate(NUCLEO_LISTO)


def test_el_dialogo_de_reiniciar_esta_en_espanol(pagina, url_raiz):
    _abre_el_desafio(pagina, url_raiz)
    pagina.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }")
    dialogo = pagina.locator(".jp-Dialog-content")
    dialogo.wait_for(timeout=ESPERA)
    texto = dialogo.inner_text()
    assert "¿Reiniciar el núcleo de" in texto and "Se perderán todas las variables" in texto, texto
    assert "Do you want" not in texto and "ask me again" not in texto, texto
    pagina.keyboard.press("Escape")


def test_la_descarga_de_jupyterlite_lleva_los_metadatos_del_repartido(pagina, url_raiz):
    repartido = pagina.request.get(
        f"{url_raiz}courses/{CURSO.slug}/{LECCION.slug}/{Desafio(LECCION.desafio).cuaderno}"
    ).json()
    _abre_el_desafio(pagina, url_raiz)
    pagina.evaluate("() => { window.prompt = () => 'alu-0427'; }")
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.evaluate("() => { window.jupyterapp.commands.execute('docmanager:download'); }")
    bajado = json.loads(open(espera.value.path(), encoding="utf-8").read())
    for clave in ("kernelspec", "language_info"):
        assert bajado["metadata"][clave] == repartido["metadata"][clave], clave
    assert bajado["metadata"]["curso"]["alumno"] == "alu-0427"
