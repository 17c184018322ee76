"""El cuaderno del desafío tal como lo lee nbgrader: el cuaderno fuente, con sus metadatos.

Una sola fuente: enunciado.md, desafio.toml (leído y comprobado en desafio.py),
solucion.py (con la región de la solución), pruebas.py y ocultas.py. El cuaderno se
genera siempre; no se edita. Lo usan el reparto (cursos/profesor/fuente.py), el calificador
(las celdas bloqueadas si no hay release/: calificador/congelado.py) y el cuaderno calificado.
"""

import ast
import re

import nbformat

from cursos import contrato
from cursos.contrato import AVISO_PYTHON, id_de_prueba
from cursos.cuadernos import KERNEL  # uno para todos los cuadernos
from cursos.desafio import Desafio

CELDA_PRUEBAS = "pruebas"


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


def tiene_partes_ocultas(desafio: Desafio) -> bool:
    """Si ocultas.py define PARTES_OCULTAS (los casos ocultos de cada prueba visible)."""
    return re.search(rf"^{contrato.PARTES_OCULTAS}\s*[:=]", desafio.lee("ocultas.py"), re.M) is not None


def celda_de_prueba(desafio: Desafio, nombre: str, *, ocultas: bool, primera: bool = False) -> str:
    """El código de la celda de una prueba; con ocultas=False, lo que ve el alumno.

    La primera prueba carga ocultas.py en una región oculta antes de pasarse: así nbgrader también
    pasa las partes ocultas (PARTES_OCULTAS) de cada prueba visible, como el calificador del curso,
    y no sólo las variaciones de la última celda.
    """
    if nombre != contrato.PRUEBA_DE_VARIACIONES:
        if ocultas and primera and tiene_partes_ocultas(desafio):
            return (
                "### BEGIN HIDDEN TESTS\n"
                + desafio.lee("ocultas.py").rstrip("\n")
                + f'\n### END HIDDEN TESTS\ncomprueba("{nombre}")'
            )
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
        _texto(desafio.enunciado(), "enunciado"),
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
    for orden, (nombre, puntos) in enumerate(desafio.puntos().items()):
        codigo = celda_de_prueba(desafio, nombre, ocultas=ocultas, primera=orden == 0)
        celdas.append(_codigo(codigo, id_de_prueba(nombre), nota=True, puntos=puntos))
    cuaderno = nbformat.v4.new_notebook(cells=celdas)
    cuaderno.metadata["kernelspec"] = KERNEL
    cuaderno.metadata["language_info"] = {"name": "python"}
    cuaderno.metadata["curso"] = {"desafio": desafio.slug}
    nbformat.validate(cuaderno)
    return cuaderno
