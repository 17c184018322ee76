"""`curso servir`: sirve el sitio construido en 127.0.0.1, en la raíz o bajo una subruta.

Tipos MIME correctos (.wasm tiene que ser application/wasm para compilarse en streaming;
.mjs, JavaScript) y caché larga para lo que no cambia nunca en la misma URL: Pyodide y las
ruedas (su versión va en la ruta), los recursos de las páginas (recursos-<huella>/) y los
ficheros de JupyterLite con huella en el nombre.
Lo demás se revalida en cada visita (no-cache + Last-Modified → 304).
"""

import functools
import http.server
import re
import threading
from pathlib import Path

INMUTABLE = "public, max-age=31536000, immutable"
_CON_HUELLA = re.compile(r"(\.[0-9a-f]{16,}\.(js|css)$)|(^recursos-[0-9a-f]{12}/)")


def politica_de_cache(ruta: str) -> str:
    """La cabecera Cache-Control para una ruta relativa a la raíz del sitio."""
    if ruta.startswith("pyodide/") and not ruta.endswith("pyodide-lock.json"):
        return INMUTABLE
    if _CON_HUELLA.search(ruta):
        return INMUTABLE
    return "no-cache"


def normaliza_subruta(subruta: str) -> str:
    """«curso», «/curso» o «/curso/» → «/curso/»; «» o «/» → «/»."""
    limpia = subruta.strip("/")
    return f"/{limpia}/" if limpia else "/"


class Manejador(http.server.SimpleHTTPRequestHandler):
    # Cabeceras y cuerpo salen en dos escrituras: con Nagle, la segunda espera el ACK retrasado
    # del navegador (~40 ms por fichero pequeño), y la página encadena varios.
    disable_nagle_algorithm = True
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json", ".ipynb": "application/json", ".whl": "application/zip",
        ".py": "text/x-python; charset=utf-8", ".md": "text/markdown; charset=utf-8",
    }

    def __init__(self, *args, subruta: str, **kwargs):
        self.subruta = subruta
        super().__init__(*args, **kwargs)

    def _ruta_en_el_sitio(self) -> str | None:
        camino = self.path.split("?", 1)[0].split("#", 1)[0]
        return camino[len(self.subruta):] if camino.startswith(self.subruta) else None

    def send_head(self):
        ruta = self._ruta_en_el_sitio()
        if ruta is None:
            if self.path.split("?")[0] in ("/", self.subruta.rstrip("/")):
                self.send_response(302)
                self.send_header("Location", self.subruta)
                self.end_headers()
                return None
            self.send_error(404, "Fuera del sitio del curso")
            return None
        return super().send_head()

    def translate_path(self, path):
        ruta = self._ruta_en_el_sitio() or ""
        return super().translate_path("/" + ruta)

    def end_headers(self):
        ruta = self._ruta_en_el_sitio()
        if ruta is not None:
            self.send_header("Cache-Control", politica_de_cache(ruta))
        super().end_headers()

    def copyfile(self, origen, destino):
        super().copyfile(origen, destino)
        self.server.cuenta(origen.tell())

    def log_message(self, formato, *args):
        pass  # la consola queda para la URL y los errores

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # el navegador ha cerrado antes de tiempo: no es un error del sitio


class Servidor(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, direccion, manejador):
        super().__init__(direccion, manejador)
        self._cerrojo = threading.Lock()
        self.bytes_enviados = 0

    def cuenta(self, n: int) -> None:
        with self._cerrojo:
            self.bytes_enviados += n


def crea_servidor(sitio: Path, puerto: int = 8000, subruta: str = "/") -> Servidor:
    """Un servidor listo para serve_forever(); puerto 0 elige uno libre."""
    manejador = functools.partial(Manejador, directory=str(sitio), subruta=normaliza_subruta(subruta))
    return Servidor(("127.0.0.1", puerto), manejador)


def url_de(servidor: Servidor) -> str:
    host, puerto = servidor.server_address[:2]
    return f"http://{host}:{puerto}{servidor.RequestHandlerClass.keywords['subruta']}"
