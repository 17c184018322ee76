def lee_accion(respuesta):
    """[herramienta, argumento] de la primera línea de acción de la respuesta, o None."""
    ### BEGIN SOLUTION
    for linea in respuesta.splitlines():
        cabeza, dos_puntos, resto = linea.strip().partition(":")
        if not dos_puntos or cabeza.rstrip().lower() not in ("acción", "accion"):
            continue
        partes = resto.split(None, 1)
        if partes:  # «Acción:» sin nada detrás no es una acción
            return [partes[0], partes[1].strip() if len(partes) > 1 else ""]
    return None
    ### END SOLUTION


def bucle_de_texto(modelo, inicio, entorno, max_turnos):
    """Conversa hasta una respuesta sin acción o hasta max_turnos llamadas: (motivo, final, M)."""
    ### BEGIN SOLUTION
    M = list(inicio)
    for _ in range(max_turnos):
        respuesta = modelo(M)
        M.append(("asistente", respuesta))
        accion = lee_accion(respuesta)
        if accion is None:
            return "fin", respuesta, M
        M.append(("usuario", "Observación: " + observa(accion, entorno)))
    return "max_turnos", None, M
    ### END SOLUTION


def conversa(inicio, entorno, max_turnos):
    """Tu bucle con el modelo de cada prueba, que la prueba pone en `modelo`. No la cambies."""
    return bucle_de_texto(modelo, inicio, entorno, max_turnos)
