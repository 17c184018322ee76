"""Un curso de nbgrader de usar y tirar, con la versión del alumno generada una vez."""

import contextlib
import copy
import json
import socket
from pathlib import Path

import nbformat
import pytest

from cursos.calificador.calificar import califica
from cursos.calificador.desafio import Desafio
from cursos.calificador.fuente import genera_version_del_alumno

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


@pytest.fixture(scope="session")
def release(tmp_path_factory):
    return genera(tmp_path_factory, DESAFIO)


def curso_nuevo(release, destino: Path) -> Path:
    """Una copia del curso plantilla (configuración, source, release y libro)."""
    import shutil

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


def con_prueba_editada(cuaderno, codigo: str, desafio: Desafio, grade_id: str):
    """Una entrega que además ha vaciado una celda de prueba bloqueada (debe valer 0)."""
    editada = con_solucion(cuaderno, codigo, desafio)
    next(c for c in editada.cells if c.metadata["nbgrader"]["grade_id"] == grade_id).source = "pass"
    return editada


def calificado(curso: Path, alumno: str, desafio: Desafio) -> str:
    """El cuaderno calificado de un alumno (lo que lee en su devolución)."""
    return (curso / "autograded" / alumno / desafio.slug / desafio.cuaderno).read_text(encoding="utf-8")


def entrega_lote(curso: Path, cuaderno, desafio: Desafio, honestas: dict[str, tuple[str, int]],
                 trampas: dict[str, str], extras: dict | None = None) -> None:
    """El lote de cada desafío: las honestas ({alumno: (código, puntos)}), el cuaderno sin tocar
    (x_stub), las trampas, entregas extra ({alumno: cuaderno}) y una honesta al final, que
    demuestra que el lote llega hasta el último."""
    entrega_codigos(curso, cuaderno, {alumno: codigo for alumno, (codigo, _) in honestas.items()}, desafio)
    entrega(curso, "x_stub", cuaderno, desafio)
    entrega_codigos(curso, cuaderno, trampas, desafio)
    for alumno, nb in (extras or {}).items():
        entrega(curso, alumno, nb, desafio)
    entrega(curso, "zz_honesta_despues", con_solucion(cuaderno, desafio.lee("solucion.py"), desafio), desafio)


def ninguna_regalada(lote: dict, minimo: int) -> None:
    """Lo común de «ninguna trampa gana puntos»: hay al menos minimo trampas y todas valen 0."""
    assert len(lote["trampas"]) >= minimo
    regaladas = {a: lote["filas"][a] for a in lote["trampas"] if lote["filas"][a]["puntos"] != 0}
    assert not regaladas, regaladas


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
