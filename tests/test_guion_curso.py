"""El guion ./curso: un .venv/ hecho para otra copia del curso no se usa, y el mensaje dice cómo arreglarlo."""

import hashlib
import shutil
import subprocess

import pytest

from cursos import RAIZ


@pytest.fixture(autouse=True)
def venv_al_dia():
    """Con pyproject.toml cambiado, ./curso reinstalaría .venv/ (también a través del enlace): antes, no."""
    huella = hashlib.sha256((RAIZ / "pyproject.toml").read_bytes()).hexdigest()[:16]
    instalada = RAIZ / ".venv" / ".huella"
    if not instalada.exists() or instalada.read_text().strip() != huella:
        pytest.skip("pyproject.toml ha cambiado desde que se creó .venv/: ./curso pruebas lo reinstala y las pasa")


def lanza(carpeta, *argumentos) -> subprocess.CompletedProcess:
    return subprocess.run([str(carpeta / "curso"), *argumentos], capture_output=True, text=True, timeout=120)


def test_un_venv_de_otra_copia_no_se_usa(tmp_path):
    # Otra copia con el mismo pyproject.toml (así ./curso no reinstala) y el .venv de ésta enlazado.
    for fichero in ("curso", "pyproject.toml"):
        shutil.copy2(RAIZ / fichero, tmp_path / fichero)
    (tmp_path / ".venv").symlink_to(RAIZ / ".venv")
    hecho = lanza(tmp_path, "desafio", "--help")
    assert hecho.returncode == 1 and hecho.stdout == ""
    assert f"sus órdenes actuarían sobre {RAIZ}" in hecho.stderr
    assert f"rm -rf {tmp_path}/.venv && ./curso desafio" in hecho.stderr


def test_el_venv_de_esta_copia_si():
    hecho = lanza(RAIZ, "--help")
    assert hecho.returncode == 0 and hecho.stdout.startswith("uso: curso"), hecho.stderr
