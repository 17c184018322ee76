"""La base de las pruebas de todos los desafíos: lo que cada pruebas.py usa sin definirlo.

Va delante del pruebas.py de cada desafío, en el mismo espacio de nombres (Desafio.pruebas()):
la página de la lección, el cuaderno y el calificador reciben el mismo texto. pruebas.py
define sus pruebas y la tabla PRUEBAS; ocultas.py, VARIACIONES y, si las hay, PARTES_OCULTAS.
pruebas.py no redefine nada de aquí (Desafio.pruebas() lo comprueba), salvo el banco local,
que puede ampliar: class BancoLocal(BancoLocal). Sólo biblioteca estándar.
"""

import contextlib
import json

# --- Los nombres del contrato -------------------------------------------------------------
# Se escriben sólo aquí: el calificador y nbgrader los leen de este fichero (contrato.py).
TABLA_DE_PRUEBAS = "PRUEBAS"  # en pruebas.py: {nombre: (puntos, prueba)}, en orden; suman 10
TABLA_DE_VARIACIONES = "VARIACIONES"  # en ocultas.py: lo que recibe la prueba de las variaciones
TABLA_DE_PARTES_OCULTAS = "PARTES_OCULTAS"  # en ocultas.py, si las hay: los casos ocultos de cada prueba
PRUEBA_DE_VARIACIONES = "variaciones"  # la prueba que recibe VARIACIONES: sólo la pasa el calificador


# --- Una prueba que no pasa -----------------------------------------------------------------


class Fallo(AssertionError):
    """Una prueba que no pasa; su mensaje es el motivo que lee el alumno."""


class VariacionOculta(Fallo):
    """El Fallo de una variación oculta: sólo dice cuál y su pista. El calificador lo enseña por su clase."""


def exige(condicion, mensaje, *datos):
    """Si la condición no se cumple, la prueba no pasa: Fallo(mensaje % datos)."""
    if not condicion:
        raise Fallo(mensaje % datos if datos else mensaje)


def copia_json(valor):
    """Una copia JSON, como la que cruza al calificador (lo que no es JSON, como una marca)."""
    return json.loads(json.dumps(valor, default=lambda o: {"no_es_json": type(o).__name__}))


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


@contextlib.contextmanager
def oculta(n, total, pista):
    """Una variación oculta: si no pasa, se dice cuál y una pista, nunca el detalle (no se desvela)."""
    try:
        yield
    except Fallo:
        raise VariacionOculta("la variación oculta %d de %d no pasa. %s" % (n, total, pista)) from None


# --- El banco -------------------------------------------------------------------------------


class BancoLocal:
    """El banco del cuaderno y de la página: llama a tus funciones en este mismo proceso (orienta, no puntúa).

    Cada prueba recibe un banco como primer argumento. En el calificador es BancoRemoto
    (cursos/calificador/banco.py), con el mismo contrato, y allí cada función del alumno es
    un puente a su proceso. Lo que una prueba puede pedirle a cualquier banco:
    - with banco.instala(mesa): la mesa de la prueba mientras dura (qué es una mesa, en BancoRemoto);
    - banco.llama_con_argumentos(nombre, args): (lo que devuelve, cómo han quedado sus argumentos),
      ambos copias JSON, para funciones que cambian lo que reciben.
    Sólo el de aquí tiene bucle_intacto(): en el calificador el bucle es el suyo y no hay nada que mirar.
    Un desafío cuya mesa tiene que llegar a tu código aquí lo amplía: class BancoLocal(BancoLocal).
    """

    def __init__(self):
        # Tus funciones tal como estaban al empezar la prueba: la prueba puede poner otra en su
        # lugar (con_globales) para vigilar las llamadas y seguir llamando a la tuya.
        self.tuyas = dict(globals())

    def instala(self, mesa):
        """Aquí la mesa no tiene que llegar a ninguna parte: no hace nada."""
        return contextlib.nullcontext()

    def llama_con_argumentos(self, nombre, args):
        copias = copia_json(args)
        devuelto = self.tuyas[nombre](*copias)
        return copia_json(devuelto), copia_json(copias)

    def bucle_intacto(self):
        """None si bucle, llamadas_de y texto_de son los de harness.py; si no, cuál ha cambiado."""
        try:
            with open("harness.py", encoding="utf-8") as f:
                original = {}
                exec(f.read(), dict(HERRAMIENTAS={}), original)
        except OSError:
            return None  # sin harness.py al lado no se puede comparar; en el calificador no hace falta
        for nombre in ("bucle", "llamadas_de", "texto_de"):
            actual = globals().get(nombre)
            if (
                getattr(actual, "__code__", None) is None
                or actual.__code__.co_code != original[nombre].__code__.co_code
            ):
                return "«%s» no es la de harness.py" % nombre
        return None


# --- Pasar las pruebas aquí -----------------------------------------------------------------


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
        if nombre == PRUEBA_DE_VARIACIONES:
            continue  # ocultas: sólo las pasa el calificador
        try:
            comprueba(nombre)
            pasan[nombre] = True
        except Fallo as e:
            print(e)
            pasan[nombre] = False
    print("%d de %d pruebas visibles pasan." % (sum(pasan.values()), len(pasan)))
    return pasan
