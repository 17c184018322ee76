def incumplimientos(especificacion, antes, despues):
    """Lo que el entorno de después no cumple de la especificación: una lista de textos."""
    ### BEGIN SOLUTION
    deben_cambiar = especificacion.get("deben_cambiar", [])
    permitidas = set(deben_cambiar) | set(especificacion.get("pueden_cambiar", []))
    fallos = []
    for ruta in deben_cambiar:
        if antes.get(ruta) == despues.get(ruta):
            fallos.append("no ha cambiado: " + ruta)
    for ruta, textos in especificacion.get("deben_contener", {}).items():
        if ruta not in despues:
            fallos.append("falta el fichero: " + ruta)
            continue
        fallos += ["falta «%s» en %s" % (t, ruta) for t in textos if t not in despues[ruta]]
    for ruta, textos in especificacion.get("no_deben_contener", {}).items():
        fallos += ["sobra «%s» en %s" % (t, ruta) for t in textos if ruta in despues and t in despues[ruta]]
    for ruta in sorted(set(antes) | set(despues)):
        if ruta in permitidas or antes.get(ruta) == despues.get(ruta):
            continue
        if ruta not in antes:
            fallos.append("se ha creado sin pedirlo: " + ruta)
        elif ruta not in despues:
            fallos.append("se ha borrado sin pedirlo: " + ruta)
        else:
            fallos.append("ha cambiado sin pedirlo: " + ruta)
    return fallos
    ### END SOLUTION
