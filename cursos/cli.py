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


def construye_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="curso", description="Herramientas del curso «Agentes LLM».")
    parser.add_argument("--curso", default="llm-agents", help="slug del manifiesto en cursos/ (llm-agents)")
    sub = parser.add_subparsers(dest="orden", required=True, metavar="orden")

    p = sub.add_parser("cuadernos", help="genera los cuadernos .ipynb de las lecciones")
    p.add_argument("--destino", help="carpeta de salida (build/cuadernos/<curso>)")
    p.set_defaults(funcion=orden_cuadernos)

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
