"""Las preguntas como datos, y sus soluciones comprobadas contra el código de la lección."""

import pytest

from cursos.manifiesto import ErrorDeManifiesto, leer_curso
from cursos.preguntas import _comprueba, preguntas_de
from tests.ayudas import SEMILLA, ejecuta

LECCION = leer_curso().leccion("permisos-y-confianza")


@pytest.fixture(scope="module")
def preguntas():
    return {p["id"]: p for p in preguntas_de(LECCION)}


@pytest.fixture(scope="module")
def leccion():
    """El espacio del cuaderno tras las dos celdas: permiso, la tabla, ejecutar..."""
    espacio = {}
    for n in (1, 2):
        ejecuta((SEMILLA / f"celda{n}.py").read_text(encoding="utf-8"), espacio)
    return espacio


def test_cinco_preguntas_de_los_tres_tipos(preguntas):
    assert len(preguntas) == 5
    assert {p["tipo"] for p in preguntas.values()} == {"verdadero_falso", "una", "varias"}


def test_la_clave_de_sin_preguntar_sale_de_permiso_y_la_tabla(preguntas, leccion):
    for opcion in preguntas["sin-preguntar"]["opcion"]:
        ll = leccion["llamada"]("t", opcion["llamada"]["name"], **opcion["llamada"]["input"])
        assert opcion["correcta"] == (leccion["permiso"](ll) == "permitir"), opcion["texto"]


def test_la_clave_de_escribir_sin_contenido_sale_de_ejecutar(preguntas, leccion):
    obs = leccion["ejecutar"](leccion["llamada"]("t", "escribir", ruta="lista.txt"), dict(leccion["E"]))
    correcta = next(o for o in preguntas["escribir-sin-contenido"]["opcion"] if o["correcta"])
    assert obs["is_error"] and obs["content"] == "no se ha ejecutado: falta el argumento «contenido»"
    assert "«no se ha ejecutado: falta el argumento “contenido”»" in correcta["texto"]  # «…“…”…»


@pytest.mark.parametrize(
    "pregunta, mensaje",
    [
        (
            {"id": "x", "tipo": "una", "enunciado": "?", "opcion": [{"texto": "a", "explicacion": "b"}]},
            "ninguna opción es correcta",
        ),
        ({"id": "x", "tipo": "quiz", "enunciado": "?", "opcion": []}, "el tipo debe ser"),
        (
            {
                "id": "x",
                "tipo": "una",
                "enunciado": "?",
                "opcion": [
                    {"texto": "a", "explicacion": "b", "correcta": True},
                    {"texto": "c", "explicacion": "d", "correcta": True},
                ],
            },
            "una sola correcta",
        ),
        ({"id": "x", "tipo": "una", "opcion": []}, "falta «enunciado»"),
    ],
)
def test_preguntas_mal_escritas_dan_un_error_claro(pregunta, mensaje):
    with pytest.raises(ErrorDeManifiesto, match=mensaje):
        _comprueba(pregunta, "prueba")
