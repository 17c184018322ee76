"""./curso inyecciones: el ataque de cada lección contra un modelo, N veces, sin la defensa y con ella.

La clave, si hace falta, sale de CURSO_MODELO_CLAVE: nunca de la línea de órdenes, que queda en el historial."""

import os
import sys

from cursos.errores import ErrorDeOrden
from cursos.ordenes.opciones import ruta_del_usuario, segundos

NOMBRE = "inyecciones"
AYUDA = "el laboratorio de inyecciones: el ataque de cada lección contra un modelo, N veces, sin la defensa y con ella"


def configura(parser) -> None:
    parser.add_argument("--url", help="el endpoint de un modelo de verdad (sin él, el modelo guionizado que obedece)")
    parser.add_argument(
        "--formato", choices=["openai", "anthropic"], default="openai", help="formato del endpoint (openai)"
    )
    parser.add_argument("--modelo", default="", help="el nombre del modelo en ese servidor")
    parser.add_argument("--veces", type=int, default=1, metavar="N", help="ejecuciones de cada escenario y defensa (1)")
    parser.add_argument(
        "--escenario", action="append", default=[], metavar="SLUG", help="sólo este escenario (se repite)"
    )
    parser.add_argument(
        "--salida",
        default="build/inyecciones",
        metavar="CARPETA",
        help="dónde escribir tabla.txt, grafico.svg y ejecuciones.json (build/inyecciones)",
    )
    parser.add_argument(
        "--plazo", type=segundos, default=60.0, metavar="S", help="segundos por respuesta del modelo (60)"
    )


def _modelo_para(args):
    """Con qué modelo se ejecuta: el de --url, o el guionizado que obedece."""
    from cursos.modelo import inyecciones

    if not args.url:
        return inyecciones.sordo
    # ErrorDelModelo vive en un fichero que se carga sin cursos/ al lado (no deriva de ErrorDelCurso):
    # la orden lo hace error de uso. Una URL que no vale (http:// a otro ordenador con la clave…) se
    # dice antes de empezar.
    from cursos.modelo.modelo_real import ErrorDelModelo

    try:
        return inyecciones.modelo_real_para(
            args.url, args.formato, args.modelo, os.environ.get("CURSO_MODELO_CLAVE"), args.plazo
        )
    except ErrorDelModelo as e:
        raise ErrorDeOrden(f"--url: {e}") from None


def _avisa(hechas, total):
    lleno = 30 * hechas // total
    print(f"\r[{'#' * lleno}{'.' * (30 - lleno)}] {hechas}/{total}", end="", file=sys.stderr, flush=True)


def ejecuta(args) -> int:
    from cursos.modelo import escenarios, inyecciones

    try:
        elegidos = escenarios.elegidos(args.escenario, args.veces)
    except ValueError as e:
        raise ErrorDeOrden(str(e)) from None
    modelo_para = _modelo_para(args)
    # Cada ejecución se escribe al terminar: un fallo o un Ctrl+C a medias no se lleva las hechas.
    salida = ruta_del_usuario(args.salida)
    ejecuciones, interrumpido = inyecciones.ejecuta_y_escribe(salida, elegidos, args.veces, modelo_para, _avisa)
    print(file=sys.stderr)
    cabecera = inyecciones.cabecera_de(modelo_para, args.veces)
    print(inyecciones.texto_de_tabla(inyecciones.tabla(ejecuciones), cabecera))
    errores = [e for e in ejecuciones if e.error]
    for e in errores[:3]:
        print(f"error en {e.escenario} ({inyecciones.NOMBRE_DEFENSA[e.defensa]}): {e.error}", file=sys.stderr)
    parado = inyecciones.parado(ejecuciones)
    if parado:
        print(parado, file=sys.stderr)
    print(f"Escrito en {salida}: tabla.txt, grafico.svg, ejecuciones.json (las conversaciones) y ejecuciones.jsonl.")
    if interrumpido:
        total = inyecciones.total_de(elegidos, args.veces)
        print(f"Interrumpido: sólo {len(ejecuciones)} de {total} ejecuciones; son las que hay.", file=sys.stderr)
        return 130
    return 1 if errores and len(errores) == len(ejecuciones) else 0
