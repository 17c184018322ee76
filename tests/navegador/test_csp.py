"""La Content-Security-Policy del sitio construido con el manifiesto del curso (sin servidores del modelo).

Cada página de las plantillas la lleva en su <meta>, `curso servir` la manda en la cabecera de cada
respuesta (también a JupyterLite y a los scripts de los workers), y sólo deja conectar con el propio
sitio: una petición a otro origen la bloquea el navegador antes de salir.
"""

import re
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cursos.sitio.servir import politica_de_contenido, politica_de_jupyterlite
from tests.navegador.ayudas import pestana

from .ayudas import ESPERA, url_de_leccion

META = '<meta http-equiv="Content-Security-Policy" content="%s">'


def _paginas(sitio):
    return [sitio / "index.html", *sorted((sitio / "courses").glob("*/*/index.html"))]


def test_cada_pagina_lleva_la_politica_que_solo_deja_el_sitio(sitio, curso):
    assert curso.servidores_del_modelo == (), "el manifiesto del curso no nombra servidores"
    politica = politica_de_contenido()
    assert "connect-src 'self'" in politica and politica.endswith("connect-src 'self'")
    paginas = _paginas(sitio)
    assert len(paginas) == len(curso.lecciones) + 1
    for pagina in paginas:
        assert (META % politica.replace("'", "&#39;")) in pagina.read_text(encoding="utf-8"), pagina
    assert not (sitio / "laboratorio").exists(), "sin servidores, no hay página del laboratorio"
    assert "laboratorio/" not in (sitio / "index.html").read_text(encoding="utf-8")
    assert sitio.with_name(sitio.name + ".csp").read_text(encoding="utf-8") == politica


@pytest.mark.parametrize(
    "ruta",
    [
        "index.html",
        "courses/llm-agents/los-errores/index.html",
        "sw.js",
        "lite/lab/index.html",
        "lite/service-worker.js",
    ],
)
def test_servir_manda_la_misma_politica(url_raiz, ruta):
    """La de las páginas; en JupyterLite, la misma con 'unsafe-eval' (JupyterLab compila sus esquemas)."""
    with urllib.request.urlopen(url_raiz + ruta) as respuesta:
        politica = respuesta.headers["Content-Security-Policy"]
    if ruta.startswith("lite/"):
        assert politica == politica_de_jupyterlite(politica_de_contenido())
        assert politica.replace(" 'unsafe-eval'", "") == politica_de_contenido()
    else:
        assert politica == politica_de_contenido() and "'unsafe-eval'" not in politica


@pytest.fixture(scope="module")
def otro_origen():
    """Un servidor en otro puerto de 127.0.0.1 que contesta a todo (con CORS): sólo lo para la CSP."""

    class Contesta(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("access-control-allow-origin", "*")
            self.end_headers()
            self.wfile.write(b"hola")

        def log_message(self, *args):
            pass

    servidor = ThreadingHTTPServer(("127.0.0.1", 0), Contesta)
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % servidor.server_address[1]
    servidor.shutdown()
    servidor.server_close()


@pytest.mark.con_problemas  # la petición bloqueada sale en la consola: es lo que se prueba
def test_una_leccion_no_puede_llamar_a_otro_origen(navegador, url_raiz, curso, otro_origen):
    with urllib.request.urlopen(otro_origen) as r:
        assert r.read() == b"hola", "el otro servidor contesta: si la página no llega, es por la CSP"
    with pestana(navegador) as pagina:
        pagina.goto(url_de_leccion(url_raiz, curso.lecciones[0]))
        pagina.wait_for_function("() => window.performance.getEntriesByType('resource').length > 0", timeout=ESPERA)
        visto = pagina.evaluate(
            """async (url) => {
          const bloqueadas = [];
          document.addEventListener("securitypolicyviolation",
                                    (e) => bloqueadas.push([e.blockedURI, e.effectiveDirective]));
          let propio, otro;
          try { propio = (await fetch("index.html")).status; } catch { propio = "no ha salido"; }
          try { otro = (await fetch(url)).status; } catch { otro = "no ha salido"; }
          await new Promise((listo) => setTimeout(listo, 100));
          return {propio, otro, bloqueadas};
        }""",
            otro_origen,
        )
    assert visto["propio"] == 200 and visto["otro"] == "no ha salido"
    # Una vez por política: la de la <meta> y la de la cabecera, las dos la bloquean.
    assert {tuple(b) for b in visto["bloqueadas"]} == {(otro_origen, "connect-src")}


def test_jupyterlite_no_tiene_scripts_en_linea(sitio):
    """script-src 'self' no deja ejecutar código en línea: la construcción lo saca a ficheros al lado."""
    paginas = sorted((sitio / "lite").rglob("*.html"))
    assert paginas
    for pagina in paginas:
        html = pagina.read_text(encoding="utf-8")
        assert "<script>" not in html, pagina
        for nombre in re.findall(r'<script src="(arranque\.[0-9a-f]{16}\.js)"></script>', html):
            assert (pagina.parent / nombre).exists(), (pagina, nombre)
