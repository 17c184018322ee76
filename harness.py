"""El harness: los bloques de los mensajes, ejecutar y el bucle.

Se carga después de entorno.py y en el mismo espacio de nombres
(exec(open("harness.py").read())), así que HERRAMIENTAS viene de allí. Por la
misma razón, si redefines ejecutar en tu cuaderno, el bucle llama a la tuya.

M es la conversación: una lista de pares (rol, contenido). El contenido de los
mensajes del modelo y de las observaciones es una lista de bloques, que son
diccionarios como los de la API de Anthropic:
    {"type": "tool_use", "id": ..., "name": ..., "input": {...}}    una llamada
    {"type": "text", "text": ...}                                   texto
    {"type": "tool_result", "tool_use_id": ..., "content": ...}     una observación
Las observaciones viajan siempre en bloques tool_result, nunca como texto.
"""

import json

NO_EJECUTADA = "no se ha ejecutado: "


# --- Bloques -----------------------------------------------------------------


# id, name e input se llaman como los campos del bloque en la API. Como variables tapan id() e
# input() de Python, que este fichero no usa.
def llamada(id, name, **input):
    """Un bloque tool_use: el modelo pide una herramienta con unos argumentos."""
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def texto(text):
    """Un bloque de texto del modelo."""
    return {"type": "text", "text": text}


def resultado(id, contenido):
    """La observación de una llamada que ha salido bien.

    El contenido va tal como lo devuelve la función, aunque no sea texto. La API de verdad sólo
    admite texto (o una lista de bloques) en content: quien la use tiene que convertirlo antes.
    """
    return {"type": "tool_result", "tool_use_id": id, "content": contenido}


def error(id, mensaje):
    """La observación de una llamada que ha fallado o no se ha ejecutado."""
    return {"type": "tool_result", "tool_use_id": id, "content": mensaje, "is_error": True}


def muestra(bloque):
    """Una línea legible con lo esencial de un bloque."""
    tipo = bloque.get("type")
    if tipo == "tool_use":
        argumentos = json.dumps(bloque.get("input"), ensure_ascii=False)
        return "llamada   %s %s %s" % (bloque.get("id"), bloque.get("name"), argumentos)
    if tipo == "tool_result":
        etiqueta = "error    " if bloque.get("is_error") else "resultado"
        contenido = json.dumps(bloque.get("content"), ensure_ascii=False)
        return "%s %s %s" % (etiqueta, bloque.get("tool_use_id"), contenido)
    if tipo == "text":
        return "texto     " + json.dumps(bloque.get("text"), ensure_ascii=False)
    return "bloque desconocido " + json.dumps(bloque, ensure_ascii=False, default=repr)


# --- El esquema ----------------------------------------------------------------

TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}
NOMBRES_DE_TIPO = ("string", "integer", "number", "boolean", "object", "array", "null")


def es_del_tipo(valor, tipo):
    """¿Es el valor del tipo JSON indicado? Como en JSON Schema: True no es un número, y 3.0 es un integer.

    Una lista de tipos (["string", "null"]) admite un valor de cualquiera de ellos. Un tipo que
    no se conoce no lo cumple ningún valor: ante la duda, no.
    """
    if isinstance(tipo, list):
        return any(es_del_tipo(valor, t) for t in tipo)
    if tipo in ("integer", "number"):
        if isinstance(valor, bool) or not isinstance(valor, (int, float)):
            return False
        # Un integer es un número sin parte decimal: 3 o 3.0, no 2.5.
        return tipo == "number" or isinstance(valor, int) or valor.is_integer()
    if not isinstance(tipo, str) or tipo not in TIPOS_JSON:
        return False
    return isinstance(valor, TIPOS_JSON[tipo])


def problema_de_esquema(argumentos, esquema):
    """El primer problema de los argumentos frente al esquema, o None si lo cumplen.

    Sólo mira la forma: que sea un objeto, que estén los obligatorios, que no
    sobre ninguno y que cada uno sea de su tipo. Un esquema mal escrito (un tipo que
    no se conoce, un additionalProperties que no es true ni false) también es un
    problema: ante la duda, la llamada no se ejecuta.
    """
    if not isinstance(argumentos, dict):
        return "los argumentos no son un objeto"
    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():
        if nombre in propiedades:
            problema = problema_de_propiedad(nombre, valor, propiedades[nombre])
        else:
            problema = problema_de_sobrante(nombre, esquema.get("additionalProperties", True))
        if problema:
            return problema
    return None


def problema_de_sobrante(nombre, admitidos):
    """Un argumento que el esquema no declara: se admite si additionalProperties es true, y si es false, sobra."""
    if admitidos is True:
        return None
    if admitidos is False:
        return "sobra el argumento «%s»" % nombre
    escrito = json.dumps(admitidos, ensure_ascii=False, default=repr)
    return "additionalProperties debe ser true o false, y es %s" % escrito


def problema_de_propiedad(nombre, valor, propiedad):
    """El argumento frente a su propiedad: si ésta dice "type", un tipo que se conoce y que el valor cumple."""
    if not isinstance(propiedad, dict):
        return "el esquema del argumento «%s» no es un objeto" % nombre
    if "type" not in propiedad:
        return None
    tipo = propiedad["type"]
    nombres = tipo if isinstance(tipo, list) and tipo else [tipo]
    for t in nombres:
        if not isinstance(t, str) or t not in NOMBRES_DE_TIPO:
            escrito = json.dumps(t, ensure_ascii=False, default=repr)
            return "el esquema del argumento «%s» tiene un tipo desconocido: %s" % (nombre, escrito)
    if not es_del_tipo(valor, tipo):
        return "el argumento «%s» debe ser de tipo %s" % (nombre, " o ".join(nombres))
    return None


def problema_de_llamada(ll):
    """Por qué una llamada no se puede ejecutar tal como viene, o None si se puede."""
    if not isinstance(ll, dict) or ll.get("type") != "tool_use":
        return "no es un bloque tool_use"
    if not isinstance(ll.get("id"), str) or not isinstance(ll.get("name"), str):
        return "la llamada no trae id o nombre"
    if ll["name"] not in HERRAMIENTAS:
        return "no existe la herramienta «%s»" % ll["name"]
    esquema = HERRAMIENTAS[ll["name"]]["input_schema"]
    return problema_de_esquema(ll.get("input"), esquema)


# --- Ejecutar una llamada ------------------------------------------------------


def ejecutar(ll, entorno):
    """Ejecuta una llamada y devuelve su observación. Nunca lanza.

    Primero el esquema: lo que no lo cumple no se ejecuta y vuelve como un
    error que empieza por "no se ha ejecutado: ". Lo que lo cumple llega a la
    función; si la función lanza, su error vuelve como observación.
    """
    id = ll.get("id") if isinstance(ll, dict) else None  # el del bloque (tapa id(), que aquí no hace falta)
    problema = problema_de_llamada(ll)
    if problema:
        return error(id, NO_EJECUTADA + problema)
    funcion = HERRAMIENTAS[ll["name"]]["funcion"]
    try:
        return resultado(id, funcion(entorno, **ll["input"]))
    except Exception as e:  # el modelo tiene que enterarse de cualquier fallo
        return error(id, "%s: %s" % (type(e).__name__, e))


# --- El bucle ------------------------------------------------------------------


def llamadas_de(respuesta):
    """Los bloques tool_use de una respuesta del modelo, en orden."""
    return [b for b in respuesta if b.get("type") == "tool_use"]


def texto_de(respuesta):
    """El texto de una respuesta del modelo, uniendo sus bloques text."""
    return "".join(b["text"] for b in respuesta if b.get("type") == "text")


def bucle(modelo, inicio, entorno, max_turnos):
    """Conversa hasta que el modelo contesta sin llamadas o se agotan los turnos.

    Devuelve (motivo, final, M): motivo es "fin" si el modelo ha terminado
    (final es su texto) o "max_turnos" si no (final es None).
    """
    M = list(inicio)
    for _ in range(max_turnos):
        respuesta = modelo(M)
        M.append(("asistente", respuesta))
        llamadas = llamadas_de(respuesta)
        if not llamadas:
            return "fin", texto_de(respuesta), M
        # ejecutar se busca al llamarla: si la redefines, se usa la tuya.
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return "max_turnos", None, M
