"""docs/autores.md seguida al pie de la letra, hasta el navegador: construirla, ejecutarla y comprobarla.

La copia del curso con los bloques de la guía escritos es la de tests/test_guia_de_autores.py
(copia_siguiendo_la_guia, de tests/guia_de_autores.py). En ella, en un proceso aparte para que RAIZ
sea la copia, se construye el sitio entero con `construir`, como `./curso construir`; se sirve como
`curso servir` y, en Chromium, la página de la lección «saludo» ejecuta todas sus celdas y dice lo
que afirma su salidas.toml, y en su desafío el esqueleto no pasa y la solución de referencia pasa
todas las pruebas visibles. El vigilante de la pestaña (conftest.py) hace fallar la prueba si falta
algún fichero del sitio o la consola da un error.

Decisión (medido en esta máquina de 2 núcleos compartidos con otros procesos): el sitio entero
tarda unos 120 s con las descargas vacías y 17-20 s con ellas en la caché, y JupyterLite es sólo
unos 3 s de esos. Así que no se salta nada de la construcción: se copia a la copia la caché de construir
(build/descargas/: Pyodide y las ruedas comprobadas por huella, su bytecode, el editor y los
repartos de nbgrader, que son por huella del desafío y sólo se rehace el de «saluda») y se
enlaza .venv-pyodide, que la construcción sólo usa para escribir el lock. Sin esa caché (un
clon recién hecho), la copia lo descarga y tarda lo de la primera vez. La prueba entera tarda
unos 23 s: 20 de construir la copia y 2 de Chromium.
"""

import json
import shutil
from pathlib import Path

import pytest

from cursos import RAIZ
from cursos.manifiesto import Leccion
from tests.guia_de_autores import copia_siguiendo_la_guia, en_la_copia
from tests.navegador.ayudas import (
    codigo_de,
    comprueba,
    comprueba_afirmaciones,
    escribe_codigo,
    espera_celdas,
    montado,
    salidas,
    servido,
    url_de_leccion,
)

CONSTRUYE = r"""
import dataclasses, json
from pathlib import Path

from cursos import RAIZ
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones
from cursos.sitio import SITIO
from cursos.sitio.construir import construir

assert RAIZ == Path.cwd(), RAIZ
curso = leer_curso()
leccion = curso.leccion("saludo")
desafio = Desafio(leccion.desafio)
construir(curso)
print(json.dumps({"sitio": str(SITIO), "leccion": dataclasses.asdict(leccion), "afirmaciones": afirmaciones(leccion),
                  "esqueleto": desafio.esqueleto(), "solucion": desafio.lee("solucion.py"),
                  "visibles": [p for p in desafio.puntos() if p != "variaciones"]}))
"""


@pytest.fixture(scope="module")
def guia(navegador, tmp_path_factory):
    """El sitio de la copia construido y lo que la copia dice de su lección y su desafío.

    Pide navegador para que, sin Chromium, la prueba se salte antes de construir nada.
    """
    copia = copia_siguiendo_la_guia(tmp_path_factory.mktemp("guia") / "curso")
    if (RAIZ / "build" / "descargas").is_dir():
        (copia / "build").mkdir()
        shutil.copytree(RAIZ / "build" / "descargas", copia / "build" / "descargas")
    if (RAIZ / ".venv-pyodide").is_dir():
        (copia / ".venv-pyodide").symlink_to(RAIZ / ".venv-pyodide")
    datos = json.loads(en_la_copia(copia, CONSTRUYE).strip().splitlines()[-1])
    datos["leccion"] = Leccion(**datos["leccion"])
    datos["afirmaciones"] = {int(n): lineas for n, lineas in datos["afirmaciones"].items()}
    return datos


@pytest.fixture(scope="module")
def servida(guia):
    """El sitio de la copia servido. Fixture, y no un `with` en la prueba, para que el servidor siga
    arriba hasta después de que `pagina` cierre su pestaña: el service worker sigue precargando
    módulos al acabar la prueba, y con el servidor ya cerrado esas peticiones fallarían."""
    with servido(Path(guia["sitio"])) as url:
        yield url


def test_la_leccion_de_la_guia_se_ejecuta_y_su_desafio_pasa_en_el_navegador(guia, servida, pagina):
    assert guia["afirmaciones"] and guia["visibles"], "la guía trae salidas que comprobar y pruebas visibles"
    pagina.goto(url_de_leccion(servida, guia["leccion"]))
    pagina.click("button[data-accion=ejecutar-todo]")
    espera_celdas(pagina)
    vistas = salidas(pagina)
    assert vistas and all(estado == "hecha" for estado, _ in vistas.values()), vistas
    comprueba_afirmaciones(guia["leccion"], vistas, guia["afirmaciones"])
    # El desafío: el esqueleto repartido no pasa; la solución de referencia, escrita en el editor, sí.
    montado(pagina)
    assert codigo_de(pagina, "#desafio") == guia["esqueleto"]
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "faltan", texto
    assert "NotImplementedError: Escribe aquí tu solución" in texto and f"0 de {len(guia['visibles'])}" in texto
    escribe_codigo(pagina, "#desafio", guia["solucion"])
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "todas", texto
    assert all(f"✔ {p}" in texto for p in guia["visibles"]), texto
    n = len(guia["visibles"])
    assert f"{n} de {n} pruebas visibles pasan" in texto
