"""El modelo guionizado servido por HTTP, en los dos formatos de ModeloReal.

Sirve para probar ModeloReal contra un servidor de verdad, no contra un objeto
simulado: `./curso modelo-guionizado --puerto N` contesta en

    POST /v1/messages          la API Messages de Anthropic
    POST /v1/chat/completions  las chat completions con herramientas (OpenAI)

con las mismas comprobaciones de forma que documentan esas APIs (campos
obligatorios, cabeceras, clave). El campo "model" de la petición elige qué
contesta:

    guion-N        repite el guion N (los de --guion, o los registrados con POST /guiones)
    sordo-N        repite las respuestas N en orden, sin comprobar la conversación: la del
                   turno es la que sigue a las que ya hay del modelo en M (POST /guiones
                   con {"respuestas": [...]}); es el ModeloSordo del laboratorio de inyecciones
    sordo          lo mismo, con las respuestas registradas para la primera petición del
                   usuario en M (POST /guiones con {"respuestas": [...], "para": "…"}): un solo
                   nombre de modelo para todos los escenarios, como en la página del laboratorio
    obediente, solo-iban, destructivo, malformado, a-medias, se-niega
                   los modelos de comportamientos.py, con las respuestas de cada escenario del
                   laboratorio ya registradas: el laboratorio corre contra ellos tal cual
                   («sordo» sin nada registrado es «obediente»)
    fallo-401, fallo-429, fallo-500   ese estado, con el cuerpo de error de la API
    fallo-malformada   un 200 que no es JSON
    fallo-vacia        un 200 sin cuerpo
    fallo-eco          un 401 cuyo mensaje repite la clave recibida (hay proveedores que lo hacen)
    fallo-forma        un 200 en JSON sin la forma de la API
    fallo-lenta        contesta tarde (--demora segundos)
    fallo-escrita      escribe una llamada como texto en vez de usar herramientas
    fallo-cortada      una llamada cortada por max_tokens

El guion se comprueba como siempre, turno a turno, con la conversación
traducida de vuelta desde el formato de la petición; una divergencia es un 400
con el mensaje del guion.
"""

import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cursos import RAIZ
from cursos.errores import ErrorDelCurso
from cursos.modelo import comportamientos
from cursos.modelo import modelo_real as mr

ROLES_DEL_CURSO = {v: k for k, v in mr.ROLES.items()}


def _guionizado():
    """El módulo guionizado.py de la raíz, cargado como lo cargan las lecciones."""
    espacio = {"__name__": "guionizado"}
    exec(compile((RAIZ / "guionizado.py").read_text(encoding="utf-8"), "guionizado.py", "exec"), espacio)
    return espacio


# --- De la petición a M (lo inverso de modelo_real) ------------------------------------


def conversacion_anthropic(cuerpo):
    """La M del curso que corresponde a una petición de la API Messages."""
    M = [("sistema", cuerpo["system"])] if cuerpo.get("system") else []
    for m in cuerpo["messages"]:
        contenido = m["content"]
        if not isinstance(contenido, str):
            contenido = [dict(b) for b in contenido]
        M.append((ROLES_DEL_CURSO[m["role"]], contenido))
    return M


def conversacion_openai(cuerpo):
    """La M del curso de una petición de chat completions: los mensajes "tool" seguidos, en uno."""
    M, observaciones = [], None  # observaciones: la lista del último mensaje de mensajes "tool"
    for m in cuerpo["messages"]:
        if m["role"] == "tool":
            bloque = {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": m["content"]}
            if observaciones is None:
                observaciones = []
                M.append(("usuario", observaciones))
            observaciones.append(bloque)
            continue
        observaciones = None
        if m["role"] == "assistant" and (m.get("tool_calls") or not isinstance(m.get("content"), str)):
            bloques = [{"type": "text", "text": m["content"]}] if m.get("content") else []
            bloques += [
                {
                    "type": "tool_use",
                    "id": ll["id"],
                    "name": ll["function"]["name"],
                    "input": mr.argumentos(ll["function"]["arguments"]),
                }
                for ll in m.get("tool_calls", [])
            ]
            M.append(("asistente", bloques))
        else:
            M.append((ROLES_DEL_CURSO[m["role"]], m["content"]))
    return M


PETICION = {mr.ANTHROPIC: mr.peticion_anthropic, mr.OPENAI: mr.peticion_openai}
CONVERSACION = {mr.ANTHROPIC: conversacion_anthropic, mr.OPENAI: conversacion_openai}


def normaliza(formato, M):
    """M tal como llega al otro lado después de viajar en ese formato."""
    return CONVERSACION[formato](PETICION[formato](M, None, "", 1))


# --- De los bloques a la respuesta ----------------------------------------------------------


def respuesta_anthropic(bloques, modelo, cortada=False):
    hay_llamadas = any(b["type"] == "tool_use" for b in bloques)
    return {
        "id": "msg_guion",
        "type": "message",
        "role": "assistant",
        "model": modelo,
        "content": mr.bloques_anthropic(bloques),
        "stop_reason": "max_tokens" if cortada else ("tool_use" if hay_llamadas else "end_turn"),
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }


def respuesta_openai(bloques, modelo, cortada=False):
    (mensaje,) = mr.mensajes_openai("asistente", bloques)
    final = "length" if cortada else ("tool_calls" if mensaje.get("tool_calls") else "stop")
    return {
        "id": "chatcmpl-guion",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": modelo,
        "choices": [{"index": 0, "message": mensaje, "finish_reason": final}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


RESPUESTA = {mr.ANTHROPIC: respuesta_anthropic, mr.OPENAI: respuesta_openai}


def como_bloques(responde):
    """La respuesta de un turno del guion como bloques (en el protocolo de texto es un str)."""
    return [{"type": "text", "text": responde}] if isinstance(responde, str) else responde


def error_de_api(formato, estado, mensaje, tipo="invalid_request_error"):
    if formato == mr.ANTHROPIC:
        return estado, {"type": "error", "error": {"type": tipo, "message": mensaje}}
    return estado, {"error": {"message": mensaje, "type": tipo, "code": estado}}


class ErrorDePeticion(ErrorDelCurso):
    def __init__(self, estado, mensaje, tipo="invalid_request_error"):
        super().__init__(mensaje)
        self.estado, self.tipo = estado, tipo


# --- El modelo servido -------------------------------------------------------------------


class ModeloServido:
    """Los guiones que se sirven y lo que se contesta a cada petición (sin nada de HTTP)."""

    def __init__(self, guiones=(), clave=None, demora=5.0, laboratorio=True):
        self.guiones, self.modelos, self.sordos, self.por_peticion = {}, {}, {}, {}
        self.clave, self.demora = clave, demora
        # Los modelos del laboratorio se preparan en la primera petición que los nombra (tarda un poco).
        self.laboratorio, self.laboratorio_cargado = laboratorio, False
        self.cerrojo = threading.Lock()
        self.numeros = itertools.count(1)
        self.espacio = _guionizado()
        for guion in guiones:
            self.registra(guion)

    def registra(self, guion):
        """Añade un guion y devuelve el nombre de modelo que lo repite."""
        turnos = [{"espera": [tuple(m) for m in t["espera"]], "responde": t["responde"]} for t in guion]
        with self.cerrojo:
            nombre = "guion-%d" % next(self.numeros)
            self.guiones[nombre] = turnos
        return nombre

    def registra_sordo(self, respuestas, para=None):
        """Añade unas respuestas que se repiten sin mirar M; devuelve el nombre del modelo.

        Con para (el texto de la primera petición del usuario), las contesta el modelo «sordo»
        cuando la conversación empieza por esa petición.
        """
        with self.cerrojo:
            if para is not None:
                self.por_peticion["sordo", para] = respuestas
                return "sordo"
            nombre = "sordo-%d" % next(self.numeros)
            self.sordos[nombre] = respuestas
        return nombre

    @staticmethod
    def es_del_laboratorio(nombre):
        return nombre == "sordo" or nombre in comportamientos.COMPORTAMIENTOS

    def carga_el_laboratorio(self):
        """Las respuestas de cada comportamiento en cada escenario, sin pisar las registradas a mano."""
        with self.cerrojo:
            if self.laboratorio_cargado or not self.laboratorio:
                return
            for comportamiento, peticion, respuestas in comportamientos.todas():
                self.por_peticion.setdefault((comportamiento, peticion), respuestas)
            self.laboratorio_cargado = True

    def respuestas_para(self, nombre, M):
        peticion = next((c for rol, c in M if rol == "usuario" and isinstance(c, str)), None)
        self.carga_el_laboratorio()
        for clave in ((nombre, peticion), (comportamientos.ALIAS.get(nombre), peticion)):
            if clave in self.por_peticion:
                return self.por_peticion[clave]
        raise ErrorDePeticion(
            404,
            "el modelo «%s» no tiene respuestas para esta petición del usuario: no es la de ningún "
            'escenario del laboratorio; regístralas con POST /guiones y {"respuestas": [...], "para": "…"}' % nombre,
            "not_found_error",
        )

    def sordo(self, nombre, formato, M):
        respuestas = self.sordos[nombre] if nombre in self.sordos else self.respuestas_para(nombre, M)
        turno = sum(1 for rol, _ in M if rol == "asistente")
        if turno >= len(respuestas):
            return [{"type": "text", "text": "(el guion no tiene más respuestas)"}]
        return self.normaliza_respuesta(formato, respuestas[turno])

    def modelo_de(self, nombre, formato):
        """Un ModeloGuionizado por guion y formato, con el guion traducido como viaja en ese formato."""
        with self.cerrojo:
            if (nombre, formato) not in self.modelos:
                if nombre not in self.guiones:
                    raise ErrorDePeticion(
                        404,
                        "no hay ningún modelo «%s»; los que hay: %s"
                        % (nombre, ", ".join(sorted(self.guiones) + list(self.nombres_del_laboratorio())) or "ninguno"),
                        "not_found_error",
                    )
                turnos = [
                    {
                        "espera": normaliza(formato, t["espera"]),
                        "responde": self.normaliza_respuesta(formato, t["responde"]),
                    }
                    for t in self.guiones[nombre]
                ]
                self.modelos[nombre, formato] = self.espacio["ModeloGuionizado"](turnos)
            return self.modelos[nombre, formato]

    def nombres_del_laboratorio(self):
        """Los modelos del laboratorio que sirve (para decirlos al arrancar)."""
        return comportamientos.COMPORTAMIENTOS + ("sordo",) if self.laboratorio else ()

    @staticmethod
    def normaliza_respuesta(formato, responde):
        if isinstance(responde, str):
            return responde
        ((_, bloques),) = normaliza(formato, [("asistente", responde)])
        return bloques

    def comprueba(self, formato, cabeceras, cuerpo):
        """Las comprobaciones de forma de cada API, antes de mirar el guion."""
        if formato == mr.ANTHROPIC:
            if not cabeceras.get("anthropic-version"):
                raise ErrorDePeticion(400, "anthropic-version: header is required")
            if self.clave and cabeceras.get("x-api-key") != self.clave:
                raise ErrorDePeticion(401, "invalid x-api-key", "authentication_error")
            if not isinstance(cuerpo.get("max_tokens"), int):
                raise ErrorDePeticion(400, "max_tokens: Field required")
        elif self.clave and cabeceras.get("authorization") != "Bearer " + self.clave:
            raise ErrorDePeticion(401, "Incorrect API key provided", "invalid_api_key")
        for campo in ("model", "messages"):
            if campo not in cuerpo:
                raise ErrorDePeticion(400, "%s: Field required" % campo)

    def contesta(self, formato, cabeceras, cuerpo):
        """(estado, cuerpo JSON o texto) para una petición ya leída."""
        try:
            self.comprueba(formato, cabeceras, cuerpo)
            nombre = cuerpo["model"]
            if nombre == "fallo-eco":
                recibida = cabeceras.get("x-api-key") or cabeceras.get("authorization", "")
                return error_de_api(formato, 401, "Incorrect API key provided: %s" % recibida, "authentication_error")
            if nombre.startswith("fallo-"):
                return self.falla(formato, nombre[len("fallo-") :])
            try:
                M = CONVERSACION[formato](cuerpo)
            except (KeyError, TypeError, AttributeError) as e:
                raise ErrorDePeticion(400, "messages: mal formados (%s)" % e) from None
            if nombre in self.sordos or self.es_del_laboratorio(nombre):
                return 200, RESPUESTA[formato](como_bloques(self.sordo(nombre, formato, M)), nombre)
            modelo = self.modelo_de(nombre, formato)
            try:
                with self.cerrojo:
                    responde = modelo(M)
            except AssertionError as e:  # DivergenciaDelGuion
                raise ErrorDePeticion(400, str(e), "divergencia_del_guion") from None
            return 200, RESPUESTA[formato](como_bloques(responde), nombre)
        except ErrorDePeticion as e:
            return error_de_api(formato, e.estado, str(e), e.tipo)

    def falla(self, formato, como):
        if como in ("401", "429", "500"):
            tipos = {"401": "authentication_error", "429": "rate_limit_error", "500": "api_error"}
            return error_de_api(formato, int(como), "fallo de prueba %s" % como, tipos[como])
        if como == "malformada":
            return 200, "<html>esto no es JSON</html>"
        if como == "vacia":
            return 200, ""
        if como == "forma":
            return 200, {"resultado": "sin la forma de la API"}
        if como == "lenta":
            time.sleep(self.demora)
            return 200, RESPUESTA[formato]([{"type": "text", "text": "tarde"}], "fallo-lenta")
        if como == "escrita":
            texto = json.dumps({"name": "leer", "arguments": {"ruta": "notas.txt"}})
            return 200, RESPUESTA[formato]([{"type": "text", "text": texto}], "fallo-escrita")
        if como == "cortada":
            llamada = {"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "no"}}
            return 200, RESPUESTA[formato]([llamada], "fallo-cortada", cortada=True)
        return error_de_api(formato, 404, "no hay ningún fallo «%s»" % como, "not_found_error")


# --- HTTP ------------------------------------------------------------------------------------


def formato_de_ruta(ruta):
    ruta = ruta.split("?")[0].rstrip("/")
    if ruta.endswith("/v1/messages"):
        return mr.ANTHROPIC
    if ruta.endswith("/chat/completions"):
        return mr.OPENAI
    return None


class Manejador(BaseHTTPRequestHandler):
    servido: ModeloServido  # lo pone servidor()

    def log_message(self, *args):  # sin una línea por petición en la terminal
        pass

    def _envia(self, estado, cuerpo):
        datos = cuerpo.encode("utf-8") if isinstance(cuerpo, str) else json.dumps(cuerpo, ensure_ascii=False).encode()
        self.send_response(estado)
        self.send_header("content-type", "text/plain; charset=utf-8" if isinstance(cuerpo, str) else "application/json")
        self.send_header("content-length", str(len(datos)))
        self._cors()
        self.end_headers()
        self.wfile.write(datos)

    def _cors(self):
        # Como Ollama con OLLAMA_ORIGINS: la página del curso (otro origen) puede llamarlo.
        self.send_header("access-control-allow-origin", "*")
        # «*» no cubre authorization (la norma Fetch lo exige por su nombre): van todas las que se usan.
        self.send_header(
            "access-control-allow-headers",
            "authorization, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access, content-type",
        )
        self.send_header("access-control-allow-methods", "POST, OPTIONS")

    def do_OPTIONS(self):
        self.send_response(204)
        self._cors()
        self.end_headers()

    def do_POST(self):
        largo = int(self.headers.get("content-length") or 0)
        try:
            cuerpo = json.loads(self.rfile.read(largo) or b"null")
        except ValueError:
            cuerpo = None
        if self.path.rstrip("/") == "/guiones":
            if isinstance(cuerpo, dict) and isinstance(cuerpo.get("guion"), list):
                return self._envia(200, {"modelo": self.servido.registra(cuerpo["guion"])})
            if isinstance(cuerpo, dict) and isinstance(cuerpo.get("respuestas"), list):
                para = cuerpo.get("para") if isinstance(cuerpo.get("para"), str) else None
                return self._envia(200, {"modelo": self.servido.registra_sordo(cuerpo["respuestas"], para)})
            return self._envia(400, {"error": 'manda {"guion": [...]} o {"respuestas": [...]}'})
        formato = formato_de_ruta(self.path)
        if formato is None:
            return self._envia(404, {"error": {"message": "ruta desconocida: usa /v1/messages o /v1/chat/completions"}})
        if not isinstance(cuerpo, dict):
            return self._envia(*error_de_api(formato, 400, "el cuerpo no es un objeto JSON"))
        cabeceras = {k.lower(): v for k, v in self.headers.items()}
        self._envia(*self.servido.contesta(formato, cabeceras, cuerpo))


def servidor(servido, puerto=0, anfitrion="127.0.0.1"):
    """Un ThreadingHTTPServer que sirve el modelo; puerto=0 elige uno libre (server_address lo dice)."""
    manejador = type("ManejadorDelGuion", (Manejador,), {"servido": servido})
    http = ThreadingHTTPServer((anfitrion, puerto), manejador)
    http.daemon_threads = True
    return http


def en_segundo_plano(servido, puerto=0):
    """Arranca el servidor en un hilo y devuelve (servidor, url base)."""
    http = servidor(servido, puerto)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    return http, "http://%s:%d" % http.server_address[:2]
