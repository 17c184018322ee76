"""Un curso de nbgrader con otras carpetas: repartir, recoger, calificar y devolver van donde
dice su configuración (`*_directory` y `directory_structure`), como las órdenes de nbgrader."""

import json
import subprocess
import sys

import nbformat
import pytest

from cursos.profesor.calificar import califica
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.fuente import genera_version_del_alumno
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, por_alumno

NOMBRES = {
    "source": "fuente",
    "release": "repartido",
    "submitted": "entregas",
    "autograded": "calificado",
    "feedback": "devolucion",
}
ESTRUCTURAS = {
    "nombres_propios": "{nbgrader_step}/{student_id}/{assignment_id}",
    "por_desafio": "{nbgrader_step}/{assignment_id}/{student_id}",
}
CONFIG = "c = get_config()\nc.CourseDirectory.course_id = 'otro'\n" + "".join(
    f"c.CourseDirectory.{paso}_directory = {nombre!r}\n" for paso, nombre in NOMBRES.items()
)


@pytest.fixture(scope="module", params=ESTRUCTURAS)
def curso(request, tmp_path_factory):
    """Un curso con los nombres propios del profesor, repartido y con tres entregas recogidas."""
    curso = tmp_path_factory.mktemp(request.param) / "curso"
    curso.mkdir()
    estructura = ESTRUCTURAS[request.param]
    (curso / "nbgrader_config.py").write_text(
        CONFIG + f"c.CourseDirectory.directory_structure = {estructura!r}\n", encoding="utf-8"
    )
    release = genera_version_del_alumno(DESAFIO, curso)
    repartido = nbformat.read(release / DESAFIO.cuaderno, as_version=4)
    aula = curso.parent / "aula"
    for alumno, codigo in {"ana": SOLUCION, "beto": "def ejecutar(ll, entorno):\n    return None\n"}.items():
        nb = con_solucion(repartido, codigo)
        nb.metadata["curso"]["alumno"] = alumno
        (aula / alumno).mkdir(parents=True)
        (aula / alumno / DESAFIO.cuaderno).write_text(json.dumps(nb), encoding="utf-8")
    informe = recoge(aula, curso, {DESAFIO.slug})
    filas = por_alumno(califica(curso, DESAFIO, progreso=False))
    return {"curso": curso, "estructura": estructura, "release": release, "informe": informe, "filas": filas}


def _ruta(curso, estructura, paso, alumno):
    return curso / estructura.format(nbgrader_step=NOMBRES[paso], student_id=alumno, assignment_id=DESAFIO.slug)


def test_se_reparte_en_la_carpeta_del_profesor(curso):
    assert curso["release"] == _ruta(curso["curso"].resolve(), curso["estructura"], "release", ".")
    assert (curso["release"] / DESAFIO.cuaderno).is_file()
    assert (_ruta(curso["curso"], curso["estructura"], "source", ".") / DESAFIO.cuaderno).is_file()


def test_se_recoge_califica_y_devuelve_en_sus_carpetas(curso):
    assert all(linea.recogida for linea in curso["informe"]), curso["informe"]
    assert {linea.alumno for linea in curso["informe"]} == {"ana", "beto"}
    assert {a: f["puntos"] for a, f in curso["filas"].items()} == {"ana": 10, "beto": 0}
    for alumno in ("ana", "beto"):
        entregada = _ruta(curso["curso"], curso["estructura"], "submitted", alumno)
        assert (entregada / DESAFIO.cuaderno).is_file() and (entregada / "timestamp.txt").is_file()
        assert (_ruta(curso["curso"], curso["estructura"], "autograded", alumno) / DESAFIO.cuaderno).is_file()
        assert (
            _ruta(curso["curso"], curso["estructura"], "feedback", alumno) / DESAFIO.cuaderno.replace(".ipynb", ".html")
        ).is_file()


def test_no_aparecen_las_carpetas_de_siempre(curso):
    for paso in NOMBRES:
        assert not (curso["curso"] / paso).exists(), paso


def test_nbgrader_ve_las_entregas_donde_las_deja_el_curso(curso):
    """nbgrader list --inbound no sirve sin intercambio: se pregunta a su CourseDirectory."""
    guion = (
        "import sys\nfrom nbgrader.apps import NbGraderAPI\nfrom nbgrader.apps.nbgraderapp import NbGraderApp\n"
        "from nbgrader.coursedir import CourseDirectory\n"
        "app = NbGraderApp()\napp.initialize([])\n"
        "api = NbGraderAPI(CourseDirectory(config=app.config), config=app.config)\n"
        "print(sorted(api.get_submitted_students(sys.argv[1])))\n"
    )
    hecho = subprocess.run(
        [sys.executable, "-c", guion, DESAFIO.slug], cwd=curso["curso"], capture_output=True, text=True, check=True
    )
    assert hecho.stdout.strip() == "['ana', 'beto']", hecho.stderr
    assert sorted(a for a, _ in Carpetas.de(curso["curso"]).entregas(DESAFIO.slug)) == ["ana", "beto"]
