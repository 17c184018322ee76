"""El modelo guionizado: un modelo de mentira que repite una conversación escrita.

Un guion es una lista de turnos. Cada turno dice qué conversación M debe
recibir el modelo y qué responde a ella. Antes de responder, el modelo compara
la M que recibe con la del guion, mensaje a mensaje y bloque a bloque; si no son
iguales, lanza DivergenciaDelGuion con el turno, el mensaje y el primer bloque distinto
(o el texto, si el mensaje es un texto sin bloques). Por eso repetir
una traza con él es una comprobación: si tu harness contesta otra cosa, lo dice.

Para enseñar un bloque usa la muestra() que haya en el mismo espacio de nombres
(la de harness.py o la de una celda de la lección); si no hay ninguna, lo enseña en
JSON. Este fichero no usa nada fuera de la biblioteca estándar.
"""

import copy
import json


class DivergenciaDelGuion(AssertionError):
    """La conversación recibida no es la que el guion esperaba."""


def guion_de(inicio, respuestas, vistos):
    """Construye el guion a partir de lo que dice el modelo y lo que debe ver.

    inicio: los mensajes del principio (sistema y usuario).
    respuestas: lo que responde el modelo en cada turno: una lista de bloques, o un
        texto en el protocolo de texto de «El primer agente».
    vistos: para cada respuesta, lo que debe volverle: las observaciones (una lista de
        bloques tool_result, o el texto «Observación: …») o None si no ha pedido nada.
    """
    if len(respuestas) != len(vistos):
        raise ValueError(
            "el guion tiene %d respuestas y %d listas de observaciones: deben ser tantas como respuestas"
            % (len(respuestas), len(vistos))
        )
    guion, M = [], list(inicio)
    for respuesta, observaciones in zip(respuestas, vistos, strict=True):
        guion.append({"espera": list(M), "responde": respuesta})
        M.append(("asistente", respuesta))
        if observaciones:
            M.append(("usuario", observaciones))
    return guion


def _linea(bloque):
    """Un bloque en una línea, con la muestra() del espacio de nombres si la hay."""
    if bloque is None:
        return "(nada)"
    mostrar = globals().get("muestra")
    if mostrar and isinstance(bloque, dict):
        return mostrar(bloque)
    return json.dumps(bloque, ensure_ascii=False, default=repr)


def _bloques(contenido):
    """El contenido de un mensaje como lista: un texto suelto es un solo elemento."""
    return contenido if isinstance(contenido, list) else [contenido]


def _primero(contenido):
    """El primer bloque de un mensaje (o su texto), en una línea; un mensaje vacío es «(nada)»."""
    bloques = _bloques(contenido)
    return _linea(bloques[0] if bloques else None)


def primera_diferencia(esperada, recibida):
    """Describe el primer punto donde dos conversaciones difieren, o None si son iguales."""
    for n in range(max(len(esperada), len(recibida))):
        if n < len(recibida) and not (isinstance(recibida[n], (list, tuple)) and len(recibida[n]) == 2):
            # Un harness con un fallo puede meter en M algo que no es un mensaje: se dice, no se lanza.
            return "el mensaje %d no es un par (rol, contenido): %s" % (n, _linea(recibida[n]))
        if n >= len(recibida):
            return "falta el mensaje %d (%s): %s" % (n, esperada[n][0], _primero(esperada[n][1]))
        if n >= len(esperada):
            return "sobra el mensaje %d (%s): %s" % (n, recibida[n][0], _primero(recibida[n][1]))
        (rol_e, cont_e), (rol_r, cont_r) = esperada[n], recibida[n]
        if rol_e != rol_r:
            return "el mensaje %d debería ser de %s y es de %s" % (n, rol_e, rol_r)
        if isinstance(cont_e, str) and isinstance(cont_r, str):
            # Un mensaje de texto, sin bloques (como en «El primer agente»): no hay número de bloque que dar.
            if cont_e != cont_r:
                return "el mensaje %d (%s) tiene otro texto:\n  esperado: %s\n  recibido: %s" % (
                    n,
                    rol_e,
                    _linea(cont_e),
                    _linea(cont_r),
                )
            continue
        bloques_e, bloques_r = _bloques(cont_e), _bloques(cont_r)
        for i in range(max(len(bloques_e), len(bloques_r))):
            b_e = bloques_e[i] if i < len(bloques_e) else None
            b_r = bloques_r[i] if i < len(bloques_r) else None
            if b_e != b_r:
                return "mensaje %d (%s), bloque %d:\n  esperado: %s\n  recibido: %s" % (
                    n,
                    rol_e,
                    i,
                    _linea(b_e),
                    _linea(b_r),
                )
    return None


class ModeloGuionizado:
    """Un modelo que responde según un guion y comprueba cada M que recibe.

    Se usa como cualquier modelo del curso: modelo(M) devuelve la respuesta del
    guion para ese turno (una lista de bloques, o un texto).
    """

    def __init__(self, guion):
        self.guion = guion
        self.turno = 0  # cuántas veces lo han llamado

    def __call__(self, M):
        self.turno += 1
        if self.turno > len(self.guion):
            raise DivergenciaDelGuion(
                "turno %d: el guion tiene %d turnos y ya se han respondido todos" % (self.turno, len(self.guion))
            )
        paso = self.guion[self.turno - 1]
        if not isinstance(M, (list, tuple)):
            raise DivergenciaDelGuion(
                "turno %d: M tiene que ser una lista de mensajes y es %s" % (self.turno, _linea(M))
            )
        diferencia = primera_diferencia(paso["espera"], M)
        if diferencia:
            raise DivergenciaDelGuion("turno %d: la conversación no es la del guion. %s" % (self.turno, diferencia))
        # Una copia, para que nadie pueda cambiar el guion tocando la respuesta.
        return copy.deepcopy(paso["responde"])
