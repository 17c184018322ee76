"""Las pruebas del desafío «El esquema mira la forma».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué
  argumentos y qué esquema dan otra respuesta. Tu código podría engañarlas, así que
  no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tus funciones sólo reciben valores
  JSON (argumentos, esquemas, tipos) y devuelven el suyo.

Se cargan en el mismo espacio de nombres que el código de partida (HERRAMIENTAS, json).
Las respuestas esperadas están escritas a mano en cada caso. Sólo biblioteca estándar.
En el calificador, cada prueba repite además sus comprobaciones con casos que no ves
(PARTES_OCULTAS, en ocultas.py): copiar las respuestas visibles no da puntos.
Las tablas de casos se llaman CASOS_…, para no pisar ningún nombre tuyo (como TIPOS).
"""


def _json(valor):
    return json.dumps(valor, ensure_ascii=False)


def comprueba_tipos(casos):
    """[(valor, tipo, lo que debe contestar es_del_tipo)]."""
    for valor, tipo, esperado in casos:
        try:
            visto = es_del_tipo(valor, tipo)
        except Exception as e:
            raise Fallo("es_del_tipo(%s, %r) ha lanzado %s: %s" % (_json(valor), tipo, type(e).__name__, e)) from None
        exige(
            visto is esperado,
            "es_del_tipo(%s, %r) debía devolver %s y ha devuelto %r",
            _json(valor),
            tipo,
            esperado,
            visto,
        )


def comprueba_problemas(casos):
    """[(argumentos, esquema, el problema esperado o None)]."""
    for argumentos, esquema, esperado in casos:
        try:
            visto = problema_de_esquema(argumentos, esquema)
        except Exception as e:
            raise Fallo(
                "problema_de_esquema(%s, %s) ha lanzado %s: %s"
                % (_json(argumentos), _json(esquema), type(e).__name__, e)
            ) from None
        exige(
            visto == esperado,
            "con los argumentos %s y el esquema %s, problema_de_esquema debía devolver %r y ha devuelto %r",
            _json(argumentos),
            _json(esquema),
            esperado,
            visto,
        )


LEER = HERRAMIENTAS["leer"]["input_schema"]
LISTAR = HERRAMIENTAS["listar"]["input_schema"]
ESCRIBIR = HERRAMIENTAS["escribir"]["input_schema"]
ESQUEMA_RECORTAR = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ruta", "lineas"],
    "properties": {"ruta": {"type": "string"}, "lineas": {"type": "integer"}},
}
# Un esquema con todos los tipos de JSON, sin additionalProperties (se admiten otros) y sin obligatorios.
NOTA = {
    "type": "object",
    "properties": {
        "titulo": {"type": "string"},
        "peso": {"type": "number"},
        "veces": {"type": "integer"},
        "fijada": {"type": "boolean"},
        "etiquetas": {"type": "array"},
        "meta": {"type": "object"},
        "padre": {"type": "null"},
        "color": {"description": "libre"},
    },
}
# Dos esquemas con erratas de quien los escribe: un tipo que no existe y un additionalProperties que
# no es un booleano. Ante la duda, no: lo que el esquema no dice bien es un problema.
ESCRIBIR_CON_ERRATA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ruta", "contenido"],
    "properties": {"ruta": {"type": "string"}, "contenido": {"type": "strnig"}},
}
LEER_CON_CERO = dict(LEER, additionalProperties=0)

CASOS_DE_TIPO = [  # (valor, tipo, esperado)
    (3, "integer", True),
    (-7, "integer", True),
    (True, "integer", False),
    (3.0, "integer", True),
    (2.5, "integer", False),
    ("3", "integer", False),
    (None, "integer", False),
    (2.5, "number", True),
    (3, "number", True),
    (False, "number", False),
    ("2.5", "number", False),
    ("hola", "string", True),
    ("", "string", True),
    (3, "string", False),
    (True, "boolean", True),
    (False, "boolean", True),
    (0, "boolean", False),
    ("true", "boolean", False),
    ([], "array", True),
    ([1, "a"], "array", True),
    ({}, "array", False),
    ({}, "object", True),
    ({"a": 1}, "object", True),
    ([], "object", False),
    (None, "null", True),
    (0, "null", False),
    ("", "null", False),
    ("lo que sea", "fecha", False),  # un tipo que no es de JSON no lo cumple nadie
    (None, "fecha", False),
    ("texto", "strnig", False),  # ni una errata del tipo bueno
]

CASOS_DE_OBJETO = [  # (argumentos, esquema, esperado): lo primero, que sea un objeto
    ("lista.txt", LEER, "los argumentos no son un objeto"),
    (["lista.txt"], LEER, "los argumentos no son un objeto"),
    (None, LISTAR, "los argumentos no son un objeto"),
    (3, NOTA, "los argumentos no son un objeto"),
    ({}, LISTAR, None),
]

CASOS_DE_OBLIGATORIOS = [
    ({}, LEER, "falta el argumento «ruta»"),
    ({"contenido": "pan"}, ESCRIBIR, "falta el argumento «ruta»"),
    ({}, ESCRIBIR, "falta el argumento «ruta»"),  # el primero de required
    ({"ruta": "lista.txt"}, ESCRIBIR, "falta el argumento «contenido»"),
    ({"ruta": 3}, ESCRIBIR, "falta el argumento «contenido»"),  # antes que el tipo
    ({"modo": "añadir"}, LEER, "falta el argumento «ruta»"),  # antes que lo que sobra
    ({"ruta": "lista.txt", "contenido": "pan"}, ESCRIBIR, None),
]

CASOS_DE_SOBRANTES = [
    ({"ruta": "lista.txt", "contenido": "pan", "modo": "añadir"}, ESCRIBIR, "sobra el argumento «modo»"),
    ({"carpeta": "recetas", "todo": True}, LISTAR, "sobra el argumento «todo»"),
    ({"ruta": "lista.txt", "Ruta": "notas.txt"}, LEER, "sobra el argumento «Ruta»"),
    ({"titulo": "Compra", "urgente": "sí", "x": None}, NOTA, None),  # sin additionalProperties: se admiten
    ({"ruta": "a.txt", "extra": 1}, dict(LEER, additionalProperties=True), None),
    ({"cualquiera": 1}, {"type": "object"}, None),
    ({"cualquiera": 1}, {"type": "object", "additionalProperties": False}, "sobra el argumento «cualquiera»"),
    ({}, {"type": "object", "additionalProperties": False}, None),
    # additionalProperties que no es True ni False: lo que sobra no entra.
    ({"ruta": "lista.txt", "modo": "añadir"}, LEER_CON_CERO, "additionalProperties debe ser true o false, y es 0"),
    ({"ruta": "lista.txt"}, LEER_CON_CERO, None),  # si no sobra nada, no se mira
    (
        {"x": 1},
        {"type": "object", "additionalProperties": "false"},
        'additionalProperties debe ser true o false, y es "false"',
    ),
]

CASOS_DE_TIPOS = [
    ({"ruta": 3}, LEER, "el argumento «ruta» debe ser de tipo string"),
    ({"ruta": "agenda.txt", "lineas": True}, ESQUEMA_RECORTAR, "el argumento «lineas» debe ser de tipo integer"),
    ({"ruta": "agenda.txt", "lineas": 2.0}, ESQUEMA_RECORTAR, None),  # en JSON Schema, 2.0 es un integer
    ({"ruta": "agenda.txt", "lineas": 2.5}, ESQUEMA_RECORTAR, "el argumento «lineas» debe ser de tipo integer"),
    ({"ruta": "agenda.txt", "lineas": 2}, ESQUEMA_RECORTAR, None),
    ({"ruta": None, "lineas": "2"}, ESQUEMA_RECORTAR, "el argumento «ruta» debe ser de tipo string"),  # el primero
    ({"lineas": "2", "ruta": None}, ESQUEMA_RECORTAR, "el argumento «lineas» debe ser de tipo integer"),  # en su orden
    (
        {
            "peso": 1,
            "veces": 2,
            "fijada": False,
            "etiquetas": [],
            "meta": {},
            "padre": None,
            "color": [1],
            "titulo": "",
        },
        NOTA,
        None,
    ),
    ({"peso": True}, NOTA, "el argumento «peso» debe ser de tipo number"),
    ({"fijada": 1}, NOTA, "el argumento «fijada» debe ser de tipo boolean"),
    ({"etiquetas": "a, b"}, NOTA, "el argumento «etiquetas» debe ser de tipo array"),
    ({"meta": []}, NOTA, "el argumento «meta» debe ser de tipo object"),
    ({"padre": 0}, NOTA, "el argumento «padre» debe ser de tipo null"),
    ({"carpeta": "recetas", "sobra": 1}, LISTAR, "sobra el argumento «sobra»"),
    ({"sobra": 1, "carpeta": 3}, LISTAR, "sobra el argumento «sobra»"),  # en el orden de los argumentos
    ({"carpeta": 3, "sobra": 1}, LISTAR, "el argumento «carpeta» debe ser de tipo string"),
    # Con un tipo desconocido no se puede comprobar el valor: ni 4 ni "pan" pasan.
    (
        {"ruta": "notas.txt", "contenido": 4},
        ESCRIBIR_CON_ERRATA,
        'el esquema del argumento «contenido» tiene un tipo desconocido: "strnig"',
    ),
    (
        {"ruta": "notas.txt", "contenido": "pan"},
        ESCRIBIR_CON_ERRATA,
        'el esquema del argumento «contenido» tiene un tipo desconocido: "strnig"',
    ),
    ({"ruta": 3, "contenido": 4}, ESCRIBIR_CON_ERRATA, "el argumento «ruta» debe ser de tipo string"),  # en orden
    ({"ruta": "notas.txt"}, ESCRIBIR_CON_ERRATA, "falta el argumento «contenido»"),
]


# enum: el valor tiene que ser igual, como en JSON, a uno de la lista; se mira después del tipo.
MODO = {
    "type": "object",
    "additionalProperties": False,
    "required": ["ruta", "modo"],
    "properties": {"ruta": {"type": "string"}, "modo": {"type": "string", "enum": ["añadir", "sustituir"]}},
}
NIVEL = {
    "type": "object",
    "properties": {
        "nivel": {"type": "integer", "enum": [1, 2, 3]},
        "activo": {"enum": [True, None]},
        "cero": {"enum": [0]},
    },
}
CASOS_DE_ENUM = [
    ({"ruta": "lista.txt", "modo": "añadir"}, MODO, None),
    ({"ruta": "lista.txt", "modo": "sustituir"}, MODO, None),
    ({"ruta": "lista.txt", "modo": "borrar"}, MODO, 'el argumento «modo» debe ser uno de "añadir", "sustituir"'),
    ({"ruta": "lista.txt", "modo": "Añadir"}, MODO, 'el argumento «modo» debe ser uno de "añadir", "sustituir"'),
    ({"ruta": "lista.txt", "modo": 1}, MODO, "el argumento «modo» debe ser de tipo string"),  # el tipo, antes
    ({"modo": "borrar", "ruta": 3}, MODO, 'el argumento «modo» debe ser uno de "añadir", "sustituir"'),  # en orden
    ({"modo": "borrar"}, MODO, "falta el argumento «ruta»"),  # los obligatorios, antes
    ({"nivel": 2}, NIVEL, None),
    ({"nivel": 2.0}, NIVEL, None),  # 2.0 es un integer, e igual a 2
    ({"nivel": 4}, NIVEL, "el argumento «nivel» debe ser uno de 1, 2, 3"),
    ({"nivel": True}, NIVEL, "el argumento «nivel» debe ser de tipo integer"),
    ({"activo": True}, NIVEL, None),
    ({"activo": None}, NIVEL, None),
    ({"activo": 1}, NIVEL, "el argumento «activo» debe ser uno de true, null"),  # 1 no es true
    ({"activo": "true"}, NIVEL, "el argumento «activo» debe ser uno de true, null"),
    ({"cero": 0.0}, NIVEL, None),
    ({"cero": False}, NIVEL, "el argumento «cero» debe ser uno de 0"),  # en Python False == 0; en JSON, no
]


def parte_oculta(nombre):
    """En el calificador, los casos ocultos de esta prueba (ocultas.py); en tu cuaderno, ninguno."""
    return globals().get("PARTES_OCULTAS", {}).get(nombre, [])


def con_su_parte_oculta(nombre, pista):
    """Pasa, con una pista, cada grupo de casos ocultos de la prueba: tipos y problemas."""
    grupos = parte_oculta(nombre)
    for n, grupo in enumerate(grupos, 1):
        with oculta(n, len(grupos), pista):
            comprueba_tipos(grupo.get("tipos", []))
            comprueba_problemas(grupo.get("problemas", []))


def prueba_tipo(banco):
    """es_del_tipo: los siete tipos de JSON; True no es un número, 3.0 es un integer y un tipo desconocido no vale."""
    comprueba_tipos(CASOS_DE_TIPO)
    con_su_parte_oculta(
        "tipo",
        "¿Descartas los booleanos en los números, aceptas un float sin parte decimal como integer y "
        "devuelves False con un tipo que no conoces?",
    )


def prueba_objeto(banco):
    """Si los argumentos no son un objeto, eso es lo primero que se dice."""
    comprueba_problemas(CASOS_DE_OBJETO)
    con_su_parte_oculta("objeto", "¿Miras que los argumentos sean un diccionario antes que nada?")


def prueba_obligatorios(banco):
    """Los obligatorios, en el orden de required, antes que lo que sobra y que los tipos."""
    comprueba_problemas(CASOS_DE_OBLIGATORIOS)
    con_su_parte_oculta("obligatorios", "¿Recorres required en su orden, antes de mirar cada argumento?")


def prueba_sobrantes(banco):
    """additionalProperties: sin él o con true se admiten otros argumentos; con false no, ni con una errata."""
    comprueba_problemas(CASOS_DE_SOBRANTES)
    con_su_parte_oculta(
        "sobrantes",
        "¿Admites lo que sobra sólo si additionalProperties no está o es True, y con cualquier otra cosa "
        "que no sea False dices que debe ser true o false?",
    )


def prueba_tipos(banco):
    """El tipo de cada argumento, en el orden de los argumentos; sin tipo vale todo, y con uno desconocido, nada."""
    comprueba_problemas(CASOS_DE_TIPOS)
    con_su_parte_oculta(
        "tipos",
        "¿Miras cada argumento en su orden, con el tipo de su propiedad, y un tipo que no está en "
        "NOMBRES_DE_TIPO es un problema del esquema?",
    )


def prueba_enum(banco):
    """enum: el valor, igual como en JSON a uno de la lista (true no es 1); se mira después del tipo."""
    comprueba_problemas(CASOS_DE_ENUM)
    con_su_parte_oculta(
        "enum",
        "¿Comparas como en JSON (un booleano sólo es igual a otro booleano) y escribes "
        "los valores permitidos con json.dumps, separados por «, »?",
    )


def prueba_variaciones(banco, variaciones):
    """Otros esquemas, otros tipos, otros nombres y otro orden de argumentos."""
    for n, v in enumerate(variaciones, 1):
        with oculta(
            n,
            len(variaciones),
            "¿Sigues el orden del enunciado (objeto, obligatorios y después cada "
            "argumento en su orden) y lees el esquema que recibes?",
        ):
            comprueba_tipos(v.get("tipos", []))
            comprueba_problemas(v.get("problemas", []))


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "tipo": (1, prueba_tipo),
    "objeto": (1, prueba_objeto),
    "obligatorios": (1, prueba_obligatorios),
    "sobrantes": (1, prueba_sobrantes),
    "tipos": (1, prueba_tipos),
    "enum": (3, prueba_enum),
    "variaciones": (2, prueba_variaciones),
}
