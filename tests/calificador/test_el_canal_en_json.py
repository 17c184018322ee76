"""Lo que el proceso del alumno manda por el canal: el mismo texto con el codificador de json en C que sin él.

hijo.a_json usa el de C sólo con tipos exactos (los que acepta marshal) y, si no, el de Python, el
único que ve el entorno remoto (un dict vacío por dentro) y las subclases como el cuaderno.
"""

import json
import math

import pytest

from cursos.calificador.caja import hijo


@pytest.fixture(autouse=True)
def como_en_la_caja(monkeypatch):
    """sirve() quita el codificador de C de json para el alumno antes de que el canal mande nada."""
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    monkeypatch.setattr(hijo, "FUNCIONES", [])


class DictRaro(dict):
    def items(self):
        return [("visto", "por items")]


class ListaRara(list):
    def __iter__(self):
        return iter(["por __iter__"])


class EnteroRaro(int):
    def __repr__(self):
        return "no soy un número"


class Vacio(dict):
    """Como el entorno remoto: vacío por dentro, sus datos por sus métodos."""

    def items(self):
        return [("notas.txt", "hola")]

    def __len__(self):
        return 1


def _ciclo():
    lista = []
    lista.append(lista)
    return lista


VALORES = {
    "simple": {"pide": "apoderado", "nombre": "permiso", "args": [{"type": "tool_use", "input": {"ruta": "a"}}]},
    "numeros": [0, -1, 2**80, 1.5, -0.0, 1e300, True, False, None],
    "especiales": [math.nan, math.inf, -math.inf],
    "texto": ["ñandú ☃ \u2028 \x00 \ud800", 'comillas " y \\'],
    "claves_no_str": {3: "a", 2.5: "b", True: "c", None: "d"},
    "tupla": (1, (2, 3)),
    "conjunto_y_bytes": [{1, 2}, b"xy", frozenset(), 1j, ...],
    "funcion": {"devuelve": len},
    "subclases": [DictRaro(a=1), ListaRara([1]), EnteroRaro(3)],
    "entorno_remoto_dentro": {"devuelve": [Vacio()]},
    "profundo": [[[[[[[[[[[[["hondo"]]]]]]]]]]]]],
}


def test_con_tipos_exactos_no_pasa_por_el_codificador_de_python(monkeypatch):
    """Si no, la prueba de abajo compararía el de Python consigo mismo."""

    def sin_python(*args, **kwargs):
        raise AssertionError("ha usado el codificador de Python")

    monkeypatch.setattr(json, "dumps", sin_python)
    assert hijo.a_json(VALORES["simple"]).startswith('{"pide": "apoderado"')
    with pytest.raises(AssertionError, match="codificador de Python"):
        hijo.a_json([DictRaro()])


@pytest.mark.parametrize("nombre", VALORES)
def test_el_mismo_texto_que_el_codificador_de_python(nombre, monkeypatch):
    valor = VALORES[nombre]
    rapido = hijo.a_json(valor)
    monkeypatch.setattr(hijo, "FUNCIONES", [])
    assert rapido == json.dumps(valor, default=hijo._marca)


def test_las_subclases_se_codifican_por_sus_metodos():
    """El de C leería el dict por dentro: «{}» para el entorno remoto. Aquí, lo que dicen sus métodos."""
    assert json.loads(hijo.a_json({"devuelve": [Vacio()]})) == {"devuelve": [{"notas.txt": "hola"}]}
    assert json.loads(hijo.a_json([DictRaro(a=1), ListaRara([1])])) == [{"visto": "por items"}, ["por __iter__"]]


def test_una_funcion_viaja_como_su_numero():
    assert json.loads(hijo.a_json({"devuelve": len})) == {"devuelve": {hijo.Marca.FUNCION: 0}}
    assert hijo.FUNCIONES == [len]


@pytest.mark.parametrize("valor", [_ciclo(), {(1, 2): "clave tupla"}])
def test_lo_que_no_se_puede_codificar_lanza_lo_mismo(valor):
    with pytest.raises((ValueError, TypeError)) as rapido:
        hijo.a_json(valor)
    with pytest.raises((ValueError, TypeError)) as lento:
        json.dumps(valor, default=hijo._marca)
    assert (type(rapido.value), str(rapido.value)) == (type(lento.value), str(lento.value))
