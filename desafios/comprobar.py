# Cómo se pasan y se cuentan las pruebas de un desafío: común a todos los desafíos.
# Va pegado detrás del pruebas.py de cada desafío (Desafio.pruebas()), en el mismo espacio
# de nombres, y usa lo que ese fichero define: PRUEBAS ({nombre: (puntos, prueba)}),
# BancoLocal (el banco que llama a tu código aquí mismo) y Fallo.


def comprueba(nombre, *datos):
    """Pasa una prueba aquí mismo y dice el resultado en una línea (o lanza con el motivo)."""
    puntos, prueba = PRUEBAS[nombre]
    try:
        prueba(BancoLocal(), *datos)
    except Fallo as e:
        raise Fallo("✘ %s (%d p.): %s" % (nombre, puntos, e)) from None
    print("✔ %s (%d p.): %s" % (nombre, puntos, prueba.__doc__))


def comprueba_todas():
    """Las pruebas visibles, una línea cada una, sin parar en la primera (para la página de la lección)."""
    pasan = {}
    for nombre in PRUEBAS:
        if nombre == "variaciones":
            continue  # ocultas: sólo las pasa el calificador
        try:
            comprueba(nombre)
            pasan[nombre] = True
        except Fallo as e:
            print(e)
            pasan[nombre] = False
    print("%d de %d pruebas visibles pasan." % (sum(pasan.values()), len(pasan)))
    return pasan
