"""El JavaScript del sitio: cada fichero es JavaScript válido (node --check) y ESLint no encuentra nada.

ESLint va fijado, con la huella de cada paquete, en tests/javascript/package-lock.json (con axe-core,
que usa tests/navegador/test_axe.py), y se instala con `npm ci` en tests/javascript/node_modules
la primera vez o si cambia el lock (tests.navegador.ayudas.paquetes_de_npm, la misma para las dos).
Su configuración, tests/javascript/eslint.config.mjs, dice qué reglas y por qué.
"""

import shutil
import subprocess

import pytest

from cursos import RAIZ
from tests.navegador.ayudas import JAVASCRIPT, paquetes_de_npm


def ficheros_de_javascript() -> list[str]:
    """Todo el JavaScript del repositorio que se sirve o se construye (ni node_modules ni build/)."""
    return sorted(
        str(f.relative_to(RAIZ))
        for patron in ("*.js", "*.mjs")
        for f in (RAIZ / "cursos").rglob(patron)
        if "node_modules" not in f.parts
    )


def node() -> str:
    ruta = shutil.which("node")
    if not ruta:
        pytest.fail("falta node: ./curso pruebas lo instala con apt-get (npm lo trae)")
    return ruta


def test_hay_javascript_que_mirar():
    ficheros = ficheros_de_javascript()
    assert "cursos/sitio/recursos/desafio.mjs" in ficheros and "cursos/sitio/arranque/remoteEntry.js" in ficheros


@pytest.mark.parametrize("fichero", ficheros_de_javascript())
def test_cada_fichero_es_javascript_valido(fichero):
    hecho = subprocess.run([node(), "--check", fichero], cwd=RAIZ, capture_output=True, text=True, timeout=60)
    assert hecho.returncode == 0, hecho.stderr


def eslint() -> str:
    """El ESLint fijado, instalado con npm ci si falta o si el lock ha cambiado desde la última vez."""
    return str(paquetes_de_npm() / ".bin" / "eslint")


def test_eslint_no_encuentra_nada():
    hecho = subprocess.run(
        [eslint(), "--config", str(JAVASCRIPT / "eslint.config.mjs"), "--max-warnings", "0", *ficheros_de_javascript()],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
