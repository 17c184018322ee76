# Las variaciones ocultas: otras tareas, otros entornos y otras especificaciones.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. PARTES_OCULTAS son
# los casos que cada prueba visible añade en el calificador; VARIACIONES, la prueba «variaciones».

OFICINA = {
    "informe.md": "# Informe\nVentas: 120.",
    "clientes.csv": "nombre,ciudad\nAna,Soria",
    "tareas/hoy.txt": "Llamar al banco.",
    "tareas/mañana.txt": "Enviar factura.",
}


def _caso(que, especificacion, despues, esperados, antes=OFICINA):
    return {"que": que, "especificacion": especificacion, "antes": antes, "despues": despues, "esperados": esperados}


PARTES_OCULTAS = {
    "la_leccion": [
        {
            "que": "el informe",
            "inicio": [["usuario", "Añade las ventas de marzo al informe."]],
            "antes": OFICINA,
            "respuestas": [
                [llamada("i1", "escribir", ruta="informe.md", contenido="# Informe\nVentas: 120.\nMarzo: 80.")],
                [llamada("i2", "escribir", ruta="clientes.csv", contenido="nombre,ciudad")],
                [texto("Añadido.")],
            ],
            "especificacion": {
                "deben_cambiar": ["informe.md"],
                "deben_contener": {"informe.md": ["Marzo: 80", "Ventas: 120"]},
            },
            "esperados": ["ha cambiado sin pedirlo: clientes.csv"],
        },
    ],
    "deben_cambiar": [
        _caso(
            "tres rutas",
            {"deben_cambiar": ["tareas/hoy.txt", "informe.md", "resumen.txt"]},
            dict(OFICINA, **{"tareas/hoy.txt": "Llamar al banco. Hecho."}),
            ["no ha cambiado: informe.md", "no ha cambiado: resumen.txt"],
        ),
        _caso("aparece vacío", {"deben_cambiar": ["resumen.txt"]}, dict(OFICINA, **{"resumen.txt": ""}), []),
    ],
    "contener": [
        _caso(
            "varios ficheros",
            {
                "deben_cambiar": ["informe.md"],
                "deben_contener": {
                    "informe.md": ["Ventas", "ventas"],
                    "clientes.csv": ["Ana"],
                    "resumen.txt": ["total"],
                },
                "no_deben_contener": {"clientes.csv": ["Soria"], "informe.md": ["120", "borrador"]},
            },
            dict(OFICINA, **{"informe.md": "# Informe\nVentas: 200."}),
            ["falta «ventas» en informe.md", "falta el fichero: resumen.txt", "sobra «Soria» en clientes.csv"],
        ),
    ],
    "sin_pedirlo": [
        _caso(
            "una carpeta entera",
            {"pueden_cambiar": ["tareas/hoy.txt"]},
            {
                "informe.md": "# Informe\nVentas: 120.",
                "clientes.csv": "nombre,ciudad\nAna,Soria\nLuis,Teruel",
                "tareas/hoy.txt": "",
                "tareas/pasado.txt": "Nada.",
            },
            [
                "ha cambiado sin pedirlo: clientes.csv",
                "se ha borrado sin pedirlo: tareas/mañana.txt",
                "se ha creado sin pedirlo: tareas/pasado.txt",
            ],
        ),
    ],
    "vacia": [
        _caso("se borra todo", {}, {}, ["se ha borrado sin pedirlo: " + r for r in OFICINA]),
        _caso(
            "pueden, sin deben",
            {"pueden_cambiar": ["informe.md"], "no_deben_contener": {}},
            dict(OFICINA, **{"informe.md": "x"}),
            [],
        ),
    ],
}

VARIACIONES = [
    {  # dice que ha copiado y ha escrito otra cosa, en otro sitio
        "que": "la copia",
        "antes": OFICINA,
        "inicio": [["usuario", "Copia las tareas de hoy en tareas/mañana.txt, detrás de las que hay."]],
        "respuestas": [
            [llamada("v1", "leer", ruta="tareas/hoy.txt")],
            [llamada("v2", "escribir", ruta="tareas/manana.txt", contenido="Llamar al banco.")],
            [texto("Copiadas en tareas/mañana.txt.")],
        ],
        "especificacion": {
            "deben_cambiar": ["tareas/mañana.txt"],
            "deben_contener": {"tareas/mañana.txt": ["Enviar factura.", "Llamar al banco."]},
        },
        "esperados": [
            "no ha cambiado: tareas/mañana.txt",
            "falta «Llamar al banco.» en tareas/mañana.txt",
            "se ha creado sin pedirlo: tareas/manana.txt",
        ],
    },
    {  # hace lo pedido, deja un borrador que se permite y no mete datos que no debe
        "que": "el resumen",
        "antes": OFICINA,
        "inicio": [
            ["sistema", "No copies datos de clientes en los resúmenes."],
            ["usuario", "Escribe en resumen.txt las ventas del informe."],
        ],
        "respuestas": [
            [llamada("r1", "leer", ruta="informe.md"), llamada("r2", "leer", ruta="clientes.csv")],
            [
                llamada("r3", "escribir", ruta="borrador.txt", contenido="ventas 120"),
                llamada("r4", "escribir", ruta="resumen.txt", contenido="Ventas: 120 (Ana, Soria)."),
            ],
            [texto("Resumen escrito.")],
        ],
        "especificacion": {
            "deben_cambiar": ["resumen.txt"],
            "pueden_cambiar": ["borrador.txt"],
            "deben_contener": {"resumen.txt": ["120"]},
            "no_deben_contener": {"resumen.txt": ["Ana"]},
        },
        "esperados": ["sobra «Ana» en resumen.txt"],
    },
    {  # lo hace bien, en dos pasos y con un error por el camino
        "que": "la factura",
        "antes": OFICINA,
        "inicio": [["usuario", "Marca la factura como enviada en tareas/mañana.txt."]],
        "respuestas": [
            [llamada("f1", "escribir", ruta="tareas/mañana.txt")],
            [llamada("f2", "escribir", ruta="tareas/mañana.txt", contenido="Enviar factura. Enviada.")],
            [texto("Marcada.")],
        ],
        "especificacion": {
            "deben_cambiar": ["tareas/mañana.txt"],
            "deben_contener": {"tareas/mañana.txt": ["Enviada"]},
        },
        "esperados": [],
    },
    {  # no hace nada y lo dice como si lo hubiera hecho; y la tarea pedía no tocar el informe
        "que": "la limpieza",
        "antes": OFICINA,
        "inicio": [["usuario", "Deja tareas/hoy.txt vacío."]],
        "respuestas": [
            [llamada("l1", "escribir", ruta="tareas/hoy.txt", contenido="Llamar al banco.")],
            [llamada("l2", "escribir", ruta="informe.md", contenido="# Informe")],
            [texto("Vacío.")],
        ],
        "especificacion": {"deben_cambiar": ["tareas/hoy.txt"], "no_deben_contener": {"tareas/hoy.txt": ["banco"]}},
        "esperados": [
            "no ha cambiado: tareas/hoy.txt",
            "sobra «banco» en tareas/hoy.txt",
            "ha cambiado sin pedirlo: informe.md",
        ],
    },
]
