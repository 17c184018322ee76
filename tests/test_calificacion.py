"""Cada desafío dice junto a él cómo se califica (CALIFICACION.md), con las pruebas y los puntos de PRUEBAS."""

import re

import pytest

from cursos import RAIZ
from cursos.desafio import Desafio

DESAFIOS = sorted(p.name for p in (RAIZ / "desafios").iterdir() if (p / "desafio.toml").is_file())


@pytest.mark.parametrize("slug", DESAFIOS)
def test_calificacion_dice_las_pruebas_y_sus_puntos(slug):
    ruta = RAIZ / "desafios" / slug / "CALIFICACION.md"
    assert ruta.is_file(), f"falta desafios/{slug}/CALIFICACION.md: escríbelo como dice docs/autores.md, paso 4"
    puntos = Desafio(slug).puntos()
    assert sum(puntos.values()) == 10
    dichos = {nombre: int(n) for nombre, n in re.findall(r"^\| `(\w+)` \| (\d+) \|", ruta.read_text("utf-8"), re.M)}
    esperadas = "\n".join(f"| `{nombre}` | {n} | … |" for nombre, n in puntos.items())
    assert dichos == puntos, f"desafios/{slug}/CALIFICACION.md no dice los puntos de PRUEBAS; su tabla:\n{esperadas}"
