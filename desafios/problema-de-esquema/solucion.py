TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}
NOMBRES_DE_TIPO = ("string", "integer", "number", "boolean", "object", "array", "null")


def es_del_tipo(valor, tipo):
    """¿Es el valor del tipo JSON indicado? Como en JSON Schema: True no es un número, y 3.0 es un integer.

    Un tipo que no se conoce no lo cumple ningún valor: ante la duda, no.
    """
    ### BEGIN SOLUTION
    if tipo in ("integer", "number"):
        if isinstance(valor, bool) or not isinstance(valor, (int, float)):
            return False
        return tipo == "number" or isinstance(valor, int) or valor.is_integer()
    if tipo not in TIPOS_JSON:
        return False
    return isinstance(valor, TIPOS_JSON[tipo])
    ### END SOLUTION


def problema_de_esquema(argumentos, esquema):
    """El primer problema de los argumentos frente al esquema, o None si lo cumplen.

    Sólo mira la forma: que sea un objeto, que estén los obligatorios, que no
    sobre ninguno, que cada uno sea de su tipo y, si hay enum, uno de los permitidos.
    Un esquema mal escrito (un tipo que no se conoce, un additionalProperties que no es
    true ni false) también es un problema: ante la duda, no se ejecuta.
    """
    ### BEGIN SOLUTION
    if not isinstance(argumentos, dict):
        return "los argumentos no son un objeto"
    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    admitidos = esquema.get("additionalProperties", True)
    for nombre, valor in argumentos.items():
        if nombre in propiedades:
            problema = problema_de_propiedad(nombre, valor, propiedades[nombre])
        elif admitidos is True:
            problema = None
        elif admitidos is False:
            problema = "sobra el argumento «%s»" % nombre
        else:
            problema = "additionalProperties debe ser true o false, y es %s" % en_json(admitidos)
        if problema:
            return problema
    return None


def problema_de_propiedad(nombre, valor, propiedad):
    """El argumento frente a su propiedad: su tipo, si lo dice (y que se conozca), y después su enum."""
    if "type" in propiedad:
        tipo = propiedad["type"]
        if tipo not in NOMBRES_DE_TIPO:
            return "el esquema del argumento «%s» tiene un tipo desconocido: %s" % (nombre, en_json(tipo))
        if not es_del_tipo(valor, tipo):
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
    permitidos = propiedad.get("enum")
    if permitidos is not None and not any(igual_en_json(valor, p) for p in permitidos):
        return "el argumento «%s» debe ser uno de %s" % (nombre, ", ".join(en_json(p) for p in permitidos))
    return None


def en_json(valor):
    """El valor escrito como en JSON: "añadir", 0, true, null."""
    return json.dumps(valor, ensure_ascii=False)


def igual_en_json(a, b):
    """¿Son iguales como valores de JSON? En Python True == 1; en JSON, un booleano sólo es igual a otro."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b
    ### END SOLUTION
