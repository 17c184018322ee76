"""Lo que comparten las pruebas del navegador (las pruebas no se importan unas de otras)."""

import hashlib
import os
import shutil
import subprocess
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.pyodide.distribucion import ruta_en_el_sitio
from cursos.salidas import afirmaciones, fallos
from cursos.sitio import RECURSOS
from cursos.sitio.construir import escribe_laboratorio, escribe_lite
from cursos.sitio.paginas import pagina_de_inicio, pagina_de_leccion
from cursos.sitio.servir import crea_servidor, url_de

CURSO = leer_curso()
ESPERA = 180_000  # ms; sólo un techo para no colgarse: los tiempos están en bench/


def url_de_leccion(base, leccion):
    return f"{base}courses/{CURSO.slug}/{leccion.slug}/index.html"


def espera_celdas(pagina):
    """Hasta que ninguna celda esté sin ejecutar o ejecutándose."""
    pagina.wait_for_function(
        "() => [...document.querySelectorAll('.celda')].every(c => ['hecha', 'error'].includes(c.dataset.estado))",
        timeout=ESPERA,
    )


def escribe_codigo(pagina, caja: str, codigo: str) -> None:
    """Como un alumno: «Editar» (o clic en el editor ya abierto), seleccionarlo todo y pegar `codigo`.

    `caja` es el selector de la celda o del desafío. Espera a que lo escrito esté guardado.
    """
    # El editor llega aparte (editor.mjs, después de los botones de ejecutar): hasta entonces no hay «Editar».
    pagina.wait_for_selector(f"{caja} button.editar:visible, {caja} .cm-content", timeout=ESPERA)
    editar = pagina.locator(f"{caja} button.editar")
    if editar.is_visible():
        editar.click()
    else:
        pagina.locator(f"{caja} .cm-content").click()
    pagina.wait_for_selector(f"{caja} .codigo-editable[data-modo=editando] .cm-content:focus")
    pagina.keyboard.press("Control+a")
    pagina.keyboard.insert_text(codigo)
    pagina.wait_for_function(
        "([caja, codigo]) => document.querySelector(caja).codigoActual() === codigo", arg=[caja, codigo]
    )


def codigo_de(pagina, caja: str) -> str:
    """El código que ahora se ejecutaría en la celda o el desafío (editado o no)."""
    pagina.wait_for_function("caja => document.querySelector(caja).codigoActual", arg=caja)
    return pagina.evaluate("caja => document.querySelector(caja).codigoActual()", caja)


def salidas(pagina) -> dict[int, tuple[str, str]]:
    """{número de celda: (estado, texto de su salida)}."""
    return {
        int(c.get_attribute("data-celda")): (c.get_attribute("data-estado"), c.locator(".salida").inner_text())
        for c in pagina.locator(".celda").all()
    }


def comprueba_afirmaciones(leccion, vistas, afirmadas=None):
    """Lo que afirma su salidas.toml, en las salidas vistas. Una lección de otra raíz (la copia de
    la guía de autores) trae sus afirmaciones ya leídas en afirmadas."""
    afirmadas = afirmaciones(leccion) if afirmadas is None else afirmadas
    for numero, lineas in afirmadas.items():
        assert fallos(vistas[numero][1], lineas) == [], f"celda {numero} de {leccion.slug}"


# Los paquetes de npm de las pruebas (ESLint, axe-core), fijados con su huella.

JAVASCRIPT = RAIZ / "tests" / "javascript"


def paquetes_de_npm() -> Path:
    """tests/javascript/node_modules con lo que fija su package-lock.json: `npm ci` la primera vez
    o si el lock ha cambiado desde la última (lo apunta en node_modules/.huella)."""
    huella = hashlib.sha256((JAVASCRIPT / "package-lock.json").read_bytes()).hexdigest()
    sello = JAVASCRIPT / "node_modules" / ".huella"
    if sello.exists() and sello.read_text() == huella:
        return sello.parent
    npm = shutil.which("npm")
    if not npm:
        pytest.fail("falta npm para instalar tests/javascript: ./curso pruebas lo instala con apt-get")
    hecho = subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=JAVASCRIPT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert hecho.returncode == 0, f"npm ci en {JAVASCRIPT} ha fallado:\n{hecho.stdout[-2000:]}{hecho.stderr[-2000:]}"
    sello.write_text(huella)
    return sello.parent


# En el desafío de la página.


def montado(pagina):
    """Tras abrir o recargar: el gancho ha puesto el código guardado y activado los botones."""
    pagina.wait_for_selector("#desafio button.comprobar-desafio:enabled")


def comprueba(pagina) -> str:
    """Pulsa «Comprobar» y espera al resultado; devuelve lo que dice."""
    pagina.click("button.comprobar-desafio")
    pagina.wait_for_function(
        "() => ['todas', 'faltan', 'error'].includes(document.querySelector('#desafio').dataset.resultado)",
        timeout=ESPERA,
    )
    return pagina.locator(".resultado-desafio").inner_text()


# En JupyterLite.

# El núcleo está listo cuando contesta a kernel_info, no cuando lo dice el indicador de la barra:
# sigue el estado de la sesión, que puede ir por delante del núcleo, y lo que se manda antes no se ejecuta.
NUCLEO_LISTO = """async () => {
  const contexto = window.jupyterapp.shell.currentWidget.sessionContext;
  await contexto.ready;
  await contexto.session.kernel.info;
}"""
# La celda de preparación lleva el código plegado y JupyterLab no pinta su número: se mira el resto.
TODAS_EJECUTADAS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
  .filter(c => !c.querySelector('.jp-InputPlaceholder'))
  .every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt').textContent))"""


# El sitio servido y las pestañas vigiladas (los fixtures de conftest.py los usan).


@contextmanager
def servido(sitio, subruta: str = "/", politica: str | None = None):
    """La URL del sitio servido como `curso servir`, en un puerto libre, mientras dura el with
    (politica: la cabecera CSP, si no es la del sitio construido)."""
    servidor = crea_servidor(sitio, 0, subruta, politica)
    hilo = threading.Thread(target=servidor.serve_forever, daemon=True)
    hilo.start()
    try:
        yield url_de(servidor)
    finally:
        servidor.shutdown()
        servidor.server_close()


def sitio_con_servidores(sitio: Path, destino: Path, curso, lite: bool = True) -> Path:
    """El sitio construido con sus páginas y JupyterLite (que con servidores del modelo lleva el
    cuaderno del laboratorio) hechos otra vez para `curso`, con enlaces duros a lo demás: Pyodide
    y las lecciones no cambian, y así no hace falta construir dos sitios. Con lite=False, el
    JupyterLite del sitio tal cual (sin el cuaderno del laboratorio), que no se construye: minutos menos."""
    recursos = next(sitio.glob("recursos-*")).name
    propios = ("index.html", "laboratorio", recursos, *(("lite",) if lite else ()))
    shutil.copytree(
        sitio,
        destino,
        copy_function=os.link,
        ignore=lambda carpeta, nombres: [n for n in nombres if Path(carpeta) == sitio and n in propios],
    )
    # Los recursos de ahora con el nombre de los del sitio (el service worker los nombra así).
    shutil.copytree(RECURSOS, destino / recursos, ignore=shutil.ignore_patterns("__pycache__", "sw.js"))
    for generado in ("resaltado.css", "codemirror.mjs"):
        shutil.copy2(sitio / recursos / generado, destino / recursos / generado)
    pyodide = ruta_en_el_sitio()
    (destino / "index.html").write_text(pagina_de_inicio(curso, recursos + "/"), encoding="utf-8")
    for leccion in curso.lecciones:
        pagina = destino / "courses" / curso.slug / leccion.slug / "index.html"
        pagina.unlink()  # es un enlace al del sitio construido: no escribir a través de él
        pagina.write_text(pagina_de_leccion(curso, leccion, pyodide, recursos + "/"), encoding="utf-8")
    escribe_laboratorio(curso, destino, pyodide, recursos + "/")
    if lite:
        escribe_lite(curso, destino, pyodide, destino.with_name("lite-trabajo"), huella="0" * 16)
    return destino


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
        # Cancelada por el propio navegador (la prueba recarga o sale de la página con un fetch a
        # medias, p. ej. el de lite/jupyter-lite.json al registrar el service worker): no es un
        # fallo del sitio. Lo que falta de verdad llega como HTTP 404, y lo cortado, como ERR_FAILED.
        if peticion.failure == "net::ERR_ABORTED":
            return
        self.problemas.append(f"fallida: {peticion.url} ({peticion.failure})")

    def _consola(self, mensaje):
        if mensaje.type == "error" and (mensaje.location or {}).get("url", "").startswith("attachment:"):
            self.perdonados.append(f"consola: {mensaje.text}")
            return  # el mismo intento de arriba, contado también en la consola
        if mensaje.type == "error":
            self.problemas.append(f"consola: {mensaje.text}")


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
