# Las variaciones ocultas: otras respuestas que leer, otros ficheros, otras conversaciones y otros topes.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. PARTES_OCULTAS son los
# casos que cada prueba visible añade en el calificador; VARIACIONES, la prueba «variaciones».
TALLER = {
    "taller/horario.txt": "Lunes y miércoles, de 18:00 a 20:00.",
    "taller/material.txt": "Papel de acuarela, pinceles del 4 y del 8.",
    "cuotas 2025.txt": "Marzo: pagada.\nAbril: pendiente.",
}
VARIACIONES = [
    {  # otras respuestas: tabuladores, acentos, mayúsculas, argumentos largos, líneas vacías
        "acciones": [
            ("\tAcCiÓn:\tleer\ttaller/horario.txt", ["leer", "taller/horario.txt"]),
            ("Pienso.\n\nacción :leer cuotas 2025.txt\n", ["leer", "cuotas 2025.txt"]),
            ("Respuesta: nada que leer.", None),
            ("Acción:   \n  acción:   \nACCIÓN: buscar   pinceles del 8  ", ["buscar", "pinceles del 8"]),
            ("Primero:\nAcción - leer x\nAcción: escribir a.txt hola", ["escribir", "a.txt hola"]),
            ("acciónes: leer x.txt", None),
            ("Acción: ", None),
            ("Acción::leer x", [":leer", "x"]),
            ("Reacción: leer x.txt", None),
        ],
    },
    {  # otra carpeta, cinco turnos y un fichero con espacios; topes de 7 y de 3
        "conversaciones": [
            {
                "inicio": [["sistema", SISTEMA], ["usuario", "¿Qué necesito para el taller y cuándo es?"]],
                "entorno": TALLER,
                "max_turnos": 7,
                "pasos": [
                    ("Acción: leer taller/material.txt", ["leer", "taller/material.txt"]),
                    ("Acción: leer taller/horario", ["leer", "taller/horario"]),
                    ("Me he equivocado.\nAcción: leer taller/horario.txt", ["leer", "taller/horario.txt"]),
                    ("Acción: leer cuotas 2025.txt", ["leer", "cuotas 2025.txt"]),
                    ("Papel y pinceles; lunes y miércoles a las 18:00. Tienes abril pendiente.", None),
                ],
            },
            {
                "inicio": [["usuario", "Lee el horario."]],
                "entorno": TALLER,
                "max_turnos": 3,
                "pasos": [("Acción: listar taller", ["listar", "taller"])] * 6,
            },
        ],
    },
    {  # acciones con las tolerancias dentro de una conversación; el tope justo, de 2, y sin mensaje de sistema
        "acciones": [("  ACCION : leer notas.txt", ["leer", "notas.txt"])],
        "conversaciones": [
            {
                "inicio": [["usuario", "¿Quién viene el sábado?"]],
                "entorno": {"notas.txt": "Vienen Ana y Luis."},
                "max_turnos": 2,
                "pasos": [("  ACCION : leer notas.txt", ["leer", "notas.txt"]), ("Ana y Luis.", None)],
            },
            {
                "inicio": [["sistema", SISTEMA], ["usuario", "¿Qué hay en la lista?"]],
                "entorno": ENTORNO,
                "max_turnos": 9,
                "pasos": [
                    ("acción: leer lista.txt", ["leer", "lista.txt"]),
                    ("Acción: leer lista.txt\nAcción: leer notas.txt", ["leer", "lista.txt"]),
                    ("Pan, leche y patatas.\nNo hace falta ninguna acción más.", None),
                ],
            },
        ],
    },
]

HUERTO = {"huerto/riego.txt": "Regar los martes y los viernes.", "huerto/semillas.txt": "Tomate, pimiento, albahaca."}
PARTES_OCULTAS = {
    "accion": [
        {
            "acciones": [
                ("ACCIÓN:leer huerto/riego.txt", ["leer", "huerto/riego.txt"]),
                ("Acción\t:\tbuscar  tomate ", ["buscar", "tomate"]),
                ("  acCION  :  leer  a b  ", ["leer", "a b"]),
                ("Nada que hacer.\nLa Acción: leer x", None),
                ("Acción: \t \nAcción:listar", ["listar", ""]),
                ("Ya lo sé: regar los martes.", None),
                ("Accion leer riego.txt", None),
                ("Transacción: leer x", None),
            ]
        }
    ],
    "conversacion": [
        {
            "conversaciones": [
                {
                    "inicio": [["sistema", SISTEMA], ["usuario", "¿Cuándo riego el huerto?"]],
                    "entorno": HUERTO,
                    "max_turnos": 5,
                    "pasos": [
                        ("Lo miro.\nacción: leer huerto/riego.txt", ["leer", "huerto/riego.txt"]),
                        ("Los martes y los viernes.", None),
                    ],
                },
            ]
        }
    ],
    "fallos": [
        {
            "conversaciones": [
                {
                    "inicio": [["usuario", "¿Qué semillas tengo?"]],
                    "entorno": HUERTO,
                    "max_turnos": 6,
                    "pasos": [
                        ("ACCION: abrir huerto/semillas.txt", ["abrir", "huerto/semillas.txt"]),
                        ("  Accion: leer semillas.txt", ["leer", "semillas.txt"]),
                        ("Acción: leer huerto/semillas.txt", ["leer", "huerto/semillas.txt"]),
                        ("Tomate, pimiento y albahaca.", None),
                    ],
                },
            ]
        }
    ],
    "tope": [
        {
            "conversaciones": [
                {
                    "inicio": [["usuario", "Lee el riego."]],
                    "entorno": HUERTO,
                    "max_turnos": 3,
                    "pasos": [("Acción: leer riego", ["leer", "riego"])] * 5,
                },
                {
                    "inicio": [["usuario", "Lee el riego."]],
                    "entorno": HUERTO,
                    "max_turnos": 2,
                    "pasos": [
                        ("Acción: listar huerto", ["listar", "huerto"]),
                        ("Regar los martes y los viernes.", None),
                    ],
                },
            ]
        }
    ],
}
