"""Las notas al libro de calificaciones del aula virtual, desde el libro de notas (revisión del profesor:
M3, el CSV del curso no decía la nota puesta en formgrader; M6, nada llevaba las notas a Moodle ni a
Canvas, y el motivo del CSV lleva avisos que son sólo para el profesor)."""

import csv
import json
import zipfile
from datetime import timedelta

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor import aula, retroalimentacion
from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import (
    DESAFIO,
    SOLUCION,
    VENCE,
    con_solucion,
    curso_con_penalizacion_por_hora,
    entrega,
    exporta,
)
from tests.profesor.ayudas import MOODLE, a_mano

TARDE = (VENCE + timedelta(minutes=72)).timetuple()[:6]  # 1 h 12 min: 2 puntos de penalización
A_TIEMPO = (VENCE - timedelta(hours=1)).timetuple()[:6]


@pytest.fixture
def curso(release, tmp_path, monkeypatch):
    return curso_con_penalizacion_por_hora(release, tmp_path, monkeypatch)


def zip_con(tmp_path, cuadernos: dict[str, tuple]) -> object:
    """{nombre en el zip: (hora, cuaderno)}: el zip que baja el aula."""
    ruta = tmp_path / "aula.zip"
    with zipfile.ZipFile(ruta, "w") as z:
        for nombre, (hora, cuaderno) in cuadernos.items():
            z.writestr(zipfile.ZipInfo(nombre, hora), json.dumps(cuaderno))
    return ruta


def lee_csv(ruta) -> list[list[str]]:
    with ruta.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def del_curso(curso, alumno) -> dict:
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8") as f:
        return next(fila for fila in csv.DictReader(f) if fila["alumno"] == alumno)


def test_moodle_con_la_nota_de_formgrader_y_sin_lo_que_es_para_el_profesor(release, curso, tmp_path, capsys):
    _, cuaderno = release
    de_ines = con_solucion(cuaderno, SOLUCION)
    de_ines.metadata["curso"]["alumno"] = "ines.lopez"  # María entregó desde el navegador de Inés
    entregas = {
        MOODLE.format("Inés López", 4477): (TARDE, con_solucion(cuaderno, SOLUCION)),
        MOODLE.format("María Sánchez", 4476): (A_TIEMPO, de_ines),
    }
    assert all(linea.recogida for linea in recoge(zip_con(tmp_path, entregas), curso, {DESAFIO.slug}))
    with Gradebook(url_del_libro(curso)) as libro:
        libro.update_or_create_student("ines.lopez", email="ines.lopez@uni.es")
        libro.update_or_create_student("maria.sanchez", email="maria.sanchez@uni.es")
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    a_mano(curso)  # en formgrader: +0,5 de crédito extra y un comentario a Inés, un 0 a mano a María
    capsys.readouterr()

    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    salida, error = capsys.readouterr()
    # El CSV del curso, reescrito desde el libro: la nota de formgrader, la de nbgrader export.
    assert del_curso(curso, "ines.lopez")["puntos"] == "8.5"
    assert float(exporta(curso)[(DESAFIO.slug, "ines.lopez")]["score"]) == 8.5
    assert "«ines.lopez»" in del_curso(curso, "maria.sanchez")["motivo"]  # el aviso, sólo para el profesor
    # El CSV de Moodle: correo, nota con punto, y la retroalimentación que lee el alumno en su devolución.
    ruta = curso / "calificaciones" / f"{DESAFIO.slug}-notas-moodle.csv"
    assert f"Notas para Moodle: {ruta}" in salida and "«Calificaciones» → «Importar» → «Archivo CSV»" in salida
    assert not ruta.read_bytes().startswith(b"\xef\xbb\xbf")
    cabecera, ines, maria = lee_csv(ruta)
    assert cabecera == ["Dirección de correo", DESAFIO.slug, "Retroalimentación"]
    assert ines[:2] == ["ines.lopez@uni.es", "8.5"] and maria[:2] == ["maria.sanchez@uni.es", "9"]
    assert "Nota: 8,5 de 10 puntos" in ines[2] and "Comentarios del profesor: tu solución: Buen trabajo" in ines[2]
    assert "1 h 12 min de retraso: 2 puntos de penalización" in ines[2]
    assert "Crédito extra del profesor: 0,5 puntos" in ines[2] and "<" not in ines[2]
    assert "Nota: 9 de 10 puntos" in maria[2]
    assert "⚠" not in maria[2] and "ines.lopez" not in maria[2] and "compartido" not in maria[2]
    # Un curso de Moodle: no hay CSV de Canvas, ni aviso de que falta el id de Canvas de nadie.
    assert not (curso / "calificaciones" / f"{DESAFIO.slug}-notas-canvas.csv").exists()
    assert "Canvas" not in error

    # La puerta: una retroalimentación que llevaría lo de source/ no va en el CSV, y devolver acaba con 1.
    original = retroalimentacion.Arriba.en_una_linea

    def con_la_solucion(arriba):  # sólo la de maria.sanchez, la del 9
        return original(arriba) + (" ### BEGIN HIDDEN TESTS" if arriba.nota.startswith("9 ") else "")

    with pytest.MonkeyPatch.context() as parche:
        parche.setattr(retroalimentacion.Arriba, "en_una_linea", con_la_solucion)
        assert main(["devolver", "--nbgrader", str(curso)]) == 1
    assert "la retroalimentación de maria.sanchez para Moodle no se ha escrito" in capsys.readouterr().err
    assert [fila[0] for fila in lee_csv(ruta)] == ["Dirección de correo", "ines.lopez@uni.es"]


def test_canvas_con_el_id_de_la_recogida_y_quien_no_lo_tiene_se_dice(release, curso, tmp_path, capsys):
    _, cuaderno = release
    entregas = {
        f"lopezines_late_4477_98767_{DESAFIO.cuaderno}": (TARDE, con_solucion(cuaderno, SOLUCION)),
        f"sanchezmaria_4476_98768_{DESAFIO.cuaderno}": (A_TIEMPO, con_solucion(cuaderno, SOLUCION)),
    }
    assert all(linea.recogida for linea in recoge(zip_con(tmp_path, entregas), curso, {DESAFIO.slug}))
    with Gradebook(url_del_libro(curso)) as libro:
        libro.add_student("pedro.gil", first_name="Pedro", last_name="Gil")
    entrega(curso, "pedro.gil", con_solucion(cuaderno, SOLUCION))  # no viene de Canvas
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    a_mano(curso)
    capsys.readouterr()

    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    salida, error = capsys.readouterr()
    ruta = curso / "calificaciones" / f"{DESAFIO.slug}-notas-canvas.csv"
    assert f"Notas para Canvas: {ruta}" in salida and "«Calificaciones», «Importar»" in salida
    assert lee_csv(ruta) == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", DESAFIO.slug],
        ["López Ruiz, Inés", "4477", "", "", "", "8.5"],
        ["Sánchez, María", "4476", "", "", "", "9"],
    ]
    exportado = exporta(curso)
    assert float(exportado[(DESAFIO.slug, "ines.lopez")]["score"]) == 8.5
    assert del_curso(curso, "ines.lopez")["puntos"] == "8.5"
    assert "no van en el CSV de Canvas" in error and "pedro.gil" in error
    # Nadie tiene correo en el libro: no hay CSV de Moodle.
    assert not (curso / "calificaciones" / f"{DESAFIO.slug}-notas-moodle.csv").exists()


def test_nota_con_punto_decimal():
    assert [aula.nota(x) for x in (8.5, 10, 10.0, 2 / 3)] == ["8.5", "10", "10", "0.67"]
