"""Las preguntas con ipywidgets: la corrección y los widgets, pulsando como lo haría el alumno."""

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.preguntas import preguntas_de

PREGUNTAS = {p["id"]: p for p in preguntas_de(leer_curso().leccion("permisos-y-confianza"))}


@pytest.fixture(scope="module")
def a():
    espacio = {}
    exec((RAIZ / "cursos" / "widgets" / "autoevaluacion.py").read_text(encoding="utf-8"), espacio)
    return espacio


def correctas(pregunta):
    return {i for i, o in enumerate(pregunta["opcion"]) if o["correcta"]}


def test_varias_es_todo_o_nada(a):
    p = PREGUNTAS["sin-preguntar"]
    assert a["corrige"](p, correctas(p))[0]
    assert not a["corrige"](p, set(list(correctas(p))[:1]))[0], "faltan correctas: no puntúa"
    assert not a["corrige"](p, correctas(p) | {2})[0], "una de más: no puntúa"


def test_una_sola_respuesta(a):
    p = PREGUNTAS["escribir-sin-contenido"]
    acierto, explicaciones = a["corrige"](p, {1})
    assert acierto and explicaciones[1][1:3] == (True, True)
    assert not a["corrige"](p, {0})[0]


def test_el_widget_corrige_explica_y_deja_repetir(a):
    p = PREGUNTAS["escribir-sin-contenido"]
    caja = a["widget_de_pregunta"](3, p)
    enunciado, selector, boton, correccion = caja.children
    assert "3. " + p["enunciado"][:40] in enunciado.value  # el texto de preguntas.toml
    boton.click()
    assert "Marca al menos una opción" in correccion.value
    selector.value = 0
    boton.click()
    assert "No es correcto" in correccion.value
    assert p["opcion"][0]["explicacion"][:40] in correccion.value, "explica por qué la elegida está mal"
    selector.value = 1
    boton.click()
    assert "Correcto" in correccion.value and "No es correcto" not in correccion.value


def test_el_widget_de_varias_usa_casillas(a):
    p = PREGUNTAS["sin-preguntar"]
    _, selector, boton, correccion = a["widget_de_pregunta"](2, p).children
    for i in correctas(p):
        selector.children[i].value = True
    boton.click()
    assert "Correcto" in correccion.value and "todo o nada" not in correccion.value
    selector.children[4].value = True
    boton.click()
    assert "No es correcto" in correccion.value


def test_verdadero_falso(a):
    p = PREGUNTAS["filtrar-la-inyeccion"]
    _, selector, boton, correccion = a["widget_de_pregunta"](1, p).children
    assert [texto for texto, _ in selector.options] == ["Verdadero", "Falso"]
    selector.value = 1
    boton.click()
    assert "Correcto" in correccion.value
