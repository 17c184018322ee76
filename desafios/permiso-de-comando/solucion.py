def permiso_de_comando(orden, lectura):
    """permitir, preguntar o denegar para una orden de la terminal: una línea o su argv.

    Decide sobre la orden troceada, nunca sobre el texto, y sólo con lectura: nada de lo que
    diga la orden (ni el README que la pidió) amplía lo que se permite.
    """
    ### BEGIN SOLUTION
    if isinstance(orden, str):
        if len(orden) > LIMITE_DE_ORDEN:
            return "denegar"  # trocearla tardaría el cuadrado de lo que mide: la decisión no contestaría
        if SINTAXIS & set(orden):
            return "denegar"  # el shell la leería como algo más que un programa con sus argumentos
        if EXPANSIONES & set(sin_comillas(orden)):
            return "denegar"  # bash la expandiría: el argv que correría no sería el decidido
        try:
            argv = shlex.split(orden)
        except ValueError:
            return "denegar"  # comillas sin cerrar: no se sabe qué se ejecutaría
    elif isinstance(orden, list) and all(isinstance(a, str) for a in orden):
        argv = orden  # sin shell: cada elemento llega tal cual al programa
    else:
        return "denegar"
    if not argv:
        return "denegar"
    programa = argv[0]
    if programa.rsplit("/", 1)[-1] in LANZADORES or "=" in programa:
        return "denegar"  # lanzaría otro programa, o le cambiaría el entorno
    opciones = [a for a in argv[1:] if a.startswith("-") and a != "-"]
    if programa in lectura and all(o in lectura[programa] for o in opciones):
        return "permitir"
    return "preguntar"
    ### END SOLUTION
