"""La referencia de «Un `ejecutar` que nunca lanza» no lanza, tampoco con valores que JSON no sabe
escribir (revisión del bloque 1, N2: `json.dumps` iba fuera del `try`, después de correr la función)."""

import datetime

import pytest

from cursos.desafio import Desafio

DESAFIO = Desafio("ejecutar-nunca-lanza")
SIN_ARGUMENTOS = {"type": "object", "properties": {}, "required": []}


def _con_herramienta(valor):
    espacio = {"__name__": "__desafio__"}
    exec(DESAFIO.partida(), espacio)
    exec(DESAFIO.lee("solucion.py"), espacio)
    corridas = []

    def devuelve(entorno):
        corridas.append(1)
        return valor

    espacio["HERRAMIENTAS"]["rara"] = {"funcion": devuelve, "input_schema": SIN_ARGUMENTOS}
    return espacio, corridas


def _circular():
    lista = []
    lista.append(lista)
    return lista


@pytest.mark.parametrize(
    ("valor", "texto"),
    [
        (datetime.date(2026, 1, 1), "datetime.date(2026, 1, 1)"),
        ({1, 2}, "{1, 2}"),
        (b"\x00\xff", "b'\\x00\\xff'"),
        ({(1, 2): "par"}, "{(1, 2): 'par'}"),
        (_circular(), "[[...]]"),
        ({"año": 2025}, '{"año": 2025}'),  # lo de JSON, como antes
    ],
)
def test_la_referencia_devuelve_texto_con_cualquier_valor(capsys, valor, texto):
    espacio, corridas = _con_herramienta(valor)
    capsys.readouterr()  # la conversación de la partida
    observacion = espacio["ejecutar"]({"type": "tool_use", "id": "t1", "name": "rara", "input": {}}, {})
    assert observacion == {"type": "tool_result", "tool_use_id": "t1", "content": texto}
    assert corridas == [1]
