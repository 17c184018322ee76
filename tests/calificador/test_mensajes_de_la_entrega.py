"""Los mensajes de una entrega dicen la verdad (revisión del profesor, m4 y m6): un fichero que no es
un cuaderno se llama así, y un cambio de la lección después del reparto es del curso, no del alumno."""

import copy
import json

import nbformat
import pytest

from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega, lee_json
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion


@pytest.mark.parametrize(
    ("contenido", "dice"),
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "sino un PDF"),
        (b"PK\x03\x04\x14\x00\x06\x00", "sino un zip (o un documento de Word"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "sino una imagen PNG"),
    ],
)
def test_un_fichero_renombrado_a_ipynb_no_es_un_cuaderno(tmp_path, contenido, dice):
    ruta = tmp_path / "permiso-en-ejecutar.ipynb"
    ruta.write_bytes(contenido)
    with pytest.raises(EntregaInvalida) as e:
        lee_json(ruta)
    assert "no es un cuaderno de Jupyter " + dice in str(e.value)
    assert "UTF-8" not in str(e.value)


def test_unos_bytes_que_no_son_texto_tampoco(tmp_path):
    ruta = tmp_path / "permiso-en-ejecutar.ipynb"
    ruta.write_bytes(b'{"cells": [\xff\xfe]}')
    with pytest.raises(EntregaInvalida, match="no es un cuaderno de Jupyter: no es texto UTF-8"):
        lee_json(ruta)


def _celda(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def test_una_leccion_cambiada_despues_del_reparto_no_culpa_al_alumno(release, tmp_path):
    """El reparto se hizo con la lección de antes; el alumno bajó el cuaderno de la lección de ahora."""
    _, cuaderno = release
    antes = copy.deepcopy(cuaderno)
    _celda(antes, "partida").source += "\nprint('la lección de antes del cambio')"
    repartido = tmp_path / "release.ipynb"
    nbformat.write(antes, repartido)

    de_ahora = tmp_path / "de-ahora.ipynb"
    de_ahora.write_text(json.dumps(con_solucion(cuaderno, SOLUCION)), encoding="utf-8")
    notas = lee_entrega(DESAFIO, de_ahora, repartido).notas
    assert len(notas) == 1 and "una versión del curso más nueva que la del reparto" in notas[0]
    assert "tú no has tocado nada" in notas[0] and "editado" not in notas[0]

    # Si la cambia el alumno (ni la del reparto ni la de ahora), sí se le dice que se ha restaurado.
    editada = con_solucion(cuaderno, SOLUCION)
    _celda(editada, "partida").source += "\nprint('lo he cambiado yo')"
    suya = tmp_path / "suya.ipynb"
    suya.write_text(json.dumps(editada), encoding="utf-8")
    notas = lee_entrega(DESAFIO, suya, repartido).notas
    assert len(notas) == 1 and "«partida» se había borrado, editado o movido" in notas[0]
