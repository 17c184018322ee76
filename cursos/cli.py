"""La orden `curso`: una sola herramienta de línea de órdenes para todo el proyecto."""

import argparse
import subprocess
import sys
from pathlib import Path

from cursos import RAIZ, laboratorio
from cursos.manifiesto import ErrorDeManifiesto, leer_curso

SALIDA = RAIZ / "build"


def orden_cuadernos(args) -> int:
    """Genera los cuadernos .ipynb de las lecciones, con los módulos al lado."""
    from cursos.cuadernos import escribe_cuadernos

    curso = leer_curso(args.curso)
    destino = Path(args.destino or SALIDA / "cuadernos" / curso.slug)
    for ruta in escribe_cuadernos(curso, destino):
        print("escrito", ruta.relative_to(RAIZ) if ruta.is_relative_to(RAIZ) else ruta)
    print(f"Ábrelos con Jupyter desde {destino}: los módulos del curso están a su lado.")
    return 0


def orden_construir(args) -> int:
    """Construye el sitio estático: portada, páginas de lección, módulos, Pyodide y JupyterLite."""
    from cursos.sitio.construir import construir
    from cursos.sitio.distribucion import ErrorDeDistribucion

    try:
        segundos = construir(leer_curso(args.curso))
    except ErrorDeDistribucion as e:
        print(f"No se ha podido construir el sitio: {e}", file=sys.stderr)
        return 2
    print(f"Sitio construido en build/sitio en {segundos:.1f} s. Sírvelo con ./curso servir")
    return 0


def orden_servir(args) -> int:
    """Construye el sitio si hace falta y lo sirve en 127.0.0.1."""
    from cursos.sitio import SITIO
    from cursos.sitio.construir import hace_falta_construir
    from cursos.sitio.servir import crea_servidor, url_de

    curso = leer_curso(args.curso)
    if hace_falta_construir(curso) and orden_construir(args) != 0:
        return 2
    servidor = crea_servidor(SITIO, args.puerto, args.subruta)
    print(f"Sirviendo el curso en {url_de(servidor)}  (Ctrl+C para parar)", flush=True)
    with servidor:
        servidor.serve_forever()
    return 0


def orden_laboratorio(args) -> int:
    """Repite el laboratorio de las dos puertas y compara su evidencia con la guardada."""
    rutas = {"laboratorio": Path(args.laboratorio), "referencia": Path(args.referencia)}
    accion = laboratorio.verificar if args.accion == "verificar" else laboratorio.regenerar
    pasa, lineas = accion(**rutas)
    print("\n".join(lineas))
    return 0 if pasa else 1


def orden_pruebas(args) -> int:
    """Pasa ruff y todas las pruebas (CPython, navegador y calificador)."""
    if subprocess.call([sys.executable, "-m", "ruff", "check", str(RAIZ)]) != 0:
        print("ruff ha encontrado problemas: corrígelos antes de seguir.", file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "pytest", *args.pytest], cwd=RAIZ)


def orden_desafio(args) -> int:
    """Genera el cuaderno fuente de nbgrader y, con generate_assignment, la versión del alumno."""
    from cursos.calificador.fuente import Desafio, genera_version_del_alumno

    release = genera_version_del_alumno(Desafio(args.desafio), Path(args.nbgrader))
    print(f"Versión del alumno en {release} (el cuaderno y los ficheros que carga).")
    return 0


def orden_calificar(args) -> int:
    """Califica submitted/<alumno>/<desafio>/ con el código del alumno aislado."""
    from cursos.calificador.calificar import califica
    from cursos.calificador.fuente import Desafio
    from cursos.calificador.libro import LibroSinDesafio

    try:
        califica(Path(args.nbgrader), Desafio(args.desafio), args.plazo)
    except LibroSinDesafio as e:
        print(f"No se puede calificar: {e}", file=sys.stderr)
        return 2
    return 0


def orden_recoger(args) -> int:
    """Recoge las entregas (carpeta o zip del LMS) en submitted/<alumno>/<desafío>/ con timestamp.txt."""
    import os

    from cursos.calificador import CURSO_NBGRADER
    from cursos.calificador.recoger import PATRON, EntradaInvalida, escribe_informe, recoge

    # Las rutas relativas, desde donde se ejecutó ./curso (el script cambia a la raíz del repositorio).
    donde = Path(os.environ.get("CURSO_DIRECTORIO", "."))
    curso_nbgrader = donde / args.nbgrader if args.nbgrader else CURSO_NBGRADER
    desafios = {lc.desafio for lc in leer_curso(args.curso).lecciones if lc.desafio}
    try:
        informe = recoge(donde / args.entrada, curso_nbgrader, desafios, args.desafio, args.patron or PATRON)
    except EntradaInvalida as e:
        print(f"No se puede recoger: {e}", file=sys.stderr)
        return 2
    print(escribe_informe(informe))
    for desafio in sorted({linea.desafio for linea in informe if linea.recogida}):
        print(f"Califícalas con: ./curso calificar --desafio {desafio} --nbgrader {curso_nbgrader}")
    return 0


def construye_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="curso", description="Herramientas del curso «Agentes LLM».")
    parser.add_argument("--curso", default="llm-agents", help="slug del manifiesto en cursos/ (llm-agents)")
    sub = parser.add_subparsers(dest="orden", required=True, metavar="orden")

    p = sub.add_parser("cuadernos", help="genera los cuadernos .ipynb de las lecciones")
    p.add_argument("--destino", help="carpeta de salida (build/cuadernos/<curso>)")
    p.set_defaults(funcion=orden_cuadernos)

    p = sub.add_parser("construir", help="construye el sitio estático en build/sitio")
    p.set_defaults(funcion=orden_construir)

    p = sub.add_parser("servir", help="construye el sitio si hace falta y lo sirve en 127.0.0.1")
    p.add_argument("--puerto", type=int, default=8000, help="puerto (8000)")
    p.add_argument("--subruta", default="/", help="sirve el sitio bajo esta ruta, p. ej. /curso/ (raíz)")
    p.set_defaults(funcion=orden_servir)

    nbgrader = str(SALIDA / "nbgrader")
    p = sub.add_parser("desafio", help="genera el desafío en formato nbgrader (fuente y versión del alumno)")
    p.add_argument("--desafio", default="permiso-en-ejecutar", help="carpeta en desafios/")
    p.add_argument("--nbgrader", default=nbgrader, help="carpeta del curso de nbgrader (build/nbgrader)")
    p.set_defaults(funcion=orden_desafio)

    p = sub.add_parser("calificar", help="califica las entregas con el código del alumno aislado")
    p.add_argument("--desafio", default="permiso-en-ejecutar", help="carpeta en desafios/")
    p.add_argument("--nbgrader", default=nbgrader, help="carpeta del curso de nbgrader (build/nbgrader)")
    p.add_argument("--plazo", type=float, default=10.0, help="segundos por entrega, todas las pruebas (10)")
    p.set_defaults(funcion=orden_calificar)

    p = sub.add_parser("recoger", help="recoge las entregas (carpeta o zip del LMS) en submitted/ de nbgrader")
    p.add_argument("entrada", help="la carpeta o el .zip con los cuadernos que han entregado los alumnos")
    p.add_argument("--desafio", help="recoge sólo este desafío (por omisión, cada cuaderno va al suyo)")
    p.add_argument("--nbgrader", help="carpeta del curso de nbgrader (nbgrader/ en la raíz del repositorio)")
    p.add_argument("--patron", help="expresión regular con el grupo (?P<alumno>…) que saca el alumno de la "
                   "ruta dentro de la entrada, para cuadernos sin identificador (la primera carpeta)")
    p.set_defaults(funcion=orden_recoger)

    p = sub.add_parser("laboratorio", help="verifica (o regenera) la evidencia del laboratorio de las dos puertas")
    p.add_argument("accion", choices=["verificar", "regenerar"],
                   help="verificar: repite los 14 escenarios y compara; regenerar: reescribe la referencia")
    p.add_argument("--laboratorio", default=str(laboratorio.LABORATORIO), help="código del laboratorio")
    p.add_argument("--referencia", default=str(laboratorio.REFERENCIA), help="evidencia JSON de referencia")
    p.set_defaults(funcion=orden_laboratorio)

    p = sub.add_parser("pruebas", help="pasa ruff y todas las pruebas; lo que siga va a pytest (-q, -k …)")
    p.set_defaults(funcion=orden_pruebas)
    return parser


def main(argv=None) -> int:
    parser = construye_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.orden != "pruebas":
        parser.error("no se entiende: " + " ".join(extra))
    args.pytest = extra
    try:
        return args.funcion(args)
    except ErrorDeManifiesto as e:
        print(f"Error en el manifiesto del curso: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
