"""./curso calificar: califica submitted/<alumno>/<desafío>/ con el código del alumno aislado."""

import sys

from cursos.ordenes.opciones import curso_existente, desafio_de, opcion_desafio, opcion_nbgrader, segundos

NOMBRE = "calificar"
AYUDA = "califica las entregas con el código del alumno aislado"


def configura(parser) -> None:
    opcion_desafio(parser)
    opcion_nbgrader(parser)
    parser.add_argument("--alumno", metavar="ID", help="califica de nuevo sólo la entrega de este alumno")
    parser.add_argument(
        "--anadir-alumnos",
        action="store_true",
        help="califica y añade al libro también las carpetas de alumnos que no están en su lista",
    )
    parser.add_argument(
        "--plazo", type=segundos, default=10.0, metavar="S", help="segundos de CPU por entrega, todas las pruebas (10)"
    )
    parser.add_argument(
        "--python-de-la-maquina",
        action="store_true",
        help="califica con el Python de esta máquina, no con el del navegador (Pyodide bajo Node): por si éste no "
        "arranca aquí; es otra versión",
    )
    parser.add_argument(
        "--cluster",
        metavar="DIRECCION",
        help="califica en un clúster de Dask: dirección del planificador, p. ej. tcp://10.0.0.5:8786; sin ella, "
        "en esta máquina",
    )


def ejecuta(args) -> int:
    from cursos.profesor import retroalimentacion
    from cursos.profesor.calificar import califica

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    califica(
        carpeta,
        desafio,
        args.plazo,
        alumno=args.alumno,
        anadir_alumnos=args.anadir_alumnos,
        pyodide=not args.python_de_la_maquina,
        cluster=args.cluster,
    )
    if args.alumno is not None:  # recalificar a uno cuesta uno: las devoluciones de los demás no se miran
        print(
            f"» sólo se ha puesto al día {args.alumno}: para ver si las devoluciones de los demás siguen al día, "
            f"`./curso devolver --comprobar --desafio {desafio.slug}`",
            file=sys.stderr,
        )
        return 0
    # calificar reescribe la devolución de quien califica; la de los demás puede haberse quedado atrás
    # (una nota o un comentario puestos en formgrader después de escribirla).
    atrasadas = retroalimentacion.atrasadas(carpeta, desafio)
    retroalimentacion.avisa_atrasadas(
        atrasadas, f"para reescribirla, `./curso devolver --desafio {desafio.slug} --nbgrader {carpeta}`"
    )
    return 0
