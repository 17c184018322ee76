"""Copias de lo que el curso ya da, con otro nombre: lo que entregaría quien copia y renombra.

De cada función que el alumno escribe se busca, entre las funciones de las celdas de su lección y
de los módulos del curso, la que más se parece a la solución de referencia. El parecido se mide
sobre el texto normalizado: sin comentarios ni docstrings y con cada nombre propio cambiado por
«N», de modo que renombrar variables o la función no lo esconde. La copia es la función elegida
con el nombre y los parámetros de la referencia, detrás de todas las celdas de la lección (las
funciones auxiliares que use vienen de allí): una copia armada con varias celdas.
"""

import ast
import builtins
import difflib
import io
import keyword
import tokenize

from cursos import RAIZ, celdas
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso

CURSO = leer_curso()
_PROPIOS = set(dir(builtins)) | set(keyword.kwlist)
_SIN_PESO = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT}


def normalizada(fuente: str) -> list[str]:
    """Los tokens de la fuente sin comentarios ni docstrings, con cada nombre propio como «N»."""
    arbol = ast.parse(fuente)
    for nodo in ast.walk(arbol):
        cuerpo = getattr(nodo, "body", None)
        if isinstance(cuerpo, list) and cuerpo and isinstance(cuerpo[0], ast.Expr):
            if isinstance(cuerpo[0].value, ast.Constant) and isinstance(cuerpo[0].value.value, str):
                nodo.body = cuerpo[1:] or [ast.Pass()]
    fichas = []
    for ficha in tokenize.generate_tokens(io.StringIO(ast.unparse(arbol)).readline):
        if ficha.type == tokenize.NAME and ficha.string not in _PROPIOS:
            fichas.append("N")
        elif ficha.type not in _SIN_PESO:
            fichas.append(ficha.string)
    return fichas


def parecido(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, normalizada(a), normalizada(b), autojunk=False).ratio()


def _funciones(fuente: str) -> dict[str, ast.FunctionDef]:
    try:
        arbol = ast.parse(fuente)
    except SyntaxError:  # una celda con magias de IPython: no trae funciones que copiar
        return {}
    return {n.name: n for n in arbol.body if isinstance(n, ast.FunctionDef)}


def _lo_que_da_el_curso(desafio: Desafio) -> dict[str, tuple[ast.FunctionDef, str]]:
    """{nombre: (función, la celda o el módulo que la define)}: las celdas de la lección y los módulos
    que carga el desafío (enteros, también lo que el desafío les quita)."""
    fuentes = [(RAIZ / r).read_text(encoding="utf-8") for r in desafio.rutas_de_modulos]
    fuentes += [f for f, _ in celdas.celdas_de_codigo(CURSO.leccion(desafio.leccion).fuente)]
    return {n: (f, fuente) for fuente in fuentes for n, f in _funciones(fuente).items()}


def _renombrada(funcion: ast.FunctionDef, como: ast.FunctionDef) -> str:
    """La función con el nombre y los parámetros (por posición) de `como`."""
    copia = ast.parse(ast.unparse(funcion)).body[0]
    nuevos = {a.arg: b.arg for a, b in zip(copia.args.args, como.args.args, strict=False)}
    for nodo in ast.walk(copia):
        if isinstance(nodo, ast.Name) and nodo.id in nuevos:
            nodo.id = nuevos[nodo.id]
        elif isinstance(nodo, ast.arg) and nodo.arg in nuevos:
            nodo.arg = nuevos[nodo.arg]
    copia.name = como.name
    return ast.unparse(copia)


def mas_parecidas(desafio: Desafio) -> dict[str, tuple[str, float]]:
    """{función del alumno: (la función del curso que más se le parece, parecido)}."""
    dadas = _lo_que_da_el_curso(desafio)
    referencia = _funciones(desafio.lee("solucion.py"))
    elegidas = {}
    for nombre in desafio.funciones:
        ref = ast.unparse(referencia[nombre])
        elegidas[nombre] = max(((n, parecido(ref, ast.unparse(f))) for n, (f, _) in dadas.items()), key=lambda x: x[1])
    return elegidas


def copia_renombrada(desafio: Desafio) -> str:
    """Las celdas (o módulos) que definen las funciones más parecidas y, detrás, cada una con el nombre
    y los parámetros de la del alumno: una copia armada con varias celdas, con otro nombre."""
    dadas = _lo_que_da_el_curso(desafio)
    referencia = _funciones(desafio.lee("solucion.py"))
    elegidas = [e for e, _ in mas_parecidas(desafio).values()]
    fuentes = list(dict.fromkeys(dadas[e][1] for e in elegidas))
    copias = [_renombrada(dadas[e][0], referencia[n]) for n, e in zip(desafio.funciones, elegidas, strict=True)]
    return "\n\n\n".join(fuentes + copias) + "\n"
