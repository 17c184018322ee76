"""Anotar a un alumno en el libro es una sola transacción: si algo falla a medias, no queda nada suyo.

Antes, el alumno nuevo y su entrega se confirmaban cada uno por su lado (Gradebook.add_student y
add_submission confirman) y un fallo después dejaba en el libro un alumno con una entrega sin notas.
"""

import pytest
from nbgrader.api import Gradebook, MissingEntry

from cursos.profesor import libro
from cursos.profesor.configuracion import CursoNbgrader
from tests.calificador.ayudas import DESAFIO, curso_nuevo


def _anota(curso, alumno, puntos):
    configuracion = CursoNbgrader.de(curso)
    with libro.abre(configuracion, DESAFIO) as gradebook:
        return libro.anota(gradebook, DESAFIO, alumno, puntos, zona=configuracion.zona(), motivo="")


def test_un_fallo_a_medias_no_deja_ni_el_alumno_ni_su_entrega(release, tmp_path):
    curso = curso_nuevo(release, tmp_path / "curso")
    with pytest.raises(KeyError):  # una prueba que el desafío repartido no tiene: falla después de crearlos
        _anota(curso, "nuevo", {"no_existe": 1})
    with Gradebook(libro.url_del_libro(curso)) as gradebook:
        with pytest.raises(MissingEntry):
            gradebook.find_student("nuevo")
        assert gradebook.assignment_submissions(DESAFIO.slug) == []


def test_bien_anotado_la_fila_es_la_del_libro(release, tmp_path):
    curso = curso_nuevo(release, tmp_path / "curso")
    puntos = dict.fromkeys(DESAFIO.puntos(), 0)
    primera = next(iter(puntos))
    puntos[primera] = DESAFIO.puntos()[primera]
    fila = _anota(curso, "nuevo", puntos)
    assert fila["alumno"] == "nuevo" and fila["puntos"] == DESAFIO.puntos()[primera]
    configuracion = CursoNbgrader.de(curso)
    with libro.abre(configuracion, DESAFIO) as gradebook:  # leída otra vez, ya confirmada
        assert libro.fila_del_libro(gradebook, DESAFIO, "nuevo", configuracion.zona()) == fila
