"""Cada lección del manifiesto, convertida en cuaderno y ejecutada de arriba abajo en un kernel real."""

import re

import nbformat
import pytest
from nbclient import NotebookClient

from cursos import RAIZ
from cursos.cuadernos import ETIQUETA_PREPARACION, escribe_cuadernos
from cursos.manifiesto import leer_curso
from cursos.preguntas import preguntas_de
from cursos.salidas import afirmaciones, fallos

CURSO = leer_curso()


def texto_de_salidas(celda) -> str:
    """Lo que una celda ha mostrado: stdout y, si lo hay, el error."""
    partes = []
    for salida in celda.get("outputs", []):
        if salida.output_type == "stream":
            partes.append(salida.text)
        elif salida.output_type == "error":
            partes.append("\n".join(salida.traceback))
    return "".join(partes)


@pytest.fixture(scope="module")
def cuadernos(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("cuadernos")
    return {ruta.stem: ruta for ruta in escribe_cuadernos(CURSO, carpeta)}


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_la_leccion_se_ejecuta_y_dice_lo_que_afirma(cuadernos, leccion):
    ruta = cuadernos[leccion.slug]
    cuaderno = nbformat.read(ruta, as_version=4)
    NotebookClient(
        cuaderno, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ruta.parent)}}
    ).execute()
    preparacion, *codigo = [c for c in cuaderno.cells if c.cell_type == "code"]
    assert ETIQUETA_PREPARACION in preparacion.metadata.tags and preparacion.outputs == [], "callada si no falta nada"
    for celda in codigo:
        assert not any(s.output_type == "error" for s in celda.outputs), texto_de_salidas(celda)
    widgets = [s for c in codigo for s in c.outputs if "application/vnd.jupyter.widget-view+json" in s.get("data", {})]
    assert len(widgets) == len(preguntas_de(leccion)), "cada pregunta se muestra como un widget"
    esperadas = afirmaciones(leccion)
    assert esperadas, "cada lección debe afirmar algo de sus salidas en salidas.toml"
    for n, lineas in esperadas.items():
        assert fallos(texto_de_salidas(codigo[n - 1]), lineas) == [], f"celda {n} de {leccion.slug}"


def test_sin_un_modulo_el_cuaderno_lo_dice_en_espanol(cuadernos, tmp_path):
    """Un cuaderno copiado sin harness.py: la primera celda dice qué falta y qué hacer."""
    leccion = CURSO.leccion("permisos-y-confianza")  # la primera que carga harness.py
    cuaderno = nbformat.read(cuadernos[leccion.slug], as_version=4)
    for fichero in cuadernos[leccion.slug].parent.iterdir():
        if fichero.name != "harness.py":
            (tmp_path / fichero.name).write_bytes(fichero.read_bytes())
    cliente = NotebookClient(
        cuaderno, timeout=120, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(tmp_path)}}
    )
    cliente.execute()
    [error] = cuaderno.cells[0].outputs
    assert error.ename == "FileNotFoundError"
    assert error.evalue.startswith("Faltan junto a este cuaderno: harness.py. ")  # sólo lo que falta
    assert "./curso cuadernos" in error.evalue


# Fórmulas de TeX fuera del código: $…$, $$, \( o \[. Dentro de `código` o de un bloque no cuentan.
FORMULA = re.compile(r"\$\$|\\\(|\\\[|\$[^$\s`][^$\n`]*\$")
CODIGO = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def test_ningun_cuaderno_tiene_formulas(cuadernos):
    """La aplicación Notebook de JupyterLite va sin MathJax (lite.SOBRAN_EN_EL_CUADERNO): una fórmula
    saldría como texto. Quien escriba una, que quite MathJax de esa lista."""
    textos = {
        slug: [c.source for c in nbformat.read(ruta, as_version=4).cells if c.cell_type == "markdown"]
        for slug, ruta in cuadernos.items()
    }
    textos.update({p.parent.name: [p.read_text(encoding="utf-8")] for p in (RAIZ / "desafios").glob("*/*.md")})
    for donde, fuentes in textos.items():
        for fuente in fuentes:
            formulas = FORMULA.findall(CODIGO.sub("", fuente))
            assert not formulas, f"{donde}: {formulas}"
    assert FORMULA.findall("sea $x$ y `$HOME`") == ["$x$"]  # la expresión sí encuentra una
