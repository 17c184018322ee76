"""Un trimestre simulado contra un libro de notas de verdad, con la configuración del profesor.

Seis alumnos en el libro (a tiempo, tarde, sin entrega, con nota manual, con la carpeta mal
escrita y uno cuyo apellido parece una fórmula), dos desafíos en el mismo libro y una edición
de la lección entre los dos repartos. El CSV, `nbgrader export` y el formgrader tienen que
decir lo mismo de cada alumno.
"""

import csv
import hashlib
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from cursos import desafio as modelo
from cursos.desafio import Desafio
from cursos.profesor import fuente
from cursos.profesor.calificar import califica
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.fuente import RepartoCongelado, con_herramientas_del_venv, genera_version_del_alumno
from cursos.profesor.libro import puntos_es
from tests.calificador.ayudas import VENCE, con_solucion, entrega, exporta, formgrader, hora, por_alumno

PERMISO, PUERTA = Desafio("permiso-en-ejecutar"), Desafio("puerta-corregida")
SOLUCION = PERMISO.lee("solucion.py")
A_MEDIAS = SOLUCION.replace("preguntar(ll) is not True", "preguntar(ll) is False")  # 5 de 10
ALUMNOS = {  # id: (nombre, apellidos, correo)
    "ana": ("Ana", "García", "ana@ejemplo.es"),
    "beto": ("Beto", "López", "beto@ejemplo.es"),
    "carla": ("Carla", "Ruiz", "carla@ejemplo.es"),
    "dani": ("Dani", "Sanz", "dani@ejemplo.es"),
    "eva": ("Eva", "Mora", "eva@ejemplo.es"),
    "fede": ("Fede", '=HYPERLINK("http://fuera.invalid")', "@fede@ejemplo.es"),
}
CONFIG_DEL_PROFESOR = """c = get_config()
c.CourseDirectory.course_id = "agentes-2026"
c.LateSubmissionPlugin.penalty_method = "zero"
c.Exchange.root = {intercambio!r}
c.Exchange.path_includes_course = True
"""


def entrega_con_hora(curso: Path, alumno: str, cuaderno, desafio: Desafio, marca: str | None) -> None:
    ruta = entrega(curso, alumno, cuaderno, desafio)
    if marca is not None:
        (ruta.parent / "timestamp.txt").write_text(marca + "\n", encoding="utf-8")


def huella(carpeta: Path) -> str:
    h = hashlib.sha256()
    for ruta in sorted(carpeta.rglob("*")):
        if ruta.is_file():
            h.update(ruta.name.encode() + ruta.read_bytes())
    return h.hexdigest()


def lee_csv(ruta: Path) -> dict[str, dict]:
    with ruta.open(encoding="utf-8", newline="") as f:
        return {fila["alumno"]: fila for fila in csv.DictReader(f)}


def pone_nota_manual(curso: Path, desafio: Desafio, alumno: str, prueba: str, valor: float) -> None:
    """Lo que hace formgrader al guardar una nota a mano (GradeHandler.put), con la API del libro."""
    with Gradebook(CursoNbgrader.de(curso).db_url, "agentes-2026") as libro:
        nota = libro.find_grade(f"prueba_{prueba}", desafio.cuaderno.removesuffix(".ipynb"), desafio.slug, alumno)
        nota.manual_score, nota.extra_credit = valor, None
        nota.needs_manual_grade = False
        libro.db.commit()


@pytest.fixture(scope="module")
def trimestre(tmp_path_factory):
    con_herramientas_del_venv()
    curso = tmp_path_factory.mktemp("trimestre") / "curso"
    curso.mkdir()
    intercambio = tmp_path_factory.mktemp("intercambio")
    config = CONFIG_DEL_PROFESOR.format(intercambio=str(intercambio))
    (curso / "nbgrader_config.py").write_text(config, encoding="utf-8")
    with Gradebook(CursoNbgrader.de(curso).db_url, "agentes-2026") as libro:  # nbgrader db student add
        for alumno, (nombre, apellidos, correo) in ALUMNOS.items():
            libro.update_or_create_student(alumno, first_name=nombre, last_name=apellidos, email=correo)
    genera_version_del_alumno(PERMISO, curso)
    with Gradebook(CursoNbgrader.de(curso).db_url, "agentes-2026") as libro:  # nbgrader db assignment add --duedate
        libro.update_or_create_assignment(PERMISO.slug, duedate=VENCE)
    repartido = curso / "release" / PERMISO.slug
    cuaderno = fuente.nbformat.read(repartido / PERMISO.cuaderno, as_version=4)
    antes = huella(repartido)

    entrega_con_hora(curso, "ana", con_solucion(cuaderno, SOLUCION), PERMISO, hora(-1))
    entrega_con_hora(curso, "beto", con_solucion(cuaderno, SOLUCION), PERMISO, hora(2))
    entrega_con_hora(curso, "dani", con_solucion(cuaderno, A_MEDIAS), PERMISO, hora(-0.5))
    entrega_con_hora(curso, "evaa", con_solucion(cuaderno, SOLUCION), PERMISO, hora(-0.1))  # errata de «eva»
    entrega_con_hora(curso, "fede", con_solucion(cuaderno, SOLUCION), PERMISO, None)
    primera = por_alumno(califica(curso, PERMISO, plazo=5.0, progreso=False))

    # La lección cambia (un comentario) y se vuelve a lanzar `curso desafio` para los dos desafíos.
    original = modelo._partida
    with pytest.MonkeyPatch.context() as parche:
        parche.setattr(modelo, "_partida", lambda desafio: original(desafio) + "\n# una aclaración nueva en la lección")
        with pytest.raises(RepartoCongelado) as congelado:
            genera_version_del_alumno(PERMISO, curso)
        genera_version_del_alumno(PUERTA, curso)
        puerta = fuente.nbformat.read(curso / "release" / PUERTA.slug / PUERTA.cuaderno, as_version=4)
        entrega_con_hora(curso, "ana", con_solucion(puerta, PUERTA.lee("solucion.py"), PUERTA), PUERTA, hora(-2))
        entrega_con_hora(
            curso,
            "fede",
            con_solucion(puerta, "def puerta_corregida(ll, sesion, admitidas):\n    return None\n", PUERTA),
            PUERTA,
            hora(3),
        )
        califica(curso, PUERTA, plazo=5.0, progreso=False)

        pone_nota_manual(curso, PERMISO, "dani", "nadie", 1)  # el profesor, en formgrader
        segunda = por_alumno(califica(curso, PERMISO, plazo=5.0, progreso=False))  # todo el lote otra vez
        csv_ = curso / "calificaciones" / f"{PERMISO.slug}.csv"
        csv_antes = csv_.read_text(encoding="utf-8")
        solo = por_alumno(califica(curso, PERMISO, plazo=5.0, progreso=False, alumno="ana"))
        csv_solo = csv_.read_text(encoding="utf-8")
    return {
        "curso": curso,
        "primera": primera,
        "segunda": segunda,
        "solo": solo,
        "csv_antes": csv_antes,
        "csv_solo": csv_solo,
        "antes": antes,
        "despues": huella(repartido),
        "congelado": congelado.value,
        "config": config,
        "intercambio": intercambio,
    }


def test_la_configuracion_del_profesor_no_se_pisa(trimestre):
    curso = trimestre["curso"]
    texto = (curso / "nbgrader_config.py").read_text(encoding="utf-8")
    assert texto.startswith(trimestre["config"]) and texto.count("load_subconfig(") == 1
    cursado = CursoNbgrader.de(curso)
    assert cursado.course_id == "agentes-2026"
    assert cursado.penalizador().plugin_inst.penalty_method == "zero"
    assert cursado.config.Exchange.root == str(trimestre["intercambio"])


def test_el_intercambio_y_el_course_id_del_profesor_funcionan(trimestre):
    """`nbgrader release_assignment` reparte por el intercambio del profesor, con su course_id."""
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "release_assignment", PERMISO.slug, "--log-level=ERROR"],
        cwd=trimestre["curso"],
        check=True,
    )
    salida = trimestre["intercambio"] / "agentes-2026" / "outbound" / PERMISO.slug / PERMISO.cuaderno
    assert "Escribe aquí tu solución" in salida.read_text(encoding="utf-8")


def test_lo_repartido_no_cambia_al_editar_la_leccion(trimestre):
    assert trimestre["antes"] == trimestre["despues"]
    (partida,) = [cambio for cambio in trimestre["congelado"].cambios if "«partida»" in cambio]
    assert partida.endswith("\n      +# una aclaración nueva en la lección")  # el profesor ve qué cambia
    # …y una entrega ya hecha conserva su nota tras la edición y la recalificación.
    assert trimestre["primera"]["ana"]["puntos"] == trimestre["segunda"]["ana"]["puntos"] == 10


def test_cada_alumno_tiene_la_nota_que_le_toca(trimestre):
    filas = trimestre["segunda"]
    assert set(filas) == set(ALUMNOS)  # todos los del libro; la carpeta «evaa» no
    assert filas["ana"]["puntos"] == 10 and filas["ana"]["penalizacion"] == 0
    assert filas["beto"]["sin_penalizar"] == 10 and filas["beto"]["penalizacion"] == 10
    assert filas["beto"]["puntos"] == 0 and "retraso" in filas["beto"]["motivo"]
    assert filas["carla"]["puntos"] == 0 and filas["carla"]["motivo"] == "sin entrega"
    assert filas["eva"]["motivo"] == "sin entrega"
    assert trimestre["primera"]["dani"]["puntos"] == 5 and trimestre["primera"]["dani"]["nadie"] == 0
    assert filas["dani"]["nadie"] == 1 and filas["dani"]["puntos"] == 6  # 5 + la nota manual
    assert "nota manual" in filas["dani"]["motivo"]
    assert filas["fede"]["puntos"] == 10 and filas["fede"]["entrega"] == ""
    with Gradebook(CursoNbgrader.de(trimestre["curso"]).db_url, "agentes-2026") as libro:
        assert "evaa" not in {s.id for s in libro.students}


def test_recalificar_un_alumno_no_toca_a_los_demas(trimestre):
    # Sólo se pone al día la fila de ana, que no cambia: el CSV queda igual byte a byte.
    assert trimestre["csv_solo"] == trimestre["csv_antes"]
    assert set(trimestre["solo"]) == set(trimestre["segunda"])
    for alumno, fila in trimestre["segunda"].items():
        assert trimestre["solo"][alumno]["puntos"] == fila["puntos"], alumno


def test_el_csv_es_el_del_libro_y_no_tiene_formulas(trimestre):
    curso = trimestre["curso"]
    tabla = lee_csv(curso / "calificaciones" / f"{PERMISO.slug}.csv")
    assert set(tabla) == set(ALUMNOS)
    assert tabla["fede"]["apellidos"].startswith("'=") and tabla["fede"]["email"].startswith("'@")
    assert tabla["ana"]["nombre"] == "Ana" and tabla["ana"]["email"] == "ana@ejemplo.es"
    for columna in PERMISO.puntos():
        assert tabla["dani"][columna] == str(trimestre["segunda"]["dani"][columna])
    assert not (curso / "calificaciones" / f"{PERMISO.slug}.en-curso.csv").exists()


def utc(entrega: str) -> str:
    """La hora del CSV (en la zona del curso, con su desfase) como la escriben nbgrader export y formgrader."""
    if not entrega:
        return ""
    hora = datetime.fromisoformat(entrega)
    assert hora.utcoffset() is not None, f"la hora del CSV no dice su zona: {entrega}"
    return (hora - hora.utcoffset()).replace(tzinfo=None).isoformat(sep=" ")


@pytest.mark.parametrize("desafio", [PERMISO, PUERTA], ids=lambda d: d.slug)
def test_el_csv_nbgrader_export_y_formgrader_dicen_lo_mismo(trimestre, desafio):
    curso = trimestre["curso"]
    tabla = lee_csv(curso / "calificaciones" / f"{desafio.slug}.csv")
    exportado = exporta(curso)
    with formgrader(curso) as pide:
        vistas = {e["student"]: e for e in pide(f"/formgrader/api/submissions/{desafio.slug}")}
        for alumno in ALUMNOS:
            fila, nbg = tabla[alumno], exportado[(desafio.slug, alumno)]
            assert float(fila["puntos"]) == float(nbg["score"]), alumno
            assert float(fila["sin_penalizar"]) == float(nbg["raw_score"]), alumno
            assert float(fila["penalizacion"]) == float(nbg["late_submission_penalty"] or 0), alumno
            assert utc(fila["entrega"]) == nbg["timestamp"], alumno
            if fila["motivo"] == "sin entrega":  # formgrader sólo lista a quien ha entregado
                assert alumno not in vistas and float(nbg["score"]) == 0
                continue
            vista = vistas[alumno]
            assert vista["score"] == float(fila["sin_penalizar"]), alumno
            assert vista["submitted"] and vista["autograded"] and not vista["needs_manual_grade"], alumno
            assert (vista["timestamp"] or "").replace("T", " ") == utc(fila["entrega"]), alumno
            # la vista de calificar de formgrader abre el cuaderno calificado
            uno = pide(f"/formgrader/api/submission/{desafio.slug}/{alumno}")
            assert uno["autograded"] and uno["timestamp"] == vista["timestamp"]
            cuadernos = pide(
                f"/formgrader/api/submitted_notebooks/{desafio.slug}/{desafio.cuaderno.removesuffix('.ipynb')}"
            )
            nb = next(n for n in cuadernos if n["student"] == alumno)
            assert nb["score"] == vista["score"]
            # Sin `./curso formgrader` (aquí, su `jupyter server` de siempre), la columna de nota de
            # formgrader no resta la penalización: la nota final, la del CSV, está en el comentario de
            # la solución, que formgrader enseña al calificar (test_formgrader_nota.py: con la extensión).
            comentarios = pide(f"/formgrader/api/comments?submission_id={nb['id']}")
            final = next(c["auto_comment"] for c in comentarios if c["name"] == desafio.celda_solucion)
            assert (
                f"Nota final (la del CSV y de nbgrader export): {puntos_es(float(fila['puntos']))} de "
                f"{fila['maximo']}" in final
            ), (alumno, final)
            assert ("de penalización" in final) == (float(fila["penalizacion"]) > 0), (alumno, final)
            assert "<html" in pide(f"/formgrader/submissions/{nb['id']}/").lower()


def test_la_devolucion_es_en_espanol_y_donde_la_deja_nbgrader(trimestre):
    feedback = trimestre["curso"] / "feedback"
    ana = (feedback / "ana" / PERMISO.slug / PERMISO.cuaderno.replace(".ipynb", ".html")).read_text(encoding="utf-8")
    assert "Nota: 10 de 10 puntos" in ana and "Score" not in ana and "Comments" not in ana
    assert (feedback / "ana" / PERMISO.slug / "timestamp.txt").read_text(encoding="utf-8").strip() == hora(-1)
    beto = (feedback / "beto" / PERMISO.slug / PERMISO.cuaderno.replace(".ipynb", ".html")).read_text(encoding="utf-8")
    assert "Nota: 0 de 10 puntos" in beto and "de retraso" in beto
    assert (trimestre["curso"] / "autograded" / "beto" / PERMISO.slug / "timestamp.txt").is_file()
