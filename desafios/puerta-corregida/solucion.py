def puerta(ll, sesion, admitidas):
    """None si la propuesta ll se puede ejecutar; si no, el motivo.

    Todo lo que permite sale de sesion; nada de lo que diga la propuesta lo amplía. Cada permiso es
    de una acción: sesion["permisos"] dice, por herramienta, qué documentos puede tocar.
    """
    ### BEGIN SOLUTION
    if not sesion["activa"]:
        return "session_revoked"
    nombre, argumentos = ll.get("name"), ll.get("input")
    if not isinstance(nombre, str) or not isinstance(argumentos, dict):
        return "schema_invalid"
    if nombre not in sesion["herramientas"]:
        return "tool_not_allowed"
    esquema = ESQUEMAS.get(nombre)  # una herramienta de la sesión sin esquema no tiene argumentos válidos
    if esquema is None or set(argumentos) != set(esquema) \
            or not all(isinstance(argumentos[c], t) for c, t in esquema.items()):
        return "schema_invalid"
    if argumentos["tenant"] != sesion["tenant"]:
        return "tenant_mismatch"
    if argumentos["document_id"] not in sesion["permisos"].get(nombre, []):  # el par: esta acción, este documento
        return "permission_denied"
    if admitidas >= sesion["presupuesto"]:
        return "budget_exhausted"
    return None
    ### END SOLUTION
