"""`curso recoger` con el libro de notas donde diga la configuración del curso (db_url) y con
nbgrader después: la lista de alumnos sale de ese libro y `nbgrader release_feedback` reparte
la devolución de lo recogido."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from cursos.profesor.fuente import con_herramientas_del_venv
from cursos.profesor.recoger import EntradaInvalida, recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo

DESAFIOS = {"permiso-en-ejecutar"}


def entregas(tmp_path: Path, cuaderno, alumnos) -> Path:
    """Una carpeta por alumno, como la del aula virtual, con un cuaderno bajado de JupyterLite."""
    entrada = tmp_path / "entregas"
    for alumno in alumnos:
        (entrada / alumno).mkdir(parents=True)
        (entrada / alumno / "permiso-en-ejecutar.ipynb").write_text(
            json.dumps(con_solucion(cuaderno, SOLUCION)), encoding="utf-8"
        )
    return entrada


def configura_libro(curso: Path, url: str) -> None:
    with (curso / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write(f"\nc.CourseDirectory.db_url = {url!r}\n")


def recogidos(informe) -> dict[str, bool]:
    return {linea.alumno: linea.recogida for linea in informe}


def test_la_lista_de_alumnos_sale_del_sqlite_de_la_configuracion(release, tmp_path):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    otro = tmp_path / "compartido" / "libro.db"
    otro.parent.mkdir()
    configura_libro(curso, f"sqlite:///{otro}")
    with Gradebook(f"sqlite:///{otro}") as libro:
        libro.add_student("ana")
    # El gradebook.db de la carpeta del curso (el de la plantilla) no es el del curso: no cuenta.
    with Gradebook(f"sqlite:///{curso / 'gradebook.db'}") as viejo:
        viejo.add_student("zoe")
    informe = recoge(entregas(tmp_path, cuaderno, ["ana", "zoe"]), curso, DESAFIOS)
    assert recogidos(informe) == {"ana": True, "zoe": False}, [x.motivo for x in informe]
    assert "alumno desconocido «zoe»" in next(x.motivo for x in informe if x.alumno == "zoe")


def test_un_libro_que_no_se_puede_abrir_lo_dice(release, tmp_path):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    configura_libro(curso, "postgresql+psycopg://nadie@127.0.0.1:1/libro")
    with pytest.raises(EntradaInvalida, match="db_url"):
        recoge(entregas(tmp_path, cuaderno, ["ana"]), curso, DESAFIOS)


def test_la_lista_de_alumnos_sale_de_postgresql(release, tmp_path, postgres):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    configura_libro(curso, postgres)
    with Gradebook(postgres) as libro:
        libro.update_or_create_student("luis")
    informe = recoge(entregas(tmp_path, cuaderno, ["luis", "zoe"]), curso, DESAFIOS)
    assert recogidos(informe) == {"luis": True, "zoe": False}


def test_nbgrader_release_feedback_reparte_lo_recogido(release, tmp_path):
    from cursos.profesor.calificar import califica

    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    intercambio = tmp_path / "intercambio"
    intercambio.mkdir()
    with (curso / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write(f'\nc.CourseDirectory.course_id = "agentes"\nc.Exchange.root = {str(intercambio)!r}\n')
    assert all(recogidos(recoge(entregas(tmp_path, cuaderno, ["ana", "luis"]), curso, DESAFIOS)).values())
    secreto = (curso / "submitted" / "ana" / "permiso-en-ejecutar" / "submission_secret.txt").read_text()
    assert len(secreto) == 128 and int(secreto, 16) >= 0  # secrets.token_hex(64), como nbgrader submit
    califica(curso, DESAFIO, plazo=5.0, progreso=False, anadir_alumnos=True)
    con_herramientas_del_venv()
    hecho = subprocess.run(
        [sys.executable, "-m", "nbgrader", "release_feedback", "permiso-en-ejecutar"],
        cwd=curso,
        capture_output=True,
        text=True,
    )
    assert hecho.returncode == 0, hecho.stderr
    repartidas = list((intercambio / "agentes" / "feedback").glob("*.html"))
    assert len(repartidas) == 2, hecho.stderr
    # Lo que reparte es la devolución en español de cada alumno.
    assert all("Desafío «permiso-en-ejecutar»" in r.read_text(encoding="utf-8") for r in repartidas)
