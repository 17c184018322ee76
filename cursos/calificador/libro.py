"""Las notas en el libro de nbgrader (gradebook.db), con su propia API, desde el proceso de confianza.

Así `nbgrader export`, `generate_feedback` y formgrader siguen funcionando. Cada
calificación escribe la nota automática de todas las celdas de prueba, también
un 0: una recalificación nunca deja la nota anterior. Las notas manuales que haya
puesto un profesor no se tocan.
"""

import warnings
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from cursos.calificador.fuente import Desafio, con_herramientas_del_venv


class LibroSinDesafio(Exception):
    """El libro no conoce el desafío: hay que generar antes la versión del alumno."""


def url_del_libro(curso_nbgrader: Path) -> str:
    return "sqlite:///" + str((curso_nbgrader / "gradebook.db").resolve())


def abre(curso_nbgrader: Path, desafio: Desafio) -> Gradebook:
    """El libro del curso, abierto una vez por calificación (abrirlo cuesta medio segundo)."""
    if not (curso_nbgrader / "gradebook.db").exists():
        raise LibroSinDesafio(f"no hay libro de notas en {curso_nbgrader}: ejecuta antes "
                              f"`curso desafio --nbgrader {curso_nbgrader}`")
    con_herramientas_del_venv()
    libro = Gradebook(url_del_libro(curso_nbgrader))
    try:
        libro.find_assignment(desafio.slug)
    except MissingEntry:
        libro.close()
        raise LibroSinDesafio(
            f"el libro de notas de {curso_nbgrader} no tiene el desafío «{desafio.slug}»: "
            f"ejecuta antes `curso desafio --nbgrader {curso_nbgrader}`") from None
    return libro


def anota(libro: Gradebook, desafio: Desafio, alumno: str, puntos: dict[str, float]) -> None:
    """puntos: {prueba: puntos}. Una transacción por alumno: o todo o nada."""
    cuaderno = desafio.cuaderno.removesuffix(".ipynb")
    try:
        try:
            libro.find_student(alumno)
        except MissingEntry:  # update_or_create_student escribiría aunque ya exista
            libro.add_student(alumno)
        try:
            libro.find_submission(desafio.slug, alumno)
        except MissingEntry:
            with warnings.catch_warnings():  # SAWarning de nbgrader al crear la entrega: inofensivo
                warnings.simplefilter("ignore")
                libro.add_submission(desafio.slug, alumno)
        notas = {n.name: n for n in libro.find_submission_notebook(cuaderno, desafio.slug, alumno).grades}
        for prueba, valor in puntos.items():
            notas[f"prueba_{prueba}"].auto_score = valor
            notas[f"prueba_{prueba}"].needs_manual_grade = False
        libro.db.commit()
    except Exception:
        libro.db.rollback()
        raise
