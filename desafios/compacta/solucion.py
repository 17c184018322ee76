def compacta(M, presupuesto):
    """Una M nueva que cabe en el presupuesto, si se puede: retira las observaciones más viejas que hagan falta.

    La petición del usuario y el último turno se quedan enteros, y M no cambia.
    """
    ### BEGIN SOLUTION
    nueva = [(rol, list(contenido) if isinstance(contenido, list) else contenido) for rol, contenido in M]
    asistente = [n for n, (rol, _) in enumerate(M) if rol == "asistente"]
    ultimo = asistente[-1] if asistente else 0  # del último turno en adelante no se retira nada
    for n in range(ultimo):
        bloques = nueva[n][1]
        for i, bloque in enumerate(bloques if isinstance(bloques, list) else []):
            if tamaño(nueva) <= presupuesto:
                return nueva
            if bloque.get("type") == "tool_result" and tamaño(retira(bloque)) < tamaño(bloque):
                bloques[i] = retira(bloque)
    return nueva
    ### END SOLUTION
