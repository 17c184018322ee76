# Las variaciones ocultas: otros esquemas (otras herramientas, tipos, enum, obligatorios y sobrantes)
# y otro orden de argumentos. nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí.
# PARTES_OCULTAS son los casos que cada prueba visible añade en el calificador; VARIACIONES, la
# prueba «variaciones».
CORREO = {
    "type": "object",
    "additionalProperties": False,
    "required": ["para", "asunto", "cuerpo"],
    "properties": {
        "para": {"type": "string"},
        "asunto": {"type": "string"},
        "cuerpo": {"type": "string"},
        "urgente": {"type": "boolean"},
        "copias": {"type": "array"},
    },
}
PAGO = {
    "type": "object",
    "required": ["importe", "cuenta"],
    "additionalProperties": False,
    "properties": {
        "cuenta": {"type": "string"},
        "importe": {"type": "number"},
        "plazos": {"type": "integer"},
        "nota": {"type": "null"},
        "datos": {"type": "object"},
    },
}
ABIERTO = {
    "type": "object",
    "required": ["q"],
    "additionalProperties": True,
    "properties": {"q": {"type": "string"}, "n": {"type": "integer"}, "libre": {}},
}
VARIACIONES = [
    {  # otra herramienta: un correo, con obligatorios en otro orden y argumentos desordenados
        "problemas": [
            ({"cuerpo": "Hola", "para": "ana@ejemplo.com"}, CORREO, "falta el argumento «asunto»"),
            ({"asunto": "x"}, CORREO, "falta el argumento «para»"),
            ({"para": "a", "asunto": "b", "cuerpo": "c"}, CORREO, None),
            (
                {"urgente": "sí", "para": "a", "asunto": "b", "cuerpo": "c"},
                CORREO,
                "el argumento «urgente» debe ser de tipo boolean",
            ),
            (
                {"para": "a", "asunto": "b", "cuerpo": "c", "cco": ["d"], "urgente": 1},
                CORREO,
                "sobra el argumento «cco»",
            ),
            (
                {"para": "a", "asunto": "b", "cuerpo": "c", "copias": "d"},
                CORREO,
                "el argumento «copias» debe ser de tipo array",
            ),
            ({"para": ["a"], "asunto": 1, "cuerpo": None}, CORREO, "el argumento «para» debe ser de tipo string"),
            ([["para", "a"]], CORREO, "los argumentos no son un objeto"),
        ],
    },
    {  # números: importe number, plazos integer; un esquema abierto y otro sin properties
        "tipos": [
            (0, "number", True),
            (-0.5, "number", True),
            (True, "number", False),
            (10**20, "integer", True),
            (1.5, "integer", False),
            (-4.0, "integer", True),
            (False, "boolean", True),
            (None, "object", False),
            ("null", "null", False),
            ([None], "array", True),
            ({"x": None}, "object", True),
        ],
        "problemas": [
            ({"cuenta": "ES00", "importe": 12}, PAGO, None),
            ({"cuenta": "ES00", "importe": 12.5, "plazos": 3, "nota": None, "datos": {}}, PAGO, None),
            ({"cuenta": "ES00", "importe": "12"}, PAGO, "el argumento «importe» debe ser de tipo number"),
            ({"importe": False, "cuenta": "ES00"}, PAGO, "el argumento «importe» debe ser de tipo number"),
            ({"cuenta": "ES00", "importe": 1, "plazos": 2.0}, PAGO, None),
            ({"cuenta": "ES00", "importe": 1, "plazos": 2.25}, PAGO, "el argumento «plazos» debe ser de tipo integer"),
            ({"cuenta": "ES00", "importe": 1, "nota": ""}, PAGO, "el argumento «nota» debe ser de tipo null"),
            ({"importe": 1}, PAGO, "falta el argumento «cuenta»"),
            ({"cuenta": 1}, PAGO, "falta el argumento «importe»"),
            ({"q": "pan", "n": True, "otro": 1}, ABIERTO, "el argumento «n» debe ser de tipo integer"),
            ({"otro": 1, "libre": [1], "q": "x"}, ABIERTO, None),
            ({"n": 1}, ABIERTO, "falta el argumento «q»"),
            ({"a": 1}, {"type": "object", "required": ["a"], "additionalProperties": False}, "sobra el argumento «a»"),
            ({}, {"type": "object", "required": ["b", "a"]}, "falta el argumento «b»"),
            (
                {"q": "x", "extra": 1},
                {"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}},
                None,
            ),
            ("{}", ABIERTO, "los argumentos no son un objeto"),
        ],
    },
]

# Una herramienta de recordatorios, con enum de textos, de números y de booleanos.
AVISO = {
    "type": "object",
    "additionalProperties": False,
    "required": ["texto", "cuando"],
    "properties": {
        "texto": {"type": "string"},
        "cuando": {"type": "string", "enum": ["hoy", "mañana"]},
        "repetir": {"type": "integer", "enum": [0, 7, 30]},
        "sonido": {"enum": [False, "suave"]},
    },
}

# Un pago con erratas en los tipos de quien escribió el esquema: Number, int y un tipo que no es de JSON.
CON_ERRATAS = {
    "type": "object",
    "required": ["cuenta", "importe"],
    "properties": {
        "cuenta": {"type": "string"},
        "importe": {"type": "Number"},
        "n": {"type": "int"},
        "dia": {"type": "fecha"},
    },
}

PARTES_OCULTAS = {
    "tipo": [
        {
            "tipos": [
                (7.0, "integer", True),
                (-0.5, "integer", False),
                (1, "boolean", False),
                (False, "integer", False),
                (0.0, "number", True),
                ("", "array", False),
                ([1], "object", False),
                ({}, "null", False),
                (None, "string", False),
                (12, "texto", False),  # un tipo que no se conoce no lo cumple nadie
                (3, "int", False),
                (True, "bool", False),
                (None, "Null", False),
                ([], "lista", False),
            ]
        }
    ],
    "objeto": [
        {
            "problemas": [
                ([], AVISO, "los argumentos no son un objeto"),
                ("texto", AVISO, "los argumentos no son un objeto"),
                (True, ABIERTO, "los argumentos no son un objeto"),
                ({"q": "x"}, ABIERTO, None),
            ]
        }
    ],
    "obligatorios": [
        {
            "problemas": [
                ({"cuando": "hoy"}, AVISO, "falta el argumento «texto»"),
                ({"texto": 1, "avisar": 2}, AVISO, "falta el argumento «cuando»"),
                ({"cuando": 3, "texto": "pan"}, AVISO, "el argumento «cuando» debe ser de tipo string"),
                ({"texto": "pan", "cuando": "hoy"}, AVISO, None),
            ]
        }
    ],
    "sobrantes": [
        {
            "problemas": [
                ({"texto": "pan", "cuando": "hoy", "Texto": "x"}, AVISO, "sobra el argumento «Texto»"),
                ({"q": "x", "fuera": [1], "n": 2}, ABIERTO, None),
                ({"para": "a", "asunto": "b", "cuerpo": "c", "firma": "d"}, CORREO, "sobra el argumento «firma»"),
                ({"x": 1}, {"type": "object", "additionalProperties": True}, None),
                # Erratas en additionalProperties: nada de lo que sobra entra.
                (
                    {"para": "a", "asunto": "b", "cuerpo": "c", "cc": "d"},
                    dict(CORREO, additionalProperties=None),
                    "additionalProperties debe ser true o false, y es null",
                ),
                (
                    {"q": "x", "n": 1, "otro": 2},
                    dict(ABIERTO, additionalProperties=1),
                    "additionalProperties debe ser true o false, y es 1",
                ),
                ({"q": "x", "n": 1}, dict(ABIERTO, additionalProperties=1), None),
                (
                    {"x": 1},
                    {"type": "object", "additionalProperties": "False"},
                    'additionalProperties debe ser true o false, y es "False"',
                ),
                (
                    {"x": 1},
                    {"type": "object", "additionalProperties": {}},
                    "additionalProperties debe ser true o false, y es {}",
                ),
                (
                    {"texto": "pan", "Texto": 1, "cuando": "hoy"},
                    dict(AVISO, additionalProperties="no"),
                    'additionalProperties debe ser true o false, y es "no"',
                ),
            ]
        }
    ],
    "tipos": [
        {
            "problemas": [
                (
                    {"texto": "pan", "cuando": "hoy", "repetir": "7"},
                    AVISO,
                    "el argumento «repetir» debe ser de tipo integer",
                ),
                ({"cuenta": "ES00", "importe": 1, "plazos": 6.0}, PAGO, None),
                (
                    {"repetir": True, "texto": 5, "cuando": "hoy"},
                    AVISO,
                    "el argumento «repetir» debe ser de tipo integer",
                ),
                # Tipos que no se conocen: el esquema está mal y ningún valor pasa.
                (
                    {"n": 2, "cuenta": "ES00", "importe": 1},
                    CON_ERRATAS,
                    'el esquema del argumento «n» tiene un tipo desconocido: "int"',
                ),
                (
                    {"cuenta": "ES00", "n": "2", "importe": 1},
                    CON_ERRATAS,
                    'el esquema del argumento «n» tiene un tipo desconocido: "int"',
                ),
                (
                    {"importe": 1, "cuenta": "ES00"},
                    CON_ERRATAS,
                    'el esquema del argumento «importe» tiene un tipo desconocido: "Number"',
                ),
                ({"cuenta": 7, "importe": 1}, CON_ERRATAS, "el argumento «cuenta» debe ser de tipo string"),
                ({"cuenta": "ES00", "dia": None}, CON_ERRATAS, "falta el argumento «importe»"),
                (
                    {"cuenta": "ES00", "importe": 1, "dia": "lunes"},
                    CON_ERRATAS,
                    'el esquema del argumento «importe» tiene un tipo desconocido: "Number"',
                ),
                (
                    {"dia": "lunes", "cuenta": "ES00", "importe": 1},
                    CON_ERRATAS,
                    'el esquema del argumento «dia» tiene un tipo desconocido: "fecha"',
                ),
            ]
        }
    ],
    "enum": [
        {
            "problemas": [
                # Los casos de enum están sólo aquí: sin enum se pierden sus 3 puntos, no los de tipos ni
                # las variaciones (revisión del bloque 1, N8).
                (
                    {"texto": "pan", "cuando": "hoy", "repetir": 14},
                    AVISO,
                    "el argumento «repetir» debe ser uno de 0, 7, 30",
                ),
                ({"texto": "pan", "cuando": "hoy", "repetir": 30.0, "sonido": "suave"}, AVISO, None),
                ({"texto": "pan", "cuando": "hoy", "repetir": 7.0}, AVISO, None),
                ({"cuando": "Hoy", "texto": "pan"}, AVISO, 'el argumento «cuando» debe ser uno de "hoy", "mañana"'),
                ({"texto": "pan", "cuando": "mañana"}, AVISO, None),
                ({"texto": "pan", "cuando": "pasado"}, AVISO, 'el argumento «cuando» debe ser uno de "hoy", "mañana"'),
                ({"texto": "pan", "cuando": "hoy", "repetir": 0}, AVISO, None),
                (
                    {"texto": "pan", "cuando": "hoy", "repetir": False},
                    AVISO,
                    "el argumento «repetir» debe ser de tipo integer",
                ),
                (
                    {"texto": "pan", "cuando": "hoy", "sonido": 0},
                    AVISO,
                    'el argumento «sonido» debe ser uno de false, "suave"',
                ),
                ({"texto": "pan", "cuando": "hoy", "sonido": False}, AVISO, None),
                (
                    {"texto": "pan", "cuando": "hoy", "sonido": "fuerte"},
                    AVISO,
                    'el argumento «sonido» debe ser uno de false, "suave"',
                ),
                (
                    {"texto": "pan", "cuando": "hoy", "sonido": None},
                    AVISO,
                    'el argumento «sonido» debe ser uno de false, "suave"',
                ),
            ]
        }
    ],
}
