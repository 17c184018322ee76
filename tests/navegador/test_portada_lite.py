"""La portada de los cuadernos en JupyterLite (lite/files/00-portada.ipynb, del sitio construido):
enlaza a cada cuaderno de lección y de desafío que hay en el sitio, y la portada del sitio la abre."""

import re
from urllib.parse import unquote

from cursos.manifiesto import leer_curso
from cursos.portada import NOMBRE
from cursos.sitio.lite import ruta_del_cuaderno, ruta_del_desafio
from tests.ayudas import comprueba_portada

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida


def test_la_portada_de_jupyterlite(sitio):
    archivos = sitio / "lite" / "files"
    enlaces = [unquote(r) for _, r in comprueba_portada(archivos, CURSO)]
    esperados = [r for lc in CURSO.lecciones for r in (ruta_del_cuaderno(CURSO, lc), ruta_del_desafio(CURSO, lc)) if r]
    assert enlaces == esperados  # cada lección y, detrás, el cuaderno de su desafío, en su carpeta
    assert sorted(p.name for p in archivos.iterdir())[0] == NOMBRE  # la primera del explorador
    assert f'href="lite/lab/index.html?path={NOMBRE}"' in (sitio / "index.html").read_text(encoding="utf-8")


def test_la_portada_se_abre_y_sus_enlaces_abren_los_cuadernos(pagina, url_raiz):
    pagina.goto(f"{url_raiz}lite/lab/index.html?path={NOMBRE}")
    indice = pagina.locator(".jp-RenderedMarkdown", has_text=re.compile(r"^\s*Las lecciones, en orden"))
    indice.wait_for(timeout=ESPERA)
    primera = CURSO.lecciones[0]
    indice.get_by_role("link", name=primera.titulo).click()
    pagina.wait_for_function(
        "nombre => window.jupyterapp?.shell.currentWidget?.context?.path.endsWith(nombre)",
        arg=f"{primera.slug}.ipynb",
        timeout=ESPERA,
    )
