def crear_herramienta_perfil(id_usuario_autenticado):
    """La herramienta de perfil de una sesión: el usuario queda fijado al crearla."""
    ### BEGIN SOLUTION
    def leer_mi_perfil():
        """El perfil del usuario de esta sesión. Sin parámetros: quién consulta lo fija la sesión."""
        return PERFILES.get(id_usuario_autenticado, {"error": "usuario no encontrado"})
    return leer_mi_perfil
    ### END SOLUTION


def validar_token(token, audiencia, alcance, ahora):
    """El token si vale en este recurso; si no, PermissionError con el motivo."""
    ### BEGIN SOLUTION
    if token.get("iss") != EMISOR:
        raise PermissionError("emisor desconocido")
    if token.get("aud") != audiencia:
        raise PermissionError("token para otra audiencia: %s" % token.get("aud"))
    if token.get("exp", 0) <= ahora:
        raise PermissionError("token caducado")
    if alcance not in token.get("scope", "").split():
        raise PermissionError("falta el alcance %s" % alcance)
    return token
    ### END SOLUTION


def abrir_sesion(token, ahora):
    """Las herramientas de la sesión del usuario del token; PermissionError si el token no vale aquí."""
    ### BEGIN SOLUTION
    usuario = validar_token(token, DIRECTORIO, ALCANCE_PERFILES, ahora)["sub"]
    return {"leer": LEER,
            "leer_mi_perfil": herramienta(crear_herramienta_perfil(usuario),
                                          "Devuelve el perfil del usuario de esta sesión.", {})}
    ### END SOLUTION
