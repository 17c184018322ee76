"""Las pruebas del flujo del profesor (cursos/profesor/): usan los fixtures del calificador.

release y postgres son los de tests/calificador/conftest.py: la plantilla del curso se genera una
vez por sesión aunque la pidan las dos carpetas (genera() la guarda).
"""

from nbgrader.api import Gradebook

from cursos.profesor.libro import url_del_libro
from tests.calificador.conftest import DESAFIO, postgres, release  # noqa: F401

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
