"""Recalificar a un alumno cuesta un alumno, no la lista entera (revisión del profesor, m7: con 200
alumnos, `calificar --alumno` tardaba 20–35 s, de los que calificar eran 2: el resto era escribir el CSV
desde el libro y mirar la devolución de cada alumno)."""

import csv

from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor import libro as libro_
from cursos.profesor import retroalimentacion, sin_solucion
from cursos.profesor.libro import url_del_libro
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, entrega

CUADERNO = DESAFIO.cuaderno.removesuffix(".ipynb")
LISTA = [f"alumno{n:02d}" for n in range(30)]


def _csv(curso) -> dict[str, dict]:
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8", newline="") as f:
        return {fila["alumno"]: fila for fila in csv.DictReader(f)}


def _cuenta(parche, modulo, nombre, cuentas):
    original = getattr(modulo, nombre)

    def contada(*a, **k):
        cuentas[nombre] = cuentas.get(nombre, 0) + 1
        return original(*a, **k)

    parche.setattr(modulo, nombre, contada)


def test_recalificar_a_uno_no_recorre_la_lista(release, tmp_path, monkeypatch, capsys):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    with Gradebook(url_del_libro(curso)) as libro:
        for alumno in LISTA:
            libro.add_student(alumno)
    for alumno in LISTA[:3]:
        entrega(curso, alumno, con_solucion(cuaderno, SOLUCION))
    assert main(["calificar", "--plazo", "5", "--nbgrader", str(curso)]) == 0
    antes = _csv(curso)
    assert len(antes) == len(LISTA) and antes["alumno01"]["puntos"] == "10"

    with Gradebook(url_del_libro(curso)) as libro:  # el profesor, en formgrader, a dos alumnos
        for alumno in ("alumno01", "alumno02"):
            libro.find_grade("prueba_bucle", CUADERNO, DESAFIO.slug, alumno).extra_credit = 1
        libro.db.commit()
    cuentas = {}
    for modulo, nombre in ((libro_, "fila_del_libro"), (retroalimentacion, "pagina"), (sin_solucion, "lo_entregado")):
        _cuenta(monkeypatch, modulo, nombre, cuentas)
    capsys.readouterr()

    assert main(["calificar", "--alumno", "alumno01", "--plazo", "5", "--nbgrader", str(curso)]) == 0
    # Lo de alumno01 y nada más: su fila del libro (al anotar y con su comentario al día), su devolución y
    # su entrega, leída por la puerta de su cuaderno calificado y la de su devolución. Con la lista
    # entera serían 30 filas y 3 devoluciones.
    assert cuentas == {"fila_del_libro": 2, "pagina": 1, "lo_entregado": 2}, cuentas
    despues = _csv(curso)
    assert list(despues) == list(antes)  # las mismas filas, en el mismo orden
    assert despues["alumno01"]["puntos"] == "11"  # la suya, al día con el libro
    assert despues["alumno02"] == antes["alumno02"]  # las demás, sin tocar
    assert "sólo se ha puesto al día alumno01" in capsys.readouterr().err

    # El CSV entero se vuelve a escribir desde el libro si no está o es de otras columnas.
    (curso / "calificaciones" / f"{DESAFIO.slug}.csv").write_text("alumno,nota\nalumno01,3\n", encoding="utf-8")
    assert main(["calificar", "--alumno", "alumno01", "--plazo", "5", "--nbgrader", str(curso)]) == 0
    entero = _csv(curso)
    assert len(entero) == len(LISTA) and entero["alumno02"]["puntos"] == "11"
