"""Lo que comparten las pruebas del flujo del profesor (cursos/profesor/), además de
tests/calificador/ayudas.py: la tarea de Moodle y lo que el profesor hace a mano en formgrader."""

from nbgrader.api import Gradebook

from cursos.profesor.libro import url_del_libro
from tests.calificador.ayudas import DESAFIO

MOODLE = "{}_{}_assignsubmission_file_/permiso-en-ejecutar.ipynb"
CUADERNO = DESAFIO.cuaderno.removesuffix(".ipynb")


def a_mano(curso):
    """Lo que hace el profesor en formgrader después de calificar."""
    with Gradebook(url_del_libro(curso)) as libro:
        libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, "ines.lopez").extra_credit = 0.5
        libro.find_comment(
            DESAFIO.celda_solucion, CUADERNO, DESAFIO.slug, "ines.lopez"
        ).manual_comment = "Buen trabajo con el permiso"
        libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, "maria.sanchez").manual_score = 0
        libro.db.commit()
