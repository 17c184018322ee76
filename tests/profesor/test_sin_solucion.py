"""Nada de source/ llega a un alumno ni a la pantalla del corrector como trabajo del alumno.

Revisión del profesor (B1): con el cuaderno repartido sin tocar, o sin la celda de la solución, el
cuaderno de autograded/ se escribía con la celda de source/ (la solución del profesor, con sus
marcas), y de ahí pasaba a formgrader, a la devolución, al zip de Moodle y a la carpeta de Canvas.
"""

import copy
import json
import unicodedata
import zipfile

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.cuaderno_del_desafio import cuaderno_fuente
from cursos.desafio import Desafio
from cursos.profesor import sin_solucion
from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo

DESAFIOS = sorted(p.parent.name for p in (DESAFIO.carpeta.parent).glob("*/desafio.toml"))
MOODLE = "{}_{}_assignsubmission_file_/" + DESAFIO.cuaderno
# La solución como la escribiría un alumno: las mismas líneas, sin las marcas de nbgrader.
HONESTA = "\n".join(linea for linea in SOLUCION.split("\n") if "SOLUTION" not in linea)


def escribe_id(nombre: str) -> str:
    """«Nicolás Peña» → «nicolas.pena», como los identificadores del libro de las demás pruebas."""
    return unicodedata.normalize("NFKD", nombre).encode("ascii", "ignore").decode().lower().replace(" ", ".")


def _sin_celda_de_la_solucion(cuaderno):
    """El alumno borra la celda de la solución y pega su código en una celda nueva, sin metadatos."""
    nb = copy.deepcopy(cuaderno)
    nb.cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") != DESAFIO.celda_solucion]
    nb.cells.append({"cell_type": "code", "metadata": {}, "source": HONESTA, "outputs": [], "execution_count": None})
    return nb


@pytest.fixture
def curso_calificado(release, tmp_path):
    """Un curso con cuatro entregas de Moodle: la repartida sin tocar, sin la celda de la solución,
    la solución honesta (sin marcas) y la solución con las marcas copiadas."""
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    entregas = {
        ("Nicolás Peña", 4476): cuaderno,
        ("Inés López", 4477): _sin_celda_de_la_solucion(cuaderno),
        ("María Sánchez", 4478): con_solucion(cuaderno, HONESTA),
        ("Ana García", 4479): con_solucion(cuaderno, SOLUCION),
    }
    zip_ = tmp_path / "moodle.zip"
    with zipfile.ZipFile(zip_, "w") as z, Gradebook(url_del_libro(curso)) as libro:
        for (nombre, numero), nb in entregas.items():
            z.writestr(MOODLE.format(nombre, numero), json.dumps(nb))
            nombre_, apellido = nombre.split()
            libro.add_student(escribe_id(nombre), first_name=nombre_, last_name=apellido)
    assert all(linea.recogida for linea in recoge(zip_, curso, {DESAFIO.slug}))
    califica(curso, DESAFIO, plazo=5.0, progreso=False)
    return curso


def _texto_de(ruta) -> str:
    return sin_solucion.texto_del_cuaderno(json.loads(ruta.read_text(encoding="utf-8")))


def _calificado(curso, alumno):
    return curso / "autograded" / alumno / DESAFIO.slug / DESAFIO.cuaderno


def _devolucion(curso, alumno):
    return curso / "feedback" / alumno / DESAFIO.slug / DESAFIO.cuaderno.replace(".ipynb", ".html")


def test_el_cuaderno_y_la_devolucion_solo_llevan_lo_entregado(curso_calificado, capsys):
    curso = curso_calificado
    secretos = sin_solucion.secretos(DESAFIO)
    assert secretos, "la solución de permiso-en-ejecutar tiene una región que buscar"
    for alumno in ("nicolas.pena", "ines.lopez"):
        calificado = _calificado(curso, alumno).read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in calificado
        assert not any(s in " ".join(_texto_de(_calificado(curso, alumno)).split()) for s in secretos)
        assert sin_solucion.lo_que_trae(DESAFIO, _texto_de(_calificado(curso, alumno))) == []
        assert "no trae la solución del alumno" in calificado  # falta, y se ve que falta
        devolucion = _devolucion(curso, alumno).read_text(encoding="utf-8")
        # Sin la sección del código (el motivo sí puede nombrar la celda «Tu solución»).
        assert "BEGIN SOLUTION" not in devolucion and "<h2>Tu solución</h2>" not in devolucion
        assert "0 de 10" in devolucion
    # Lo que el alumno escribió sí se le enseña, aunque sea igual que la solución (o lleve las marcas).
    assert "<h2>Tu solución</h2>" in _devolucion(curso, "maria.sanchez").read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" in _devolucion(curso, "ana.garcia").read_text(encoding="utf-8")
    assert "10 de 10" in _devolucion(curso, "maria.sanchez").read_text(encoding="utf-8")

    capsys.readouterr()
    assert main(["devolver", "--comprobar", "--nbgrader", str(curso)]) == 0, capsys.readouterr().err
    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    moodle = curso / "calificaciones" / f"{DESAFIO.slug}-devolucion-moodle.zip"
    with zipfile.ZipFile(moodle) as z:
        textos = {n.split("_")[0]: z.read(n).decode("utf-8") for n in z.namelist()}
    assert set(textos) == {"Nicolás Peña", "Inés López", "María Sánchez", "Ana García"}
    assert "BEGIN SOLUTION" not in textos["Nicolás Peña"] + textos["Inés López"]
    assert "<h2>Tu solución</h2>" in textos["María Sánchez"]


def test_devolver_no_escribe_una_devolucion_que_lleve_la_solucion(curso_calificado, capsys):
    """Un cuaderno calificado de antes (o estropeado) con la celda de source/: devolver se niega con
    ese alumno, borra la devolución que la llevara y no lo pone en el zip de Moodle."""
    curso = curso_calificado
    calificado = _calificado(curso, "nicolas.pena")
    datos = json.loads(calificado.read_text(encoding="utf-8"))
    for celda in datos["cells"]:
        if celda["metadata"].get("nbgrader", {}).get("grade_id") == DESAFIO.celda_solucion:
            celda["source"] = SOLUCION
            celda["metadata"].pop("curso")
    calificado.write_text(json.dumps(datos), encoding="utf-8")
    capsys.readouterr()

    assert main(["devolver", "--nbgrader", str(curso)]) == 1
    error = capsys.readouterr().err
    assert "la devolución de nicolas.pena no se ha escrito" in error and "./curso calificar --alumno" in error
    assert not _devolucion(curso, "nicolas.pena").exists()
    with zipfile.ZipFile(curso / "calificaciones" / f"{DESAFIO.slug}-devolucion-moodle.zip") as z:
        assert not any(n.startswith("Nicolás") for n in z.namelist())
        assert all("BEGIN SOLUTION" not in z.read(n).decode("utf-8") for n in z.namelist() if "Ana" not in n)
    # Volver a calificarlo, como dice el mensaje, lo arregla.
    califica(curso, DESAFIO, plazo=5.0, progreso=False, alumno="nicolas.pena")
    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    assert "BEGIN SOLUTION" not in _devolucion(curso, "nicolas.pena").read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", DESAFIOS)
def test_la_puerta_reconoce_la_solucion_de_cada_desafio_y_deja_pasar_lo_repartido(slug):
    desafio = Desafio(slug)
    fuente = cuaderno_fuente(desafio, ocultas=True)
    assert sin_solucion.lo_que_trae(desafio, sin_solucion.texto_del_cuaderno(fuente))  # source/ no pasa
    solo_solucion = desafio.lee("solucion.py")
    assert sin_solucion.lo_que_trae(desafio, solo_solucion), "las marcas"
    sin_marcas = "\n".join(x for x in solo_solucion.split("\n") if "SOLUTION" not in x)
    assert sin_solucion.lo_que_trae(desafio, sin_marcas) == ["código de la solución del profesor"]
    assert sin_solucion.lo_que_trae(desafio, sin_marcas, entregado=sin_marcas) == []  # era suyo
    # Lo repartido (la celda de la solución con su esqueleto, sin ocultas) no dispara la puerta.
    repartido = cuaderno_fuente(desafio, ocultas=False)
    for celda in repartido.cells:
        if celda.metadata["nbgrader"]["grade_id"] == desafio.celda_solucion:
            celda.source = desafio.esqueleto()
    assert sin_solucion.lo_que_trae(desafio, sin_solucion.texto_del_cuaderno(repartido)) == []
