"""./curso pruebas: ruff y todas las pruebas (CPython, navegador y calificador); lo que siga va a pytest."""

import subprocess
import sys

from cursos import RAIZ

NOMBRE = "pruebas"
AYUDA = "pasa ruff y todas las pruebas; lo que siga va a pytest (-q, -k …)"


def configura(parser) -> None:
    parser.add_argument(
        "--sin-ruff",
        action="store_true",
        help="no pasa ruff antes de pytest: ruff ya ha pasado en este mismo árbol (.ci/run lo pasa una vez)",
    )


def ruff_bien() -> bool:
    """ruff check y ruff format --check sobre todo el repositorio; si no, lo dice y qué hacer."""
    if subprocess.call([sys.executable, "-m", "ruff", "check", str(RAIZ)]) != 0:
        print("ruff ha encontrado problemas: corrígelos antes de seguir.", file=sys.stderr)
        return False
    if subprocess.call([sys.executable, "-m", "ruff", "format", "--check", "-q", str(RAIZ)]) != 0:
        print("ruff format cambiaría esos ficheros: pasa `.venv/bin/ruff format .` y vuelve a probar.", file=sys.stderr)
        return False
    return True


def ejecuta(args) -> int:
    if not args.sin_ruff and not ruff_bien():
        return 1
    return subprocess.call([sys.executable, "-m", "pytest", *args.pytest], cwd=RAIZ)
