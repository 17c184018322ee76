"""Las capas de las pruebas: tests/conftest.py las pone por lo que usa cada prueba (no por su
carpeta), --rapidas quita las que tienen alguna y .ci/run pasa cada prueba en un solo paso, siempre
con la orden del README.

Se comprueba con pytest de verdad (sólo recoge, no ejecuta) sobre una muestra: unidades de Python
puro de tests/calificador/ y tests/profesor/ (rápidas aunque vivan ahí), un fichero del navegador que
mezcla pruebas con sitio construido y sin él, uno que califica por lo que importa, el de la guía
(lento y calificador por su fichero), uno rápido y éste, que es lento (recoger cuatro veces cuesta
medio minuto), así que va con el calificador. Y ninguna prueba importa un conftest.py.
"""

import ast
import importlib
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from cursos import RAIZ
from tests.ayudas import CAPAS_DEL_FICHERO, CARO

PUROS = {"tests/calificador/test_protocolo.py", "tests/profesor/test_decide_el_alumno.py"}
MIXTO = "tests/navegador/test_sin_navegador.py"  # sus pruebas con el fixture sitio son del navegador
CALIFICADOR = "tests/calificador/test_tipos_de_motivo.py"  # importa califica y detecta
GUIA = "tests/test_guia_de_autores.py"
RAPIDA = "tests/test_guionizado.py"
ESTE = "tests/test_capas.py"
MUESTRA = [*sorted(PUROS), MIXTO, CALIFICADOR, GUIA, RAPIDA, ESTE]


def recoge(opciones: list[str]) -> set[str]:
    """Las pruebas de la muestra (sus ids) que pytest recoge con estas opciones."""
    hecho = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *opciones, *MUESTRA],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert hecho.returncode in (0, 5), hecho.stdout + hecho.stderr  # 5: no ha recogido ninguna
    return {linea for linea in hecho.stdout.splitlines() if "::" in linea}


def pasos_de_pytest() -> dict[str, list[str]]:
    """{capa: opciones de pytest} de cada paso de .ci/run que llama a ./curso pruebas."""
    pasos = re.findall(r'^paso "([^"]+)" (.+)$', (RAIZ / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    assert "ruff" in dict(pasos)
    return {
        capa: [
            o.strip('"')
            for o in re.findall(r'"[^"]*"|\S+', orden.removeprefix("./curso pruebas"))
            if o not in ("-q", "--sin-ruff") and not o.startswith(("--timeout=", "--durations="))
        ]  # la muestra se lee de la lista que pytest escribe con un solo -q; --sin-ruff es de ./curso, y
        # --timeout (el tope de cada prueba) y --durations (las más lentas, al final) no eligen pruebas
        for capa, orden in pasos
        if orden.startswith("./curso pruebas")
    }


def ficheros(ids: set[str]) -> set[str]:
    return {i.split("::")[0] for i in ids}


def test_cada_paso_de_ci_pasa_su_capa_y_entre_todos_cada_prueba_una_vez():
    pasos = pasos_de_pytest()
    with ThreadPoolExecutor(len(pasos) + 1) as hilos:
        todas = hilos.submit(recoge, [])
        recogidos = dict(zip(pasos, hilos.map(recoge, pasos.values()), strict=True))
        todas = todas.result()
    assert {capa: ficheros(ids) for capa, ids in recogidos.items()} == {
        "rápidas": {RAPIDA, MIXTO, *PUROS},
        "calificador": {CALIFICADOR, GUIA, ESTE},
        "navegador": {MIXTO},
    }
    vistas = [i for ids in recogidos.values() for i in ids]
    assert sorted(vistas) == sorted(todas), "cada prueba, en un solo paso de .ci/run y en alguno"


def test_los_ficheros_con_su_capa_a_mano_existen():
    faltan = [ruta for ruta in CAPAS_DEL_FICHERO if not (RAIZ / "tests" / ruta).is_file()]
    assert not faltan, f"CAPAS_DEL_FICHERO (tests/ayudas.py) nombra ficheros que no están: {faltan}"


def test_lo_caro_que_se_vigila_existe():
    """Un nombre de CARO mal escrito, o de una función que se ha movido, dejaría pasar a las rápidas lo que califica."""
    perdidos = [f"{modulo}.{nombre}" for modulo, nombre in CARO if not hasattr(importlib.import_module(modulo), nombre)]
    assert not perdidos, f"CARO (tests/ayudas.py) nombra lo que ya no existe: {perdidos}"


def test_ninguna_prueba_importa_un_conftest():
    """Los conftest.py tienen fixtures y hooks; lo que se comparte sin ser un fixture va en el
    ayudas.py de su carpeta (importar un conftest lo cargaría dos veces, con sus fixtures)."""
    culpables = []
    for ruta in (RAIZ / "tests").rglob("*.py"):
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.ImportFrom):
                nombres = [nodo.module or "", *(a.name for a in nodo.names)]
            elif isinstance(nodo, ast.Import):
                nombres = [a.name for a in nodo.names]
            else:
                continue
            if any(n.rsplit(".", 1)[-1] == "conftest" for n in nombres):
                culpables.append(f"{ruta.relative_to(RAIZ)}:{nodo.lineno}")
    assert not culpables, culpables
