"""Lo propio de nbgrader: source/<desafío>/ y, con generate_assignment, la versión del alumno.

El cuaderno fuente lo hace cursos/cuaderno_del_desafio.py; aquí se escribe, se compara con lo
ya repartido (que no cambia) y se reparte.
"""

import difflib
import os
import subprocess
import sys
from pathlib import Path

import nbformat

from cursos.cuaderno_del_desafio import cuaderno_fuente
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso


def _ficheros_de_la_fuente(desafio: Desafio) -> dict[str, str]:
    """{nombre: texto} de source/<slug>/: el cuaderno fuente y los ficheros que carga la partida."""
    return {**dict(desafio.modulos()), desafio.cuaderno: nbformat.writes(cuaderno_fuente(desafio)) + "\n"}


def escribe_fuente(desafio: Desafio, curso_nbgrader: Path) -> Path:
    """source/<slug>/ con el cuaderno y los ficheros que carga la partida, y lo que necesita nbgrader.

    La configuración del profesor no se pisa: ver configuracion.py.
    """
    from cursos.profesor import configuracion
    from cursos.profesor.carpetas import Carpetas

    curso_nbgrader.mkdir(parents=True, exist_ok=True)
    configuracion.prepara(curso_nbgrader)  # antes de leer la configuración: dice dónde va source/
    carpeta = Carpetas.de(curso_nbgrader).del_desafio("source", desafio.slug)
    carpeta.mkdir(parents=True, exist_ok=True)
    for nombre, texto in _ficheros_de_la_fuente(desafio).items():
        (carpeta / nombre).write_text(texto, encoding="utf-8")
    return carpeta


class RepartoCongelado(ErrorDelCurso):
    """El desafío ya está repartido y lo que se repartiría ahora es distinto; cambios dice qué cambia."""

    def __init__(self, release: Path, cambios: list[str]):
        super().__init__(f"{release} ya está repartido y no se cambia: " + "; ".join(cambios))
        self.release, self.cambios = release, cambios


class ErrorDeReparto(ErrorDelCurso):
    """nbgrader no ha podido generar la versión del alumno; el mensaje dice por qué."""


def _celdas_por_id(texto: str) -> dict[str, str]:
    try:
        cuaderno = nbformat.reads(texto, as_version=4)
    except Exception:
        return {}
    return {c.metadata.get("nbgrader", {}).get("grade_id", str(n)): c.source for n, c in enumerate(cuaderno.cells)}


def cambios_del_reparto(desafio: Desafio, curso_nbgrader: Path) -> list[str] | None:
    """None si el desafío no está repartido; si lo está, qué cambiaría al repartirlo ahora ([] si nada)."""
    from cursos.profesor.carpetas import Carpetas

    rutas = Carpetas.de(curso_nbgrader)
    if not rutas.del_desafio("release", desafio.slug).is_dir():
        return None
    fuente = rutas.del_desafio("source", desafio.slug)
    if not fuente.is_dir():
        return [
            f"hay {rutas.nombre('release')}/{desafio.slug}/ pero no {rutas.nombre('source')}/{desafio.slug}/ "
            "con qué compararlo"
        ]
    cambios = []
    for nombre, nuevo in _ficheros_de_la_fuente(desafio).items():
        ruta = fuente / nombre
        viejo = ruta.read_text(encoding="utf-8", errors="replace") if ruta.is_file() else None
        if viejo is None:
            cambios.append(f"{nombre} es nuevo")
        elif nombre == desafio.cuaderno:
            antes, ahora = _celdas_por_id(viejo), _celdas_por_id(nuevo)
            cambian = [c for c in ahora if c in antes and antes[c] != ahora[c]]
            cambios += [f"la celda «{c}» del cuaderno cambia:{_diferencia(antes[c], ahora[c])}" for c in cambian]
            cambios += [f"la celda «{c}» es nueva" for c in ahora if c not in antes]
            cambios += [f"la celda «{c}» desaparece" for c in antes if c not in ahora]
        elif viejo != nuevo:
            cambios.append(f"{nombre} cambia:{_diferencia(viejo, nuevo)}")
    return cambios


def _diferencia(antes: str, ahora: str, lineas: int = 12) -> str:
    """Las líneas que cambian («-» lo repartido, «+» lo de ahora), sangradas bajo su cambio y sin pasar
    de `lineas`: el profesor ve qué ha tocado sin abrir los dos cuadernos."""
    cambian = [
        linea
        for linea in difflib.unified_diff(antes.splitlines(), ahora.splitlines(), lineterm="", n=0)
        if linea[:1] in "+-" and not linea.startswith(("+++", "---"))
    ]
    sobran = len(cambian) - lineas
    texto = "".join(f"\n      {linea}" for linea in cambian[:lineas])
    return texto + (f"\n      … y {sobran} líneas más" if sobran > 0 else "")


def con_herramientas_del_venv() -> None:
    """nbgrader llama a `alembic` por su nombre: el bin/ de este Python tiene que estar en PATH."""
    bin_ = str(Path(sys.executable).parent)
    if bin_ not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_ + os.pathsep + os.environ.get("PATH", "")


def _libro_tiene(desafio: Desafio, curso_nbgrader: Path) -> bool:
    from nbgrader.api import Gradebook, MissingEntry

    from cursos.profesor.configuracion import CursoNbgrader

    curso = CursoNbgrader.de(curso_nbgrader)
    if curso.libro_local is not None and not curso.libro_local.exists():
        return False
    try:
        with Gradebook(curso.db_url, curso.course_id or "default_course") as libro:
            libro.find_assignment(desafio.slug)
        return True
    except (MissingEntry, Exception):
        return False


def genera_version_del_alumno(desafio: Desafio, curso_nbgrader: Path, forzar: bool = False) -> Path:
    """nbgrader generate_assignment: release/<slug>/ y el desafío en el libro de notas.

    Lo repartido no cambia: si release/<slug>/ ya existe y lo de ahora es distinto (p. ej. se
    ha editado la lección), lanza RepartoCongelado con la lista de cambios, salvo con
    forzar. Las entregas se comparan con release/: las que ya tienen los alumnos siguen
    calificándose contra lo que recibieron.
    """
    from cursos.profesor import configuracion
    from cursos.profesor.carpetas import Carpetas

    cambios = cambios_del_reparto(desafio, curso_nbgrader)
    release = Carpetas.de(curso_nbgrader).del_desafio("release", desafio.slug)
    if cambios and not forzar:
        configuracion.prepara(curso_nbgrader)
        raise RepartoCongelado(release, cambios)
    if cambios == [] and not forzar and _libro_tiene(desafio, curso_nbgrader):
        configuracion.prepara(curso_nbgrader)
        return release  # ya está repartido, igual: nada que hacer
    escribe_fuente(desafio, curso_nbgrader)
    con_herramientas_del_venv()
    hecho = subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", desafio.slug, "--force", "--log-level=ERROR"],
        cwd=curso_nbgrader,
        capture_output=True,
        text=True,
    )
    if hecho.returncode != 0:
        lineas = [linea for linea in (hecho.stderr + hecho.stdout).splitlines() if linea.strip()]
        raise ErrorDeReparto(f"nbgrader generate_assignment ha fallado: {(lineas or ['sin mensaje'])[-1].strip()}")
    return release
