# Las variaciones ocultas: usuarios que no salen en la lección, otro reloj, otros actores admitidos y
# tokens ajenos para ellos.
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
    ("con exp NaN", {"exp": float("nan")}, None, "token caducado"),
    ("sin iss", {"iss": None}, None, "emisor desconocido"),
    (
        "para facturación y sin alcance",
        {"aud": FACTURACION, "scope": None},
        None,
        "token para otra audiencia: " + FACTURACION,
    ),
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
    {  # dos usuarios nuevos, un día después
        "perfiles": {
            "u-207": {"nombre": "Lucía Gómez", "departamento": "ventas", "salario_anual": 47500},
            "u-318": {"nombre": "Jorge Prieto", "departamento": "legal", "salario_anual": 70250},
        },
        "usuarios": ["u-207", "u-318"],
        "ahora": AHORA + 86400,
        "actores": ["orquestador-ventas"],
        "casos_de_validar": CASOS_OCULTOS,
        "tokens_ajenos": TOKENS_OCULTOS,
    },
    {  # los de la lección y una más, dos horas antes
        "perfiles": {
            **PERFILES_DE_LA_LECCION,
            "u-102": {"nombre": "Nuria Sanz", "departamento": "finanzas", "salario_anual": 58800},
        },
        "usuarios": ["u-102", "u-100"],
        "ahora": AHORA - 7200,
        "actores": ["https://mcp.legal.ejemplo.com", "https://mcp.rrhh.ejemplo.com"],
        "casos_de_validar": CASOS_OCULTOS[::-1][1:],
        "tokens_ajenos": TOKENS_OCULTOS[::-1][:4],
    },
]


# Las partes ocultas de las pruebas visibles: cada prueba, además de sus casos visibles, repite en el
# calificador su clase de caso con otros usuarios, otro reloj y otros tokens. Así, repetir lo que
# contestan las visibles (por número de llamada, o con una tabla copiada del cuaderno) no da puntos.
PERFILES_OCULTOS = {
    "u-431": {"nombre": "Irene Cano", "departamento": "compras", "salario_anual": 44900},
    "u-432": {"nombre": "Óscar Peña", "departamento": "soporte", "salario_anual": 39100},
    "u-100": {"nombre": "Elena Ruiz", "departamento": "ingenieria", "salario_anual": 53500},
}
MESA_OCULTA = {
    "perfiles": PERFILES_OCULTOS,
    "ahora": AHORA + 5 * 86400 + 17,
    "usuarios": ["u-432", "u-431"],
    "actores": ["https://copiloto.ejemplo.com", "orquestador-asistente"],
}
PARTES_OCULTAS = {
    "perfil": [dict(MESA_OCULTA, usuarios=["u-431", "u-100"]), dict(MESA_OCULTA)],
    # validar: tres mesas, y en ninguna se acepta y se rechaza en el orden ni en la proporción de las
    # visibles (que empiezan rechazando tres tokens que no son objetos y aceptan 4 de 24): repetir por
    # posición lo que se contestó en las visibles, o sacarlo de una tabla, no pasa ninguna.
    "validar": [
        dict(
            MESA_OCULTA,
            usuarios=["u-431"],
            no_objetos=[],
            casos_de_validar=[
                ("válido", {}, None, None),
                ("con dos alcances", {"scope": "perfiles:leer pedidos:leer"}, None, None),
                ("válido, en pedidos", {"aud": PEDIDOS}, PEDIDOS, None),
                ("que caduca dentro de 5 s", {"exp": 5}, None, None),
                ("para facturación", {"aud": FACTURACION}, None, "token para otra audiencia: " + FACTURACION),
                ("válido otra vez", {}, None, None),
                ("con exp en texto", {"exp": "0"}, None, "token caducado"),
                ("con iss a null", {"iss": NULO}, None, "emisor desconocido"),
            ],
        ),
        dict(
            MESA_OCULTA,
            usuarios=["u-100"],
            ahora=AHORA + 3 * 3600,
            no_objetos=[0, "perfiles:leer"],
            casos_de_validar=[
                ("válido", {}, None, None),
                ("caducado hace 2 s", {"exp": -2}, None, "token caducado"),
                ("válido, en facturación", {"aud": FACTURACION}, FACTURACION, None),
                (
                    "de otro emisor, para pedidos",
                    {"iss": "https://x.ejemplo.com", "aud": PEDIDOS},
                    None,
                    "emisor desconocido",
                ),
                ("con tres alcances", {"scope": "facturas:leer perfiles:leer pedidos:leer"}, None, None),
                ("sin aud", {"aud": None}, None, "token para otra audiencia: None"),
                ("con scope en una lista", {"scope": ["perfiles:leer"]}, None, "falta el alcance perfiles:leer"),
                ("sin exp", {"exp": None}, None, "token caducado"),
                ("que caduca dentro de 60 s", {"exp": 60}, None, None),
                ("de otro emisor", {"iss": "https://otro.ejemplo.com"}, None, "emisor desconocido"),
            ],
        ),
        dict(
            MESA_OCULTA,
            casos_de_validar=[
                ("con el alcance y otro", {"scope": "perfiles:leer perfiles:escribir"}, None, None),
                ("con exp a null", {"exp": NULO}, None, "token caducado"),
                (
                    "para pedidos y sin scope",
                    {"aud": PEDIDOS, "scope": NULO},
                    None,
                    "token para otra audiencia: " + PEDIDOS,
                ),
                ("que caduca dentro de 2 s", {"exp": 2}, None, None),
                ("con scope numérico", {"scope": 7}, None, "falta el alcance perfiles:leer"),
                ("con iss a null", {"iss": NULO}, None, "emisor desconocido"),
                ("con exp en texto", {"exp": str(AHORA + 10**9)}, None, "token caducado"),
                ("que caducó hace 1 s", {"exp": -1}, None, "token caducado"),
                ("con exp NaN y el alcance", {"exp": float("nan"), "scope": "perfiles:leer"}, None, "token caducado"),
            ],
            no_objetos=[7, "Bearer perfiles:leer", [], 0.5],
        ),
    ],
    "actor": [dict(MESA_OCULTA), dict(MESA_OCULTA, usuarios=["u-100"], actores=["orquestador-nominas"])],
    "inyeccion": [dict(MESA_OCULTA), dict(MESA_OCULTA, usuarios=["u-100", "u-431"])],
    "tokens": [
        dict(
            MESA_OCULTA,
            tokens_ajenos=[
                ("sin usuario", {"sub": NULO}),
                ("con el usuario en una lista", {"sub": ["u-432"]}),
                ("para pedidos", {"aud": PEDIDOS}),
                ("que caducó hace 1 s", {"exp": -1}),
                ("con el alcance de escribir", {"scope": "perfiles:escribir"}),
                ("sin actor", {"act": None}),
            ],
        )
    ],
}
