"""El libro de notas compartido: nbgrader con `db_url` en PostgreSQL (varios profesores califican).

La prueba arranca el servidor de PostgreSQL de Debian ella misma, en 127.0.0.1 y una carpeta
temporal (como root, con el usuario nobody: PostgreSQL no arranca como root). `./curso pruebas`
lo instala con apt si falta.
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from cursos.calificador.calificar import califica
from cursos.calificador.desafio import Desafio
from cursos.calificador.fuente import con_herramientas_del_venv, genera_version_del_alumno
from tests.calificador.conftest import con_solucion, entrega, por_alumno
from tests.calificador.test_curso_nbgrader import exporta, formgrader, hora

DESAFIO = Desafio("permiso-en-ejecutar")
BINARIOS = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _como_servidor(orden: list[str]) -> list[str]:
    return ["runuser", "-u", "nobody", "--", *orden] if os.geteuid() == 0 else orden


@pytest.fixture(scope="module")
def postgres():
    if not BINARIOS:
        pytest.skip("falta el servidor PostgreSQL de Debian: `./curso pruebas` lo instala (apt-get install postgresql)")
    if os.geteuid() == 0 and not shutil.which("runuser"):
        pytest.skip("como root hace falta runuser para arrancar PostgreSQL con el usuario nobody")
    binarios = Path(BINARIOS[-1])
    datos = Path(tempfile.mkdtemp(prefix="libro-pg-"))
    if os.geteuid() == 0:
        nadie = pwd.getpwnam("nobody")
        os.chown(datos, nadie.pw_uid, nadie.pw_gid)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    subprocess.run(_como_servidor([str(binarios / "initdb"), "-D", str(datos / "datos"), "-A", "trust",
                                   "-U", "profesor", "-E", "UTF8"]), check=True, capture_output=True)
    opciones = f"-k {datos} -p {puerto} -c listen_addresses=127.0.0.1"
    subprocess.run(_como_servidor([str(binarios / "pg_ctl"), "-D", str(datos / "datos"), "-o", opciones,
                                   "-l", str(datos / "registro"), "-w", "start"]), check=True, capture_output=True)
    try:
        subprocess.run(_como_servidor([str(binarios / "createdb"), "-h", "127.0.0.1", "-p", str(puerto),
                                       "-U", "profesor", "libro"]), check=True, capture_output=True)
        yield f"postgresql+psycopg://profesor@127.0.0.1:{puerto}/libro"
    finally:
        subprocess.run(_como_servidor([str(binarios / "pg_ctl"), "-D", str(datos / "datos"), "-m", "fast",
                                       "-w", "stop"]), capture_output=True)
        shutil.rmtree(datos, ignore_errors=True)


@pytest.fixture(scope="module")
def curso(postgres, tmp_path_factory):
    con_herramientas_del_venv()
    curso = tmp_path_factory.mktemp("compartido") / "curso"
    curso.mkdir()
    (curso / "nbgrader_config.py").write_text(
        f'c = get_config()\nc.CourseDirectory.course_id = "compartido"\n'
        f'c.CourseDirectory.db_url = {postgres!r}\nc.LateSubmissionPlugin.penalty_method = "zero"\n',
        encoding="utf-8")
    genera_version_del_alumno(DESAFIO, curso)
    import nbformat
    from nbgrader.api import Gradebook

    from tests.calificador.test_curso_nbgrader import VENCE

    with Gradebook(postgres, "compartido") as libro:
        libro.update_or_create_assignment(DESAFIO.slug, duedate=VENCE)
        libro.update_or_create_student("falta", first_name="Falta", last_name="Nunca")
    cuaderno = nbformat.read(curso / "release" / DESAFIO.slug / DESAFIO.cuaderno, as_version=4)
    for alumno, dias in (("puntual", -1), ("tardio", 1)):
        ruta = entrega(curso, alumno, con_solucion(cuaderno, DESAFIO.lee("solucion.py")))
        (ruta.parent / "timestamp.txt").write_text(hora(dias), encoding="utf-8")
    return curso


def test_califica_exporta_y_formgrader_sobre_postgresql(curso, postgres):
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False, anadir_alumnos=True))
    assert not (curso / "gradebook.db").exists()  # todo ha ido al servidor
    assert filas["puntual"]["puntos"] == 10
    assert filas["tardio"]["sin_penalizar"] == 10 and filas["tardio"]["puntos"] == 0
    assert filas["falta"]["motivo"] == "sin entrega"
    exportado = exporta(curso)
    for alumno, fila in filas.items():
        assert float(exportado[(DESAFIO.slug, alumno)]["score"]) == fila["puntos"], alumno
    with formgrader(curso) as pide:
        vistas = {e["student"]: e for e in pide(f"/formgrader/api/submissions/{DESAFIO.slug}")}
    assert {a: (v["score"], v["autograded"]) for a, v in vistas.items()} == {
        "puntual": (10, True), "tardio": (10, True)}
