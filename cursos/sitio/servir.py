"""`curso servir`: sirve el sitio construido en 127.0.0.1, en la raíz o bajo una subruta.

Tipos MIME correctos (.wasm tiene que ser application/wasm para compilarse en streaming;
.mjs, JavaScript) y caché larga para lo que no cambia nunca en la misma URL: Pyodide y las
ruedas (su versión va en la ruta), los recursos de las páginas (recursos-<huella>/) y los
ficheros de JupyterLite con huella en el nombre.
Lo demás se revalida en cada visita (no-cache + Last-Modified → 304).
"""

import email.utils
import functools
import http.server
import re
import threading
from pathlib import Path

from cursos.sitio.comprimir import CODIFICACIONES

INMUTABLE = "public, max-age=31536000, immutable"

# Lo que la página puede cargar y a quién puede llamar. Todo del propio sitio ('self'); Pyodide
# compila WebAssembly ('wasm-unsafe-eval', no 'unsafe-eval'); CodeMirror y JupyterLab ponen estilos
# en línea. connect-src, además de 'self', sólo los servidores del modelo que nombra el manifiesto.
POLITICA = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; connect-src 'self'"
)


def politica_de_contenido(servidores=()) -> str:
    """La Content-Security-Policy del sitio: la misma en la <meta> de cada página y en la cabecera.

    servidores: los ServidorDelModelo del manifiesto (los de curso.servidores_del_modelo).
    """
    return " ".join([POLITICA, *(s.fuente_csp for s in servidores)])


def politica_de_jupyterlite(politica: str) -> str:
    """La de JupyterLite (lite/): la misma, con 'unsafe-eval' en script-src.

    JupyterLab compila los esquemas de sus ajustes con new Function() (ajv): sin 'unsafe-eval', la
    mitad de sus extensiones no se activan. connect-src no cambia: el núcleo tampoco sale del sitio
    más que a los servidores del manifiesto. La clave del modelo nunca pasa por JupyterLite.
    """
    estricta = "script-src 'self' 'wasm-unsafe-eval'"
    return politica.replace(estricta, estricta + " 'unsafe-eval'", 1)


def _sello_de_politica(sitio: Path) -> Path:
    """Al lado del sitio (no dentro: no se sirve), la política con que se construyó."""
    return sitio.with_name(sitio.name + ".csp")


def escribe_politica(sitio: Path, politica: str) -> None:
    _sello_de_politica(sitio).write_text(politica, encoding="utf-8")


def politica_del_sitio(sitio: Path) -> str:
    """La política con que se construyó el sitio; sin sello, la que no deja salir del origen."""
    sello = _sello_de_politica(sitio)
    return sello.read_text(encoding="utf-8").strip() if sello.exists() else politica_de_contenido()


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
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".ipynb": "application/json",
        ".whl": "application/zip",
        ".py": "text/x-python; charset=utf-8",
        ".md": "text/markdown; charset=utf-8",
    }

    def __init__(self, *args, subruta: str, politica: str, **kwargs):
        self.subruta, self.politica = subruta, politica
        super().__init__(*args, **kwargs)

    def _ruta_en_el_sitio(self) -> str | None:
        camino = self.path.split("?", 1)[0].split("#", 1)[0]
        return camino[len(self.subruta) :] if camino.startswith(self.subruta) else None

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
        comprimida = self._copia_comprimida()
        if comprimida:
            return comprimida
        return super().send_head()

    def _copia_comprimida(self):
        """La copia .br o .gz del fichero (comprimir.py), si existe y el navegador la acepta.

        Con su Content-Encoding, el tipo del original y Vary: Accept-Encoding (una caché intermedia
        no debe dar la comprimida a quien no la entiende). None: se sirve el original.
        """
        original = Path(self.translate_path(self.path))
        if not original.is_file():
            return None
        aceptadas = {c.split(";")[0].strip() for c in self.headers.get("Accept-Encoding", "").split(",")}
        for codificacion, extension in CODIFICACIONES.items():
            copia = original.with_name(original.name + extension)
            if codificacion in aceptadas and copia.is_file():
                if self._sin_cambios(original):
                    self.send_response(304)
                    self.end_headers()
                    return None
                fichero = copia.open("rb")
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(original)))
                self.send_header("Content-Encoding", codificacion)
                self.send_header("Content-Length", str(copia.stat().st_size))
                self.send_header("Last-Modified", self.date_time_string(int(original.stat().st_mtime)))
                self.end_headers()
                return fichero
        return None

    def _sin_cambios(self, original: Path) -> bool:
        """If-Modified-Since: lo que se revalida (no-cache) contesta 304 también comprimido."""
        try:
            fecha = email.utils.parsedate_to_datetime(self.headers.get("If-Modified-Since", ""))
        except (TypeError, ValueError):
            return False
        return int(original.stat().st_mtime) <= fecha.timestamp()

    def translate_path(self, path):
        ruta = self._ruta_en_el_sitio() or ""
        return super().translate_path("/" + ruta)

    def end_headers(self):
        ruta = self._ruta_en_el_sitio()
        if ruta is not None:
            self.send_header("Cache-Control", politica_de_cache(ruta))
            if Path(self.translate_path(self.path) + ".br").is_file():
                self.send_header("Vary", "Accept-Encoding")
            # También en los scripts: la de un worker sale de la cabecera de su script, no de la página.
            politica = politica_de_jupyterlite(self.politica) if ruta.startswith("lite/") else self.politica
            self.send_header("Content-Security-Policy", politica)
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


def crea_servidor(sitio: Path, puerto: int = 8000, subruta: str = "/", politica: str | None = None) -> Servidor:
    """Un servidor listo para serve_forever(); puerto 0 elige uno libre.

    politica: la Content-Security-Policy de cada respuesta; por omisión, la del sitio construido.
    """
    manejador = functools.partial(
        Manejador,
        directory=str(sitio),
        subruta=normaliza_subruta(subruta),
        politica=politica or politica_del_sitio(Path(sitio)),
    )
    return Servidor(("127.0.0.1", puerto), manejador)


def url_de(servidor: Servidor) -> str:
    host, puerto = servidor.server_address[:2]
    return f"http://{host}:{puerto}{servidor.RequestHandlerClass.keywords['subruta']}"
