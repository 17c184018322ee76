"""Lo que se repartió: las celdas bloqueadas, el código de partida y los módulos con que se califica.

Se leen de release/<desafío>/ (lo que recibieron los alumnos), aquí y en ningún otro sitio, y no
del repositorio: así, editar una lección o un módulo después de repartir no cambia la nota de lo
ya entregado. Si no hay release/ (p. ej. una carpeta de curso a medio hacer), se usa el repositorio.
"""

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import nbformat

from cursos.cuaderno_del_desafio import cuaderno_fuente
from cursos.desafio import Desafio

CELDA_PARTIDA = "partida"


@dataclass(frozen=True)
class Repartido:
    modulos: tuple[tuple[str, str], ...]  # (nombre, texto), como los recibe el alumno
    partida: str


def repartido(carpeta: Path, desafio: Desafio) -> Repartido:
    """El código de partida y los módulos de release/<desafío>/ (carpeta), o los del repositorio si no está."""
    nombres = tuple(nombre for nombre, _ in desafio.modulos())
    rutas = [carpeta / desafio.cuaderno, *(carpeta / n for n in nombres)]
    if not all(r.is_file() for r in rutas):
        return Repartido(desafio.modulos(), desafio.partida())
    return _lee(carpeta, desafio.cuaderno, nombres, tuple(r.stat().st_mtime_ns for r in rutas))


@functools.cache
def _lee(carpeta: Path, cuaderno: str, nombres: tuple[str, ...], _versiones: tuple[int, ...]) -> Repartido:
    celdas = json.loads((carpeta / cuaderno).read_text(encoding="utf-8"))["cells"]
    fuente = next(
        c["source"] for c in celdas if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == CELDA_PARTIDA
    )
    partida = fuente if isinstance(fuente, str) else "".join(fuente)
    modulos = tuple((n, (carpeta / n).read_text(encoding="utf-8")) for n in nombres)
    return Repartido(modulos, partida)


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
