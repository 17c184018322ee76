# Cómo se pasan y se cuentan las pruebas de un desafío: común a todos los desafíos.
# Va pegado detrás del pruebas.py de cada desafío (Desafio.pruebas()), en el mismo espacio
# de nombres, y usa lo que ese fichero define: PRUEBAS ({nombre: (puntos, prueba)}),
# BancoLocal (el banco que llama a tu código aquí mismo) y Fallo.

import contextlib


@contextlib.contextmanager
def con_globales(**valores):
    """Mientras dura, estos nombres del cuaderno valen otra cosa; al salir, vuelven a ser lo que eran.

    Así una prueba pone su entorno, su tabla o sus perfiles donde tu código los busca.
    """
    g = globals()
    antes = {nombre: g[nombre] for nombre in valores if nombre in g}
    g.update(valores)
    try:
        yield
    finally:
        for nombre in valores:
            g.pop(nombre, None)
        g.update(antes)


class VariacionOculta(Fallo):
    """El Fallo de una variación oculta: sólo dice cuál y su pista. El calificador lo enseña por su clase."""


@contextlib.contextmanager
def oculta(n, total, pista):
    """Una variación oculta: si no pasa, se dice cuál y una pista, nunca el detalle (no se desvela)."""
    try:
        yield
    except Fallo:
        raise VariacionOculta("la variación oculta %d de %d no pasa. %s" % (n, total, pista)) from None


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
