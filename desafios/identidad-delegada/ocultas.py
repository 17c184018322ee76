# Las variaciones ocultas: usuarios que no salen en la lección, otro reloj y tokens ajenos para ellos.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. Los casos de
# validar_token y los tokens ajenos cambian de valores, de orden y de número respecto de los visibles.
CASOS_OCULTOS = [  # (qué tiene el token, cambios, audiencia, motivo esperado o None si vale); exp, desde ahora
    ("con tres alcances", {"scope": "pedidos:leer perfiles:leer facturas:leer"}, None, None),
    ("sin scope", {"scope": None}, None, "falta el alcance perfiles:leer"),
    ("para pedidos", {"aud": PEDIDOS}, None, "token para otra audiencia: " + PEDIDOS),
    ("que caduca dentro de 30 s", {"exp": 30}, None, None),
    ("caducado hace un minuto", {"exp": -60}, None, "token caducado"),
    ("de otro emisor y caducado", {"iss": "https://as.falso.ejemplo.com", "exp": -1}, None, "emisor desconocido"),
    ("válido, en pedidos", {"aud": PEDIDOS}, PEDIDOS, None),
    ("con el alcance en mayúsculas", {"scope": "PERFILES:LEER"}, None, "falta el alcance perfiles:leer"),
    ("válido", {}, None, None),
    ("sin iss", {"iss": None}, None, "emisor desconocido"),
    ("para facturación y sin alcance", {"aud": FACTURACION, "scope": None}, None,
     "token para otra audiencia: " + FACTURACION),
]
TOKENS_OCULTOS = [  # (qué es, cambios al token válido); exp, desde ahora
    ("sin el alcance de perfiles", {"scope": "facturas:leer"}),
    ("para pedidos", {"aud": PEDIDOS}),
    ("caducado hace un día", {"exp": -86400}),
    ("de otro emisor", {"iss": "https://otro.ejemplo.com"}),
    ("para facturación con el alcance de perfiles", {"aud": FACTURACION}),
    ("sin emisor", {"iss": None}),
]
VARIACIONES = [
    {   # dos usuarios nuevos, un día después
        "perfiles": {"u-207": {"nombre": "Lucía Gómez", "departamento": "ventas", "salario_anual": 47500},
                     "u-318": {"nombre": "Jorge Prieto", "departamento": "legal", "salario_anual": 70250}},
        "usuarios": ["u-207", "u-318"],
        "ahora": AHORA + 86400,
        "casos_de_validar": CASOS_OCULTOS,
        "tokens_ajenos": TOKENS_OCULTOS,
    },
    {   # los de la lección y una más, dos horas antes
        "perfiles": {**PERFILES_DE_LA_LECCION,
                     "u-102": {"nombre": "Nuria Sanz", "departamento": "finanzas", "salario_anual": 58800}},
        "usuarios": ["u-102", "u-100"],
        "ahora": AHORA - 7200,
        "casos_de_validar": CASOS_OCULTOS[::-1][1:],
        "tokens_ajenos": TOKENS_OCULTOS[::-1][:4],
    },
]
