"""Las preguntas como datos, y sus soluciones comprobadas contra el código de la lección."""

from types import SimpleNamespace

import pytest

from cursos.manifiesto import leer_curso
from cursos.preguntas import ErrorDePreguntas, preguntas_de
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
    assert obs["content"] in correcta["texto"]  # la explicación cita el mensaje exacto de ejecutar


OPCION = '[[pregunta.opcion]]\ntexto = "a"\nexplicacion = "b"\n'
CORRECTA = OPCION + "correcta = true\n"


@pytest.mark.parametrize(
    "texto, mensaje",
    [
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\n' + OPCION, "ninguna opción es correcta"),
        ('[[pregunta]]\nid = "x"\ntipo = "quiz"\nenunciado = "?"\n' + CORRECTA, "el tipo debe ser"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\n' + CORRECTA + CORRECTA, "una sola correcta"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\n' + CORRECTA, "pregunta]] «x»: falta la clave «enunciado»"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\n[[pregunta.opcion]]\ntexto = "a"\n', "«explicacion»"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\nenunciao = "?"\n', "«enunciao» no existe"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\n' + CORRECTA + 'correcta = "sí"\n', "no es TOML"),
        ('[[pregunta]]\nid = "x"\ntipo = "una"\nenunciado = "?"\n' + OPCION + 'correcta = "sí"\n', "true o false"),
    ],
)
def test_preguntas_mal_escritas_dan_un_error_claro(tmp_path, texto, mensaje):
    """Cada errata nombra el fichero, la pregunta y la clave: ninguna se salta en silencio."""
    (tmp_path / "preguntas.toml").write_text(texto, encoding="utf-8")
    falsa = SimpleNamespace(slug="prueba", preguntas=tmp_path / "preguntas.toml")
    with pytest.raises(ErrorDePreguntas, match="lecciones/prueba/preguntas.toml.*" + mensaje):
        preguntas_de(falsa)
