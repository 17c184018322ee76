"""La orden `curso`: una sola herramienta de línea de órdenes para todo el proyecto.

Aquí sólo se monta el parser con la lista de órdenes (una por módulo de cursos/ordenes/) y se
atrapan, una sola vez, los errores de uso (`ErrorDelCurso`) y los fallos del curso.
"""

import os
import sys
import traceback

from cursos.errores import CODIGO_DE_SALIDA, ErrorDelCurso
from cursos.ordenes import (
    alumnos,
    calificar,
    construir,
    copiar_libro,
    cuadernos,
    desafio,
    devolver,
    formgrader,
    inyecciones,
    laboratorio,
    modelo_guionizado,
    pruebas,
    recoger,
    restaurar,
    servir,
)
from cursos.ordenes.argparse_es import Parser

# En este orden salen en ./curso --help.
ORDENES = [
    cuadernos,
    construir,
    servir,
    desafio,
    calificar,
    recoger,
    devolver,
    formgrader,
    copiar_libro,
    restaurar,
    alumnos,
    laboratorio,
    modelo_guionizado,
    inyecciones,
    pruebas,
]


def construye_parser() -> Parser:
    """El parser de ./curso; lee profesor.toml (los --nbgrader y --desafio por omisión)."""
    parser = Parser(
        prog="curso",
        description="Herramientas del curso «Agentes LLM».",
        epilog="Ayuda de cada orden: ./curso ORDEN --help",
    )
    parser.add_argument("--curso", default="llm-agents", help="slug del manifiesto en cursos/ (llm-agents)")
    sub = parser.add_subparsers(dest="orden", required=True, metavar="orden", title="órdenes")
    for orden in ORDENES:
        p = sub.add_parser(orden.NOMBRE, help=orden.AYUDA)
        orden.configura(p)
        p.set_defaults(funcion=orden.ejecuta)
    parser.add_argument(
        "--depurar",
        action="store_true",
        help="si algo falla, enseña también el traceback (también con CURSO_DEPURAR=1)",
    )
    return parser


def _quien(orden: str | None) -> str:
    return f"curso {orden}" if orden else "curso"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # --depurar vale en cualquier sitio de la orden (también al final, donde se escribe al repetirla).
    depurar = "--depurar" in argv or os.environ.get("CURSO_DEPURAR", "") not in ("", "0")
    argv = [a for a in argv if a != "--depurar"]
    orden = None  # hasta que se sepa cuál es, los errores (p. ej. de profesor.toml) son de «curso»
    try:
        parser = construye_parser()
        args, extra = parser.parse_known_args(argv)
        orden = args.orden
        if extra and orden != pruebas.NOMBRE:
            parser.error("no se entiende: " + " ".join(extra))
        args.pytest = extra
        return args.funcion(args)
    except KeyboardInterrupt:
        return 130
    except ErrorDelCurso as e:  # un error de uso: el mensaje dice qué corregir, sin traceback
        if depurar:
            traceback.print_exc()
        print(f"{_quien(orden)}: {e.para_la_orden(orden or '')}", file=sys.stderr)
        return CODIGO_DE_SALIDA
    except Exception as e:  # un fallo del curso: una línea, y el traceback sólo si se pide
        if depurar:
            traceback.print_exc()
        primera = (str(e).strip().splitlines() or [""])[0]
        print(
            f"{_quien(orden)}: error inesperado ({type(e).__name__}: {primera}); para ver dónde, repite la "
            "orden con --depurar, y si se repite, avisa a quien mantiene el curso",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
