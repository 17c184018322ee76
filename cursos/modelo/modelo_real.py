"""ModeloReal: un modelo de verdad con la forma del modelo guionizado.

Se llama igual que ModeloGuionizado: modelo(M) devuelve la respuesta, una lista
de bloques text y tool_use. Por eso bucle, ejecutar y el harness de cualquier
lección funcionan con él sin cambiar nada. La diferencia es quién contesta: aquí
un servidor HTTP, en uno de dos formatos:

    "anthropic"  la API Messages de Anthropic, cuyos bloques ya usa el curso;
    "openai"     las chat completions con herramientas que sirven Ollama,
                 llama-server (llama.cpp), vLLM, LM Studio y muchos proveedores.

En el protocolo de texto de «El primer agente» (ModeloReal(..., texto=True), o
cuando el modelo ya ha contestado con un str en M) no se mandan herramientas y
la respuesta es un str, como la del guion.

Los formatos en el cable están en formatos.py; la clave y sus errores, en clave.py.
Sólo usa la biblioteca estándar. En CPython la petición va con urllib; en
Pyodide (el worker de la página) con un XMLHttpRequest síncrono a través de js.
Cada petición tiene un plazo: un servidor que no contesta da un error, nunca
una espera sin fin. Los errores son ErrorDelModelo, con un mensaje en español
que dice qué hacer. La clave sólo vive en este objeto: no se escribe en ningún
mensaje, ni en repr().

La clave sólo va a su servidor: ninguna redirección se sigue (un 3xx es un
error que dice adónde mandaba), y por http:// sólo sale hacia este mismo
ordenador (127.0.0.0/8, ::1, localhost); a cualquier otro sitio, https://.
"""

import ipaddress
import json
import sys
import time
import urllib.parse

from cursos.modelo.clave import OCULTA, PARECE_CLAVE, ErrorDelModelo, _Clave, tapa  # noqa: F401
from cursos.modelo.formatos import (  # noqa: F401
    ANTHROPIC,
    FORMATOS,
    MAX_ANIDADO,
    OPENAI,
    ROLES,
    RUTAS,
    VERSION_ANTHROPIC,
    anidado,
    argumentos,
    bloques_anthropic,
    contenido_como_texto,
    en_texto,
    herramientas_para,
    llamada,
    mensajes_openai,
    parece_una_llamada_escrita,
    peticion_anthropic,
    peticion_openai,
    respuesta_anthropic,
    respuesta_openai,
    texto_del_modelo,
)

# --- El transporte ----------------------------------------------------------------------


def en_el_navegador():
    return sys.platform == "emscripten"


def es_local(anfitrion):
    """¿Es este mismo ordenador? localhost, 127.0.0.0/8 o ::1: lo único a lo que una clave va por http://."""
    anfitrion = (anfitrion or "").lower()
    if anfitrion == "localhost":
        return True
    try:
        return ipaddress.ip_address(anfitrion).is_loopback
    except ValueError:
        return False


def comprueba_url(url, con_clave):
    """Un ErrorDelModelo si la URL no es http(s), o si es http:// a otro ordenador con una clave."""
    partes = urllib.parse.urlsplit(url)
    if partes.scheme not in ("http", "https") or not partes.hostname:
        raise ErrorDelModelo(
            "la URL del modelo tiene que empezar por https:// (o http:// para un modelo en este "
            "ordenador) y nombrar un servidor: %s" % tapa(url)
        )
    if partes.scheme == "http" and con_clave and not es_local(partes.hostname):
        raise ErrorDelModelo(
            "la clave no se manda sin cifrar: %s es http:// y no es este ordenador. Usa https://, "
            "o http:// sólo con localhost, 127.0.0.1 o ::1" % partes.hostname
        )


def _redireccion(url, estado, destino):
    """El error de un 3xx: la petición no se repite en otro sitio, con la clave, sin que lo sepas."""
    return ErrorDelModelo(
        "HTTP %d: el servidor de %s manda la petición a otro sitio (%s) y no se sigue, porque llevaría "
        "la clave: pon en la URL la dirección final del modelo" % (estado, _anfitrion(url), _anfitrion(url, destino))
    )


def _anfitrion(url, destino=None):
    """El servidor de una URL (o del destino de una redirección, que puede ser relativo)."""
    if destino is not None:
        url = urllib.parse.urljoin(url, destino)
    return urllib.parse.urlsplit(url).hostname or "sin dirección"


def _abridor(url):
    """Un urllib que no sigue redirecciones; a este ordenador, sin pasar por ningún proxy."""
    import urllib.request

    class SinRedirecciones(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None  # sin petición nueva, el 3xx llega como HTTPError y lo trata _post_urllib

    manejadores = [SinRedirecciones()]
    if es_local(urllib.parse.urlsplit(url).hostname):
        manejadores.append(urllib.request.ProxyHandler({}))  # ni la clave ni el tráfico local a un proxy
    return urllib.request.build_opener(*manejadores)


MAX_RESPUESTA = 16 * 1024 * 1024  # bytes: más que cualquier respuesta de verdad


def _lee(r, url, plazo, fin):
    """El cuerpo entero, con el plazo para toda la respuesta (no por trozo) y un tamaño máximo."""
    trozos, leidos = [], 0
    while True:
        trozo = r.read(64 * 1024)
        if not trozo:
            return b"".join(trozos).decode("utf-8", "replace")
        leidos += len(trozo)
        trozos.append(trozo)
        if leidos > MAX_RESPUESTA:
            raise ErrorDelModelo("la respuesta de %s pasa de %d MB: no es la de un modelo" % (url, MAX_RESPUESTA >> 20))
        if time.monotonic() > fin:
            raise ErrorDelModelo(_sin_respuesta(url, plazo))


def _post_urllib(url, cabeceras, cuerpo, plazo):
    """(estado, texto) de un POST con urllib; los fallos de red y las redirecciones, como ErrorDelModelo."""
    import http.client
    import urllib.error

    try:
        return _envia_urllib(url, cabeceras, cuerpo, plazo)
    except TimeoutError:
        raise ErrorDelModelo(_sin_respuesta(url, plazo)) from None
    except urllib.error.URLError as e:
        if isinstance(e.reason, TimeoutError):
            raise ErrorDelModelo(_sin_respuesta(url, plazo)) from None
        raise ErrorDelModelo(_sin_conexion(url, e.reason)) from None
    except OSError as e:
        raise ErrorDelModelo(_sin_conexion(url, e)) from None
    except http.client.HTTPException as e:  # una respuesta cortada, o que no es HTTP
        raise ErrorDelModelo(_sin_conexion(url, "%s: %s" % (type(e).__name__, e))) from None


def _envia_urllib(url, cabeceras, cuerpo, plazo):
    import urllib.error
    import urllib.request

    peticion = urllib.request.Request(url, data=cuerpo.encode("utf-8"), headers=cabeceras, method="POST")
    fin = time.monotonic() + plazo
    try:
        with _abridor(url).open(peticion, timeout=plazo) as r:
            return r.status, _lee(r, url, plazo, fin)
    except urllib.error.HTTPError as e:  # un estado que no es 2xx: su cuerpo explica el error
        try:
            if 300 <= e.code < 400:
                raise _redireccion(url, e.code, e.headers.get("location")) from None
            return e.code, _lee(e, url, plazo, fin)
        finally:
            e.close()


def _post_xhr(url, cabeceras, cuerpo, plazo):
    """(estado, texto) de un POST con un XMLHttpRequest síncrono (en el worker de la página)."""
    import js

    if not hasattr(js, "XMLHttpRequest"):
        raise ErrorDelModelo(
            "este Python no puede hacer peticiones HTTP: usa ModeloReal en la página del "
            "curso, en JupyterLite o en tu ordenador"
        )
    xhr = js.XMLHttpRequest.new()
    xhr.open("POST", url, False)
    try:
        xhr.timeout = int(plazo * 1000)  # en un worker se puede; en la ventana, no
    except Exception:
        pass
    for nombre, valor in cabeceras.items():
        xhr.setRequestHeader(nombre, valor)
    try:
        xhr.send(cuerpo)
    except Exception as e:
        if "timeout" in str(e).lower():
            raise ErrorDelModelo(_sin_respuesta(url, plazo)) from None
        raise ErrorDelModelo(_sin_conexion(url, "el navegador no ha podido hacer la petición")) from None
    if xhr.status == 0:
        raise ErrorDelModelo(
            _sin_conexion(
                url,
                "el navegador la ha bloqueado o no hay red (¿permite el "
                "servidor el origen del sitio? ¿lo permite el sitio?)",
            )
        )
    final = str(xhr.responseURL or "")
    if final and _direccion(final) != _direccion(url):
        # El navegador sigue las redirecciones por su cuenta y la petición ya ha salido: al menos
        # la respuesta de otro sitio no se toma por la del modelo (la CSP del sitio limita adónde).
        raise ErrorDelModelo(
            "el navegador ha seguido una redirección de %s a %s: esa respuesta no se usa. Pon en la "
            "URL la dirección final del modelo" % (_anfitrion(url), _anfitrion(final))
        )
    return xhr.status, str(xhr.responseText)


def _direccion(url):
    """(esquema, servidor, puerto, ruta) de una URL, con el puerto por omisión escrito: para compararlas."""
    partes = urllib.parse.urlsplit(url)
    puerto = partes.port or {"http": 80, "https": 443}.get(partes.scheme)
    return partes.scheme, (partes.hostname or "").lower(), puerto, partes.path or "/"


def _sin_respuesta(url, plazo):
    return (
        "el modelo de %s no ha contestado en %g s: vuelve a intentarlo o da más plazo "
        "(ModeloReal(..., plazo=...))" % (url, plazo)
    )


def _sin_conexion(url, motivo):
    return "no se ha podido conectar con %s (%s): comprueba la URL y que el servidor está en marcha" % (url, motivo)


def mensaje_de_error_http(estado, texto):
    """Lo que quiere decir un estado HTTP de error, con el mensaje del servidor si lo trae."""
    try:
        datos = json.loads(texto)
        detalle = datos.get("error", {}).get("message") if isinstance(datos.get("error"), dict) else datos.get("error")
    except (ValueError, AttributeError):
        detalle = None
    detalle = " (el servidor dice: %s)" % str(detalle)[:300] if detalle else ""
    if estado in (401, 403):
        que = "el servidor rechaza la clave: revisa la clave que has escrito y el endpoint"
    elif estado == 429:
        que = "demasiadas peticiones o sin saldo: espera un poco y vuelve a ejecutar la celda"
    elif estado == 404:
        que = "esa ruta o ese modelo no existen en el servidor: revisa la URL, el nombre del modelo y el formato"
    elif estado >= 500:
        que = "el servidor del modelo ha fallado: vuelve a intentarlo más tarde"
    else:
        que = "el servidor no acepta la petición"
    return "HTTP %d: %s%s" % (estado, que, detalle)


# --- El modelo ------------------------------------------------------------------------


class ModeloReal:
    """Un modelo servido por HTTP que se llama como el guionizado: modelo(M) -> bloques.

    url: el endpoint; si no acaba en la ruta del formato (/v1/messages o
        /chat/completions), se le añade. Ejemplos: "http://127.0.0.1:11434/v1"
        (Ollama), "http://127.0.0.1:8080/v1" (llama-server).
    formato: "anthropic" u "openai".
    modelo: el nombre del modelo en ese servidor.
    clave: la clave de API, o None para un modelo local que no la pide.
    herramientas: el diccionario de herramientas (como HERRAMIENTAS); por omisión
        se busca HERRAMIENTAS al llamar, en el espacio donde se ha cargado este fichero.
    plazo: segundos que se espera cada respuesta.
    texto: True para el protocolo de texto (la respuesta es un str y no se mandan
        herramientas); por omisión, si M ya trae una respuesta en str.
    """

    def __init__(
        self, url, formato=OPENAI, modelo="", clave=None, herramientas=None, max_tokens=1024, plazo=60, texto=None
    ):
        if formato not in FORMATOS:
            raise ErrorDelModelo("formato «%s» desconocido: elige «anthropic» u «openai»" % formato)
        comprueba_url(url, bool(clave))
        self.url = url if url.rstrip("/").endswith(RUTAS[formato]) else url.rstrip("/") + RUTAS[formato]
        self.formato, self.modelo, self.max_tokens, self.plazo = formato, modelo, max_tokens, plazo
        self.herramientas, self.texto = herramientas, texto
        # Ni en repr(), ni en vars(), ni en pickle, ni en un atributo o método público: ver _Clave.
        self._clave = _Clave(clave) if clave else None
        self.peticiones = 0

    def __repr__(self):
        clave = "sí" if self._clave else "no"
        return "ModeloReal(%r, formato=%r, modelo=%r, clave: %s)" % (self.url, self.formato, self.modelo, clave)

    def _cabeceras(self):
        cabeceras = {"content-type": "application/json"}
        clave = self._clave._valor if self._clave else None
        if self.formato == ANTHROPIC:
            cabeceras["anthropic-version"] = VERSION_ANTHROPIC
            if clave:
                cabeceras["x-api-key"] = clave
            if en_el_navegador():  # la API de Anthropic sólo acepta peticiones del navegador si se dice
                cabeceras["anthropic-dangerous-direct-browser-access"] = "true"
        elif clave:
            cabeceras["authorization"] = "Bearer " + clave
        return cabeceras

    def __call__(self, M):
        try:
            return self._pregunta(M)
        except ErrorDelModelo as e:  # lo que venga del servidor puede traer la clave: nunca sale
            raise ErrorDelModelo(tapa(e, self._clave._valor if self._clave else None), e.estado) from None

    def _pregunta(self, M):
        texto = en_texto(M) if self.texto is None else self.texto
        herramientas = None if texto else self.herramientas_de_ahora()
        hace = peticion_anthropic if self.formato == ANTHROPIC else peticion_openai
        cuerpo = json.dumps(hace(M, herramientas, self.modelo, self.max_tokens), ensure_ascii=False)
        post = _post_xhr if en_el_navegador() else _post_urllib
        self.peticiones += 1
        estado, respuesta = post(self.url, self._cabeceras(), cuerpo, self.plazo)
        if estado != 200:
            raise ErrorDelModelo(mensaje_de_error_http(estado, respuesta), estado)
        bloques = self.bloques_de(respuesta)
        return "".join(b["text"] for b in bloques if b["type"] == "text") if texto else bloques

    def herramientas_de_ahora(self):
        """Las herramientas explícitas, o HERRAMIENTAS tal como esté ahora (como hace el bucle con ejecutar)."""
        if self.herramientas is not None:
            return self.herramientas
        return globals().get("HERRAMIENTAS")

    def bloques_de(self, respuesta):
        try:
            datos = json.loads(respuesta)
        except (ValueError, RecursionError):  # RecursionError: un JSON anidado sin fin
            raise ErrorDelModelo("la respuesta del modelo no es JSON: %r" % respuesta[:200]) from None
        lee = respuesta_anthropic if self.formato == ANTHROPIC else respuesta_openai
        bloques, cortada = lee(datos)
        if cortada and (not bloques or bloques[-1]["type"] == "tool_use"):
            raise ErrorDelModelo(
                "la respuesta se ha cortado al llegar a max_tokens=%d: sube max_tokens" % self.max_tokens
            )
        if not bloques:
            raise ErrorDelModelo("el modelo ha contestado sin texto y sin llamadas: vuelve a intentarlo")
        if parece_una_llamada_escrita(bloques):
            raise ErrorDelModelo(
                "el modelo ha escrito la llamada como texto en vez de usar las herramientas: "
                "este modelo (o su plantilla en el servidor) no sabe llamar herramientas; "
                "prueba con otro"
            )
        return bloques
