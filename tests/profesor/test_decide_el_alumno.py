"""Las reglas de quién entrega (docstring de cursos/profesor/recoger.py), una por caso, sobre la
decisión pura decide_el_alumno: sin cuadernos, sin libro de notas, sin nbgrader corriendo."""

import pytest

from cursos.profesor.lista import AlumnoDelLibro
from cursos.profesor.quien import Linea, Quien, decide_el_alumno

LISTA = [
    AlumnoDelLibro("ana.garcia", "Ana", "García Pérez"),
    AlumnoDelLibro("maria.sanchez", "María", "Sánchez"),
    AlumnoDelLibro("maria.sanchez2", "María", "Sánchez Gil"),
    AlumnoDelLibro("begona.pena", "Begoña", "Peña", lms="4480"),
    AlumnoDelLibro("ines.lopez", "Inés", "López Ruiz", lms="77"),
]
F = "permiso-en-ejecutar.ipynb"
MOODLE = "Ana García Pérez_1234_assignsubmission_file_/" + F


# (regla, origen, carpeta, cuaderno, lista, patrón propio) → (alumno, carpeta, confirmada, con aviso)
RECOGE = [
    (
        "con lista: la carpeta de Moodle casada por el nombre",
        MOODLE,
        None,
        None,
        LISTA,
        False,
        ("ana.garcia", "Ana García Pérez_1234_assignsubmission_file_", True, False),
    ),
    (
        "con lista: Moodle sin tildes ni mayúsculas, y con un apellido",
        "ana garcia_9_assignsubmission_file_/" + F,
        None,
        None,
        LISTA,
        False,
        ("ana.garcia", "ana garcia_9_assignsubmission_file_", True, False),
    ),
    (
        "con lista: Canvas por lms_user_id",
        f"penabegona_4480_991_{F}",
        None,
        None,
        LISTA,
        False,
        ("begona.pena", "penabegona_4480_991", True, False),
    ),
    (
        "con lista: la carpeta es el identificador de uno del libro",
        f"ana.garcia/{F}",
        "ana.garcia",
        None,
        LISTA,
        False,
        ("ana.garcia", "ana.garcia", True, False),
    ),
    (
        "con lista: un cuaderno que dice otro se recoge para el de la carpeta, con aviso",
        MOODLE,
        None,
        "maria.sanchez",
        LISTA,
        False,
        ("ana.garcia", "Ana García Pérez_1234_assignsubmission_file_", True, True),
    ),
    (
        "sin lista: manda la carpeta con identificador",
        f"ana.garcia/{F}",
        "ana.garcia",
        None,
        [],
        False,
        ("ana.garcia", "ana.garcia", True, False),
    ),
    (
        "sin lista: carpeta y cuaderno dicen lo mismo",
        f"ana.garcia/{F}",
        "ana.garcia",
        "ana.garcia",
        [],
        False,
        ("ana.garcia", "ana.garcia", True, False),
    ),
    (
        "sin lista: una carpeta que no es un identificador deja valer al cuaderno, sin confirmar",
        f"Ana García Pérez/{F}",
        "Ana García Pérez",
        "ana.garcia",
        [],
        False,
        ("ana.garcia", "Ana García Pérez", False, False),
    ),
    (
        "sin carpeta: un cuaderno suelto es del que dice",
        F,
        None,
        "ana.garcia",
        [],
        False,
        ("ana.garcia", None, False, False),
    ),
    (
        "con lista, sin carpeta del aula: lo de siempre",
        F,
        None,
        "ana.garcia",
        LISTA,
        False,
        ("ana.garcia", None, False, False),
    ),
]

# (regla, origen, carpeta, cuaderno, lista, patrón propio) → (trozo del motivo, para al profesor)
NO_RECOGE = [
    (
        "sin lista: carpeta con identificador distinto del del cuaderno",
        f"ana.garcia/{F}",
        "ana.garcia",
        "maria.sanchez",
        [],
        False,
        ("«maria.sanchez» y viene de la carpeta de «ana.garcia»", False),
    ),
    (
        "con --patron: su grupo «alumno» manda aunque no parezca un identificador",
        f"Ana García/{F}",
        "Ana García",
        "maria.sanchez",
        [],
        True,
        ("viene de la carpeta de «Ana García»", False),
    ),
    (
        "con lista: un nombre de Moodle que no es de nadie no se adivina",
        "Pedro Ruiz_5_assignsubmission_file_/" + F,
        None,
        "ana.garcia",
        LISTA,
        False,
        ("Pedro Ruiz", False),
    ),
    (
        "con lista: un nombre de Moodle de dos alumnos no se adivina",
        "María Sánchez_5_assignsubmission_file_/" + F,
        None,
        None,
        LISTA,
        False,
        ("maria.sanchez", False),
    ),
    (
        "con lista: el nombre dice uno y el número es el lms_user_id de otro: decide el profesor",
        "Ana García Pérez_4480_assignsubmission_file_/" + F,
        None,
        None,
        LISTA,
        False,
        ("4480", True),
    ),
    ("sin identificador por ningún lado", F, None, None, [], False, ("sin identificador del alumno", False)),
    ("un identificador que no vale como carpeta", F, None, "ana/../garcia", [], False, ("no vale como nombre", False)),
]


@pytest.mark.parametrize(
    "regla, origen, carpeta, cuaderno, lista, patron, esperado", RECOGE, ids=[r[0] for r in RECOGE]
)
def test_se_recoge_para(regla, origen, carpeta, cuaderno, lista, patron, esperado):
    quien = decide_el_alumno(origen, carpeta, cuaderno, lista, patron)
    assert isinstance(quien, Quien), quien
    alumno, carpeta_del_aula, confirmada, con_aviso = esperado
    assert (quien.alumno, quien.carpeta, quien.confirmada) == (alumno, carpeta_del_aula, confirmada)
    assert bool(quien.aviso) == con_aviso
    if con_aviso:
        assert cuaderno in quien.aviso and "ordenador compartido" in quien.aviso
    assert quien.fichero == F


@pytest.mark.parametrize(
    "regla, origen, carpeta, cuaderno, lista, patron, esperado", NO_RECOGE, ids=[r[0] for r in NO_RECOGE]
)
def test_no_se_recoge(regla, origen, carpeta, cuaderno, lista, patron, esperado):
    linea = decide_el_alumno(origen, carpeta, cuaderno, lista, patron)
    assert isinstance(linea, Linea), linea
    trozo, para = esperado
    assert not linea.recogida and trozo in linea.motivo
    assert linea.para == para
