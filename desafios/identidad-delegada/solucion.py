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
    campos = token if isinstance(token, dict) else {}  # lo que no es un objeto no trae ningún campo
    if campos.get("iss") != EMISOR:
        raise PermissionError("emisor desconocido")
    if campos.get("aud") != audiencia:
        raise PermissionError("token para otra audiencia: %s" % (campos.get("aud"),))
    exp = campos.get("exp")
    vigente = isinstance(exp, (int, float)) and not isinstance(exp, bool) and exp > ahora
    if not vigente:  # se pide exp > ahora, y no se rechaza exp <= ahora: con NaN, las dos dan falso
        raise PermissionError("token caducado")
    scope = campos.get("scope")
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
    actor = token.get("act")  # el actor actual; los act anidados son actores anteriores, y no deciden
    if not isinstance(actor, dict):
        raise PermissionError("token sin actor: el directorio no admite suplantación")
    if not isinstance(actor.get("sub"), str) or actor["sub"] not in ACTORES_DEL_DIRECTORIO:
        raise PermissionError("actor no admitido: %s" % (actor.get("sub"),))
    return {"leer": LEER,
            "leer_mi_perfil": herramienta(crear_herramienta_perfil(usuario),
                                          "Devuelve el perfil del usuario de esta sesión.", {})}
    ### END SOLUTION
