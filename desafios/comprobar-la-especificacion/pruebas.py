"""Las pruebas del desafío «Un comprobador de especificaciones».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué ha
  devuelto tu función. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: las conversaciones corren allí, y tu función
  sólo recibe copias JSON de la especificación y de los dos entornos.
En el calificador, cada prueba repite además sus comprobaciones con tareas y
especificaciones que no ves (PARTES_OCULTAS, en ocultas.py).

Cada caso declara los incumplimientos que debe devolver tu función, en cualquier orden.
Se cargan detrás del código de partida (corre, PIDE, DICE_Y_NO_HACE...). Sólo biblioteca estándar.
"""

import copy
import json


def _json(valor):
    return json.dumps(valor, ensure_ascii=False, sort_keys=True)


def comprueba_caso(que, especificacion, antes, despues, esperados):
    """Tu función con un caso; compara lo que devuelve con lo declarado, sin mirar el orden."""
    try:
        recibidos = incumplimientos(copy.deepcopy(especificacion), dict(antes), dict(despues))  # la tuya
    except Exception as e:
        raise Fallo("%s: incumplimientos ha lanzado %s: %s" % (que, type(e).__name__, e)) from None
    exige(
        isinstance(recibidos, list) and all(isinstance(x, str) for x in recibidos),
        "%s: incumplimientos debe devolver una lista de textos y ha devuelto %r",
        que,
        recibidos,
    )
    exige(
        sorted(recibidos) == sorted(esperados),
        "%s\n  especificación: %s\n  cambiado: %s\n  se esperaba: %s\n  ha devuelto: %s",
        que,
        _json(especificacion),
        _json(cambiados(antes, despues)),
        _json(sorted(esperados)),
        _json(sorted(recibidos)),
    )


def comprueba_tarea(que, inicio, respuestas, antes, especificacion, esperados):
    """Corre la tarea con el modelo guionizado (corre, del código de partida) y comprueba su entorno."""
    final, despues = corre(inicio, respuestas, antes)
    comprueba_caso("%s (el modelo dice %r)" % (que, final), especificacion, antes, despues, esperados)


def comprueba_casos(casos):
    for caso in casos:
        if "respuestas" in caso:
            comprueba_tarea(
                caso["que"],
                caso["inicio"],
                caso["respuestas"],
                caso["antes"],
                caso["especificacion"],
                caso["esperados"],
            )
        else:
            comprueba_caso(caso["que"], caso["especificacion"], caso["antes"], caso["despues"], caso["esperados"])


def con_su_parte_oculta(nombre, pista):
    """En el calificador, los casos ocultos de esta prueba (ocultas.py); en tu cuaderno, ninguno."""
    casos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, caso in enumerate(casos, 1):
        with oculta(n, len(casos), pista):
            comprueba_casos([caso])


# --- Las pruebas ----------------------------------------------------------------------

HUEVOS = {"deben_cambiar": ["lista.txt"], "deben_contener": {"lista.txt": ["pan, leche, patatas", "huevos"]}}
BIEN = [
    [llamada("h1", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, huevos")],
    [texto("He añadido huevos a lista.txt.")],
]
CASA = {"lista.txt": "pan, leche", "notas.txt": "Llamar a Ana.", "recetas/gazpacho.txt": "Gazpacho: tomate."}


def caso(que, especificacion, despues, esperados, antes=CASA):
    return {"que": que, "especificacion": especificacion, "antes": antes, "despues": despues, "esperados": esperados}


def prueba_la_leccion(banco):
    """Las tres conversaciones de los huevos: bien, dice_y_no_hace y hace_de_mas."""
    comprueba_casos(
        [
            {
                "que": "bien",
                "inicio": [PIDE],
                "respuestas": BIEN,
                "antes": ENTORNO,
                "especificacion": HUEVOS,
                "esperados": [],
            },
            {
                "que": "dice_y_no_hace",
                "inicio": [PIDE],
                "respuestas": DICE_Y_NO_HACE,
                "antes": ENTORNO,
                "especificacion": HUEVOS,
                "esperados": ["no ha cambiado: lista.txt", "falta «huevos» en lista.txt"],
            },
            {
                "que": "hace_de_mas",
                "inicio": [SOLO_LO_PEDIDO, PIDE],
                "respuestas": HACE_DE_MAS,
                "antes": ENTORNO,
                "especificacion": HUEVOS,
                "esperados": ["ha cambiado sin pedirlo: notas.txt"],
            },
        ]
    )
    con_su_parte_oculta("la_leccion", "¿Comparas el entorno de después con el de antes, regla a regla?")


def prueba_deben_cambiar(banco):
    """deben_cambiar: cambiar es tener otro contenido, aparecer o desaparecer; si no, «no ha cambiado»."""
    espec = {"deben_cambiar": ["lista.txt", "nueva.txt"]}
    comprueba_casos(
        [
            caso("las dos cambian", espec, dict(CASA, **{"lista.txt": "pan", "nueva.txt": ""}), []),
            caso("ninguna cambia", espec, CASA, ["no ha cambiado: lista.txt", "no ha cambiado: nueva.txt"]),
            caso(
                "la lista se borra",
                {"deben_cambiar": ["lista.txt"]},
                {"notas.txt": "Llamar a Ana.", "recetas/gazpacho.txt": "Gazpacho: tomate."},
                [],
            ),
            caso(
                "se escribe lo mismo que había",
                {"deben_cambiar": ["notas.txt"]},
                dict(CASA),
                ["no ha cambiado: notas.txt"],
            ),
        ]
    )
    con_su_parte_oculta(
        "deben_cambiar", "¿Cuenta como cambio que un fichero aparezca o desaparezca, y no cuenta escribir lo mismo?"
    )


def prueba_contener(banco):
    """deben_contener y no_deben_contener: textos exactos dentro del contenido de después."""
    despues = dict(CASA, **{"lista.txt": "pan, leche, Tomates"})
    comprueba_casos(
        [
            caso(
                "todo está",
                {"pueden_cambiar": ["lista.txt"], "deben_contener": {"lista.txt": ["pan", "Tomates"]}},
                despues,
                [],
            ),
            caso(
                "mayúsculas",
                {"pueden_cambiar": ["lista.txt"], "deben_contener": {"lista.txt": ["tomates", "leche"]}},
                despues,
                ["falta «tomates» en lista.txt"],
            ),
            caso(
                "un fichero que no existe",
                {"deben_contener": {"cena.txt": ["tortilla", "pan"], "notas.txt": ["Ana"]}},
                CASA,
                ["falta el fichero: cena.txt"],
            ),
            caso(
                "no debe contener",
                {
                    "pueden_cambiar": ["lista.txt"],
                    "no_deben_contener": {"lista.txt": ["leche", "huevos"], "cena.txt": ["pan"]},
                },
                despues,
                ["sobra «leche» en lista.txt"],
            ),
            caso(
                "está en otro fichero",
                {"deben_contener": {"notas.txt": ["tomate"]}, "no_deben_contener": {"notas.txt": ["Gazpacho"]}},
                CASA,
                ["falta «tomate» en notas.txt"],
            ),
        ]
    )
    con_su_parte_oculta(
        "contener", "¿Miras cada texto dentro del contenido de después de su ruta, distinguiendo mayúsculas?"
    )


def prueba_sin_pedirlo(banco):
    """Lo que cambia fuera de deben_cambiar y pueden_cambiar: creado, borrado o cambiado sin pedirlo."""
    despues = {"lista.txt": "pan", "recetas/gazpacho.txt": "Gazpacho: tomate.", "nota.txt": "Llamar a Ana."}
    comprueba_casos(
        [
            caso(
                "se renombra notas.txt",
                {"deben_cambiar": ["lista.txt"]},
                despues,
                ["se ha borrado sin pedirlo: notas.txt", "se ha creado sin pedirlo: nota.txt"],
            ),
            caso(
                "el cambio se puede",
                {"deben_cambiar": ["lista.txt"], "pueden_cambiar": ["notas.txt", "nota.txt"]},
                despues,
                [],
            ),
            caso("pueden cambiar y no cambian", {"pueden_cambiar": ["lista.txt", "recetas/gazpacho.txt"]}, CASA, []),
            caso(
                "sólo la receta",
                {"deben_cambiar": ["lista.txt"]},
                dict(CASA, **{"lista.txt": "pan, sal", "recetas/gazpacho.txt": "Gazpacho: tomate, ajo."}),
                ["ha cambiado sin pedirlo: recetas/gazpacho.txt"],
            ),
        ]
    )
    con_su_parte_oculta(
        "sin_pedirlo", "¿Recorres todas las rutas de antes y de después, y dices si se han creado, borrado o cambiado?"
    )


def prueba_vacia(banco):
    """Una especificación vacía (o sin alguna clave): nada debe cambiar."""
    comprueba_casos(
        [
            caso("nada cambia", {}, CASA, []),
            caso(
                "se crea un fichero vacío", {}, dict(CASA, **{"vacio.txt": ""}), ["se ha creado sin pedirlo: vacio.txt"]
            ),
            caso(
                "sólo con deben_contener",
                {"deben_contener": {"lista.txt": ["pan"]}},
                dict(CASA, **{"lista.txt": "pan"}),
                ["ha cambiado sin pedirlo: lista.txt"],
            ),
            caso("entornos vacíos", {"deben_cambiar": ["a.txt"]}, {}, ["no ha cambiado: a.txt"], antes={}),
        ]
    )
    con_su_parte_oculta("vacia", "¿Tratas como vacía cada clave que falta?")


def prueba_variaciones(banco, variaciones):
    """Otras tareas: modelos que dicen que han terminado y no, o que hacen de más."""
    for n, v in enumerate(variaciones, 1):
        with oculta(n, len(variaciones), "¿Sale cada incumplimiento de las reglas, sin suponer qué tareas hay?"):
            comprueba_casos([v])


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "la_leccion": (2, prueba_la_leccion),
    "deben_cambiar": (1, prueba_deben_cambiar),
    "contener": (2, prueba_contener),
    "sin_pedirlo": (2, prueba_sin_pedirlo),
    "vacia": (1, prueba_vacia),
    "variaciones": (2, prueba_variaciones),
}
