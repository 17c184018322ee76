"""Mudar el libro de notas sin perder nada (revisión del profesor: el libro nuevo de PostgreSQL
empezaba vacío, sin alumnos, fechas límite ni notas a mano)."""

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from tests.calificador.ayudas import DESAFIO, SOLUCION, VENCE, con_solucion, curso_nuevo, entrega, hora

CUADERNO = DESAFIO.cuaderno.removesuffix(".ipynb")


@pytest.fixture(scope="module")
def curso(release, tmp_path_factory):
    """Un curso con un trimestre dentro: lista, fecha límite, entregas, notas a mano y comentarios."""
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path_factory.mktemp("mudanza") / "curso")
    with (curso / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with Gradebook(url_del_libro(curso)) as libro:
        libro.update_or_create_assignment(DESAFIO.slug, duedate=VENCE)
        libro.add_student("ana", first_name="Ana", last_name="García Pérez", email="ana@ejemplo.es", lms_user_id="4471")
        libro.add_student("luis", first_name="Luis", last_name="Peña")
        libro.add_student("falta", first_name="Falta", last_name="Nunca")
    for alumno, dias in (("ana", -1), ("luis", 1)):
        ruta = entrega(curso, alumno, con_solucion(cuaderno, SOLUCION))
        (ruta.parent / "timestamp.txt").write_text(hora(dias), encoding="utf-8")
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    with Gradebook(url_del_libro(curso)) as libro:
        libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, "luis").manual_score = 0
        libro.find_grade("prueba_nadie", CUADERNO, DESAFIO.slug, "ana").extra_credit = 0.5
        libro.find_comment(DESAFIO.celda_solucion, CUADERNO, DESAFIO.slug, "ana").manual_comment = "¡bien!"
        libro.db.commit()
    return curso


def foto(url: str) -> dict:
    """Todo lo que importa de un libro, para compararlo."""
    with Gradebook(url) as libro:
        alumnos = {(s.id, s.first_name, s.last_name, s.email, s.lms_user_id) for s in libro.students}
        desafios = {(a.name, a.duedate) for a in libro.assignments}
        entregas = {}
        for e in libro.assignment_submissions(DESAFIO.slug):
            nb = e.notebooks[0]
            entregas[e.student.id] = (
                e.timestamp,
                e.score,
                e.late_submission_penalty,
                sorted((g.name, g.auto_score, g.manual_score, g.extra_credit) for g in nb.grades),
                sorted((c.name, c.auto_comment, c.manual_comment) for c in nb.comments),
            )
    return {"alumnos": alumnos, "desafios": desafios, "entregas": entregas}


def copia(capsys, curso, url):
    codigo = main(["copiar-libro", "--nbgrader", str(curso), "--a", url])
    return codigo, capsys.readouterr()


def test_de_sqlite_a_sqlite(curso, tmp_path, capsys):
    destino = f"sqlite:///{tmp_path / 'nuevo.db'}"
    codigo, salida = copia(capsys, curso, destino)
    assert codigo == 0, salida.err
    assert "3 alumnos, 1 desafío, 2 entregas" in salida.out and destino in salida.out
    antes = foto(url_del_libro(curso))
    assert antes == foto(destino)
    assert (
        antes["entregas"]["luis"][2] > 0
        and ("ana", "Ana", "García Pérez", "ana@ejemplo.es", "4471") in antes["alumnos"]
    )
    # Otra vez al mismo: no se escribe encima.
    codigo, salida = copia(capsys, curso, destino)
    assert codigo == 2 and "no está vacío" in salida.err and "alumnos" not in salida.out
    assert foto(destino) == antes


def test_de_sqlite_a_postgresql(curso, postgres, capsys):
    codigo, salida = copia(capsys, curso, postgres)
    assert codigo == 0, salida.err
    assert foto(postgres) == foto(url_del_libro(curso))
    codigo, salida = copia(capsys, curso, postgres)
    assert codigo == 2 and "no está vacío (3 en student" in salida.err
