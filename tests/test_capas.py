"""Las capas de las pruebas: tests/conftest.py las pone, --rapidas quita las que tienen alguna y
.ci/run pasa cada prueba en un solo paso, siempre con la orden del README.

Se comprueba con pytest de verdad (sólo recoge, no ejecuta) sobre una muestra: un fichero de cada
carpeta con capa, el de la guía (lento y calificador por su fichero), uno sin capa y éste, que es
lento (recoger tres veces cuesta medio minuto), así que va con el calificador.
"""

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from cursos import RAIZ

NAVEGADOR = "tests/navegador/test_sin_navegador.py"
CALIFICADOR = "tests/calificador/test_tipos_de_motivo.py"
GUIA = "tests/test_guia_de_autores.py"
RAPIDA = "tests/test_guionizado.py"
ESTE = "tests/test_capas.py"


def recoge(opciones: list[str]) -> set[str]:
    """Los ficheros de la muestra de los que pytest recoge alguna prueba con estas opciones."""
    hecho = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            *opciones,
            NAVEGADOR,
            CALIFICADOR,
            GUIA,
            RAPIDA,
            ESTE,
        ],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert hecho.returncode in (0, 5), hecho.stdout + hecho.stderr  # 5: no ha recogido ninguna
    return {linea.split("::")[0] for linea in hecho.stdout.splitlines() if "::" in linea}


def pasos_de_pytest() -> dict[str, list[str]]:
    """{capa: opciones de pytest} de cada paso de .ci/run que llama a ./curso pruebas."""
    pasos = re.findall(r'^paso "([^"]+)" (.+)$', (RAIZ / ".ci" / "run").read_text(encoding="utf-8"), re.M)
    assert "ruff" in dict(pasos)
    return {
        capa: [
            o.strip('"') for o in re.findall(r'"[^"]*"|\S+', orden.removeprefix("./curso pruebas")) if o != "-q"
        ]  # la muestra se lee de la lista que pytest escribe con un solo -q
        for capa, orden in pasos
        if orden.startswith("./curso pruebas")
    }


def test_cada_paso_de_ci_pasa_su_capa_y_entre_todos_cada_prueba_una_vez():
    pasos = pasos_de_pytest()
    with ThreadPoolExecutor(len(pasos)) as hilos:
        recogidos = dict(zip(pasos, hilos.map(recoge, pasos.values()), strict=True))
    assert recogidos == {"rápidas": {RAPIDA}, "calificador": {CALIFICADOR, GUIA, ESTE}, "navegador": {NAVEGADOR}}
