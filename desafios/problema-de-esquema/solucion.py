TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}


def es_del_tipo(valor, tipo):
    """¿Es el valor del tipo JSON indicado? En JSON, True no es un número."""
    ### BEGIN SOLUTION
    if tipo in ("integer", "number"):
        if isinstance(valor, bool):
            return False
        return isinstance(valor, int) if tipo == "integer" else isinstance(valor, (int, float))
    return isinstance(valor, TIPOS_JSON.get(tipo, object))
    ### END SOLUTION


def problema_de_esquema(argumentos, esquema):
    """El primer problema de los argumentos frente al esquema, o None si lo cumplen.

    Sólo mira la forma: que sea un objeto, que estén los obligatorios, que no
    sobre ninguno y que cada uno sea de su tipo.
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
    return None
    ### END SOLUTION
