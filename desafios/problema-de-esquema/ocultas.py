# Las variaciones ocultas: otros esquemas (otras herramientas, tipos, obligatorios y sobrantes)
# y otro orden de argumentos. nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí.
CORREO = {"type": "object", "additionalProperties": False, "required": ["para", "asunto", "cuerpo"],
          "properties": {"para": {"type": "string"}, "asunto": {"type": "string"}, "cuerpo": {"type": "string"},
                         "urgente": {"type": "boolean"}, "copias": {"type": "array"}}}
PAGO = {"type": "object", "required": ["importe", "cuenta"], "additionalProperties": False,
        "properties": {"cuenta": {"type": "string"}, "importe": {"type": "number"}, "plazos": {"type": "integer"},
                       "nota": {"type": "null"}, "datos": {"type": "object"}}}
ABIERTO = {"type": "object", "required": ["q"], "additionalProperties": True,
           "properties": {"q": {"type": "string"}, "n": {"type": "integer"}, "libre": {}}}
VARIACIONES = [
    {   # otra herramienta: un correo, con obligatorios en otro orden y argumentos desordenados
        "problemas": [
            ({"cuerpo": "Hola", "para": "ana@ejemplo.com"}, CORREO, "falta el argumento «asunto»"),
            ({"asunto": "x"}, CORREO, "falta el argumento «para»"),
            ({"para": "a", "asunto": "b", "cuerpo": "c"}, CORREO, None),
            ({"urgente": "sí", "para": "a", "asunto": "b", "cuerpo": "c"}, CORREO,
             "el argumento «urgente» debe ser de tipo boolean"),
            ({"para": "a", "asunto": "b", "cuerpo": "c", "cco": ["d"], "urgente": 1}, CORREO,
             "sobra el argumento «cco»"),
            ({"para": "a", "asunto": "b", "cuerpo": "c", "copias": "d"}, CORREO,
             "el argumento «copias» debe ser de tipo array"),
            ({"para": ["a"], "asunto": 1, "cuerpo": None}, CORREO, "el argumento «para» debe ser de tipo string"),
            ([["para", "a"]], CORREO, "los argumentos no son un objeto"),
        ],
    },
    {   # números: importe number, plazos integer; un esquema abierto y otro sin properties
        "tipos": [(0, "number", True), (-0.5, "number", True), (True, "number", False), (10**20, "integer", True),
                  (1.5, "integer", False), (False, "boolean", True), (None, "object", False), ("null", "null", False),
                  ([None], "array", True), ({"x": None}, "object", True), (1, "cualquiera", True)],
        "problemas": [
            ({"cuenta": "ES00", "importe": 12}, PAGO, None),
            ({"cuenta": "ES00", "importe": 12.5, "plazos": 3, "nota": None, "datos": {}}, PAGO, None),
            ({"cuenta": "ES00", "importe": "12"}, PAGO, "el argumento «importe» debe ser de tipo number"),
            ({"importe": False, "cuenta": "ES00"}, PAGO, "el argumento «importe» debe ser de tipo number"),
            ({"cuenta": "ES00", "importe": 1, "plazos": 2.0}, PAGO, "el argumento «plazos» debe ser de tipo integer"),
            ({"cuenta": "ES00", "importe": 1, "nota": ""}, PAGO, "el argumento «nota» debe ser de tipo null"),
            ({"importe": 1}, PAGO, "falta el argumento «cuenta»"),
            ({"cuenta": 1}, PAGO, "falta el argumento «importe»"),
            ({"q": "pan", "n": True, "otro": 1}, ABIERTO, "el argumento «n» debe ser de tipo integer"),
            ({"otro": 1, "libre": [1], "q": "x"}, ABIERTO, None),
            ({"n": 1}, ABIERTO, "falta el argumento «q»"),
            ({"a": 1}, {"type": "object", "required": ["a"], "additionalProperties": False},
             "sobra el argumento «a»"),
            ({}, {"type": "object", "required": ["b", "a"]}, "falta el argumento «b»"),
            ({"q": "x", "extra": 1}, {"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}},
             None),
            ("{}", ABIERTO, "los argumentos no son un objeto"),
        ],
    },
]
