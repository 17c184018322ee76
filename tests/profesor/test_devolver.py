"""La devolución es un paso después de calificar, desde el libro (revisión del profesor: la de Inés
decía «8 de 10» con un 9 en el libro, sin los comentarios de formgrader ni el crédito extra, y los
alumnos del aula virtual no la recibían)."""

import csv
import json
import zipfile
from datetime import timedelta

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import (
    DESAFIO,
    SOLUCION,
    VENCE,
    con_solucion,
    curso_con_penalizacion_por_hora,
)
from tests.profesor.ayudas import CUADERNO, MOODLE, a_mano


@pytest.fixture
def curso(release, tmp_path, monkeypatch):
    return curso_con_penalizacion_por_hora(release, tmp_path, monkeypatch)


def recoge_el_zip(release, curso, tmp_path):
    _, cuaderno = release
    tarde = (VENCE + timedelta(minutes=72)).timetuple()[:6]  # 1 h 12 min: 2 puntos
    a_tiempo = (VENCE - timedelta(hours=1)).timetuple()[:6]
    zip_ = tmp_path / "moodle.zip"
    with zipfile.ZipFile(zip_, "w") as z:
        z.writestr(
            zipfile.ZipInfo(MOODLE.format("Inés López", 4477), tarde), json.dumps(con_solucion(cuaderno, SOLUCION))
        )
        z.writestr(
            zipfile.ZipInfo(MOODLE.format("María Sánchez", 4476), a_tiempo),
            json.dumps(con_solucion(cuaderno, SOLUCION)),
        )
    assert all(linea.recogida for linea in recoge(zip_, curso, {DESAFIO.slug}))


def pagina(curso, alumno):
    return (curso / "feedback" / alumno / DESAFIO.slug / f"{CUADERNO}.html").read_text(encoding="utf-8")


def comentario(curso, alumno):
    with Gradebook(url_del_libro(curso)) as libro:
        return libro.find_comment(DESAFIO.celda_solucion, CUADERNO, DESAFIO.slug, alumno).auto_comment


def test_devolver_despues_de_calificar_a_mano(release, curso, tmp_path, capsys):
    recoge_el_zip(release, curso, tmp_path)
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    assert "Nota: 8 de 10 puntos" in pagina(curso, "ines.lopez")  # 10 − 2 por 1 h 12 min
    a_mano(curso)
    capsys.readouterr()

    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 1
    error = capsys.readouterr().err
    assert "ines.lopez" in error and "«8 de 10 puntos»" in error and "«8,5 de 10 puntos»" in error
    assert "maria.sanchez" in error and "«9 de 10 puntos»" in error

    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    salida = capsys.readouterr().out
    ines = pagina(curso, "ines.lopez")
    assert "Nota: 8,5 de 10 puntos" in ines and "Buen trabajo con el permiso" in ines
    assert "1 h 12 min de retraso: 2 puntos de penalización" in ines
    assert "Crédito extra del profesor: 0,5 puntos" in ines
    assert "Comentarios del profesor" in ines and "Score" not in ines
    maria = pagina(curso, "maria.sanchez")
    assert "Nota: 9 de 10 puntos" in maria and "nota puesta a mano por el profesor" in maria
    assert "✘ bucle" in maria  # la prueba con la nota a mano, con sus puntos de ahora
    # Lo que se sube a Moodle: un zip con el prefijo de la carpeta que se bajó de Moodle.
    moodle = curso / "calificaciones" / f"{DESAFIO.slug}-devolucion-moodle.zip"
    assert str(moodle) in salida
    with zipfile.ZipFile(moodle) as z:
        assert sorted(z.namelist()) == [
            f"Inés López_4477_assignsubmission_file_{DESAFIO.slug}-devolucion.html",
            f"María Sánchez_4476_assignsubmission_file_{DESAFIO.slug}-devolucion.html",
        ]
        assert "Buen trabajo" in z.read(z.namelist()[0]).decode("utf-8")
    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 0

    # formgrader: el comentario de la solución dice la nota final, la del CSV.
    assert "Nota final (la del CSV y de nbgrader export): 8,5 puntos de 10" in comentario(curso, "ines.lopez")
    assert "2 puntos de penalización" in comentario(curso, "ines.lopez")
    # Recalificar a una alumna pone al día el CSV y los comentarios de todos; la devolución de
    # los demás no cambia, y `devolver --comprobar` lo confirma.
    califica(curso, DESAFIO, plazo=5.0, progreso=False, alumno="maria.sanchez")
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8") as f:
        ines_csv = next(fila for fila in csv.DictReader(f) if fila["alumno"] == "ines.lopez")
    assert ines_csv["puntos"] == "8.5" and "crédito extra del profesor: 0,5 puntos" in ines_csv["motivo"]
    assert ines_csv["entrega"] == "2026-03-01 13:12:00+00:00"
    assert "Pasa todas las pruebas." not in ines_csv["motivo"]
    # Recalificar a Inés después de calificar a mano no deja su devolución sin los comentarios.
    califica(curso, DESAFIO, plazo=5.0, progreso=False, alumno="ines.lopez")
    assert "Buen trabajo con el permiso" in pagina(curso, "ines.lopez")
    capsys.readouterr()
    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 0, capsys.readouterr().err


def test_la_devolucion_no_repite_nada_ni_ensena_los_avisos_para_el_profesor(release, curso, tmp_path, capsys):
    """Revisión del profesor (2.ª): la penalización salía dos veces, el aviso del ordenador compartido
    (con el identificador de otro alumno) llegaba a María, y el crédito extra era «✘ 1,5 de 1»."""
    _, cuaderno = release
    otra = con_solucion(cuaderno, SOLUCION)
    otra.metadata["curso"]["alumno"] = "ines.lopez"  # el navegador del aula recordaba a Inés
    zip_ = tmp_path / "moodle.zip"
    with zipfile.ZipFile(zip_, "w") as z:
        z.writestr(
            zipfile.ZipInfo(MOODLE.format("Inés López", 4477), (VENCE + timedelta(minutes=72)).timetuple()[:6]),
            json.dumps(con_solucion(cuaderno, SOLUCION)),
        )
        z.writestr(
            zipfile.ZipInfo(MOODLE.format("María Sánchez", 4476), (VENCE - timedelta(hours=1)).timetuple()[:6]),
            json.dumps(otra),
        )
    assert all(linea.recogida for linea in recoge(zip_, curso, {DESAFIO.slug}))
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    a_mano(curso)
    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    ines, maria = pagina(curso, "ines.lopez"), pagina(curso, "maria.sanchez")
    assert ines.count("1 h 12 min") == 1 and "Crédito extra del profesor: 0,5 puntos" in ines
    assert "✔ bucle</td><td>1 de 1 + 0,5 puntos de crédito extra" in ines
    assert "ines.lopez" not in maria and "⚠" not in maria and "nota puesta a mano por el profesor" in maria
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8") as f:
        assert "«ines.lopez»" in next(fila for fila in csv.DictReader(f) if fila["alumno"] == "maria.sanchez")["motivo"]
    # Sólo cambia un comentario: la nota es la misma, y el aviso no dice «decía 9 y ahora 9».
    with Gradebook(url_del_libro(curso)) as libro:
        libro.find_comment(DESAFIO.celda_solucion, CUADERNO, DESAFIO.slug, "maria.sanchez").manual_comment = "Bien"
        libro.db.commit()
    capsys.readouterr()
    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 1
    error = capsys.readouterr().err
    assert "maria.sanchez dice la misma nota que el libro («9 de 10 puntos»)" in error and "decía" not in error


def test_sin_fecha_limite_y_con_politica_de_retrasos_avisa(release, curso, tmp_path, capsys):
    recoge_el_zip(release, curso, tmp_path)
    with Gradebook(url_del_libro(curso)) as libro:
        libro.update_or_create_assignment(DESAFIO.slug, duedate=None)
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    error = capsys.readouterr().err
    assert "no tiene fecha límite" in error and "no se penaliza a nadie" in error


def test_calificar_avisa_de_las_devoluciones_que_el_libro_dejo_atras(release, curso, tmp_path, capsys):
    """Revisión del profesor: sólo `devolver` decía que el libro había cambiado después de escribir la
    devolución; el profesor se entera de las notas con `calificar`, que tiene que decirlo también."""
    recoge_el_zip(release, curso, tmp_path)
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    a_mano(curso)  # en formgrader: crédito extra y comentario a Inés, un 0 a mano a María
    capsys.readouterr()

    # Recalificar a una alumna cuesta una (revisión del profesor, m7): no mira las devoluciones de los
    # demás, y dice cómo mirarlas.
    assert main(["calificar", "--alumno", "ines.lopez", "--plazo", "5", "--nbgrader", str(curso)]) == 0
    error = capsys.readouterr().err
    assert "el libro cambió" not in error
    assert "sólo se ha puesto al día ines.lopez: para ver si las devoluciones de los demás siguen al día, " in error
    assert "Nota: 10 de 10 puntos" in pagina(curso, "maria.sanchez")  # no la reescribe
    # Calificar a todos mira las de todos: la de María se quedó en el 10 de antes.
    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 1
    error = capsys.readouterr().err
    avisos = [linea for linea in error.splitlines() if "el libro cambió después de escribirla" in linea]
    assert len(avisos) == 1, error
    assert "maria.sanchez" in avisos[0] and "«10 de 10 puntos»" in avisos[0] and "«9 de 10 puntos»" in avisos[0]

    # Calificar a todos reescribe todas: nada que avisar.
    assert main(["calificar", "--plazo", "5", "--nbgrader", str(curso)]) == 0
    assert "el libro cambió" not in capsys.readouterr().err
    assert "Nota: 9 de 10 puntos" in pagina(curso, "maria.sanchez")
