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
    exp = token.get("exp")
    if not isinstance(exp, (int, float)) or isinstance(exp, bool) or exp <= ahora:
        raise PermissionError("token caducado")  # sin exp, o con uno que no es un número: no vale
    scope = token.get("scope")
    if not isinstance(scope, str) or alcance not in scope.split():
        raise PermissionError("falta el alcance %s" % alcance)
    return token
    ### END SOLUTION


def abrir_sesion(token, ahora):
    """Las herramientas de la sesión del usuario del token; PermissionError si el token no vale aquí."""
    ### BEGIN SOLUTION
    usuario = validar_token(token, DIRECTORIO, ALCANCE_PERFILES, ahora).get("sub")
    if not isinstance(usuario, str) or not usuario:
        raise PermissionError("token sin usuario")  # sin sub no hay a quién ligar la sesión
    return {"leer": LEER,
            "leer_mi_perfil": herramienta(crear_herramienta_perfil(usuario),
                                          "Devuelve el perfil del usuario de esta sesión.", {})}
    ### END SOLUTION
