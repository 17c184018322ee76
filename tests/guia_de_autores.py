"""Seguir docs/autores.md en una copia del curso: escribir sus bloques y correr programas en ella.

Lo usan tests/test_guia_de_autores.py y tests/navegador/test_guia_en_el_navegador.py.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

from cursos import RAIZ
from tests.ayudas import MODULOS

GUIA = RAIZ / "docs" / "autores.md"
BLOQUE = re.compile(r"^(`{3,})[a-z]*\n[^\n]*?(fichero|añadir al final de): (\S+?)(?: -->)?\n(.*?)^\1$", re.M | re.S)
# tests: el lote del desafío de la guía se declara y se califica con los de tests/calificador.
COPIAR = ["cursos", "desafios", "lecciones", "tests", ".ci", *MODULOS, "pyproject.toml"]


def bloques() -> list[tuple[str, str, str]]:
    """(qué: «fichero» o «añadir al final de», ruta, texto) de cada bloque de la guía."""
    return [(que, ruta, texto) for _, que, ruta, texto in BLOQUE.findall(GUIA.read_text(encoding="utf-8"))]


def copia_siguiendo_la_guia(copia: Path) -> Path:
    """El curso copiado en copia, con los bloques de la guía escritos encima, como lo haría un autor."""
    for nombre in COPIAR:
        origen = RAIZ / nombre
        if origen.is_dir():
            shutil.copytree(origen, copia / nombre, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
        else:
            shutil.copy2(origen, copia / nombre)
    for que, ruta, texto in bloques():
        destino = copia / ruta
        destino.parent.mkdir(parents=True, exist_ok=True)
        if que == "fichero":
            assert not destino.exists(), f"la guía pisa {ruta}, que ya existe"
            destino.write_text(texto, encoding="utf-8")
        else:
            destino.write_text(destino.read_text(encoding="utf-8") + texto, encoding="utf-8")
    _en_git(copia)
    return copia


def _en_git(copia: Path) -> None:
    """La copia, un clon con un commit como el del autor: el laboratorio y el cluster leen el commit."""
    autor = ["-c", "user.name=Autora", "-c", "user.email=autora@curso.invalid", "-c", "init.defaultBranch=main"]
    for orden in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "La lección de la guía"]):
        subprocess.run(["git", *autor, *orden], cwd=copia, check=True, capture_output=True, timeout=120)


def en_la_copia(copia: Path, programa: str, *argumentos: str) -> str:
    """Corre programa con el Python del proyecto en un proceso cuyo RAIZ es la copia; devuelve su salida."""
    hecho = subprocess.run(
        [sys.executable, "-c", programa, *argumentos],
        cwd=copia,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(copia), "HOME": str(copia.parent)},
        timeout=900,
    )
    assert hecho.returncode == 0, hecho.stderr[-3000:]
    return hecho.stdout
