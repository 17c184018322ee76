"""Las pruebas del desafío «El esquema mira la forma».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué
  argumentos y qué esquema dan otra respuesta. Tu código podría engañarlas, así que
  no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tus funciones sólo reciben valores
  JSON (argumentos, esquemas, tipos) y devuelven el suyo.

Se cargan en el mismo espacio de nombres que el código de partida (HERRAMIENTAS, json).
Las respuestas esperadas están escritas a mano en cada caso. Sólo biblioteca estándar.
"""


class Fallo(AssertionError):
    """Una prueba que no pasa; el mensaje dice con qué argumentos y qué esquema."""


class BancoLocal:
    """Tus funciones en este mismo proceso: respuesta al momento, sin valor de nota."""


def exige(condicion, mensaje, *datos):
    if not condicion:
        raise Fallo(mensaje % datos if datos else mensaje)


def _json(valor):
    return json.dumps(valor, ensure_ascii=False)


def comprueba_tipos(casos):
    """[(valor, tipo, lo que debe contestar es_del_tipo)]."""
    for valor, tipo, esperado in casos:
        try:
            visto = es_del_tipo(valor, tipo)
        except Exception as e:
            raise Fallo("es_del_tipo(%s, %r) ha lanzado %s: %s" % (_json(valor), tipo, type(e).__name__, e)) from None
        exige(visto is esperado, "es_del_tipo(%s, %r) debía devolver %s y ha devuelto %r",
              _json(valor), tipo, esperado, visto)


def comprueba_problemas(casos):
    """[(argumentos, esquema, el problema esperado o None)]."""
    for argumentos, esquema, esperado in casos:
        try:
            visto = problema_de_esquema(argumentos, esquema)
        except Exception as e:
            raise Fallo("problema_de_esquema(%s, %s) ha lanzado %s: %s" % (
                _json(argumentos), _json(esquema), type(e).__name__, e)) from None
        exige(visto == esperado, "con los argumentos %s y el esquema %s, problema_de_esquema debía devolver %r "
              "y ha devuelto %r", _json(argumentos), _json(esquema), esperado, visto)


LEER = HERRAMIENTAS["leer"]["input_schema"]
LISTAR = HERRAMIENTAS["listar"]["input_schema"]
ESCRIBIR = HERRAMIENTAS["escribir"]["input_schema"]
RECORTAR = {"type": "object", "additionalProperties": False, "required": ["ruta", "lineas"],
            "properties": {"ruta": {"type": "string"}, "lineas": {"type": "integer"}}}
# Un esquema con todos los tipos de JSON, sin additionalProperties (se admiten otros) y sin obligatorios.
NOTA = {"type": "object",
        "properties": {"titulo": {"type": "string"}, "peso": {"type": "number"}, "veces": {"type": "integer"},
                       "fijada": {"type": "boolean"}, "etiquetas": {"type": "array"},
                       "meta": {"type": "object"}, "padre": {"type": "null"}, "color": {"description": "libre"},
                       "fecha": {"type": "fecha"}}}

TIPOS = [  # (valor, tipo, esperado)
    (3, "integer", True), (-7, "integer", True), (True, "integer", False), (3.0, "integer", False),
    ("3", "integer", False), (None, "integer", False),
    (2.5, "number", True), (3, "number", True), (False, "number", False), ("2.5", "number", False),
    ("hola", "string", True), ("", "string", True), (3, "string", False),
    (True, "boolean", True), (False, "boolean", True), (0, "boolean", False), ("true", "boolean", False),
    ([], "array", True), ([1, "a"], "array", True), ({}, "array", False),
    ({}, "object", True), ({"a": 1}, "object", True), ([], "object", False),
    (None, "null", True), (0, "null", False), ("", "null", False),
    ("lo que sea", "fecha", True), (None, "fecha", True),  # un tipo que no es de JSON no pone condiciones
]

OBJETO = [  # (argumentos, esquema, esperado): lo primero, que sea un objeto
    ("lista.txt", LEER, "los argumentos no son un objeto"),
    (["lista.txt"], LEER, "los argumentos no son un objeto"),
    (None, LISTAR, "los argumentos no son un objeto"),
    (3, NOTA, "los argumentos no son un objeto"),
    ({}, LISTAR, None),
]

OBLIGATORIOS = [
    ({}, LEER, "falta el argumento «ruta»"),
    ({"contenido": "pan"}, ESCRIBIR, "falta el argumento «ruta»"),
    ({}, ESCRIBIR, "falta el argumento «ruta»"),  # el primero de required
    ({"ruta": "lista.txt"}, ESCRIBIR, "falta el argumento «contenido»"),
    ({"ruta": 3}, ESCRIBIR, "falta el argumento «contenido»"),  # antes que el tipo
    ({"modo": "añadir"}, LEER, "falta el argumento «ruta»"),  # antes que lo que sobra
    ({"ruta": "lista.txt", "contenido": "pan"}, ESCRIBIR, None),
]

SOBRANTES = [
    ({"ruta": "lista.txt", "contenido": "pan", "modo": "añadir"}, ESCRIBIR, "sobra el argumento «modo»"),
    ({"carpeta": "recetas", "todo": True}, LISTAR, "sobra el argumento «todo»"),
    ({"ruta": "lista.txt", "Ruta": "notas.txt"}, LEER, "sobra el argumento «Ruta»"),
    ({"titulo": "Compra", "urgente": "sí", "x": None}, NOTA, None),  # sin additionalProperties: se admiten
    ({"ruta": "a.txt", "extra": 1}, dict(LEER, additionalProperties=True), None),
    ({"cualquiera": 1}, {"type": "object"}, None),
    ({"cualquiera": 1}, {"type": "object", "additionalProperties": False}, "sobra el argumento «cualquiera»"),
    ({}, {"type": "object", "additionalProperties": False}, None),
]

TIPOS_EN_EL_ESQUEMA = [
    ({"ruta": 3}, LEER, "el argumento «ruta» debe ser de tipo string"),
    ({"ruta": "agenda.txt", "lineas": True}, RECORTAR, "el argumento «lineas» debe ser de tipo integer"),
    ({"ruta": "agenda.txt", "lineas": 2.0}, RECORTAR, "el argumento «lineas» debe ser de tipo integer"),
    ({"ruta": "agenda.txt", "lineas": 2}, RECORTAR, None),
    ({"ruta": None, "lineas": "2"}, RECORTAR, "el argumento «ruta» debe ser de tipo string"),  # el primero
    ({"lineas": "2", "ruta": None}, RECORTAR, "el argumento «lineas» debe ser de tipo integer"),  # en su orden
    ({"peso": 1, "veces": 2, "fijada": False, "etiquetas": [], "meta": {}, "padre": None, "color": [1],
      "fecha": 5, "titulo": ""}, NOTA, None),
    ({"peso": True}, NOTA, "el argumento «peso» debe ser de tipo number"),
    ({"fijada": 1}, NOTA, "el argumento «fijada» debe ser de tipo boolean"),
    ({"etiquetas": "a, b"}, NOTA, "el argumento «etiquetas» debe ser de tipo array"),
    ({"meta": []}, NOTA, "el argumento «meta» debe ser de tipo object"),
    ({"padre": 0}, NOTA, "el argumento «padre» debe ser de tipo null"),
    ({"carpeta": "recetas", "sobra": 1}, LISTAR, "sobra el argumento «sobra»"),
    ({"sobra": 1, "carpeta": 3}, LISTAR, "sobra el argumento «sobra»"),  # en el orden de los argumentos
    ({"carpeta": 3, "sobra": 1}, LISTAR, "el argumento «carpeta» debe ser de tipo string"),
]


def prueba_tipo(banco):
    """es_del_tipo: los siete tipos de JSON; True no es un número y 3.0 no es un integer."""
    comprueba_tipos(TIPOS)


def prueba_objeto(banco):
    """Si los argumentos no son un objeto, eso es lo primero que se dice."""
    comprueba_problemas(OBJETO)


def prueba_obligatorios(banco):
    """Los obligatorios, en el orden de required, antes que lo que sobra y que los tipos."""
    comprueba_problemas(OBLIGATORIOS)


def prueba_sobrantes(banco):
    """additionalProperties: false no admite otros argumentos; sin él (o con true), se admiten."""
    comprueba_problemas(SOBRANTES)


def prueba_tipos(banco):
    """El tipo de cada argumento, en el orden de los argumentos; sin tipo o con uno desconocido, vale todo."""
    comprueba_problemas(TIPOS_EN_EL_ESQUEMA)


def prueba_variaciones(banco, variaciones):
    """Otros esquemas, otros tipos, otros nombres y otro orden de argumentos."""
    for n, v in enumerate(variaciones, 1):
        with oculta(n, len(variaciones), "¿Sigues el orden del enunciado (objeto, obligatorios y después cada "
                                         "argumento en su orden) y lees el esquema que recibes?"):
            comprueba_tipos(v.get("tipos", []))
            comprueba_problemas(v.get("problemas", []))


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "tipo": (2, prueba_tipo),
    "objeto": (1, prueba_objeto),
    "obligatorios": (2, prueba_obligatorios),
    "sobrantes": (2, prueba_sobrantes),
    "tipos": (1, prueba_tipos),
    "variaciones": (2, prueba_variaciones),
}
