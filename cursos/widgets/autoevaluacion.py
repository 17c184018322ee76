"""Preguntas de autoevaluación con ipywidgets, a partir de <lección>.preguntas.json.

Se carga en el cuaderno con exec(open("autoevaluacion.py").read()) y se usa así:
    muestra_preguntas("permisos-y-confianza.preguntas.json")
La corrección (corrige) no depende de los widgets, para poder probarla sola.
"""

import json


def corrige(pregunta, elegidas):
    """(acierto, explicaciones) para las opciones elegidas (índices).

    Acierta quien elige exactamente las correctas, ni una más ni una menos.
    Cada explicación es (texto de la opción, es correcta, la eligió, por qué).
    """
    correctas = {i for i, o in enumerate(pregunta["opcion"]) if o["correcta"]}
    explicaciones = [
        (o["texto"], o["correcta"], i in elegidas, o["explicacion"]) for i, o in enumerate(pregunta["opcion"])
    ]
    return set(elegidas) == correctas, explicaciones


def _html_de_correccion(acierto, explicaciones):
    import html

    cabecera = "<b>✔ Correcto.</b>" if acierto else "<b>✘ No es correcto.</b> Lee por qué e inténtalo otra vez."
    filas = []
    for texto, correcta, elegida, porque in explicaciones:
        marca = "correcta" if correcta else "incorrecta"
        tuya = " (la marcaste)" if elegida else ""
        filas.append("<li><i>%s</i>: %s%s. %s</li>" % (html.escape(texto), marca, tuya, html.escape(porque)))
    return '<div role="status">%s<ul>%s</ul></div>' % (cabecera, "".join(filas))


def _selector(pregunta):
    """El widget para elegir y una función que devuelve los índices elegidos."""
    import ipywidgets as w

    textos = [o["texto"] for o in pregunta["opcion"]]
    ancho = w.Layout(width="100%")
    if pregunta["tipo"] == "varias":
        casillas = [w.Checkbox(description=t, indent=False, layout=ancho) for t in textos]
        return w.VBox(casillas), lambda: {i for i, c in enumerate(casillas) if c.value}
    botones = w.RadioButtons(
        options=[(t, i) for i, t in enumerate(textos)],
        value=None,
        layout=ancho,
        description="Respuesta:",
        style={"description_width": "initial"},
    )
    return botones, lambda: set() if botones.value is None else {botones.value}


def widget_de_pregunta(numero, pregunta):
    """Una pregunta: enunciado, opciones, botón Comprobar y la corrección debajo."""
    import html

    import ipywidgets as w

    # El aviso del tipo viene en el JSON, de preguntas.py: el mismo que en la página.
    enunciado = w.HTML(
        "<p><b>%d. %s</b><br><small>%s</small></p>"
        % (numero, html.escape(pregunta["enunciado"]), html.escape(pregunta["aviso"]))
    )
    selector, elegidas = _selector(pregunta)
    boton = w.Button(
        description="Comprobar", button_style="primary", tooltip="Comprobar la respuesta de la pregunta %d" % numero
    )
    correccion = w.HTML()

    def al_comprobar(_):
        if not elegidas():
            correccion.value = '<div role="status">Marca al menos una opción antes de comprobar.</div>'
            return
        correccion.value = _html_de_correccion(*corrige(pregunta, elegidas()))

    boton.on_click(al_comprobar)
    return w.VBox([enunciado, selector, boton, correccion], layout=w.Layout(width="100%", max_width="48em"))


def muestra_preguntas(ruta):
    """Muestra todas las preguntas del fichero JSON de una lección."""
    from IPython.display import display

    with open(ruta, encoding="utf-8") as f:
        preguntas = json.load(f)
    for numero, pregunta in enumerate(preguntas, 1):
        display(widget_de_pregunta(numero, pregunta))
