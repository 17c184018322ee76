"""Las pistas de los desafíos: cada desafío tiene las suyas, se leen y no regalan la solución."""

import re
import tomllib

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.sitio.paginas import pistas_de

# Una línea de la solución más corta que esto (return None, continue…) no es la solución.
LINEA_MINIMA = 16


def desafios() -> list[str]:
    """Los del manifiesto y cualquier carpeta de desafios/ con su desafio.toml, sin repetir."""
    del_manifiesto = [lc.desafio for lc in leer_curso().lecciones if lc.desafio]
    en_disco = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))
    return list(dict.fromkeys(del_manifiesto + en_disco))


def lineas_de_la_solucion(fuente: str) -> list[str]:
    """Las líneas de la región BEGIN/END SOLUTION, sin sangría ni comentario final."""
    lineas, dentro = [], False
    for linea in fuente.splitlines():
        if "### BEGIN SOLUTION" in linea:
            dentro = True
        elif "### END SOLUTION" in linea:
            dentro = False
        elif dentro:
            codigo = re.sub(r"\s+#\s.*$", "", linea).strip()
            if len(codigo) >= LINEA_MINIMA:
                lineas.append(codigo)
    return lineas


def citadas(pistas: list[str], lineas: list[str]) -> list[str]:
    """Las líneas de la solución que aparecen tal cual en alguna pista (sin contar `…` ni saltos de línea)."""
    textos = [re.sub(r"\s+", " ", p.replace("`", "")) for p in pistas]
    return [linea for linea in lineas if any(re.sub(r"\s+", " ", linea) in t for t in textos)]


def test_todos_los_desafios_del_manifiesto_estan_en_disco():
    assert set(desafios()) == {p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml")}


@pytest.mark.parametrize("slug", desafios())
def test_cada_desafio_tiene_pistas_validas(slug):
    ruta = RAIZ / "desafios" / slug / "pistas.toml"
    assert ruta.exists(), f"falta {ruta.relative_to(RAIZ)}"
    assert len(pistas_de(slug)) >= 3, "hacen falta al menos tres pistas, de menos a más"


@pytest.mark.parametrize("slug", desafios())
def test_ninguna_pista_copia_la_solucion(slug):
    pistas = [p["texto"] for p in tomllib.loads(
        (RAIZ / "desafios" / slug / "pistas.toml").read_text(encoding="utf-8"))["pista"]]
    lineas = lineas_de_la_solucion((RAIZ / "desafios" / slug / "solucion.py").read_text(encoding="utf-8"))
    assert lineas, "la solución de referencia no tiene región ### BEGIN SOLUTION"
    assert citadas(pistas, lineas) == []


def test_se_nota_una_pista_que_copia_una_linea():
    fuente = ("def f(x):\n    ### BEGIN SOLUTION\n    if isinstance(x, bool):  # True es un int\n"
              "        return False\n    return x in (1, 2)\n    ### END SOLUTION\n")
    lineas = lineas_de_la_solucion(fuente)
    assert lineas == ["if isinstance(x, bool):", "return x in (1, 2)"]
    assert citadas(["Piensa en `isinstance(x, bool)` antes que en el `int`."], lineas) == []  # un trozo no es la línea
    assert citadas(["Empieza con `if isinstance(x,\nbool):` y sigue."], lineas) == ["if isinstance(x, bool):"]
    assert citadas(["Escribe `return x in\n(1, 2)`."], lineas) == ["return x in (1, 2)"]
