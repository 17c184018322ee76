"""La portada de los cuadernos (00-portada.ipynb): la entrada al curso en JupyterLite y en Jupyter.

Dice lo mismo que la portada del sitio (para quién es, qué supone, el modelo guionizado: la
[presentacion] del manifiesto) y, en orden, los bloques y las lecciones con sus minutos y un
enlace relativo a cada cuaderno. Sólo Markdown: se lee sin ejecutar nada. Lo único que cambia
entre los dos sitios es dónde corre el código y dónde está cada cuaderno.
"""

from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import nbformat

from cursos.cuadernos import KERNEL
from cursos.desafio import Desafio
from cursos.manifiesto import Curso, Leccion

NOMBRE = "00-portada.ipynb"  # el 00 la pone antes que las carpetas 01-…, 02-… en el explorador

# Dónde corre el código, según quién abre los cuadernos.
DONDE_LITE = """\
- **Todo en tu navegador, nada que instalar.** Estos cuadernos corren en JupyterLite: Jupyter
  dentro del navegador, con el Python de Pyodide (unos 15 MB la primera vez que arranca; después
  sale de la caché). Lo que cambias se guarda en este navegador.
- **Una carpeta por lección**, numeradas en el orden del curso: el cuaderno de la lección, con los
  módulos que cargan sus celdas al lado, y la carpeta de su desafío con el cuaderno que se entrega
  (descárgalo con Archivo › Descargar: baja el mismo fichero que «Descargar para entregar» en la
  página, con tu código, tu identificador y la hora; súbelo tal cual a la tarea del aula virtual o
  donde diga tu profesor)."""

DONDE_LOCAL = """\
- **En tu ordenador, con tu Python** (3.11 o más). Estos cuadernos los ha escrito
  `./curso cuadernos` para Jupyter: los módulos que cargan sus celdas están en esta misma carpeta
  y sólo usan la biblioteca estándar (las preguntas, ipywidgets). Ábrelos desde aquí.
- **Un cuaderno por lección.** El enunciado de cada desafío va al final del cuaderno de su lección;
  el cuaderno que se califica te lo reparte tu profesor. Las mismas lecciones corren también en el
  navegador, en el sitio del curso, sin instalar nada."""

# Para cada lección: el enlace a su cuaderno y el de su desafío (None si no hay cuaderno aparte).
Enlaces = Callable[[Leccion], tuple[str, str | None]]


def enlaces_locales(leccion: Leccion) -> tuple[str, str | None]:
    """En la carpeta de ./curso cuadernos: todos los cuadernos juntos; el desafío va dentro del de la lección."""
    return f"{leccion.slug}.ipynb", None


def bloques_con_lecciones(curso: Curso) -> list[dict]:
    """Los bloques que tienen lecciones, numerados como en la portada del sitio, con sus minutos."""
    bloques = []
    for b in curso.bloques:
        lecciones = [lc for lc in curso.lecciones if lc.bloque == b.slug]
        if lecciones:
            bloques.append(
                {
                    "numero": len(bloques) + 1,
                    "titulo": b.titulo,
                    "descripcion": b.descripcion,
                    "minutos": sum(lc.minutos for lc in lecciones),
                    "lecciones": lecciones,
                }
            )
    return bloques


def titulo_del_desafio(leccion: Leccion) -> str:
    """El título del enunciado («## Desafío: el esquema mira la forma» → «el esquema mira la forma»)."""
    enunciado = Desafio(leccion.desafio).enunciado() if leccion.desafio else ""
    primera = enunciado.strip().splitlines()[:1]
    titulo = primera[0].lstrip("#").strip() if primera else ""
    return titulo.split(":", 1)[1].strip() if titulo.lower().startswith("desafío:") else titulo or leccion.desafio


def _enlace(texto: str, ruta: str) -> str:
    return f"[{texto}]({quote(ruta)})"


def _indice(curso: Curso, enlaces: Enlaces) -> str:
    minutos = sum(lc.minutos for lc in curso.lecciones)
    partes = [f"## Las lecciones, en orden\n\n{len(curso.lecciones)} lecciones, unos {minutos} minutos en total."]
    numero = 0
    for bloque in bloques_con_lecciones(curso):
        texto = f"### Bloque {bloque['numero']} · {bloque['titulo']} ({bloque['minutos']} min)\n"
        if bloque["descripcion"]:
            texto += f"\n{bloque['descripcion']}\n"
        lineas = []
        for leccion in bloque["lecciones"]:
            numero += 1
            cuaderno, desafio = enlaces(leccion)
            linea = f"{numero}. {_enlace(leccion.titulo, cuaderno)} · {leccion.minutos} min"
            if desafio:
                linea += f" · desafío: {_enlace(titulo_del_desafio(leccion), desafio)}"
            elif leccion.desafio:
                linea += f" · desafío: {titulo_del_desafio(leccion)} (al final del cuaderno)"
            lineas.append(linea)
        partes.append(texto + "\n" + "\n".join(lineas))
    return "\n\n".join(partes)


def cuaderno_de_portada(
    curso: Curso, enlaces: Enlaces, donde: str, laboratorio: str | None = None
) -> nbformat.NotebookNode:
    """La portada: la presentación del manifiesto, dónde corre (donde, en Markdown) y el índice enlazado.

    laboratorio: la ruta del cuaderno del laboratorio de inyecciones, si lo hay (sólo en JupyterLite
    y con servidores del modelo en el manifiesto).
    """
    p = curso.presentacion
    celdas = [
        f"# {curso.titulo}\n\n{curso.descripcion}",
        f"## Para quién es\n\n{p['para_quien']}\n\n## Qué supone\n\n{p['supone']}",
        f"## Qué corre dónde\n\n{donde}\n- " + p["modelo"].replace("\n", "\n  "),
        _indice(curso, enlaces),
    ]
    if laboratorio:
        celdas.append(
            "## Con un modelo de verdad\n\n"
            f"{_enlace('El laboratorio de inyecciones', laboratorio)} repite el ataque de cada lección contra "
            "uno de los modelos que ha nombrado tu profesor, sin la defensa y con ella, y cuenta cuántas "
            "veces el modelo propone la acción inyectada, cuántas ocurre y cuántas se hace la tarea."
        )
    cuaderno = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(c) for c in celdas])
    cuaderno.metadata["kernelspec"] = KERNEL
    cuaderno.metadata["language_info"] = {"name": "python"}
    cuaderno.metadata["curso"] = {"portada": curso.slug, "titulo": curso.titulo}
    for i, celda in enumerate(cuaderno.cells):
        celda["id"] = f"portada-{i}"  # ids estables, como los de las lecciones
    nbformat.validate(cuaderno)
    return cuaderno


def escribe_portada(
    curso: Curso,
    destino: Path,
    enlaces: Enlaces = enlaces_locales,
    donde: str = DONDE_LOCAL,
    laboratorio: str | None = None,
) -> Path:
    """Escribe destino/00-portada.ipynb; por omisión, la de la carpeta de ./curso cuadernos."""
    destino.mkdir(parents=True, exist_ok=True)
    ruta = destino / NOMBRE
    nbformat.write(cuaderno_de_portada(curso, enlaces, donde, laboratorio), ruta)
    return ruta
