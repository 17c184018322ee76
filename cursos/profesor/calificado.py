"""autograded/<alumno>/<desafío>/: el cuaderno calificado, como lo deja `nbgrader autograde`.

Es el cuaderno del alumno con los resultados de confianza (calificador.resultado.Resultados) en
las celdas de las pruebas, para `nbgrader generate_feedback` y formgrader. Antes de escribirlo
pasa por sin_solucion.py: nada de source/ que el alumno no entregara sale en él.
"""

import copy
import functools
import html
import json
import re
import shutil
from pathlib import Path

import nbformat

from cursos.calificador.resultado import Resultados
from cursos.contrato import prueba_del_id
from cursos.cuaderno_del_desafio import cuaderno_fuente
from cursos.desafio import Desafio
from cursos.profesor import sin_solucion
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.tiempo import MARCA


def _salida(nombre: str, mensaje: str | None, puntos: int) -> dict:
    if mensaje is None:
        return nbformat.v4.new_output("stream", name="stdout", text=f"✔ {nombre}: {puntos} de {puntos} puntos\n")
    return nbformat.v4.new_output(
        "error",
        ename="Fallo",
        evalue=f"✘ {nombre}: {mensaje}",
        traceback=[f"✘ {nombre} (0 de {puntos} puntos): {mensaje}"],
    )


# Lo que enseña la celda de la solución del cuaderno calificado cuando la entrega no la trae.
FALTA_LA_SOLUCION = "# La entrega no trae la solución del alumno: esta celda falta o no se ha podido leer."


@functools.cache
def _visible(desafio: Desafio) -> nbformat.NotebookNode:
    return cuaderno_fuente(desafio, ocultas=False)


def texto_plano(texto: str) -> str:
    """Para una celda de Markdown: ni HTML ni Markdown del alumno (![…](…), [enlaces], `código`)."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~>])", r"\\\1", html.escape(texto, quote=False))


def escribe_calificado(rutas: Carpetas, desafio: Desafio, alumno: str, r: Resultados) -> None:
    """autograded/<alumno>/<desafio>/: el cuaderno del alumno con los resultados de confianza."""
    cuaderno = copy.deepcopy(_visible(desafio))
    for celda in cuaderno.cells:
        gid = celda.metadata["nbgrader"]["grade_id"]
        if gid == desafio.celda_solucion:
            # Sólo lo que entregó el alumno: nunca la celda de source/, que lleva la solución del profesor.
            celda.source = r.solucion if r.solucion is not None else FALTA_LA_SOLUCION
            celda.metadata["curso"] = {"falta_la_solucion": r.solucion is None}
        if celda.metadata["nbgrader"]["grade"]:  # las celdas con nota son las de las pruebas
            nombre = prueba_del_id(gid)
            celda.outputs = [_salida(nombre, r.pruebas[nombre].motivo, r.pruebas[nombre].maximo)]
    if not r.calificable:
        # El motivo puede citar lo que trae la entrega (p. ej. su cell_type): escapado, no HTML.
        cuaderno.cells.insert(0, nbformat.v4.new_markdown_cell(f"**Entrega no calificable: {texto_plano(r.motivo)}.**"))
    for nota in reversed(r.notas):
        cuaderno.cells.insert(0, nbformat.v4.new_markdown_cell(f"**Nota del calificador:** {texto_plano(nota)}."))
    destino = rutas.de_alumno("autograded", alumno, desafio.slug)
    try:
        sin_solucion.comprueba(
            desafio,
            sin_solucion.texto_del_cuaderno(cuaderno),
            sin_solucion.lo_entregado(rutas.de_alumno("submitted", alumno, desafio.slug)),
            f"el cuaderno calificado de {alumno}",
        )
    except sin_solucion.LlevaLaSolucion:
        (destino / desafio.cuaderno).unlink(missing_ok=True)  # tampoco queda uno de antes que la lleve
        raise
    destino.mkdir(parents=True, exist_ok=True)
    # json.dump y no nbformat.write: validar el mismo esquema 200 veces cuesta más que calificar.
    with (destino / desafio.cuaderno).open("w", encoding="utf-8") as f:
        json.dump(cuaderno, f, ensure_ascii=False, indent=1)


def copia_hora(rutas: Carpetas, desafio: Desafio, alumno: str, carpeta: Path) -> None:
    """autograded/<alumno>/<desafío>/timestamp.txt, como lo deja nbgrader autograde."""
    destino = rutas.de_alumno("autograded", alumno, desafio.slug) / MARCA
    origen = carpeta / MARCA
    if origen.is_file() and not origen.is_symlink() and destino.parent.is_dir():
        shutil.copyfile(origen, destino)
    elif destino.exists():
        destino.unlink()
