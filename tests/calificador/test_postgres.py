"""El libro de notas compartido: nbgrader con `db_url` en PostgreSQL (varios profesores califican).

La prueba arranca el servidor de PostgreSQL de Debian ella misma (el fixture postgres, en
conftest.py). `./curso pruebas` lo instala con apt si falta.
"""

import pytest

from cursos.calificador.calificar import califica
from cursos.calificador.fuente import con_herramientas_del_venv, genera_version_del_alumno
from cursos.desafio import Desafio
from tests.calificador.conftest import VENCE, con_solucion, entrega, exporta, formgrader, hora, por_alumno

DESAFIO = Desafio("permiso-en-ejecutar")


@pytest.fixture(scope="module")
def curso(postgres, tmp_path_factory):
    con_herramientas_del_venv()
    curso = tmp_path_factory.mktemp("compartido") / "curso"
    curso.mkdir()
    (curso / "nbgrader_config.py").write_text(
        f'c = get_config()\nc.CourseDirectory.course_id = "compartido"\n'
        f'c.CourseDirectory.db_url = {postgres!r}\nc.LateSubmissionPlugin.penalty_method = "zero"\n',
        encoding="utf-8",
    )
    genera_version_del_alumno(DESAFIO, curso)
    import nbformat
    from nbgrader.api import Gradebook

    with Gradebook(postgres, "compartido") as libro:
        libro.update_or_create_assignment(DESAFIO.slug, duedate=VENCE)
        libro.update_or_create_student("falta", first_name="Falta", last_name="Nunca")
    cuaderno = nbformat.read(curso / "release" / DESAFIO.slug / DESAFIO.cuaderno, as_version=4)
    for alumno, dias in (("puntual", -1), ("tardio", 1)):
        ruta = entrega(curso, alumno, con_solucion(cuaderno, DESAFIO.lee("solucion.py")))
        (ruta.parent / "timestamp.txt").write_text(hora(dias), encoding="utf-8")
    return curso


def test_califica_exporta_y_formgrader_sobre_postgresql(curso, postgres):
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False, anadir_alumnos=True))
    assert not (curso / "gradebook.db").exists()  # todo ha ido al servidor
    assert filas["puntual"]["puntos"] == 10
    assert filas["tardio"]["sin_penalizar"] == 10 and filas["tardio"]["puntos"] == 0
    assert filas["falta"]["motivo"] == "sin entrega"
    exportado = exporta(curso)
    for alumno, fila in filas.items():
        assert float(exportado[(DESAFIO.slug, alumno)]["score"]) == fila["puntos"], alumno
    with formgrader(curso) as pide:
        vistas = {e["student"]: e for e in pide(f"/formgrader/api/submissions/{DESAFIO.slug}")}
    assert {a: (v["score"], v["autograded"]) for a, v in vistas.items()} == {
        "puntual": (10, True),
        "tardio": (10, True),
    }
