"""Lo que se reparte no cita ficheros de la máquina de nadie.

Los comentarios de pistas.toml, ocultas.py o las lecciones los lee el profesor: una ruta absoluta de
la máquina de un autor es una referencia muerta. Se citan rutas del repositorio.
"""

import re

import pytest

from cursos import RAIZ

RUTA_DE_UNA_MAQUINA = re.compile(r"(?<![\w.~])/(?:work|home|Users|tmp|root)/[\w.-]+/[\w./-]+")
# Las lecciones pueden poner de ejemplo rutas de un usuario inventado (lo que un comando no debe leer).
EJEMPLOS = {"/home/ana/.ssh/id_rsa"}
_TIPOS = {".py", ".toml", ".md"}
FICHEROS = sorted(p for c in ("desafios", "lecciones") for p in (RAIZ / c).rglob("*") if p.suffix in _TIPOS)


@pytest.mark.parametrize("ruta", FICHEROS, ids=lambda p: str(p.relative_to(RAIZ)))
def test_no_cita_rutas_de_una_maquina(ruta):
    citadas = set(RUTA_DE_UNA_MAQUINA.findall(ruta.read_text(encoding="utf-8"))) - EJEMPLOS
    assert not citadas, f"{ruta.relative_to(RAIZ)} cita {sorted(citadas)}: cita la ruta del repositorio"
