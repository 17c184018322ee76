"""Lo propio de nbgrader: del desafío al cuaderno fuente (con sus metadatos) y a la versión del alumno.

Una sola fuente: enunciado.md, desafio.toml (leído y comprobado en desafio.py),
solucion.py (con la región de la solución), pruebas.py y ocultas.py. El cuaderno se
genera siempre; no se edita.
"""

import ast
import functools
import os
import subprocess
import sys
from pathlib import Path

import nbformat

from cursos import contrato
from cursos.cuadernos import KERNEL  # uno para todos los cuadernos
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso

CELDA_PRUEBAS = "pruebas"
PREFIJO_PRUEBA = "prueba_"  # el grade_id de la celda de cada prueba: prueba_<nombre>
# El calificador corre el código del alumno con el mismo Python que la página y JupyterLite
# (Pyodide, 3.14: interprete.py), sin paquetes: sólo la biblioteca estándar.
AVISO_PYTHON = (
    "El calificador corre tu código con el mismo Python que el navegador (Pyodide, Python 3.14), "
    "sólo con la biblioteca estándar: `numpy` y los demás paquetes no están. `display`, "
    "`IPython.display`, `%%writefile` y `%run` funcionan; las órdenes `!` no hacen nada e `input()` "
    "no puede leer nada (lanza `EOFError`). Lo que devuelven tus funciones llega a las pruebas como "
    "JSON: una tupla cuenta como la lista que representa."
)


def id_de_prueba(nombre: str) -> str:
    """El grade_id de la celda de una prueba (en el cuaderno y en el libro de notas)."""
    return PREFIJO_PRUEBA + nombre


def prueba_del_id(grade_id: str) -> str | None:
    """La prueba de la celda con ese grade_id, o None si no es la celda de una prueba."""
    return grade_id.removeprefix(PREFIJO_PRUEBA) if grade_id.startswith(PREFIJO_PRUEBA) else None


def _meta(grade_id: str, *, solucion=False, nota=False, puntos=0) -> dict:
    meta = {
        "grade": nota,
        "solution": solucion,
        "locked": not solucion,
        "grade_id": grade_id,
        "schema_version": 3,
        "task": False,
    }
    if nota:
        meta["points"] = puntos
    return {"nbgrader": meta, "editable": solucion, "deletable": False}


def _codigo(fuente: str, grade_id: str, **kw) -> nbformat.NotebookNode:
    celda = nbformat.v4.new_code_cell(fuente.rstrip("\n"), metadata=_meta(grade_id, **kw))
    celda["id"] = grade_id
    return celda


def _texto(fuente: str, grade_id: str) -> nbformat.NotebookNode:
    celda = nbformat.v4.new_markdown_cell(fuente.rstrip("\n"), metadata=_meta(grade_id))
    celda["id"] = grade_id
    return celda


def celda_de_prueba(desafio: Desafio, nombre: str, *, ocultas: bool) -> str:
    """El código de la celda de una prueba; con ocultas=False, lo que ve el alumno."""
    if nombre != contrato.PRUEBA_DE_VARIACIONES:
        return f'comprueba("{nombre}")'
    if not ocultas:
        return desafio.aviso_ocultas.rstrip("\n")
    return (
        desafio.aviso_ocultas
        + "### BEGIN HIDDEN TESTS\n"
        + desafio.lee("ocultas.py").rstrip("\n")
        + f'\ncomprueba("{nombre}", {contrato.VARIACIONES})\n### END HIDDEN TESTS'
    )


def _lista(nombres: tuple[str, ...]) -> str:
    citados = [f"`{n}`" for n in nombres]
    return " y ".join(filter(None, [", ".join(citados[:-1]), citados[-1]]))


def por_completar(desafio: Desafio) -> tuple[str, ...]:
    """Las funciones que escribe el alumno: las de desafio.toml con una región de la solución dentro.

    Las demás (como `conversa` en el bucle de texto) ya vienen hechas y el cuaderno no pide completarlas.
    """
    fuente = desafio.lee("solucion.py")
    lineas = fuente.splitlines()
    con_region = {
        n.name
        for n in ast.walk(ast.parse(fuente))
        if isinstance(n, ast.FunctionDef)
        and any("### BEGIN SOLUTION" in linea for linea in lineas[n.lineno - 1 : n.end_lineno])
    }
    return tuple(f for f in desafio.funciones if f in con_region) or desafio.funciones


def cuaderno_fuente(desafio: Desafio, *, ocultas: bool = True) -> nbformat.NotebookNode:
    """El cuaderno fuente de nbgrader (con la solución y las pruebas ocultas)."""
    # Una región de la solución sin cerrar: el error en español (con_stub), antes que el de nbgrader.
    desafio.esqueleto()
    celdas = [
        _texto(desafio.lee("enunciado.md"), "enunciado"),
        _codigo(desafio.partida(), "partida"),
        _texto(
            f"### Tu solución\n\nCompleta {_lista(por_completar(desafio))} en la celda siguiente y pasa "
            "las pruebas de abajo. " + AVISO_PYTHON,
            "tu-solucion",
        ),
        _codigo(desafio.lee("solucion.py"), desafio.celda_solucion, solucion=True),
        _texto(
            "### Las pruebas\n\nLa primera celda carga las pruebas; cada una de las siguientes pasa "
            "una y dice qué ha pasado. Aquí te orientan; la nota la pone el "
            "calificador, con las mismas pruebas, fuera de tu cuaderno.",
            "las-pruebas",
        ),
        _codigo(desafio.pruebas(), CELDA_PRUEBAS),
    ]
    for nombre, puntos in desafio.puntos().items():
        celdas.append(
            _codigo(celda_de_prueba(desafio, nombre, ocultas=ocultas), id_de_prueba(nombre), nota=True, puntos=puntos)
        )
    cuaderno = nbformat.v4.new_notebook(cells=celdas)
    cuaderno.metadata["kernelspec"] = KERNEL
    cuaderno.metadata["language_info"] = {"name": "python"}
    cuaderno.metadata["curso"] = {"desafio": desafio.slug}
    nbformat.validate(cuaderno)
    return cuaderno


def celdas_fijas(desafio: Desafio, repartido: Path | None = None) -> tuple[tuple[str, str, str], ...]:
    """(grade_id, tipo, fuente visible) de las celdas bloqueadas, en orden: el alumno no las toca.

    Si está el cuaderno repartido (release/), de él: es el que tienen los alumnos, aunque
    la lección haya cambiado después. Si no, el que se generaría ahora.
    """
    if repartido is not None and repartido.is_file():
        return _fijas_de(repartido, repartido.stat().st_mtime_ns)
    return _fijas_de_ahora(desafio)


@functools.cache
def _fijas_de_ahora(desafio: Desafio) -> tuple[tuple[str, str, str], ...]:
    return _fijas(cuaderno_fuente(desafio, ocultas=False))


@functools.cache
def _fijas_de(ruta: Path, _version: int) -> tuple[tuple[str, str, str], ...]:
    return _fijas(nbformat.read(ruta, as_version=4))


def _fijas(cuaderno) -> tuple[tuple[str, str, str], ...]:
    return tuple(
        (c.metadata["nbgrader"]["grade_id"], c.cell_type, c.source)
        for c in cuaderno.cells
        if c.metadata.get("nbgrader", {}).get("locked")
    )


def _ficheros_de_la_fuente(desafio: Desafio) -> dict[str, str]:
    """{nombre: texto} de source/<slug>/: el cuaderno fuente y los ficheros que carga la partida."""
    return {**dict(desafio.modulos()), desafio.cuaderno: nbformat.writes(cuaderno_fuente(desafio)) + "\n"}


def escribe_fuente(desafio: Desafio, curso_nbgrader: Path) -> Path:
    """source/<slug>/ con el cuaderno y los ficheros que carga la partida, y lo que necesita nbgrader.

    La configuración del profesor no se pisa: ver configuracion.py.
    """
    from cursos.calificador import configuracion
    from cursos.calificador.carpetas import Carpetas

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
    from cursos.calificador.carpetas import Carpetas

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
            cambios += [f"la celda «{c}» del cuaderno cambia" for c in cambian]
            cambios += [f"la celda «{c}» es nueva" for c in ahora if c not in antes]
            cambios += [f"la celda «{c}» desaparece" for c in antes if c not in ahora]
        elif viejo != nuevo:
            cambios.append(f"{nombre} cambia")
    return cambios


def con_herramientas_del_venv() -> None:
    """nbgrader llama a `alembic` por su nombre: el bin/ de este Python tiene que estar en PATH."""
    bin_ = str(Path(sys.executable).parent)
    if bin_ not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_ + os.pathsep + os.environ.get("PATH", "")


def _libro_tiene(desafio: Desafio, curso_nbgrader: Path) -> bool:
    from nbgrader.api import Gradebook, MissingEntry

    from cursos.calificador.configuracion import CursoNbgrader

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
    from cursos.calificador import configuracion
    from cursos.calificador.carpetas import Carpetas

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
