"""Lo que se repartió: el código de partida y los módulos con que se califica una entrega.

Se leen de release/<desafío>/ (lo que recibieron los alumnos) y no del repositorio: así,
editar una lección o un módulo después de repartir no cambia la nota de lo ya entregado.
Si no hay release/ (p. ej. una carpeta de curso a medio hacer), se usa el repositorio.
"""

import functools
import json
from dataclasses import dataclass
from pathlib import Path

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
