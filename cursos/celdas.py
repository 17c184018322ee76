"""Las celdas de una lección, leídas una vez, y las de código nombradas por etiqueta y no por su posición.

Sólo este módulo analiza lecciones/<slug>/leccion.md (Markdown de jupytext): el cuaderno
(cuadernos.py), la página (sitio/paginas.py), el código de partida de los desafíos y
salidas.toml leen sus celdas de aquí, con `Leccion.celdas()` o `celdas_de(ruta)`.

Una celda se etiqueta en su cabecera, como escribe jupytext los metadatos en Markdown:

    ```python tags=["partida-compacta", "salida-1"]

desafio.toml (celdas_de_partida) y salidas.toml (celda) nombran celdas por su etiqueta:
así, insertar una celda en la lección no cambia en silencio el código de partida de un
desafío ni la celda cuya salida se comprueba. Una etiqueta que no está, o que está en dos
celdas, es un error que dice cuál y dónde.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

import jupytext

from cursos import RAIZ
from cursos.errores import ErrorDelCurso


class ErrorDeEtiqueta(ErrorDelCurso, ValueError):
    """Una etiqueta de celda que falta o está repetida; el mensaje dice cuál, dónde y qué hacer."""


@dataclass(frozen=True)
class Celda:
    """Una celda de la lección, tal como está en leccion.md."""

    tipo: str  # "code" o "markdown", como el cell_type de nbformat
    fuente: str
    etiquetas: tuple[str, ...] = ()

    @property
    def es_codigo(self) -> bool:
        return self.tipo == "code"


def celdas_de(ruta: Path) -> tuple[Celda, ...]:
    """Las celdas de la lección, en orden: prosa y código (analizada una vez por texto)."""
    return _celdas(ruta.read_text(encoding="utf-8"))


@functools.cache
def _celdas(texto: str) -> tuple[Celda, ...]:
    return tuple(
        Celda(c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in jupytext.reads(texto, fmt="md").cells
    )


def celdas_de_codigo(ruta: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(fuente, etiquetas) de cada celda de código de la lección, en orden."""
    return tuple((c.fuente, c.etiquetas) for c in celdas_de(ruta) if c.es_codigo)


def _relativa(ruta: Path) -> str:
    try:
        return str(ruta.relative_to(RAIZ))
    except ValueError:
        return str(ruta)


def numero(ruta: Path, etiqueta: str) -> int:
    """El número de la celda de código con esa etiqueta (1 es la primera), o ErrorDeEtiqueta."""
    con = [n for n, (_, etiquetas) in enumerate(celdas_de_codigo(ruta), 1) if etiqueta in etiquetas]
    if not con:
        raise ErrorDeEtiqueta(
            f"{_relativa(ruta)}: ninguna celda de código tiene la etiqueta «{etiqueta}»; "
            f'ponla en la cabecera de la celda: ```python tags=["{etiqueta}"]'
        )
    if len(con) > 1:
        raise ErrorDeEtiqueta(
            f"{_relativa(ruta)}: la etiqueta «{etiqueta}» está en las celdas de código "
            f"{', '.join(map(str, con))}; cada etiqueta, en una sola celda"
        )
    return con[0]


def fuente(ruta: Path, etiqueta: str) -> str:
    """El código de la celda con esa etiqueta."""
    return celdas_de_codigo(ruta)[numero(ruta, etiqueta) - 1][0]


def repetidas(ruta: Path) -> list[str]:
    """Las etiquetas que están en más de una celda de código de la lección."""
    todas = [e for _, etiquetas in celdas_de_codigo(ruta) for e in etiquetas]
    return sorted({e for e in todas if todas.count(e) > 1})
