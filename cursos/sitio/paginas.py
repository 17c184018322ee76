"""Las páginas HTML del sitio: la portada del curso y una página por lección.

La página de una lección sale de la misma fuente que su cuaderno de JupyterLite.
"""

import ast
import builtins
import json
import re
from dataclasses import dataclass, field

import jinja2
import markupsafe
from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from pygments.style import Style
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from cursos.carga import ficheros_cargados
from cursos.contrato import AVISO_PYTHON
from cursos.desafio import Desafio
from cursos.manifiesto import Curso, Leccion
from cursos.preguntas import preguntas_de
from cursos.sitio.laboratorio_de_inyecciones import CODIGO_DEL_LABORATORIO, URL_DEL_CUADERNO
from cursos.sitio.laboratorio_de_inyecciones import servidores as servidores_del_laboratorio
from cursos.sitio.lite import ruta_del_desafio, url_del_cuaderno
from cursos.sitio.servir import politica_de_contenido

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
_PLANTILLAS = jinja2.Environment(
    loader=jinja2.PackageLoader("cursos.sitio", "plantillas"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)
_PLANTILLAS.globals["politica_de_contenido"] = politica_de_contenido  # base.html: la <meta> de la CSP


class EstiloDelCurso(Style):
    """Los colores del código, en la página y en el editor: todos con contraste >= 4.5:1 (WCAG AA)
    sobre el fondo de las cajas de código (lo comprueba tests/navegador/test_experiencia.py)."""

    background_color = "#f1efe9"
    styles = {
        Comment: "italic #585e66",
        Keyword: "bold #7a2a6b",
        Operator.Word: "bold #7a2a6b",
        Name.Builtin: "#1d5c1d",
        Name.Builtin.Pseudo: "#1d5c1d",
        Name.Function: "#1c4d91",
        Name.Class: "bold #1c4d91",
        Name.Decorator: "#6a3a12",
        Name.Exception: "#8f2a22",
        Name.Namespace: "#1c4d91",
        String: "#8a3508",
        String.Escape: "#6a3a12",
        String.Interpol: "#6a3a12",
        Number: "#1d5c5c",
        Error: "#a4262c",
    }


_FORMATO = HtmlFormatter(nowrap=True, style=EstiloDelCurso)


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
    """Markdown a HTML; una tabla va en una caja que se desliza entera (no parte sus columnas)."""
    html = _MARKDOWN.render(texto)
    return html.replace(
        "<table>", '<div class="tabla" role="region" aria-label="Tabla (se desliza a los lados)"><table>'
    ).replace("</table>", "</table></div>")


def css_del_resaltado() -> str:
    """Los colores del código pintado (.codigo) y del editor (.cm-content: CodeMirror pone las
    mismas clases de Pygments, editor.mjs); sin el segundo, editar quitaba los colores."""
    return _FORMATO.get_style_defs(".codigo") + "\n" + _FORMATO.get_style_defs(".cm-content")


_IMAGEN = re.compile(r'<img src="([^"/]+)\.png" alt="([^"]*)" */?>')


def figuras_ampliables(html: str, leccion: Leccion) -> str:
    """Cada figura se amplía: enlaza a su versión grande.

    Si su fuente SVG está al lado de la lección (la construcción lo copia junto al PNG), la
    página enseña el SVG: nítido a cualquier tamaño y unas 25 veces más ligero que el PNG a
    doble resolución, que sigue siendo lo que cita la prosa para los cuadernos. Si no, el PNG.
    """

    def enlaza(m: re.Match) -> str:
        nombre = m.group(1)
        imagen = m.group(0)
        grande = f"{nombre}.png"
        if (leccion.carpeta / f"{nombre}.svg").exists():
            grande = f"{nombre}.svg"
            imagen = imagen.replace(f'src="{nombre}.png"', f'src="{grande}"')
        # Perezosa: la figura no compite con Python por la red ni por la CPU al abrir la página.
        imagen = imagen.replace("<img ", '<img loading="lazy" decoding="async" ', 1)
        return f'<a class="figura" href="{grande}">{imagen}<span class="ampliar">Ampliar la figura</span></a>'

    return _IMAGEN.sub(enlaza, html)


def pistas_de(slug: str) -> list[str]:
    """Las pistas de un desafío, de menos a más, en HTML (las lee el desafío: Desafio.pistas)."""
    return [markdown(texto) for texto in Desafio(slug).pistas()]


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


def nombres_definidos(codigo: str) -> set[str]:
    """Los nombres que la celda define (asigna, importa, def, class), con la misma aproximación."""
    definidos = set()
    for nodo in ast.walk(ast.parse(codigo)):
        if isinstance(nodo, ast.Name) and not isinstance(nodo.ctx, ast.Load):
            definidos.add(nodo.id)
        elif isinstance(nodo, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            definidos.add(nodo.name)
        elif isinstance(nodo, ast.alias):
            definidos.add((nodo.asname or nodo.name).split(".")[0])
    return definidos


def _carga_modulos(codigo: str) -> bool:
    """¿Ejecuta otro fichero (exec(open("harness.py")…))? Entonces define nombres que no se ven aquí."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "exec"
        for n in ast.walk(ast.parse(codigo))
    )


def dependencias(fuentes: list[str]) -> list[list[int]]:
    """Para cada celda (numeradas desde 1), las anteriores que hay que ejecutar antes: las que definen
    lo que usa, y lo que usan ellas. Un nombre que no define ninguna se atribuye a las que cargan
    módulos con exec(…); si tampoco hay ninguna, a todas las anteriores (mejor de más que de menos)."""
    definen, cargan, resultado = [], [], []
    for numero, fuente in enumerate(fuentes, start=1):
        directas = set()
        for nombre in nombres_de_fuera(fuente):
            quienes = [i for i, d in enumerate(definen, start=1) if nombre in d]
            directas |= {quienes[-1]} if quienes else set(cargan) or set(range(1, numero))
        todas = set(directas)
        for anterior in directas:
            todas |= set(resultado[anterior - 1])
        resultado.append(sorted(todas))
        definen.append(nombres_definidos(fuente))
        if _carga_modulos(fuente):
            cargan.append(numero)
    return resultado


def lista_de_celdas(numeros: list[int]) -> str:
    """«1 a 3» si van seguidas; si no, «1, 2 y 4»."""
    if len(numeros) > 2 and numeros == list(range(numeros[0], numeros[-1] + 1)):
        return f"{numeros[0]} a {numeros[-1]}"
    return " y ".join([", ".join(map(str, numeros[:-1])), str(numeros[-1])]) if len(numeros) > 1 else str(numeros[0])


def bloques_de(leccion: Leccion) -> list[Bloque]:
    """La lección en orden: prosa y celdas de código.

    Sale de la misma fuente que el cuaderno (lecciones/<slug>/leccion.md), sin lo que
    cuaderno_de añade sólo para Jupyter (la celda de preparación delante y la de widgets de
    las preguntas detrás): la página pinta preguntas y desafío en sus propias secciones, y
    un módulo que falta lo dice el worker. Las celdas de la lección se numeran igual en los
    dos (en el cuaderno, contando desde la de después de la preparación): lo usa salidas.toml.
    """
    bloques, numero = [], 0
    celdas = leccion.celdas()
    deps = dependencias([c.fuente for c in celdas if c.es_codigo])
    for celda in celdas:
        if celda.es_codigo:
            numero += 1
            anteriores = deps[numero - 1]
            html = highlight(celda.fuente, PythonLexer(), _FORMATO)
            bloques.append(Bloque(celda=CeldaDeCodigo(numero, celda.fuente, html, anteriores)))
        elif celda.tipo == "markdown":
            bloques.append(Bloque(prosa=figuras_ampliables(markdown(celda.fuente), leccion)))
    return bloques


def preguntas_para_la_pagina(leccion: Leccion) -> list[dict]:
    """Lo que se enseña de cada pregunta: enunciado y opciones.

    Ni «correcta» ni «explicacion» van al html: corregir es cosa del gancho de preguntas.
    """
    return [
        {
            "numero": i,
            "id": p["id"],
            "tipo": p["tipo"],
            "aviso": p["aviso"],
            "enunciado": markdown(p["enunciado"]),
            "opciones": [markdown(o["texto"]) for o in p["opcion"]],
        }
        for i, p in enumerate(preguntas_de(leccion), start=1)
    ]


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
        "pistas": pistas_de(desafio.slug),
        "esqueleto_html": markupsafe.Markup(highlight(desafio.esqueleto(), PythonLexer(), _FORMATO)),
    }


def _json_en_script(valor) -> markupsafe.Markup:
    """JSON que se puede poner dentro de <script>: un «</script>» en el código no lo cierra."""
    return markupsafe.Markup(json.dumps(valor, ensure_ascii=False).replace("<", "\\u003c"))


def pagina_de_leccion(curso: Curso, leccion: Leccion, pyodide: str, recursos: str, descarga: dict | None = None) -> str:
    """descarga: los bytes de los ficheros grandes de Pyodide, sin comprimir y comprimidos
    ({"pyodide.asm.wasm": {"identity": n, "br": n, "gzip": n}, …}): la barra de la celda dice
    cuánto lleva de lo que de verdad pasa por la red."""
    bloques = bloques_de(leccion)
    enunciado = Desafio(leccion.desafio).enunciado() if leccion.desafio else None
    celdas = [b.celda for b in bloques if b.celda]
    posicion = curso.lecciones.index(leccion)
    editor = desafio_para_la_pagina(curso, leccion)
    datos_del_editor = {k: v for k, v in (editor or {}).items() if k != "esqueleto_html"} or None
    # Si la prosa ya titula las preguntas («## Comprueba tu intuición»), la sección no repite el título.
    titulo_en_prosa = any(b.prosa and "<h2>Comprueba tu intuición</h2>" in b.prosa for b in bloques)
    return _PLANTILLAS.get_template("leccion.html").render(
        raiz="../../../",
        recursos=recursos,
        curso=curso,
        leccion=leccion,
        bloques=bloques,
        desafio=markdown(enunciado) if enunciado else None,
        editor=editor,
        editor_json=_json_en_script(datos_del_editor),
        preguntas=preguntas_para_la_pagina(leccion),
        titulo_en_prosa=titulo_en_prosa,
        bloque=_bloque_de(curso, leccion),
        lista_de_celdas=lista_de_celdas,
        # Lo mismo que dice el cuaderno que se entrega: las pruebas de aquí corren en 3.14, el calificador no.
        aviso_python=markupsafe.Markup(_MARKDOWN.renderInline(AVISO_PYTHON)),
        url_lite=url_del_cuaderno(curso, leccion),  # un solo sitio construye los enlaces a JupyterLite
        url_desafio_lite=url_del_cuaderno(curso, leccion, desafio=True) if editor else None,
        anterior=curso.lecciones[posicion - 1] if posicion else None,
        siguiente=curso.lecciones[posicion + 1] if posicion + 1 < len(curso.lecciones) else None,
        celdas_json=_json_en_script(
            [{"numero": c.numero, "fuente": c.fuente, "depende_de": c.depende_de} for c in celdas]
        ),
        python_json=_json_en_script(
            {
                "curso": f"courses/{curso.slug}/",
                "modulos": modulos_de_la_pagina(curso, celdas),
                "pyodide": pyodide,
                "descarga": descarga or {},
                # El cuaderno para entregar, al lado de la página: se guarda para sin conexión.
                "cuaderno": editor["cuaderno"] if editor else None,
            }
        ),
        megas_de_python=_megas(descarga),
        preguntas_json=_json_en_script(preguntas_de(leccion)),
    )


def _megas(descarga: dict | None) -> str:
    """«unos 6 MB»: lo que baja la primera vez con Brotli (o sin comprimir si no hay copias)."""
    if not descarga:
        return "unos 15 MB"
    total = sum(t.get("br", t["identity"]) for t in descarga.values())
    return f"unos {max(1, round(total / 1e6))} MB"


def modulos_de_la_pagina(curso: Curso, celdas) -> list[str]:
    """Los módulos del curso que cargan las celdas de la lección (y los que carguen ésos), en el
    orden del manifiesto. El worker los baja antes de la primera salida: bajarlos todos en cada
    página añadía ~80 KB al camino crítico. El desafío lleva aparte los suyos; JupyterLite, todos."""
    pendientes = [f for c in celdas for f in ficheros_cargados(c.fuente)]
    vistos = set()
    while pendientes:
        nombre = pendientes.pop()
        if nombre in vistos or nombre not in curso.modulos:
            continue
        vistos.add(nombre)
        pendientes += ficheros_cargados(curso.modulo(nombre).read_text(encoding="utf-8"))
    return [m for m in curso.modulos if m in vistos]


def _bloque_de(curso: Curso, leccion: Leccion) -> dict:
    titulo = next((b.titulo for b in curso.bloques if b.slug == leccion.bloque), "")
    return {"titulo": titulo}


def pagina_de_inicio(curso: Curso, recursos: str) -> str:
    """La portada: para quién es, qué supone, dónde corre cada cosa y los bloques con sus lecciones.

    Cada lección lleva lo que hace falta para pintar el progreso que guarda el navegador
    (recursos/inicio.mjs): cuántas preguntas tiene y si tiene desafío. Los bloques sin
    lecciones no se enseñan.
    """
    bloques = []
    for numero, b in enumerate(
        (b for b in curso.bloques if any(lc.bloque == b.slug for lc in curso.lecciones)), start=1
    ):
        lecciones = [
            {"leccion": lc, "preguntas": len(preguntas_de(lc)), "numero": curso.lecciones.index(lc) + 1}
            for lc in curso.lecciones
            if lc.bloque == b.slug
        ]
        bloques.append(
            {
                "numero": numero,
                "titulo": b.titulo,
                "descripcion": b.descripcion,
                "minutos": sum(x["leccion"].minutos for x in lecciones),
                "lecciones": lecciones,
            }
        )
    return _PLANTILLAS.get_template("inicio.html").render(
        raiz="",
        recursos=recursos,
        curso=curso,
        bloques=bloques,
        primera=curso.lecciones[0],
        minutos=sum(lc.minutos for lc in curso.lecciones),
        # Los textos que comparte con la portada de los cuadernos (cursos/portada.py): del manifiesto.
        presentacion={k: _MARKDOWN.renderInline(v) for k, v in curso.presentacion.items()},
    )


# La página del laboratorio de inyecciones, en la raíz del sitio; sólo si el manifiesto nombra servidores.
LABORATORIO = "laboratorio/"


def pagina_del_laboratorio(curso: Curso, pyodide: str, recursos: str) -> str:
    """La página que corre los escenarios de cursos/modelo/escenarios.py en el worker, contra el modelo elegido."""
    raiz = "../"
    datos = {
        "pyodide": raiz + pyodide,
        "curso": f"{raiz}courses/{curso.slug}/",
        "modulos": curso.modulos,
        "archivos": list(CODIGO_DEL_LABORATORIO) + ["fuentes.json"],
        "servidores": servidores_del_laboratorio(curso),
    }
    return _PLANTILLAS.get_template("laboratorio.html").render(
        raiz=raiz, recursos=recursos, curso=curso, datos_json=_json_en_script(datos), cuaderno=URL_DEL_CUADERNO
    )
