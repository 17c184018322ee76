"""Chromium de Debian contra el sitio construido, servido por `curso servir` en 127.0.0.1.

Cada prueba abre un contexto nuevo (caché vacía) vigilado: cualquier petición a otro host,
petición fallida, respuesta >= 400 o error de consola hace fallar la prueba, al cerrar su
pestaña (el fixture pagina lo comprueba; la prueba no tiene que acordarse). La que los
provoca a propósito (un módulo que no está) lo dice con @pytest.mark.con_problemas. Una
prueba que necesita otra pestaña aparte la abre con `pestana_vigilada`, que comprueba lo mismo
al cerrarla.
"""

import threading
from contextlib import contextmanager
from urllib.parse import urlparse

import pytest

from cursos.manifiesto import leer_curso
from cursos.sitio import SITIO
from cursos.sitio.construir import construir, hace_falta_construir
from cursos.sitio.servir import crea_servidor, url_de


@pytest.fixture(scope="session")
def curso():
    return leer_curso()


@pytest.fixture(scope="session")
def sitio(curso):
    if hace_falta_construir(curso):
        construir(curso)
    return SITIO


@contextmanager
def servido(sitio, subruta: str = "/"):
    """La URL del sitio servido como `curso servir`, en un puerto libre, mientras dura el with."""
    servidor = crea_servidor(sitio, 0, subruta)
    hilo = threading.Thread(target=servidor.serve_forever, daemon=True)
    hilo.start()
    try:
        yield url_de(servidor)
    finally:
        servidor.shutdown()
        servidor.server_close()


@pytest.fixture(scope="session")
def url_raiz(sitio):
    with servido(sitio) as url:
        yield url


@pytest.fixture(scope="session")
def url_subruta(sitio):
    with servido(sitio, "/curso/") as url:
        yield url


def _del_service_worker(peticion) -> bool:
    try:
        return peticion.service_worker is not None
    except AttributeError:
        return False


class Vigilante:
    """Apunta todo lo que un sitio autoalojado y sano no debe hacer.

    Lo que deja pasar a sabiendas (el intento de attachment:… de JupyterLab) lo apunta aparte, en
    perdonados, para la prueba que quiere ver que ni eso ocurre.
    """

    def __init__(self, contexto, pagina):
        self.problemas = []
        self.perdonados = []
        contexto.on("request", self._peticion)
        contexto.on("requestfailed", self._fallida)
        contexto.on("response", lambda r: r.status >= 400 and self.problemas.append(f"HTTP {r.status}: {r.url}"))
        pagina.on("console", self._consola)
        pagina.on("pageerror", lambda e: self.problemas.append(f"excepción en la página: {e}"))
        pagina.on("worker", lambda w: w.on("console", self._consola))

    def _peticion(self, peticion):
        url = urlparse(peticion.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname != "127.0.0.1":
            self.problemas.append(f"fuera del sitio: {peticion.url}")

    def _fallida(self, peticion):
        # JupyterLab pinta el Markdown con src="attachment:…" y sólo después pone la imagen
        # adjunta: ese primer intento falla dentro del navegador, sin salir a ninguna red.
        if peticion.url.startswith("attachment:"):
            self.perdonados.append(f"fallida: {peticion.url} ({peticion.failure})")
            return
        # El service worker pregunta a la caché HTTP del navegador (only-if-cached) por lo que
        # quizá ya bajó: lo que no está falla con ERR_CACHE_MISS sin salir a ninguna red.
        if peticion.failure == "net::ERR_CACHE_MISS" and _del_service_worker(peticion):
            return
        self.problemas.append(f"fallida: {peticion.url} ({peticion.failure})")

    def _consola(self, mensaje):
        if mensaje.type == "error" and (mensaje.location or {}).get("url", "").startswith("attachment:"):
            self.perdonados.append(f"consola: {mensaje.text}")
            return  # el mismo intento de arriba, contado también en la consola
        if mensaje.type == "error":
            self.problemas.append(f"consola: {mensaje.text}")


def pytest_configure(config):
    config.addinivalue_line("markers", "con_problemas: la prueba provoca a propósito peticiones fallidas o errores")


def sin_problemas(pagina) -> None:
    """Lo que ha visto el vigilante de la pestaña hasta ahora, vacío (p. ej. antes de cortar la red a propósito)."""
    pagina.evaluate("0")  # ida y vuelta: los eventos de consola pendientes ya han llegado
    assert pagina.vigilante.problemas == [], "\n".join(pagina.vigilante.problemas)


@contextmanager
def pestana(navegador):
    """Una pestaña en un contexto nuevo (caché vacía), con su vigilante en pagina.vigilante; cierra el contexto."""
    contexto = navegador.new_context(viewport={"width": 1280, "height": 900})
    try:
        pagina = contexto.new_page()
        pagina.vigilante = Vigilante(contexto, pagina)
        yield pagina
    finally:
        contexto.close()


@contextmanager
def pestana_vigilada(navegador):
    """Otra pestaña para una prueba que ya tiene la suya: al cerrarla sin error, sin problemas."""
    with pestana(navegador) as pagina:
        yield pagina
        sin_problemas(pagina)


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
