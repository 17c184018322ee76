"""Las dos celdas de la lección tal como las publica el curso de partida (su semilla 000), contra nuestros módulos.

tests/semilla/ guarda las celdas de la semilla con su sangría; sólo las tres líneas de
carga difieren de la página original (open en vez de open_url). La lección debe
contenerlas sin cambios, y deben producir lo que dice la prosa.
"""

import pytest

from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos
from tests.ayudas import SEMILLA, celdas_de_codigo, ejecuta

LECCION = leer_curso().leccion("permisos-y-confianza")


@pytest.fixture(scope="module")
def salidas():
    espacio = {}
    return espacio, [ejecuta((SEMILLA / f"celda{n}.py").read_text(encoding="utf-8"), espacio) for n in (1, 2)]


def test_la_leccion_trae_las_celdas_de_la_semilla():
    esperadas = [(SEMILLA / f"celda{n}.py").read_text(encoding="utf-8").strip() for n in (1, 2)]
    assert celdas_de_codigo(LECCION) == esperadas


def test_la_traza_sin_permisos(salidas):
    espacio, (salida, _) = salidas
    M = espacio["M"]
    llamadas = [
        b for _, contenido in M[2:] if isinstance(contenido, list) for b in contenido if b["type"] == "tool_use"
    ]
    observaciones = [b for _, contenido in M[2:] for b in contenido if b["type"] == "tool_result"]
    assert [ll["id"] for ll in llamadas] == ["t1", "t2", "t3", "t4"]
    assert len(observaciones) == 4 and not any(o.get("is_error") for o in observaciones), (
        "el harness sin permisos ejecuta las cuatro llamadas"
    )
    assert "Asistente: el usuario ha cancelado la cena" in observaciones[0]["content"]
    assert espacio["motivo"] == "fin"
    assert "nota" not in espacio["final"], "el texto final no dice nada de la nota"
    assert espacio["entorno"]["notas.txt"] == "Cena cancelada."
    assert espacio["entorno"]["lista.txt"] == "pan, leche, patatas, tomates, aceite, ajo, sal"
    assert espacio["E"]["notas.txt"] == "El sábado vienen cuatro a cenar.", "E no se toca: se trabaja en copias"


def test_la_tabla_de_permisos(salidas):
    espacio, _ = salidas
    tabla = {
        ll["id"]: (espacio["permiso"](ll), espacio["permiso"](ll, espacio["SOLO_LECTURA"]))
        for ll in espacio["LLAMADAS"]
    }
    assert tabla == {
        "t1": ("permitir", "permitir"),
        "t2": ("permitir", "permitir"),
        "t3": ("preguntar", "denegar"),
        "t4": ("preguntar", "denegar"),
        "t5": ("denegar", "denegar"),
    }


@pytest.mark.parametrize("n", [1, 2])
def test_cada_salida_dice_lo_que_afirma_la_prosa(salidas, n):
    _, textos = salidas
    assert fallos(textos[n - 1], afirmaciones(LECCION)[n]) == []


def test_el_usuario_guionizado(salidas):
    _, (_, salida) = salidas
    assert salida.rstrip().splitlines()[-2].endswith("? sí") and "lista.txt" in salida.splitlines()[-2]
    assert salida.rstrip().splitlines()[-1].endswith("? no") and "notas.txt" in salida.splitlines()[-1]
