"""Banco (no es una prueba): lo que cuesta arrancar el proceso del alumno, variante a variante.

Arranca N procesos del alumno con cada variante, intercaladas (la carga de la máquina les toca
igual a todas), les manda un inicio vacío, espera su LISTO y los deja terminar solos (cerrando
el canal) para contar su CPU. Dice la mediana de reloj y de CPU por proceso.

    .venv/bin/python bench/arranque.py --n 10
    .venv/bin/python bench/arranque.py --n 10 --carpeta-antes build/descargas/calificador-pyodide-…
"""

import argparse
import copy
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cursos.calificador.aislamiento import detecta
from cursos.calificador.caja.protocolo import Arranque, Clave, Interprete
from cursos.calificador.interprete import OPCIONES_NODE


def _cpu_de_los_hijos() -> float:
    uso = resource.getrusage(resource.RUSAGE_CHILDREN)
    return uso.ru_utime + uso.ru_stime


def una_vez(aislamiento) -> tuple[float, float]:
    """(segundos de reloj hasta LISTO, segundos de CPU del proceso entero)."""
    cpu, inicio = _cpu_de_los_hijos(), time.monotonic()
    proceso = aislamiento.arranca(5)
    proceso.stdin.write(json.dumps({Clave.MODULOS: [], Clave.CELDAS: ["x = 1"]}).encode() + b"\n")
    proceso.stdin.flush()
    listo = json.loads(proceso.stdout.readline())
    reloj = time.monotonic() - inicio
    assert listo[Clave.LISTO] is True, listo
    proceso.stdin.close()  # el hijo lee fin de fichero y sale: su CPU vuelve aquí al esperarlo
    proceso.wait(30)
    proceso.stdout.close()
    return reloj, _cpu_de_los_hijos() - cpu


ANTES = ["--liftoff-only", "--v8-pool-size=1", "--no-warnings"]  # las opciones de Node de antes


def _con_opciones(aislamiento, opciones: list[str]):
    otra = copy.deepcopy(aislamiento)
    otra.config[Arranque.INTERPRETE][Interprete.OPCIONES] = opciones
    return otra


def variantes(carpeta_antes: str | None) -> dict:
    pyodide = detecta()
    lista = {
        "python de la máquina": detecta(pyodide=False),
        "pyodide (lo de ahora)": pyodide,
        "pyodide, opciones de antes": _con_opciones(pyodide, ANTES),
        "pyodide, + --single-threaded": _con_opciones(pyodide, [*OPCIONES_NODE, "--single-threaded"]),
    }
    if carpeta_antes:  # el lanzador y la instantánea de antes (sin hijo.py cargado), con las opciones de antes
        antes = _con_opciones(pyodide, ANTES)
        antes.config[Arranque.INTERPRETE][Interprete.CARPETA] = os.path.abspath(carpeta_antes)
        lista["pyodide, todo como antes"] = antes
    return lista


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--n", type=int, default=10)
    args.add_argument("--carpeta-antes", help="una carpeta de calificador-pyodide-* de antes, para compararla")
    opciones = args.parse_args()
    lista = variantes(opciones.carpeta_antes)
    medidas = {nombre: [] for nombre in lista}
    print("carga media:", os.getloadavg())
    for _ in range(opciones.n):
        for nombre, aislamiento in lista.items():
            medidas[nombre].append(una_vez(aislamiento))
    for nombre, valores in medidas.items():
        print(
            "%-32s reloj %.3f s  cpu %.3f s"
            % (nombre, statistics.median(v[0] for v in valores), statistics.median(v[1] for v in valores))
        )


if __name__ == "__main__":
    main()
