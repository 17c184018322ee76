"""Los tamaños que se sostienen, como en nbgrader o JupyterLite: ningún módulo de cursos/ de más de
500 líneas (salvo el programa hijo de la caja, que se manda entero al proceso del alumno) y
ninguna función de más de 80."""

import ast

from cursos import RAIZ

MODULOS = sorted((RAIZ / "cursos").rglob("*.py"))
UN_FICHERO_A_PROPOSITO = {"cursos/calificador/caja/hijo.py"}


def _relativa(ruta):
    return str(ruta.relative_to(RAIZ))


def test_ningun_modulo_pasa_de_500_lineas():
    largos = {
        _relativa(m): n
        for m in MODULOS
        if (n := len(m.read_text(encoding="utf-8").splitlines())) > 500 and _relativa(m) not in UN_FICHERO_A_PROPOSITO
    }
    assert not largos, f"parte estos módulos por lo que hace cada trozo: {largos}"


def test_ninguna_funcion_pasa_de_80_lineas():
    largas = [
        f"{_relativa(m)}:{f.lineno} {f.name} ({f.end_lineno - f.lineno + 1})"
        for m in MODULOS
        for f in ast.walk(ast.parse(m.read_text(encoding="utf-8")))
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.end_lineno - f.lineno + 1 > 80
    ]
    assert not largas, f"saca una parte de cada una a su propia función: {largas}"
