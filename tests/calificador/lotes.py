"""El lote de cada desafío, declarado una vez: qué se entrega y qué debe sacar cada entrega.

Cada tests/calificador/test_<desafío>.py declara en lo alto su `LOTE = Lote(...)`, con sus datos
(honestas, trampas); conftest.py lo entrega y lo califica una sola vez por sesión, y
test_lotes.py comprueba lo común a todos los lotes. Lo propio de cada desafío (motivos, puntos
por prueba) se queda en su fichero y lee el mismo lote calificado.

Aquí no se importa conftest: conftest importa este módulo.
"""

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cursos.desafio import Desafio

CARPETA = Path(__file__).parent


# Delante de una honesta: un aviso y algo en stderr no cambian la nota.
RUIDO = "import sys, warnings\nwarnings.warn('ojo')\nprint('hola', file=sys.stderr)\n"


def cambia_en(codigo: str, viejo: str, nuevo: str) -> str:
    """El código con viejo cambiado por nuevo; viejo tiene que estar, o la variante no sería la que dice."""
    assert viejo in codigo, viejo
    return codigo.replace(viejo, nuevo)


def ninguna(curso, cuaderno) -> dict:
    return {}


@dataclass(frozen=True)
class Lote:
    """Las entregas del lote de un desafío, además del cuaderno sin tocar («x_stub») y de una honesta
    al final («zz_honesta_despues», con la solución), que demuestra que el lote llega hasta el último.

    Las funciones de entregas reciben (carpeta del curso, cuaderno repartido) y devuelven
    {alumno: lo que entrega}: un cuaderno, un texto o unos bytes, o None si la función ya ha escrito
    la entrega ella misma (un enlace, una carpeta rara).
    """

    desafio: Desafio
    honestas: Mapping[str, tuple[str, int | None]]  # alumno: (código, puntos que merece; None: no se fija)
    trampas: Callable[[Path, int], dict[str, str]]  # (curso, puerto que se escucha): {alumno: código}
    minimo: int  # cuántas trampas, al menos, deben sacar 0
    cuadernos_tramposos: Callable = ninguna  # trampas en el cuaderno mismo (celdas de prueba editadas…)
    otras: Callable = ninguna  # entregas que no son trampas: rotas, o editadas que se restauran
    con_puntos: frozenset[str] = field(default_factory=frozenset)  # trampas que ganan lo visible a propósito
    # (la trampa que abre el ocultas.py del desafío, lo de ocultas.py que su devolución no debe contar)
    lee_ocultas: tuple[str, tuple[str, ...]] | None = None
    escucha: bool = False  # escuchar la red de verdad; si no, las trampas apuntan al puerto 9 (de descarte)
    plazo: float = 2.0  # corto: las trampas que se cuelgan no alargan la prueba

    @property
    def slug(self) -> str:
        return self.desafio.slug


def ficheros_con_lote() -> list[Path]:
    """Los ficheros de pruebas que declaran `LOTE = Lote(` en una línea propia."""
    return [ruta for ruta in sorted(CARPETA.glob("test_*.py")) if "\nLOTE = Lote(" in ruta.read_text(encoding="utf-8")]


def lotes() -> dict[str, Lote]:
    """{slug: Lote} de los ficheros que lo declaran."""
    encontrados = {}
    for ruta in ficheros_con_lote():
        lote = importlib.import_module(f"tests.calificador.{ruta.stem}").LOTE
        assert lote.slug not in encontrados, f"{ruta.name}: el lote de {lote.slug} ya está declarado en otro fichero"
        encontrados[lote.slug] = lote
    return encontrados
