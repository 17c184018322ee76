# Las variaciones ocultas: otras conversaciones (otros ficheros, más o menos turnos, varias llamadas por
# turno, errores, lo ya retirado) y otros presupuestos, también el justo. nbgrader las quita del cuaderno
# del alumno; el calificador las lee de aquí. Se juzgan con la regla del enunciado, como las visibles.
# PARTES_OCULTAS son los casos que cada prueba visible añade en el calificador; VARIACIONES, la prueba
# «variaciones».

_TALLER = {
    "taller/manual.txt": "Manual del torno: " + "revisa el engrase antes de cada turno y limpia la bancada. " * 9,
    "taller/turnos.txt": "Lunes: Ana y Rubén.\nMartes: Sergio.\nMiércoles: Ana.\nJueves: Rubén y Marta.",
    "taller/pedidos.txt": "Pedido 17: 40 tornillos M6.\nPedido 18: 2 brocas de 8 mm.\n" * 6,
    "taller/incidencias.txt": "La fresadora vibra al pasar de 3000 rpm; se ha pedido el rodamiento. " * 5,
    "ok.txt": "ok",
}


def _justo(M, k):
    """El presupuesto con el que M cabe justo al retirar sus k primeras retirables."""
    return tamaño(_con_retiradas(copia_json(M), _retirables(copia_json(M))[:k]))


def _variaciones():
    leer_ = lambda i, r: llamada("x%d" % i, "leer", ruta=r)  # noqa: E731
    # 1: cuatro lecturas largas, de una en una, y el final.
    uno = _conversacion(
        "Resume el taller.",
        [
            [leer_(1, "taller/manual.txt")],
            [leer_(2, "taller/incidencias.txt")],
            [leer_(3, "taller/pedidos.txt")],
            [leer_(4, "taller/turnos.txt")],
            [texto("Resumen hecho.")],
        ],
        _TALLER,
    )
    # 2: primero escrituras y errores, luego lecturas en paralelo; acaba con observaciones sin leer.
    dos = _conversacion(
        "Apunta la incidencia y revisa los turnos.",
        [
            [llamada("e1", "escribir", ruta="ok.txt", contenido="visto"), leer_(5, "taller/no-existe.txt")],
            [leer_(6, "taller/incidencias.txt"), leer_(7, "ok.txt"), leer_(8, "taller/manual.txt")],
            [llamada("e2", "buscar", texto="Ana"), leer_(9, "taller/pedidos.txt")],
        ],
        _TALLER,
    )
    # 3: muchos turnos cortos y algunos largos, con la petición en bloques de texto.
    respuestas = [
        [leer_(10 + i, ruta)]
        for i, ruta in enumerate(
            [
                "ok.txt",
                "taller/manual.txt",
                "ok.txt",
                "taller/turnos.txt",
                "taller/pedidos.txt",
                "ok.txt",
                "taller/incidencias.txt",
                "taller/manual.txt",
                "ok.txt",
            ]
        )
    ]
    tres = _conversacion("Léelo todo dos veces.", respuestas + [[texto("Leído.")]], _TALLER)
    tres[1] = ("usuario", [{"type": "text", "text": "Léelo todo dos veces."}])
    # 4: la 1 ya compactada a medias, con una pregunta más después del final.
    cuatro = _con_retiradas(copia_json(uno), _retirables(copia_json(uno))[:1]) + [
        ["usuario", "¿Y los pedidos?"],
        ["asistente", [leer_(20, "taller/pedidos.txt")]],
        ["usuario", [{"type": "tool_result", "tool_use_id": "x20", "content": _TALLER["taller/pedidos.txt"]}]],
    ]
    return [
        (tres, [tamaño(tres) - 1, _justo(tres, 2), _justo(tres, 4) + 1, 400, tamaño(tres)]),
        (uno, [_justo(uno, 1), tamaño(uno) - 900, 50]),
        (cuatro, [_justo(cuatro, 2), _justo(cuatro, 3) - 1, tamaño(cuatro) + 5]),
        (dos, [tamaño(dos) - 300, _justo(dos, 1), 200]),
    ]


VARIACIONES = _variaciones()


def _partes_ocultas():
    leer_ = lambda i, r: llamada("h%d" % i, "leer", ruta=r)  # noqa: E731
    uno, tres = VARIACIONES[1][0], VARIACIONES[0][0]
    cuatro, dos = VARIACIONES[2][0], VARIACIONES[3][0]
    # otra más: el taller con búsquedas y un listado en el mismo turno que una lectura larga
    cinco = _conversacion(
        "¿Qué pasa con la fresadora?",
        [
            [llamada("h1", "buscar", texto="fresadora"), llamada("h2", "listar", carpeta="taller")],
            [leer_(3, "taller/incidencias.txt"), leer_(4, "taller/manual.txt")],
            [leer_(5, "taller/pedidos.txt")],
            [texto("Vibra por encima de 3000 rpm; el rodamiento está pedido.")],
        ],
        _TALLER,
    )
    sin_asistente = [["sistema", "Trabajas con el taller."], ["usuario", "Hola."]]
    return {
        "cabe": [("oculta", cinco, _justo(cinco, 2), ()), ("oculta", tres, tamaño(tres) - 700, ())],
        "pares": [("oculta", dos, tamaño(dos) - 400, ()), ("oculta", cinco, 300, ())],
        "protegidos": [("oculta", cuatro, 300, ("protegidos",)), ("oculta", cinco, 100, ("protegidos",))],
        "las_justas": [
            ("oculta", cinco, tamaño(cinco) - 1, ("justas",)),
            ("oculta", tres, _justo(tres, 3), ("justas",)),
            ("oculta", uno, _justo(uno, 2) + 1, ("justas",)),
        ],
        "sin_tocar": [("oculta", cinco, _justo(cinco, 1), ("sin_tocar", "dos_veces"))],
        "limites": [
            ("oculta", cinco, tamaño(cinco), ("justas", "igual")),
            ("oculta", sin_asistente, 5, ("justas", "igual")),
            ("oculta", compacta_todo(cinco), 100, ("justas",)),
            ("oculta", cuatro, 200, ("justas",)),
        ],  # a medias: se retira lo que queda
    }


PARTES_OCULTAS = _partes_ocultas()
