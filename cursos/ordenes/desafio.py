"""./curso desafio: el cuaderno fuente de nbgrader y, con generate_assignment, la versión del alumno."""

import sys

from cursos.errores import ErrorDeOrden
from cursos.ordenes.opciones import desafio_de, opcion_desafio, opcion_nbgrader, ruta_del_usuario

NOMBRE = "desafio"
AYUDA = "reparte el desafío en formato nbgrader (source/ y release/)"


def configura(parser) -> None:
    opcion_desafio(parser)
    opcion_nbgrader(parser)
    parser.add_argument(
        "--forzar",
        action="store_true",
        help="vuelve a generar release/ aunque ya esté repartido (las entregas hechas se comparan con lo nuevo)",
    )


def ejecuta(args) -> int:
    from cursos.calificador.referencia import explica, fallos
    from cursos.profesor import CURSO_NBGRADER
    from cursos.profesor.fuente import RepartoCongelado, cambios_del_reparto, genera_version_del_alumno

    desafio = desafio_de(args)
    carpeta = ruta_del_usuario(args.nbgrader)
    if not carpeta.is_dir():
        if carpeta != CURSO_NBGRADER and not carpeta.parent.is_dir():
            raise ErrorDeOrden(f"no existe {carpeta.parent}: revisa la ruta de --nbgrader")
        carpeta.mkdir(parents=True)
        print(f"» curso de nbgrader nuevo en {carpeta}")
    malas = fallos(desafio)
    if malas:  # también con --forzar: repartirlo así suspendería a quien lo hace bien
        raise ErrorDeOrden(f"no se reparte «{desafio.slug}»: {explica(malas)}")
    ya_igual = not args.forzar and cambios_del_reparto(desafio, carpeta) == []
    try:
        release = genera_version_del_alumno(desafio, carpeta, forzar=args.forzar)
    except RepartoCongelado as e:  # no es un error de uso: se explica lo que cambiaría, y sale con 1
        _explica_el_congelado(desafio, e)
        return 1
    if ya_igual:
        print(f"«{desafio.slug}» ya está repartido en {release} y no ha cambiado: nada que hacer.")
        return 0
    print(
        f"Versión del alumno en {release} (el cuaderno y los ficheros que carga). Se reparte tal cual: "
        "volver a ejecutar esta orden no la cambia."
    )
    return 0


def _explica_el_congelado(desafio, e) -> None:
    print(f"«{desafio.slug}» ya está repartido en {e.release} y no se cambia. Lo que cambiaría:", file=sys.stderr)
    for cambio in e.cambios:
        print(f"  - {cambio}", file=sys.stderr)
    print(
        "Las entregas se siguen calificando contra lo que recibieron los alumnos (release/). Para repartir "
        f"de nuevo, `./curso desafio --desafio {desafio.slug} --forzar`: las entregas hechas con lo anterior "
        "se compararán con lo nuevo, así que fuerza sólo si nadie lo ha recibido aún.",
        file=sys.stderr,
    )
