"""Banco de tiempos (no es una prueba): `curso calificar` frente a `nbgrader autograde`, en la misma ejecución.

Genera N entregas honestas (bien, mal y con errores), las califica con las dos
herramientas en dos copias del mismo curso, comprueba que las notas coinciden y
dice los segundos por entrega y la razón.

    .venv/bin/python bench/califica.py            # 200 entregas
    .venv/bin/python bench/califica.py --n 40     # más rápido
    .venv/bin/python bench/califica.py --memoria  # el pico de memoria del calificador con un lote de trampas
    .venv/bin/python bench/califica.py --python-de-la-maquina   # sin Pyodide: el Python de esta máquina
    .venv/bin/python bench/califica.py --n 40 --sin-nbgrader --a-la-vez 3   # sólo el nuestro, 3 a la vez
    .venv/bin/python bench/califica.py --n 40 --sin-nbgrader --cluster 2    # en 2 trabajadores de Dask
"""

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from cursos.profesor.fuente import genera_version_del_alumno
from cursos.profesor.libro import url_del_libro

DESAFIO = Desafio("permiso-en-ejecutar")
SOLUCION = DESAFIO.lee("solucion.py")
VARIANTES = {
    "bien": SOLUCION,
    "bien_comentada": SOLUCION.replace("    decision = permiso(ll)\n", "    decision = permiso(ll)  # primero\n"),
    "none_es_si": SOLUCION.replace("preguntar(ll) is not True", "preguntar(ll) is False"),
    "sin_permisos": SOLUCION.split("    ### BEGIN SOLUTION")[0] + SOLUCION.split("    ### END SOLUTION\n")[1],
    "deniega_todo": SOLUCION.replace("    decision = permiso(ll)\n", '    decision = "denegar"\n'),
    "lanza": "def ejecutar(ll, entorno):\n    raise ValueError('todavía no')\n",
    "nombre_mal": SOLUCION.replace("decision = permiso(ll)", "decision = permisos(ll)"),
    # Formas honestas que antes sacaban 0 aquí y la nota entera en Jupyter.
    "decorada": "import functools\ndef _traza(f):\n    @functools.wraps(f)\n    def envuelta(*a, **k):\n"
    "        return f(*a, **k)\n    return envuelta\n@_traza\n" + SOLUCION,
    "con_magias": "%time _x = 1\n"
    + SOLUCION.replace(
        "    decision = permiso(ll)\n", "    decision = permiso(ll)\n    print('depuración', len(entorno))\n"
    )
    + "\ndisplay(ejecutar)\n",
}
PESOS = {
    "bien": 6,
    "bien_comentada": 4,
    "none_es_si": 2,
    "sin_permisos": 2,
    "deniega_todo": 2,
    "lanza": 2,
    "nombre_mal": 2,
    "decorada": 2,
    "con_magias": 2,
}


def genera_entregas(curso: Path, n: int, semilla: int = 7) -> dict[str, str]:
    release = nbformat.read(curso / "release" / DESAFIO.slug / DESAFIO.cuaderno, as_version=4)
    azar = random.Random(semilla)
    tipos = {}
    for i in range(n):
        tipo = azar.choices(list(PESOS), weights=list(PESOS.values()))[0]
        nb = nbformat.from_dict(release)
        for celda in nb.cells:
            if celda.metadata.get("nbgrader", {}).get("grade_id") == DESAFIO.celda_solucion:
                celda.source = VARIANTES[tipo]
        carpeta = curso / "submitted" / f"alumno{i:03d}" / DESAFIO.slug
        carpeta.mkdir(parents=True)
        nbformat.write(nb, carpeta / DESAFIO.cuaderno)
        tipos[f"alumno{i:03d}"] = tipo
    return tipos


def notas_del_libro(curso: Path) -> dict[str, float]:
    with Gradebook(url_del_libro(curso)) as libro:
        return {s.student.id: s.score for s in libro.assignment_submissions(DESAFIO.slug)}


def _cpu_de_los_hijos() -> float:
    uso = resource.getrusage(resource.RUSAGE_CHILDREN)
    return uso.ru_utime + uso.ru_stime


def _memoria(campo: str) -> int:
    """KB de /proc/self/status (VmHWM: el pico; VmRSS: ahora)."""
    for linea in Path("/proc/self/status").read_text().splitlines():
        if linea.startswith(campo + ":"):
            return int(linea.split()[1])
    return 0


# Trampas que piden memoria a este lado: respuestas enormes (buscar, listar, el repr del entorno)
# y mensajes grandes, además de las del lote de las pruebas (tests/calificador/trampas.py).
BOMBAS = {
    "m01_buscar": "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
    "    f(entorno, 'r' * 400000, 'a\\n' * 250000)\n"
    "    return HERRAMIENTAS['buscar']['funcion'](entorno, 'a')\n",
    "m02_repr": "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
    "    for i in range(3):\n        f(entorno, str(i), 'x' * 900000)\n    return repr(entorno)[:10]\n",
    "m03_lista": "def ejecutar(ll, entorno):\n    return list(range(200000))\n",
    "m04_mensaje": "def ejecutar(ll, entorno):\n    return 'x' * 5000000\n",
}


def memoria(copias: int, pyodide: bool = True) -> int:
    """Califica un lote de trampas (las de las pruebas y BOMBAS, copias veces) y dice el pico de memoria."""
    from tests.calificador.trampas import cuadernos_tramposos, trampas

    with tempfile.TemporaryDirectory() as tmp:
        curso = Path(tmp) / "curso"
        genera_version_del_alumno(DESAFIO, curso)
        release = nbformat.read(curso / "release" / DESAFIO.slug / DESAFIO.cuaderno, as_version=4)
        codigos = {**trampas(curso, 9), **BOMBAS}
        escritas = 0
        for n in range(copias):
            for alumno, codigo in codigos.items():
                nb = nbformat.from_dict(release)
                for celda in nb.cells:
                    if celda.metadata.get("nbgrader", {}).get("grade_id") == DESAFIO.celda_solucion:
                        celda.source = codigo
                carpeta = curso / "submitted" / f"{alumno}_{n}" / DESAFIO.slug
                carpeta.mkdir(parents=True)
                nbformat.write(nb, carpeta / DESAFIO.cuaderno)
                escritas += 1
            for alumno, nb in cuadernos_tramposos(curso, release).items():
                if nb is not None:
                    carpeta = curso / "submitted" / f"{alumno}_{n}" / DESAFIO.slug
                    carpeta.mkdir(parents=True)
                    nbformat.write(nb, carpeta / DESAFIO.cuaderno)
                    escritas += 1
        antes = _memoria("VmHWM")
        inicio = time.perf_counter()
        califica(curso, DESAFIO, plazo=2.0, progreso=True, pyodide=pyodide)
        segundos = time.perf_counter() - inicio
    pico = _memoria("VmHWM") / 1024
    print(
        f"\n{escritas} entregas tramposas en {segundos:.1f} s. Memoria del calificador: pico {pico:.0f} MB "
        f"(antes de calificar, {antes / 1024:.0f} MB)"
    )
    return 0


def en_un_cluster(trabajadores: int, hilos: int) -> str:
    """La dirección de un LocalCluster de Dask (procesos), vivo hasta que acaba el banco."""
    import atexit

    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=trabajadores, threads_per_worker=hilos, processes=True, dashboard_address=None)
    atexit.register(cluster.close)
    return cluster.scheduler_address


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="entregas (200)")
    parser.add_argument("--memoria", action="store_true", help="el pico de memoria con un lote de trampas")
    parser.add_argument("--copias", type=int, default=1, help="con --memoria, cuántas veces cada trampa (1)")
    parser.add_argument(
        "--python-de-la-maquina",
        action="store_true",
        help="el código del alumno con el Python de esta máquina y no con Pyodide",
    )
    parser.add_argument("--a-la-vez", type=int, default=None, help="entregas a la vez (lo de omisión de calificar)")
    parser.add_argument(
        "--sin-nbgrader",
        action="store_true",
        help="sólo `curso calificar` (para comparar variantes deprisa; no da la razón)",
    )
    parser.add_argument("--reserva", type=int, default=None, help="procesos lanzados de antemano (lo de omisión)")
    parser.add_argument("--cluster", type=int, default=None, help="en un LocalCluster de Dask con N trabajadores")
    args = parser.parse_args()
    a_la_vez = {k: v for k, v in {"a_la_vez": args.a_la_vez, "reserva": args.reserva}.items() if v is not None}
    if args.cluster:  # N procesos trabajadores, cada uno con --a-la-vez hilos (2), como `dask worker` en N máquinas
        a_la_vez["cluster"] = en_un_cluster(args.cluster, args.a_la_vez or 2)
    if args.memoria:
        return memoria(args.copias, not args.python_de_la_maquina)
    with tempfile.TemporaryDirectory() as tmp:
        nuestro, plano = Path(tmp) / "nuestro", Path(tmp) / "nbgrader"
        genera_version_del_alumno(DESAFIO, nuestro)
        tipos = genera_entregas(nuestro, args.n)
        shutil.copytree(nuestro, plano)

        inicio = time.perf_counter()
        califica(nuestro, DESAFIO, progreso=True, pyodide=not args.python_de_la_maquina, **a_la_vez)
        t_nuestro = time.perf_counter() - inicio
        if args.sin_nbgrader:
            print(f"curso calificar: {t_nuestro:7.2f} s  ({t_nuestro / args.n:.3f} s por entrega)")
            return 0

        inicio, cpu = time.perf_counter(), _cpu_de_los_hijos()
        subprocess.run(
            [sys.executable, "-m", "nbgrader", "autograde", DESAFIO.slug, "--log-level=ERROR"], cwd=plano, check=True
        )
        t_plano, cpu_plano = time.perf_counter() - inicio, _cpu_de_los_hijos() - cpu

        a, b = notas_del_libro(nuestro), notas_del_libro(plano)
        distintas = {k: (a[k], b.get(k), tipos[k]) for k in a if a[k] != b.get(k)}
        print(
            f"\n{args.n} entregas honestas: "
            + ", ".join(f"{t} {sum(1 for x in tipos.values() if x == t)}" for t in PESOS)
        )
        print(f"curso calificar:    {t_nuestro:7.2f} s  ({t_nuestro / args.n:.3f} s por entrega)")
        print(f"nbgrader autograde: {t_plano:7.2f} s  ({t_plano / args.n:.3f} s por entrega)")
        print(f"razón: {t_plano / t_nuestro:.1f} veces más rápido")
        # nbgrader espera a sus núcleos: su CPU entera vuelve aquí (la de los procesos de Node que mata
        # `curso calificar` no, por eso sólo se da ésta; la del arranque de cada uno, bench/arranque.py).
        print(f"CPU de nbgrader autograde: {cpu_plano:.1f} s ({cpu_plano / args.n:.3f} s por entrega)")
        if distintas:
            print("¡Notas distintas!", distintas)
            return 1
        print("Las notas coinciden en las", args.n, "entregas.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
