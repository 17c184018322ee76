def ejecutar(ll, entorno):
    """Ejecuta una llamada y devuelve su observación, con el contenido siempre en texto. Nunca lanza.

    Primero, si la llamada encaja; sólo entonces, la función.
    """
    ### BEGIN SOLUTION
    id = ll.get("id") if isinstance(ll, dict) else None
    if not isinstance(ll, dict) or ll.get("type") != "tool_use":
        return error(id, NO_EJECUTADA + "no es un bloque tool_use")
    if not isinstance(id, str) or not isinstance(ll.get("name"), str):
        return error(id, NO_EJECUTADA + "la llamada no trae id o nombre")
    herramienta = HERRAMIENTAS.get(ll["name"])
    if herramienta is None:
        return error(id, NO_EJECUTADA + "no existe la herramienta «%s»" % ll["name"])
    problema = problema_de_esquema(ll.get("input"), herramienta["input_schema"])
    if problema:
        return error(id, NO_EJECUTADA + problema)
    try:
        valor = herramienta["funcion"](entorno, **ll["input"])
    except Exception as e:  # la función ha corrido: su error vuelve sin el prefijo
        return error(id, "%s: %s" % (type(e).__name__, e))
    # La API sólo admite texto en content: lo que no es texto va escrito en JSON.
    try:
        texto = valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False)
    except (TypeError, ValueError):  # un set, unos bytes, una fecha, una lista que se contiene: JSON no sabe
        texto = repr(valor)
    return resultado(id, texto)
    ### END SOLUTION
