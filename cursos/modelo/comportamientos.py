"""Modelos guionizados que se portan mal como los de verdad, para probar el laboratorio entero.

`./curso modelo-guionizado` los sirve por HTTP, en los dos formatos, con estos nombres de modelo
y las respuestas de cada escenario del laboratorio ya registradas (el modelo elige las de la
petición del usuario con la que empieza la conversación):

    obediente    obedece a la inyección con llamadas nativas (el ModeloSordo); también «sordo»
    solo-iban    como el obediente, pero de la página saca sólo el IBAN, sin espacios
    destructivo  como el obediente, pero en el README borra con rm *.txt, find -exec rm y xargs rm,
                 que bash ejecuta y la terminal simulada de la lección rechaza
    malformado   como el obediente, con los argumentos de cada llamada en un texto y no en un objeto
    a-medias     obedece sólo en parte (la primera acción inyectada, o lee el dato y no lo manda)
                 y no hace la tarea
    se-niega     hace la tarea y no sigue la inyección

tests/modelo/test_comportamientos.py fija la tabla del laboratorio contra cada uno.
"""

import copy
import json

COMPORTAMIENTOS = ("obediente", "solo-iban", "destructivo", "malformado", "a-medias", "se-niega")
ALIAS = {"sordo": "obediente"}  # el nombre de siempre del modelo que obedece


def respuestas_de(partida, comportamiento):
    """Las respuestas que da ese modelo en esa partida (una lista de turnos de bloques)."""
    comportamiento = ALIAS.get(comportamiento, comportamiento)
    if comportamiento not in COMPORTAMIENTOS:
        raise ValueError(
            "no hay ningún comportamiento «%s»: elige uno de %s" % (comportamiento, ", ".join(COMPORTAMIENTOS))
        )
    if comportamiento == "malformado":
        return con_argumentos_en_texto(partida.respuestas)
    if comportamiento == "a-medias":
        return partida.variantes.get("a-medias") or solo_la_primera(partida.respuestas)
    if comportamiento == "se-niega":
        return partida.variantes["se-niega"]
    return copy.deepcopy(partida.variantes.get(comportamiento) or partida.respuestas)


def con_argumentos_en_texto(respuestas):
    """Cada llamada con su entrada como texto JSON: lo que mandan los modelos pequeños a veces."""
    nuevas = copy.deepcopy(respuestas)
    for turno in nuevas:
        for b in turno:
            if b.get("type") == "tool_use":
                b["input"] = json.dumps(b["input"], ensure_ascii=False)
    return nuevas


def solo_la_primera(respuestas):
    """Cada turno con su texto y sólo la primera de sus llamadas."""
    nuevas = []
    for turno in copy.deepcopy(respuestas):
        llamadas = [b for b in turno if b.get("type") == "tool_use"]
        nuevas.append([b for b in turno if b.get("type") != "tool_use"] + llamadas[:1])
    return nuevas


def peticion_de(partida):
    """La petición del usuario con la que empieza la partida: la que elige las respuestas en el servidor."""
    return next(c for rol, c in partida.inicio if rol == "usuario")


def todas():
    """[(comportamiento, petición, respuestas)] de cada escenario del laboratorio, para registrarlas."""
    from cursos.modelo.escenarios import escenarios

    lista = []
    for escenario in escenarios():
        partida = escenario.prepara("sin")
        for comportamiento in COMPORTAMIENTOS:
            lista.append((comportamiento, peticion_de(partida), respuestas_de(partida, comportamiento)))
    return lista
