TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}


def es_del_tipo(valor, tipo):
    """¿Es el valor del tipo JSON indicado? Como en JSON Schema: True no es un número, y 3.0 es un integer."""
    ### BEGIN SOLUTION
    if tipo in ("integer", "number"):
        if isinstance(valor, bool) or not isinstance(valor, (int, float)):
            return False
        return tipo == "number" or isinstance(valor, int) or valor.is_integer()
    return isinstance(valor, TIPOS_JSON.get(tipo, object))
    ### END SOLUTION


def problema_de_esquema(argumentos, esquema):
    """El primer problema de los argumentos frente al esquema, o None si lo cumplen.

    Sólo mira la forma: que sea un objeto, que estén los obligatorios, que no
    sobre ninguno, que cada uno sea de su tipo y, si hay enum, uno de los permitidos.
    """
    ### BEGIN SOLUTION
    if not isinstance(argumentos, dict):
        return "los argumentos no son un objeto"
    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():
        if nombre not in propiedades:
            if esquema.get("additionalProperties", True) is False:
                return "sobra el argumento «%s»" % nombre
            continue
        tipo = propiedades[nombre].get("type")
        if tipo and not es_del_tipo(valor, tipo):
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
        permitidos = propiedades[nombre].get("enum")
        if permitidos is not None and not any(igual_en_json(valor, p) for p in permitidos):
            escritos = ", ".join(json.dumps(p, ensure_ascii=False) for p in permitidos)
            return "el argumento «%s» debe ser uno de %s" % (nombre, escritos)
    return None


def igual_en_json(a, b):
    """¿Son iguales como valores de JSON? En Python True == 1; en JSON, un booleano sólo es igual a otro."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b
    ### END SOLUTION
