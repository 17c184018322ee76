# Las variaciones ocultas: otras herramientas, otros esquemas, otras excepciones y otras llamadas.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. PARTES_OCULTAS son
# los casos que cada prueba visible añade en el calificador; VARIACIONES, la prueba «variaciones».


class SinExistencias(Exception):
    pass


PRECIOS = {"azafrán": 3.5, "arroz": 1.2, "pimiento": 0.8}


def _precio(entorno, producto):
    return PRECIOS[producto]


def _pesar(entorno, gramos, redondear=False):
    if gramos < 0:
        raise ValueError("un peso no puede ser negativo: %s" % gramos)
    kilos = gramos / 1000
    return round(kilos) if redondear else kilos


def _etiquetar(entorno, ruta, etiquetas):
    if ruta.startswith("recetas/"):
        raise PermissionError("las recetas son de sólo lectura")
    entorno[ruta + ".etiquetas"] = ", ".join(etiquetas)
    return ["etiquetado", ruta, len(etiquetas)]


def _ficha(entorno, producto):
    """La ficha de un producto, un diccionario; None si no está."""
    return {"producto": producto, "precio": PRECIOS[producto]} if producto in PRECIOS else None


def _pedir(entorno, producto, unidades):
    entorno["pedidos.txt"] = entorno.get("pedidos.txt", "") + "%d %s\n" % (unidades, producto)
    if producto not in PRECIOS:
        raise SinExistencias("no queda %s" % producto)
    return "pedido: %d %s" % (unidades, producto)


TIENDA = {
    "precio": herramienta(_precio, {"producto": "string"}, ["producto"]),
    "pesar": herramienta(_pesar, {"gramos": "number", "redondear": "boolean"}, ["gramos"]),
    "etiquetar": herramienta(_etiquetar, {"ruta": "string", "etiquetas": "array"}, ["ruta", "etiquetas"]),
    "pedir": herramienta(_pedir, {"producto": "string", "unidades": "integer"}, ["producto", "unidades"]),
    "ficha": herramienta(_ficha, {"producto": "string"}, ["producto"]),
    "listar": HERRAMIENTAS_DE_PRUEBA["listar"],
}
DESPENSA = {"despensa.txt": "arroz\npimiento", "recetas/paella.txt": "Paella: arroz, azafrán, pimiento."}


def _no(id, motivo):
    return error(id, "no se ha ejecutado: " + motivo)


PARTES_OCULTAS = {
    "tortilla": [
        {
            "entorno": DESPENSA,
            "herramientas": TIENDA,
            "inicio": [["usuario", "¿Cuánto me cuesta el azafrán?"]],
            "respuestas": [
                [llamada("o1", "precio", producto="azafran")],
                [llamada("o2", "precio", producto="azafrán")],
                [texto("3,50 €.")],
            ],
            "vistos": [[error("o1", "KeyError: 'azafran'")], [resultado("o2", "3.5")], None],
        }
    ],
    "no_encaja": [
        {
            "entorno": DESPENSA,
            "herramientas": TIENDA,
            "casos": [
                (llamada("x1", "pesar", gramos="200"), _no("x1", "el argumento «gramos» debe ser de tipo number")),
                (llamada("x2", "leer", ruta="despensa.txt"), _no("x2", "no existe la herramienta «leer»")),
                (
                    llamada("x3", "etiquetar", ruta="despensa.txt", etiquetas="seco"),
                    _no("x3", "el argumento «etiquetas» debe ser de tipo array"),
                ),
                (
                    {"type": "tool_use", "id": ["x4"], "name": "precio", "input": {"producto": "arroz"}},
                    _no(["x4"], "la llamada no trae id o nombre"),
                ),
                ({"type": "tool_use", "id": "x5", "name": 5, "input": {}}, _no("x5", "la llamada no trae id o nombre")),
                (
                    {"type": "tool_use", "id": "x6", "name": "pedir", "input": ["arroz", 2]},
                    _no("x6", "los argumentos no son un objeto"),
                ),
                (llamada("x7", "pedir", producto="arroz"), _no("x7", "falta el argumento «unidades»")),
                (
                    llamada("x8", "pedir", producto="arroz", unidades=2.5),
                    _no("x8", "el argumento «unidades» debe ser de tipo integer"),
                ),
                (llamada("x9", "precio", producto="arroz", moneda="€"), _no("x9", "sobra el argumento «moneda»")),
                (
                    {"type": "TOOL_USE", "id": "x10", "name": "precio", "input": {"producto": "arroz"}},
                    _no("x10", "no es un bloque tool_use"),
                ),
                ([llamada("x11", "precio", producto="arroz")], _no(None, "no es un bloque tool_use")),
                (llamada("x12", "listar"), resultado("x12", "despensa.txt\nrecetas/paella.txt")),
            ],
        }
    ],
    "la_funcion_lanza": [
        {
            "entorno": DESPENSA,
            "herramientas": TIENDA,
            "casos": [
                (llamada("y1", "pedir", producto="trufa", unidades=1), error("y1", "SinExistencias: no queda trufa")),
                (
                    llamada("y2", "etiquetar", ruta="recetas/paella.txt", etiquetas=["arroz"]),
                    error("y2", "PermissionError: las recetas son de sólo lectura"),
                ),
                (llamada("y3", "pesar", gramos=-5), error("y3", "ValueError: un peso no puede ser negativo: -5")),
                (llamada("y4", "precio", producto="sal"), error("y4", "KeyError: 'sal'")),
                (llamada("y5", "listar"), resultado("y5", "despensa.txt\npedidos.txt\nrecetas/paella.txt")),
            ],
        }
    ],
    "bucle": [
        {
            "entorno": DESPENSA,
            "herramientas": TIENDA,
            "inicio": [["usuario", "Pesa 750 gramos."]],
            "respuestas": [
                [llamada("q1", "pesar", peso=750)],
                [llamada("q2", "pesar", gramos=750)],
                [texto("0,75 kg.")],
            ],
            "vistos": [[_no("q1", "falta el argumento «gramos»")], [resultado("q2", "0.75")], None],
        }
    ],
    "bien_formadas": [
        {
            "entorno": DESPENSA,
            "herramientas": TIENDA,
            "casos": [
                (
                    llamada("z1", "etiquetar", ruta="despensa.txt", etiquetas=["seco", "básico"]),
                    resultado("z1", '["etiquetado", "despensa.txt", 2]'),
                ),
                (llamada("z2", "pesar", gramos=1500), resultado("z2", "1.5")),
                (llamada("z3", "pedir", producto="arroz", unidades=3), resultado("z3", "pedido: 3 arroz")),
                (llamada("z4", "pedir", producto="arroz", unidades=3), resultado("z4", "pedido: 3 arroz")),
                (llamada("z5", "precio", producto="pimiento"), resultado("z5", "0.8")),
                (llamada("z6", "ficha", producto="azafrán"), resultado("z6", '{"producto": "azafrán", "precio": 3.5}')),
                (llamada("z7", "ficha", producto="sal"), resultado("z7", "null")),
                (llamada("z8", "pesar", gramos=250, redondear=True), resultado("z8", "0")),
            ],
        }
    ],
}

VARIACIONES = [
    {  # la tienda: un producto mal escrito, un argumento de más y una herramienta que falla a medias
        "entorno": DESPENSA,
        "herramientas": TIENDA,
        "inicio": [["usuario", "Pide lo que falta para la paella."]],
        "respuestas": [
            [llamada("v1", "listar"), llamada("v2", "precio", producto="azafran", unidades=1)],
            [llamada("v3", "pedir", producto="azafrn", unidades=1), llamada("v4", "pedir", producto="azafrán")],
            [llamada("v5", "pedir", producto="azafrán", unidades=1)],
            [texto("He pedido el azafrán.")],
        ],
        "vistos": [
            [resultado("v1", "despensa.txt\nrecetas/paella.txt"), _no("v2", "sobra el argumento «unidades»")],
            [error("v3", "SinExistencias: no queda azafrn"), _no("v4", "falta el argumento «unidades»")],
            [resultado("v5", "pedido: 1 azafrán")],
            None,
        ],
    },
    {  # las herramientas del curso y la tienda a la vez; bloques que no son llamadas no llegan aquí
        "entorno": dict(ENTORNO, **DESPENSA),
        "herramientas": dict(HERRAMIENTAS_DE_PRUEBA, **TIENDA),
        "inicio": [["usuario", "Etiqueta la despensa y dime cuánto pesa medio kilo."]],
        "respuestas": [
            [
                texto("Voy."),
                llamada("w1", "etiquetar", ruta="despensa.txt", etiquetas=["seco"]),
                llamada("w2", "etiquetar", ruta="recetas/paella.txt", etiquetas=[]),
                llamada("w3", "pesar", gramos=True),
            ],
            [
                llamada("w4", "pesar", gramos=500),
                llamada("w5", "borrar", ruta="despensa.txt"),
                llamada("w6", "repartir", total=9, entre=0),
            ],
            [texto("Medio kilo son 0,5 kg.")],
        ],
        "vistos": [
            [
                resultado("w1", '["etiquetado", "despensa.txt", 1]'),
                error("w2", "PermissionError: las recetas son de sólo lectura"),
                _no("w3", "el argumento «gramos» debe ser de tipo number"),
            ],
            [
                resultado("w4", "0.5"),
                _no("w5", "no existe la herramienta «borrar»"),
                error("w6", "ZeroDivisionError: no se puede repartir entre 0"),
            ],
            None,
        ],
    },
    {  # una sola herramienta que siempre lanza, y un modelo que se rinde
        "entorno": {},
        "herramientas": {"precio": TIENDA["precio"]},
        "inicio": [["usuario", "¿Cuánto vale la sal?"]],
        "respuestas": [
            [llamada("s1", "precio", producto="sal"), llamada("s2", "precio", producto="Sal")],
            [llamada("s3", "listar")],
            [texto("No encuentro el precio de la sal.")],
        ],
        "vistos": [
            [error("s1", "KeyError: 'sal'"), error("s2", "KeyError: 'Sal'")],
            [_no("s3", "no existe la herramienta «listar»")],
            None,
        ],
    },
]
