"""Lo que comparten las pruebas del calificador y del profesor: un curso de nbgrader de usar y tirar,
con la versión del alumno generada una vez, las entregas, el lote calificado, formgrader y PostgreSQL.

Los fixtures que los usan están en los conftest.py; las pruebas importan de aquí, nunca de un conftest.
"""

import contextlib
import copy
import csv
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from cursos.profesor.fuente import con_herramientas_del_venv, genera_version_del_alumno
from tests.calificador.lotes import Lote

DESAFIO = Desafio("permiso-en-ejecutar")
SOLUCION = DESAFIO.lee("solucion.py")


_PLANTILLAS = {}  # (sesión, slug): la plantilla, generada una vez por sesión de pruebas


def genera(tmp_path_factory, desafio: Desafio):
    """(carpeta del curso plantilla, cuaderno del alumno tal como se reparte), una vez por desafío.

    La plantilla no se toca: quien califica lo hace en una copia (curso_nuevo, curso_del_desafio).
    """
    clave = (id(tmp_path_factory), desafio.slug)
    if clave not in _PLANTILLAS:
        curso = tmp_path_factory.mktemp("plantilla")
        carpeta = genera_version_del_alumno(desafio, curso)
        _PLANTILLAS[clave] = curso, nbformat.read(carpeta / desafio.cuaderno, as_version=4)
    curso, cuaderno = _PLANTILLAS[clave]
    return curso, copy.deepcopy(cuaderno)


def curso_nuevo(release, destino: Path) -> Path:
    """Una copia del curso plantilla (configuración, source, release y libro)."""
    plantilla, _ = release
    shutil.copytree(plantilla, destino)
    return destino


def con_solucion(cuaderno, codigo: str, desafio: Desafio = DESAFIO):
    """El cuaderno del alumno con su código en la celda de la solución."""
    nb = copy.deepcopy(cuaderno)
    for celda in nb.cells:
        if celda.metadata.get("nbgrader", {}).get("grade_id") == desafio.celda_solucion:
            celda.source = codigo
    return nb


def entrega(curso: Path, alumno: str, contenido, desafio: Desafio = DESAFIO) -> Path:
    """Escribe submitted/<alumno>/<desafio>/<cuaderno>: un cuaderno, texto o bytes."""
    carpeta = curso / "submitted" / alumno / desafio.slug
    carpeta.mkdir(parents=True, exist_ok=True)
    ruta = carpeta / desafio.cuaderno
    if isinstance(contenido, bytes):
        ruta.write_bytes(contenido)
    elif isinstance(contenido, str):
        ruta.write_text(contenido, encoding="utf-8")
    else:
        ruta.write_text(json.dumps(contenido), encoding="utf-8")
    return ruta


def por_alumno(filas: list[dict]) -> dict[str, dict]:
    return {f["alumno"]: f for f in filas}


def curso_del_desafio(tmp_path_factory, desafio: Desafio) -> tuple[Path, dict]:
    """(un curso nuevo con la versión del alumno del desafío, el cuaderno repartido)."""
    plantilla = genera(tmp_path_factory, desafio)
    return curso_nuevo(plantilla, tmp_path_factory.mktemp(desafio.slug) / "curso"), plantilla[1]


def entrega_codigos(curso: Path, cuaderno, codigos: dict[str, str], desafio: Desafio) -> None:
    """Una entrega por alumno, con su código en la celda de la solución."""
    for alumno, codigo in codigos.items():
        entrega(curso, alumno, con_solucion(cuaderno, codigo, desafio), desafio)


EDITADA = "zy_solucion_con_una_prueba_vaciada"  # en cada lote: la celda bloqueada se restaura y vale 10


def con_prueba_editada(cuaderno, codigo: str, desafio: Desafio, grade_id: str):
    """La entrega con código y además una celda de prueba bloqueada vaciada («pass»)."""
    editada = con_solucion(cuaderno, codigo, desafio)
    next(c for c in editada.cells if c.metadata["nbgrader"]["grade_id"] == grade_id).source = "pass"
    return editada


def calificado(curso: Path, alumno: str, desafio: Desafio) -> str:
    """El cuaderno calificado de un alumno (lo que lee en su devolución)."""
    return (curso / "autograded" / alumno / desafio.slug / desafio.cuaderno).read_text(encoding="utf-8")


def entrega_el_lote(tmp_path_factory, lote: Lote) -> dict:
    """Escribe y califica el lote: {"curso", "cuaderno", "filas", "trampas", "alumnos", "conexion"}."""
    desafio = lote.desafio
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    with escucha_la_red() if lote.escucha else contextlib.nullcontext({"puerto": 9, "conexion": None}) as red:
        entrega_codigos(curso, cuaderno, {alumno: codigo for alumno, (codigo, _) in lote.honestas.items()}, desafio)
        entrega(curso, "x_stub", cuaderno, desafio)
        codigos = lote.trampas(curso, red["puerto"])
        entrega_codigos(curso, cuaderno, codigos, desafio)
        cuadernos = lote.cuadernos_tramposos(curso, cuaderno)
        otras = lote.otras(curso, cuaderno)
        for alumno, contenido in {**cuadernos, **otras}.items():
            if contenido is not None:
                entrega(curso, alumno, contenido, desafio)
        entrega(
            curso,
            EDITADA,
            con_prueba_editada(cuaderno, desafio.lee("solucion.py"), desafio, "prueba_" + next(iter(desafio.puntos()))),
            desafio,
        )
        entrega(curso, "zz_honesta_despues", con_solucion(cuaderno, desafio.lee("solucion.py"), desafio), desafio)
        filas = por_alumno(califica(curso, desafio, plazo=lote.plazo, progreso=False))
    trampas = [*codigos, *cuadernos]
    return {
        "curso": curso,
        "cuaderno": cuaderno,
        "filas": filas,
        "trampas": trampas,
        "alumnos": [*lote.honestas, "x_stub", *trampas, *otras, EDITADA, "zz_honesta_despues"],
        "conexion": red["conexion"],
    }


def califica_lote(curso: Path, desafio: Desafio) -> dict[str, dict]:
    """Califica el lote con un plazo corto (las trampas que se cuelgan no alargan la prueba)."""
    return por_alumno(califica(curso, desafio, plazo=2.0, progreso=False))


@contextlib.contextmanager
def escucha_la_red():
    """Un puerto local que apunta si alguien se conecta: {"puerto": n, "conexion": None o la conexión}."""
    servidor = socket.create_server(("127.0.0.1", 0))
    servidor.setblocking(False)
    red = {"puerto": servidor.getsockname()[1], "conexion": None}
    try:
        yield red
        with contextlib.suppress(BlockingIOError):
            red["conexion"] = servidor.accept()
    finally:
        servidor.close()


def ejecuta_cuaderno(nb, carpeta: Path) -> str:
    """Ejecuta el cuaderno en un kernel, en la carpeta dada (como el alumno en release/), y devuelve
    el texto que han escrito sus celdas de código, todo junto."""
    NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(carpeta)}}).execute()
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


# El intercambio y el libro de nbgrader, como los usa el profesor.

VENCE = datetime(2026, 3, 1, 12, 0, 0)  # la fecha límite de los desafíos de las pruebas con plazo
# La política de retrasos de un profesor, como plugin suyo de nbgrader (al lado de nbgrader_config.py).
PENALIZACION_POR_HORA = '''import math

from nbgrader.plugins import BasePlugin


class PorHora(BasePlugin):
    """Un punto por hora (o fracción) de retraso, como la del profesor de la revisión."""

    def late_submission_penalty(self, student_id, score, total_seconds):
        return math.ceil(total_seconds / 3600)
'''


def curso_con_penalizacion_por_hora(release, carpeta: Path, parche) -> Path:
    """Un curso nuevo en carpeta/curso con ese plugin, la fecha límite VENCE, la zona UTC y dos alumnas
    en la lista (ines.lopez y maria.sanchez). parche (un MonkeyPatch) pone el entorno y sys.path."""
    from nbgrader.api import Gradebook

    from cursos.profesor.libro import url_del_libro

    ajustes = carpeta / "profesor.toml"
    ajustes.write_text('zona_horaria = "UTC"\n', encoding="utf-8")
    parche.setenv("CURSO_PROFESOR", str(ajustes))
    curso = curso_nuevo(release, carpeta / "curso")
    (curso / "penalizacion_por_hora.py").write_text(PENALIZACION_POR_HORA, encoding="utf-8")
    parche.syspath_prepend(str(curso))
    with (curso / "nbgrader_config.py").open("a", encoding="utf-8") as f:
        f.write('\nc.AssignLatePenalties.plugin_class = "penalizacion_por_hora.PorHora"\n')
    with Gradebook(url_del_libro(curso)) as libro:
        libro.update_or_create_assignment(DESAFIO.slug, duedate=VENCE)
        libro.add_student("ines.lopez", first_name="Inés", last_name="López Ruiz")
        libro.add_student("maria.sanchez", first_name="María", last_name="Sánchez")
    return curso


def hora(dias: float) -> str:
    """Como la escribe el intercambio de nbgrader: «2026-03-01 12:00:00.000000 UTC», `dias` después de VENCE."""
    return (VENCE.fromtimestamp(VENCE.timestamp() + dias * 86400)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def exporta(curso: Path) -> dict[tuple[str, str], dict]:
    """`nbgrader export`, como lo lanzaría el profesor en su carpeta: {(desafío, alumno): fila}."""
    con_herramientas_del_venv()
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "export", "--to", "exportado.csv", "--log-level=ERROR"],
        cwd=curso,
        check=True,
    )
    with (curso / "exportado.csv").open(encoding="utf-8", newline="") as f:
        return {(fila["assignment"], fila["student_id"]): fila for fila in csv.DictReader(f)}


@contextlib.contextmanager
def formgrader(curso: Path):
    """`jupyter server` con formgrader sobre el curso; da una función que pide una ruta (tiene que
    contestar 200) y devuelve JSON (las de /formgrader/api/) o HTML."""
    con_herramientas_del_venv()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    servidor = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "server",
            "--no-browser",
            f"--port={puerto}",
            "--ip=127.0.0.1",
            "--ServerApp.token=prueba",
            "--ServerApp.allow_root=True",
            f"--ServerApp.root_dir={curso}",
        ],
        cwd=curso,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )

    def pide(ruta):
        peticion = urllib.request.Request(f"http://127.0.0.1:{puerto}{ruta}", headers={"Authorization": "token prueba"})
        with urllib.request.urlopen(peticion, timeout=20) as respuesta:
            assert respuesta.status == 200, (ruta, respuesta.status)
            cuerpo = respuesta.read().decode("utf-8")
        return json.loads(cuerpo) if ruta.startswith("/formgrader/api/") else cuerpo

    try:
        for _ in range(300):  # hasta 30 s para arrancar; no es una medida
            try:
                pide("/formgrader/api/status")
                break
            except OSError:
                assert servidor.poll() is None, servidor.stderr.read().decode()[-2000:]
                time.sleep(0.1)
        yield pide
    finally:
        servidor.terminate()
        servidor.wait(timeout=30)


BINARIOS_POSTGRES = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _como_servidor(orden: list[str]) -> list[str]:
    return ["runuser", "-u", "nobody", "--", *orden] if os.geteuid() == 0 else orden


@contextlib.contextmanager
def servidor_postgres():
    """Un servidor PostgreSQL de Debian de usar y tirar, en 127.0.0.1 y una carpeta temporal (como
    root, con el usuario nobody: PostgreSQL no arranca como root). Da base_nueva(nombre), que crea
    una base vacía y devuelve su db_url. `./curso pruebas` lo instala con apt si falta."""
    if not BINARIOS_POSTGRES:
        pytest.skip("falta el servidor PostgreSQL de Debian: `./curso pruebas` lo instala (apt-get install postgresql)")
    if os.geteuid() == 0 and not shutil.which("runuser"):
        pytest.skip("como root hace falta runuser para arrancar PostgreSQL con el usuario nobody")
    binarios = Path(BINARIOS_POSTGRES[-1])
    datos = Path(tempfile.mkdtemp(prefix="libro-pg-"))
    if os.geteuid() == 0:
        nadie = pwd.getpwnam("nobody")
        os.chown(datos, nadie.pw_uid, nadie.pw_gid)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    subprocess.run(
        _como_servidor(
            [str(binarios / "initdb"), "-D", str(datos / "datos"), "-A", "trust", "-U", "profesor", "-E", "UTF8"]
        ),
        check=True,
        capture_output=True,
    )
    opciones = f"-k {datos} -p {puerto} -c listen_addresses=127.0.0.1"
    subprocess.run(
        _como_servidor(
            [
                str(binarios / "pg_ctl"),
                "-D",
                str(datos / "datos"),
                "-o",
                opciones,
                "-l",
                str(datos / "registro"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )

    def base_nueva(nombre: str) -> str:
        orden = [str(binarios / "createdb"), "-h", "127.0.0.1", "-p", str(puerto), "-U", "profesor", nombre]
        subprocess.run(_como_servidor(orden), check=True, capture_output=True)
        return f"postgresql+psycopg://profesor@127.0.0.1:{puerto}/{nombre}"

    try:
        yield base_nueva
    finally:
        subprocess.run(
            _como_servidor([str(binarios / "pg_ctl"), "-D", str(datos / "datos"), "-m", "fast", "-w", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(datos, ignore_errors=True)


# Para cada solución: el código de partida, la solución y las pruebas visibles, como en la página
# (lo corre tests/pyodide_node.py en el Pyodide del sitio).
PROGRAMA_PYODIDE = """
import contextlib, io, json
resultados = []
for solucion in datos["soluciones"]:
    espacio, salida = {"__name__": "__main__"}, io.StringIO()
    with contextlib.redirect_stdout(salida):
        for fuente in (open("partida.py").read(), solucion, open("pruebas.py").read()):
            exec(fuente, espacio)
        pasan = espacio["comprueba_todas"]()
    resultados.append({"pasan": pasan, "salida": salida.getvalue()})
json.dumps(resultados)
"""
