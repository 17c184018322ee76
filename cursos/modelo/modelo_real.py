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
import re
import sys
import time
import urllib.parse

ANTHROPIC, OPENAI = "anthropic", "openai"
FORMATOS = (ANTHROPIC, OPENAI)
RUTAS = {ANTHROPIC: "/v1/messages", OPENAI: "/chat/completions"}
VERSION_ANTHROPIC = "2023-06-01"
ROLES = {"sistema": "system", "usuario": "user", "asistente": "assistant"}


class ErrorDelModelo(Exception):
    """El modelo no ha dado una respuesta utilizable; el mensaje dice por qué y qué hacer."""


# --- La clave --------------------------------------------------------------------------

OCULTA = "«clave oculta»"
# Lo que parece una clave en un texto que viene de fuera (el cuerpo de un error, una
# respuesta que no es JSON): sk-…, sk-ant-…, un «Bearer …» y cualquier ristra larga de
# base64 o hex con alguna cifra (las palabras y los nombres de modelo no la tienen tan larga).
PARECE_CLAVE = re.compile(r"Bearer\s+[^\s\"',;]+|\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{6,}|(?P<larga>[A-Za-z0-9+_\-]{32,}=*)")


def tapa(texto, clave=None):
    """El texto con la clave y todo lo que parece una clave cambiados por «clave oculta»."""
    texto = str(texto)
    if clave and len(clave) >= 6:  # una «clave» más corta taparía palabras sueltas
        texto = texto.replace(clave, OCULTA)

    def oculta(m):
        sin_cifras = m.group("larga") and not any(c.isdigit() for c in m.group(0))
        return m.group(0) if sin_cifras else OCULTA

    return PARECE_CLAVE.sub(oculta, texto)


class _Clave:
    """La clave de API guardada donde no se ve: ni repr(), ni str(), ni vars(), ni pickle.

    ModeloReal la guarda así, y no en un atributo normal, para que imprimir el modelo,
    sus atributos o volcarlo (pickle, un depurador que enseña vars()) no la enseñe.
    """

    __slots__ = ("_valor",)

    def __init__(self, valor):
        self._valor = valor

    def __repr__(self):
        return OCULTA

    __str__ = __repr__

    def __reduce_ex__(self, protocolo):
        raise TypeError("la clave de ModeloReal no se guarda: crea el modelo otra vez y escríbela")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


# --- De M a la petición --------------------------------------------------------


def en_texto(M):
    """¿Va M en el protocolo de texto de la primera lección? Lo dice una respuesta del modelo en str."""
    return any(rol == "asistente" and isinstance(contenido, str) for rol, contenido in M)


def contenido_como_texto(contenido):
    """El contenido de una observación como texto: las APIs no aceptan otra cosa."""
    if isinstance(contenido, str):
        return contenido
    return json.dumps(contenido, ensure_ascii=False)


def herramientas_para(herramientas):
    """Lo que el modelo ve de cada herramienta: nombre, descripción y esquema (nunca la función)."""
    return [
        {"name": nombre, "description": h.get("description", ""), "input_schema": h["input_schema"]}
        for nombre, h in (herramientas or {}).items()
    ]


def bloques_anthropic(contenido):
    """Un contenido del curso como contenido de la API Messages."""
    if isinstance(contenido, str):
        return contenido
    bloques = []
    for b in contenido:
        tipo = b.get("type")
        if tipo == "text":
            bloques.append({"type": "text", "text": b["text"]})
        elif tipo == "tool_use":
            bloques.append({"type": "tool_use", "id": b["id"], "name": b["name"], "input": b["input"]})
        elif tipo == "tool_result":
            bloque = {
                "type": "tool_result",
                "tool_use_id": b["tool_use_id"],
                "content": contenido_como_texto(b.get("content")),
            }
            if b.get("is_error"):
                bloque["is_error"] = True
            bloques.append(bloque)
    return bloques


def peticion_anthropic(M, herramientas, modelo, max_tokens):
    """El cuerpo de una petición a la API Messages: el sistema va aparte, no como mensaje."""
    sistema = [c if isinstance(c, str) else "".join(b.get("text", "") for b in c) for rol, c in M if rol == "sistema"]
    cuerpo = {
        "model": modelo,
        "max_tokens": max_tokens,
        "messages": [{"role": ROLES[rol], "content": bloques_anthropic(c)} for rol, c in M if rol != "sistema"],
    }
    if sistema:
        cuerpo["system"] = "\n\n".join(sistema)
    if herramientas:
        cuerpo["tools"] = herramientas_para(herramientas)
    return cuerpo


def mensajes_openai(rol, contenido):
    """Un mensaje del curso como uno o varios mensajes de chat completions.

    Cada observación es un mensaje de rol "tool" con el id de su llamada. Este
    formato no tiene is_error: el texto del error ya dice que lo es.
    """
    if isinstance(contenido, str):
        return [{"role": ROLES[rol], "content": contenido}]
    textos = "".join(b["text"] for b in contenido if b.get("type") == "text")
    if rol == "asistente":
        llamadas = [
            {
                "id": b["id"],
                "type": "function",
                "function": {"name": b["name"], "arguments": json.dumps(b["input"], ensure_ascii=False)},
            }
            for b in contenido
            if b.get("type") == "tool_use"
        ]
        mensaje = {"role": "assistant", "content": textos or None}
        if llamadas:
            mensaje["tool_calls"] = llamadas
        return [mensaje]
    mensajes = [
        {"role": "tool", "tool_call_id": b["tool_use_id"], "content": contenido_como_texto(b.get("content"))}
        for b in contenido
        if b.get("type") == "tool_result"
    ]
    if textos:
        mensajes.append({"role": ROLES[rol], "content": textos})
    return mensajes


def peticion_openai(M, herramientas, modelo, max_tokens):
    """El cuerpo de una petición de chat completions con herramientas."""
    cuerpo = {
        "model": modelo,
        "max_tokens": max_tokens,
        "messages": [m for rol, c in M for m in mensajes_openai(rol, c)],
    }
    if herramientas:
        cuerpo["tools"] = [
            {
                "type": "function",
                "function": {"name": h["name"], "description": h["description"], "parameters": h["input_schema"]},
            }
            for h in herramientas_para(herramientas)
        ]
    return cuerpo


# --- De la respuesta a los bloques --------------------------------------------------


def _falta(formato, que):
    return ErrorDelModelo(
        "la respuesta no tiene la forma de la API %s: falta %s. ¿Es el formato que sirve ese "
        "endpoint? Prueba con el otro formato." % (formato, que)
    )


MAX_ANIDADO = 32  # niveles de listas y objetos en los argumentos de una llamada


def anidado(valor):
    """Cuántos niveles de listas y objetos tiene un valor (sin recursión: lo que llega puede ser enorme)."""
    pendientes, niveles = [(valor, 1)], 0
    while pendientes:
        v, n = pendientes.pop()
        if isinstance(v, (dict, list)):
            niveles = max(niveles, n)
            if niveles > MAX_ANIDADO:
                return niveles
            pendientes += [(x, n + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return niveles


def texto_del_modelo(valor):
    """El texto de un bloque siempre es un str: el harness lo une con "".join()."""
    if valor is None:
        return ""
    return valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False)


def llamada(n, id, nombre, entrada):
    """Un bloque tool_use con la forma que el curso espera, llegue lo que llegue.

    El id tiene que ser un str (vuelve en el tool_result y el laboratorio lo busca); el
    nombre, un str o None (ejecutar dice entonces que la llamada no lo trae). La entrada
    se deja como venga: ejecutar rechaza la que no cumple el esquema y el modelo se entera.
    """
    if anidado(entrada) > MAX_ANIDADO:
        raise ErrorDelModelo(
            "el modelo ha mandado unos argumentos anidados en más de %d niveles: no es una llamada "
            "que se pueda ejecutar; vuelve a intentarlo o prueba con otro modelo" % MAX_ANIDADO
        )
    return {
        "type": "tool_use",
        "id": id if isinstance(id, str) and id else "llamada-%d" % n,
        "name": nombre if isinstance(nombre, str) else None,
        "input": entrada,
    }


def respuesta_anthropic(datos):
    """Los bloques de una respuesta de la API Messages."""
    if not isinstance(datos, dict) or not isinstance(datos.get("content"), list):
        raise _falta(ANTHROPIC, "la lista «content»")
    bloques = []
    for n, b in enumerate(datos["content"], 1):
        if not isinstance(b, dict):
            raise _falta(ANTHROPIC, "un bloque con «type» en «content»")
        if b.get("type") == "text":
            bloques.append({"type": "text", "text": texto_del_modelo(b.get("text"))})
        elif b.get("type") == "tool_use":
            bloques.append(llamada(n, b.get("id"), b.get("name"), b.get("input")))
    cortada = datos.get("stop_reason") == "max_tokens"
    return bloques, cortada


def argumentos(texto):
    """Los argumentos de una llamada de chat completions, que llegan como texto JSON.

    Si no son JSON se dejan como texto: ejecutar los rechazará con su error de
    esquema («los argumentos no son un objeto») y el modelo se enterará.
    """
    try:
        return json.loads(texto) if isinstance(texto, str) else texto
    except (ValueError, RecursionError):  # RecursionError: un JSON anidado sin fin
        return texto


def respuesta_openai(datos):
    """Los bloques de una respuesta de chat completions."""
    try:
        eleccion = datos["choices"][0]
        mensaje = eleccion["message"]
    except (KeyError, IndexError, TypeError):
        raise _falta(OPENAI, "«choices[0].message»") from None
    llamadas = mensaje.get("tool_calls") if isinstance(mensaje, dict) else None
    if not isinstance(mensaje, dict) or not isinstance(llamadas or [], list):
        raise _falta(OPENAI, "un objeto en «choices[0].message» con «tool_calls» en una lista")
    bloques = []
    if mensaje.get("content"):
        bloques.append({"type": "text", "text": texto_del_modelo(mensaje["content"])})
    for n, ll in enumerate(llamadas or [], 1):
        ll = ll if isinstance(ll, dict) else {}
        funcion = ll.get("function") if isinstance(ll.get("function"), dict) else {}
        bloques.append(llamada(n, ll.get("id"), funcion.get("name"), argumentos(funcion.get("arguments"))))
    return bloques, eleccion.get("finish_reason") == "length"


def parece_una_llamada_escrita(bloques):
    """¿Ha escrito el modelo una llamada como texto JSON en vez de usar las herramientas?"""
    if any(b["type"] == "tool_use" for b in bloques):
        return False
    texto = "".join(b["text"] for b in bloques).strip()
    try:
        datos = json.loads(texto)
    except ValueError:
        return False
    return isinstance(datos, dict) and "name" in datos and any(k in datos for k in ("arguments", "parameters", "input"))


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
            raise ErrorDelModelo(tapa(e, self._clave._valor if self._clave else None)) from None

    def _pregunta(self, M):
        texto = en_texto(M) if self.texto is None else self.texto
        herramientas = None if texto else self.herramientas_de_ahora()
        hace = peticion_anthropic if self.formato == ANTHROPIC else peticion_openai
        cuerpo = json.dumps(hace(M, herramientas, self.modelo, self.max_tokens), ensure_ascii=False)
        post = _post_xhr if en_el_navegador() else _post_urllib
        self.peticiones += 1
        estado, respuesta = post(self.url, self._cabeceras(), cuerpo, self.plazo)
        if estado != 200:
            raise ErrorDelModelo(mensaje_de_error_http(estado, respuesta))
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
