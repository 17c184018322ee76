"""Los dos formatos de ModeloReal en el cable: de M a la petición y de la respuesta a los bloques del curso.

    "anthropic"  la API Messages de Anthropic, cuyos bloques ya usa el curso;
    "openai"     las chat completions con herramientas (Ollama, llama-server, vLLM, LM Studio…).

La llamada de una herramienta viaja en la forma nativa de cada formato (tool_use / tool_calls).
"""

import json

from cursos.modelo.clave import ErrorDelModelo

ANTHROPIC, OPENAI = "anthropic", "openai"
FORMATOS = (ANTHROPIC, OPENAI)
RUTAS = {ANTHROPIC: "/v1/messages", OPENAI: "/chat/completions"}
VERSION_ANTHROPIC = "2023-06-01"
ROLES = {"sistema": "system", "usuario": "user", "asistente": "assistant"}


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
