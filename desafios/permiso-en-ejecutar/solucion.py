def ejecutar(ll, entorno):
    """Ejecuta una llamada y devuelve su observación. Nunca lanza.

    Primero el esquema; después el permiso; sólo entonces la función.
    """
    id = ll.get("id") if isinstance(ll, dict) else None
    problema = problema_de_llamada(ll)
    if problema:
        return error(id, NO_EJECUTADA + problema)
    ### BEGIN SOLUTION
    decision = permiso(ll)
    if decision == "preguntar" and preguntar(ll) is not True:  # False, None si no hay nadie, o cualquier otra cosa
        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")
    if decision not in ("permitir", "preguntar"):  # denegar, o lo que nadie ha previsto
        return error(id, NO_EJECUTADA + "permiso denegado")
    ### END SOLUTION
    funcion = HERRAMIENTAS[ll["name"]]["funcion"]
    try:
        return resultado(id, funcion(entorno, **ll["input"]))
    except Exception as e:  # el modelo tiene que enterarse de cualquier fallo
        return error(id, "%s: %s" % (type(e).__name__, e))
