"""De la fuente de una lección (Markdown de jupytext) a un cuaderno .ipynb.

La fuente es Markdown para que los cambios se lean bien en un diff; el .ipynb
se genera siempre y nunca se edita a mano. Junto a cada cuaderno se copian los
tres módulos del curso, porque las celdas los cargan con open("harness.py").
"""

import shutil
from pathlib import Path

import jupytext
import nbformat

from cursos import RAIZ
from cursos.manifiesto import Curso, Leccion
from cursos.preguntas import como_markdown, preguntas_de

KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def enunciado_del_desafio(leccion: Leccion) -> str | None:
    """El enunciado del desafío de la lección, en Markdown, o None si no tiene."""
    if not leccion.desafio:
        return None
    return (RAIZ / "desafios" / leccion.desafio / "enunciado.md").read_text(encoding="utf-8")


def cuaderno_de(leccion: Leccion) -> nbformat.NotebookNode:
    """El cuaderno de la lección: su fuente, sus preguntas y el enunciado de su desafío."""
    cuaderno = jupytext.read(leccion.fuente, fmt="md")
    preguntas = preguntas_de(leccion)
    if preguntas:
        cuaderno.cells.append(nbformat.v4.new_markdown_cell(como_markdown(preguntas)))
    enunciado = enunciado_del_desafio(leccion)
    if enunciado:
        cuaderno.cells.append(nbformat.v4.new_markdown_cell(enunciado))
    cuaderno.metadata.pop("jupytext", None)
    cuaderno.metadata["kernelspec"] = KERNEL
    cuaderno.metadata["language_info"] = {"name": "python"}
    cuaderno.metadata["curso"] = {"leccion": leccion.slug, "titulo": leccion.titulo}
    for i, celda in enumerate(cuaderno.cells):
        celda["id"] = f"{leccion.slug}-{i}"  # ids estables: el diff de la salida no cambia sin motivo
    nbformat.validate(cuaderno)
    return cuaderno


def copia_modulos(curso: Curso, destino: Path) -> None:
    """Copia los módulos compartidos a la carpeta donde estarán los cuadernos."""
    destino.mkdir(parents=True, exist_ok=True)
    for nombre in curso.modulos:
        shutil.copy2(curso.modulo(nombre), destino / nombre)


def escribe_cuadernos(curso: Curso, destino: Path) -> list[Path]:
    """Escribe un cuaderno por lección, con los módulos al lado. Devuelve sus rutas."""
    copia_modulos(curso, destino)
    rutas = []
    for leccion in curso.lecciones:
        ruta = destino / f"{leccion.slug}.ipynb"
        nbformat.write(cuaderno_de(leccion), ruta)
        rutas.append(ruta)
    return rutas
