"""Las páginas HTML del sitio: la portada del curso y una página por lección.

La página de una lección sale de la misma fuente que su cuaderno de JupyterLite.
"""

import ast
import builtins
import json
from dataclasses import dataclass, field

import jinja2
import jupytext
import markupsafe
from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from cursos.calificador.fuente import Desafio
from cursos.cuadernos import enunciado_del_desafio
from cursos.manifiesto import Curso, Leccion
from cursos.preguntas import TIPOS, preguntas_de
from cursos.sitio.lite import ruta_del_cuaderno, ruta_del_desafio

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
_PLANTILLAS = jinja2.Environment(
    loader=jinja2.PackageLoader("cursos.sitio", "plantillas"),
    autoescape=True, trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
_FORMATO = HtmlFormatter(nowrap=True)


@dataclass
class CeldaDeCodigo:
    numero: int  # 1 es la primera celda de código, como en salidas.toml
    fuente: str
    html: str
    depende_de: list[int] = field(default_factory=list)


@dataclass
class Bloque:
    """Un trozo de la página en orden: prosa (html) o una celda de código."""
    prosa: str = ""
    celda: CeldaDeCodigo | None = None


def markdown(texto: str) -> str:
    return _MARKDOWN.render(texto)


def css_del_resaltado() -> str:
    return _FORMATO.get_style_defs(".codigo")


def nombres_de_fuera(codigo: str) -> set[str]:
    """Los nombres que la celda usa sin definirlos ella (ni ser de Python).

    Es una aproximación a propósito sencilla, sin ámbitos: basta para decir si la celda
    se apoya en algo que definió otra celda antes.
    """
    definidos, usados = set(), set()
    for nodo in ast.walk(ast.parse(codigo)):
        if isinstance(nodo, ast.Name):
            (usados if isinstance(nodo.ctx, ast.Load) else definidos).add(nodo.id)
        elif isinstance(nodo, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            definidos.add(nodo.name)
        elif isinstance(nodo, ast.arg):
            definidos.add(nodo.arg)
        elif isinstance(nodo, ast.alias):
            definidos.add((nodo.asname or nodo.name).split(".")[0])
    return usados - definidos - set(dir(builtins))


def bloques_de(leccion: Leccion) -> list[Bloque]:
    """La lección en orden: prosa y celdas de código.

    Sale de la misma fuente que el cuaderno (lecciones/<slug>/leccion.md), sin lo que
    cuaderno_de añade sólo para Jupyter (la celda de preparación delante y la de widgets de
    las preguntas detrás): la página pinta preguntas y desafío en sus propias secciones, y
    un módulo que falta lo dice el worker. Las celdas de la lección se numeran igual en los
    dos (en el cuaderno, contando desde la de después de la preparación): lo usa salidas.toml.
    """
    bloques, numero = [], 0
    for celda in jupytext.read(leccion.fuente, fmt="md").cells:
        if celda.cell_type == "code":
            numero += 1
            anteriores = list(range(1, numero)) if nombres_de_fuera(celda.source) else []
            html = highlight(celda.source, PythonLexer(), _FORMATO)
            bloques.append(Bloque(celda=CeldaDeCodigo(numero, celda.source, html, anteriores)))
        elif celda.cell_type == "markdown":
            bloques.append(Bloque(prosa=markdown(celda.source)))
    return bloques


def preguntas_para_la_pagina(leccion: Leccion) -> list[dict]:
    """Lo que se enseña de cada pregunta: enunciado y opciones.

    Ni «correcta» ni «explicacion» van al html: corregir es cosa del gancho de preguntas.
    """
    return [{
        "numero": i,
        "id": p["id"],
        "tipo": p["tipo"],
        "aviso": TIPOS[p["tipo"]],
        "enunciado": markdown(p["enunciado"]),
        "opciones": [markdown(o["texto"]) for o in p["opcion"]],
    } for i, p in enumerate(preguntas_de(leccion), start=1)]


def desafio_para_la_pagina(curso: Curso, leccion: Leccion) -> dict | None:
    """Lo que el editor del desafío necesita, de la misma fuente que el cuaderno repartido.

    El esqueleto, la partida y los ficheros los calcula el código del calificador (el mismo
    que hace release/), así que no hay una segunda versión que pueda quedarse atrás.
    Las pruebas ocultas (ocultas.py) no se incluyen: no salen nunca al sitio.
    """
    if not leccion.desafio:
        return None
    desafio = Desafio(leccion.desafio)
    return {
        "desafio": desafio.slug,
        "esqueleto": desafio.esqueleto(),
        "partida": desafio.partida(),
        "pruebas": desafio.pruebas(),
        "archivos": dict(desafio.modulos()),
        # El cuaderno repartido va junto a la página con este nombre, el que espera nbgrader.
        "cuaderno": desafio.cuaderno,
        "celda_solucion": desafio.celda_solucion,
        "lite": ruta_del_desafio(curso, leccion),
    }


def _json_en_script(valor) -> markupsafe.Markup:
    """JSON que se puede poner dentro de <script>: un «</script>» en el código no lo cierra."""
    return markupsafe.Markup(json.dumps(valor, ensure_ascii=False).replace("<", "\\u003c"))


def pagina_de_leccion(curso: Curso, leccion: Leccion, pyodide: str, recursos: str) -> str:
    bloques = bloques_de(leccion)
    enunciado = enunciado_del_desafio(leccion)
    celdas = [b.celda for b in bloques if b.celda]
    posicion = curso.lecciones.index(leccion)
    editor = desafio_para_la_pagina(curso, leccion)
    return _PLANTILLAS.get_template("leccion.html").render(
        raiz="../../../", recursos=recursos, curso=curso, leccion=leccion, bloques=bloques,
        desafio=markdown(enunciado) if enunciado else None, editor=editor,
        editor_json=_json_en_script(editor), preguntas=preguntas_para_la_pagina(leccion),
        cuaderno_lite=ruta_del_cuaderno(curso, leccion),
        anterior=curso.lecciones[posicion - 1] if posicion else None,
        siguiente=curso.lecciones[posicion + 1] if posicion + 1 < len(curso.lecciones) else None,
        celdas_json=_json_en_script([{"numero": c.numero, "fuente": c.fuente, "depende_de": c.depende_de}
                                     for c in celdas]),
        python_json=_json_en_script({"curso": f"courses/{curso.slug}/", "modulos": curso.modulos,
                                     "pyodide": pyodide}),
        preguntas_json=_json_en_script(preguntas_de(leccion)))


def pagina_de_inicio(curso: Curso, recursos: str) -> str:
    bloques = [{"titulo": b["titulo"], "lecciones": [lc for lc in curso.lecciones if lc.bloque == b["slug"]]}
               for b in curso.bloques]
    return _PLANTILLAS.get_template("inicio.html").render(raiz="", recursos=recursos, curso=curso,
                                                                bloques=bloques)
