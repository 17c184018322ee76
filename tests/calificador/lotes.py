"""El lote de cada desafío, declarado una vez: qué se entrega y qué debe sacar cada entrega.

Los lotes están registrados: cada desafío del curso (los que nombran las lecciones del manifiesto)
tiene el suyo, `LOTE = Lote(...)`, en tests/calificador/test_<desafío>.py (con `_` en vez de `-`).
No se buscan por el texto de los ficheros: lote_de(slug) importa el de ese nombre, y si falta, no
declara LOTE o es el de otro desafío, lo dice. conftest.py lo entrega y lo califica una sola vez
por sesión, y test_lotes.py comprueba lo común a todos los lotes. Lo propio de cada desafío (motivos,
puntos por prueba) se queda en su fichero y lee el mismo lote calificado.
"""

import ast
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso

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


class LoteNoDeclarado(LookupError):
    """Un desafío sin su lote, o un lote en un fichero que no es el de su desafío."""


def fichero_del_lote(slug: str) -> Path:
    return CARPETA / f"test_{slug.replace('-', '_')}.py"


def desafios_con_lote() -> list[str]:
    """El registro de los lotes: los desafíos que nombran las lecciones del manifiesto, uno por desafío."""
    return sorted({leccion.desafio for leccion in leer_curso().lecciones if leccion.desafio})


def lote_de(slug: str) -> Lote:
    """El LOTE que declara el fichero del desafío; si no está, un error que dice dónde declararlo."""
    ruta = fichero_del_lote(slug)
    donde = f"tests/calificador/{ruta.name}"
    if not ruta.is_file():
        raise LoteNoDeclarado(f"{slug} no tiene lote: falta {donde}, con su LOTE = Lote(...)")
    lote = getattr(importlib.import_module(f"tests.calificador.{ruta.stem}"), "LOTE", None)
    if not isinstance(lote, Lote):
        raise LoteNoDeclarado(f"{donde} no declara LOTE = Lote(...) para {slug}")
    if lote.slug != slug:
        raise LoteNoDeclarado(f"{donde} declara el lote de {lote.slug}, no el de {slug}")
    return lote


def lotes() -> dict[str, Lote]:
    """{slug: Lote} de cada desafío registrado."""
    return {slug: lote_de(slug) for slug in desafios_con_lote()}


def ficheros_con_lote() -> list[Path]:
    """Los ficheros de pruebas que asignan LOTE en lo alto (leídos como Python, no como texto)."""
    return [ruta for ruta in sorted(CARPETA.glob("test_*.py")) if "LOTE" in _asignados(ruta)]


def _asignados(ruta: Path) -> set[str]:
    nodos = ast.parse(ruta.read_text(encoding="utf-8")).body
    return {
        objetivo.id
        for nodo in nodos
        if isinstance(nodo, ast.Assign | ast.AnnAssign)
        for objetivo in (nodo.targets if isinstance(nodo, ast.Assign) else [nodo.target])
        if isinstance(objetivo, ast.Name)
    }
