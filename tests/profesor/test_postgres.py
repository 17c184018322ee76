"""El libro de notas compartido: nbgrader con `db_url` en PostgreSQL (varios profesores califican).

La prueba arranca el servidor de PostgreSQL de Debian ella misma: el fixture postgres de
tests/conftest.py, con servidor_postgres de tests/calificador/ayudas.py. `./curso pruebas` lo
instala con apt si falta.
"""

import pytest

from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from cursos.profesor.fuente import con_herramientas_del_venv, genera_version_del_alumno
from tests.calificador.ayudas import VENCE, con_solucion, entrega, exporta, formgrader, hora, por_alumno

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


def test_la_lista_del_aula_la_entrega_en_blanco_y_las_notas_al_aula_sobre_postgresql(postgres, tmp_path):
    """Lo del trimestre de la revisión del profesor sobre el libro compartido: la lista tal como la baja
    Moodle (con BOM), una entrega en blanco que no saca la solución de source/, y las notas al aula."""
    import csv

    import nbformat

    from cursos.cli import main
    from cursos.profesor.importa_alumnos import importa

    con_herramientas_del_venv()
    curso = tmp_path / "aula"
    curso.mkdir()
    (curso / "nbgrader_config.py").write_text(
        f'c = get_config()\nc.CourseDirectory.course_id = "aula"\nc.CourseDirectory.db_url = {postgres!r}\n',
        encoding="utf-8",
    )
    genera_version_del_alumno(DESAFIO, curso)
    lista = tmp_path / "usuarios.csv"
    lista.write_text(
        "\ufeffid,username,email,firstname,lastname\n"
        "5101,npena,nicolas.pena@uni.es,Nicolás,Peña Gil\n"
        "5102,sramos,sofia.ramos@uni.es,Sofía,Ramos de la Cruz\n",
        encoding="utf-8",
    )
    importa(curso, lista)
    cuaderno = nbformat.read(curso / "release" / DESAFIO.slug / DESAFIO.cuaderno, as_version=4)
    entrega(curso, "nicolas.pena", cuaderno)  # el cuaderno repartido, sin tocar
    entrega(curso, "sofia.ramos", con_solucion(cuaderno, DESAFIO.lee("solucion.py")))
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False, anadir_alumnos=True))
    assert filas["nicolas.pena"]["puntos"] == 0 and filas["sofia.ramos"]["puntos"] == 10
    calificado = curso / "autograded" / "nicolas.pena" / DESAFIO.slug / DESAFIO.cuaderno
    assert "BEGIN SOLUTION" not in calificado.read_text(encoding="utf-8")

    assert main(["devolver", "--desafio", DESAFIO.slug, "--nbgrader", str(curso)]) == 0
    moodle = curso / "calificaciones" / f"{DESAFIO.slug}-notas-moodle.csv"
    with moodle.open(encoding="utf-8", newline="") as f:
        notas = {fila["Dirección de correo"]: fila for fila in csv.DictReader(f)}
    assert {correo: fila[DESAFIO.slug] for correo, fila in notas.items()} == {
        "nicolas.pena@uni.es": "0",
        "sofia.ramos@uni.es": "10",
    }
    assert all("BEGIN SOLUTION" not in fila["Retroalimentación"] for fila in notas.values())
