"""De la fuente de una lección (Markdown de jupytext) a un cuaderno .ipynb.

La fuente es Markdown para que los cambios se lean bien en un diff; el .ipynb
se genera siempre y nunca se edita a mano. Junto a cada cuaderno se copian los
tres módulos del curso, porque las celdas los cargan con open("harness.py").
"""

import base64
import shutil
from pathlib import Path

import nbformat

from cursos import RAIZ
from cursos.carga import ficheros_cargados
from cursos.desafio import Desafio
from cursos.manifiesto import Curso, Leccion
from cursos.preguntas import como_json, preguntas_de

KERNEL = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


AUTOEVALUACION = RAIZ / "cursos" / "widgets" / "autoevaluacion.py"


def celdas_de_preguntas(leccion: Leccion) -> list:
    """Un título y una celda que muestra las preguntas con ipywidgets."""
    codigo = (
        "# Marca tu respuesta y pulsa «Comprobar»; puedes repetirlas cuantas veces quieras.\n"
        'exec(open("autoevaluacion.py", encoding="utf-8").read())\n'
        f'muestra_preguntas("{leccion.slug}.preguntas.json")'
    )
    return [nbformat.v4.new_markdown_cell("## Preguntas"), nbformat.v4.new_code_cell(codigo)]


ETIQUETA_PREPARACION = "preparacion"


def celda_de_preparacion(ficheros: list[str]) -> nbformat.NotebookNode:
    """La primera celda: si falta un fichero que las celdas abren, lo dice en español.

    Sin ella, un cuaderno copiado sin sus módulos daría el FileNotFoundError de Python, en
    inglés. No imprime nada si todo está en su sitio.
    """
    codigo = (
        # Con el código oculto, JupyterLab enseña sólo esta primera línea.
        "# Preparación: comprueba que los ficheros que abren las celdas están junto al cuaderno.\n"
        "import os\n"
        f"faltan = [f for f in {ficheros!r} if not os.path.exists(f)]\n"
        "if faltan:\n"
        "    raise FileNotFoundError(\n"
        '        "Faltan junto a este cuaderno: " + ", ".join(faltan) + ". Abre el cuaderno desde "\n'
        '        "la carpeta que los trae (en JupyterLite ya están; en tu ordenador, la que "\n'
        '        "escribe ./curso cuadernos) y vuelve a ejecutarlo desde aquí.")'
    )
    # Código oculto (JupyterLab enseña una barra plegada que se abre con un clic): es técnica,
    # no parte de la lección, y sin ocultarla lo primero que ve el alumno es ella y no el título.
    return nbformat.v4.new_code_cell(
        codigo, metadata={"tags": [ETIQUETA_PREPARACION], "jupyter": {"source_hidden": True}}
    )


def ficheros_que_abre(cuaderno: nbformat.NotebookNode, leccion: Leccion) -> list[str]:
    """Los ficheros que abren sus celdas, y el de las preguntas, en orden y sin repetir."""
    abiertos = [f for c in cuaderno.cells if c.cell_type == "code" for f in ficheros_cargados(c.source)]
    if preguntas_de(leccion):
        abiertos.append(f"{leccion.slug}.preguntas.json")
    return list(dict.fromkeys(abiertos))


def incrusta_imagenes(cuaderno: nbformat.NotebookNode, leccion: Leccion) -> None:
    """Las figuras de la prosa, dentro de la celda como data: URI: ![…](data:image/png;base64,…).

    Así el cuaderno se basta solo (JupyterLite no resuelve rutas relativas en el Markdown y un
    cuaderno copiado a otra carpeta sigue enseñando sus figuras). No como adjunto
    (attachment:): JupyterLab pinta primero <img src="attachment:…"> y el navegador intenta
    cargarlo, un error de consola cada vez que se abre el cuaderno.
    """
    for celda in cuaderno.cells:
        if celda.cell_type != "markdown":
            continue
        for imagen in leccion.imagenes:
            if f"]({imagen.name})" in celda.source:
                datos = base64.b64encode(imagen.read_bytes()).decode("ascii")
                celda.source = celda.source.replace(f"]({imagen.name})", f"](data:image/png;base64,{datos})")


_NUEVA_CELDA = {
    "code": nbformat.v4.new_code_cell,
    "markdown": nbformat.v4.new_markdown_cell,
    "raw": nbformat.v4.new_raw_cell,
}


def cuaderno_de(leccion: Leccion) -> nbformat.NotebookNode:
    """El cuaderno de la lección: su fuente, sus preguntas y el enunciado de su desafío."""
    cuaderno = nbformat.v4.new_notebook(
        cells=[
            _NUEVA_CELDA[c.tipo](c.fuente, metadata={"tags": list(c.etiquetas)} if c.etiquetas else {})
            for c in leccion.celdas()
        ]
    )
    if preguntas_de(leccion):
        cuaderno.cells.extend(celdas_de_preguntas(leccion))
    cuaderno.cells.insert(0, celda_de_preparacion(ficheros_que_abre(cuaderno, leccion)))
    incrusta_imagenes(cuaderno, leccion)
    enunciado = Desafio(leccion.desafio).enunciado() if leccion.desafio else ""
    if enunciado:
        cuaderno.cells.append(nbformat.v4.new_markdown_cell(enunciado))
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
    """Escribe un cuaderno por lección, con lo que sus celdas abren al lado. Devuelve sus rutas.

    Al lado van los módulos del curso, autoevaluacion.py y <lección>.preguntas.json (las
    figuras van dentro de cada cuaderno).
    Es la única forma de escribir cuadernos: la usan JupyterLite, Jupyter local y las pruebas.
    """
    copia_modulos(curso, destino)
    shutil.copy2(AUTOEVALUACION, destino / AUTOEVALUACION.name)
    rutas = []
    for leccion in curso.lecciones:
        preguntas = preguntas_de(leccion)
        if preguntas:
            (destino / f"{leccion.slug}.preguntas.json").write_text(como_json(preguntas), encoding="utf-8")
        ruta = destino / f"{leccion.slug}.ipynb"
        nbformat.write(cuaderno_de(leccion), ruta)
        rutas.append(ruta)
    return rutas
