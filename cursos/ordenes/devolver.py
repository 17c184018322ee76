"""./curso devolver: la devolución de cada alumno desde el libro (después de calificar a mano) y lo que
se sube al aula virtual."""

import sys

from cursos.ordenes.opciones import curso_existente, desafio_de, opcion_desafio, opcion_nbgrader

NOMBRE = "devolver"
AYUDA = (
    "escribe desde el libro (tras calificar a mano) la devolución de cada alumno, el CSV del curso y las "
    "notas para Moodle y Canvas"
)


def configura(parser) -> None:
    opcion_desafio(parser)
    opcion_nbgrader(parser)
    parser.add_argument(
        "--comprobar",
        action="store_true",
        help="no escribe nada: dice qué devoluciones no dicen ya lo del libro (y acaba con 1 si hay)",
    )


def ejecuta(args) -> int:
    from cursos.profesor.retroalimentacion import avisa_atrasadas, devuelve

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    hecho = devuelve(carpeta, desafio, comprobar=args.comprobar)
    que = "sin reescribir (quita --comprobar para reescribirla)" if args.comprobar else "se reescribe"
    avisa_atrasadas(hecho.atrasadas, que)
    for alumno in hecho.sin_calificar:
        print(
            f"» {alumno}: no hay cuaderno calificado en autograded/ (¿sin calificar?): su devolución no dice el "
            f"motivo de cada prueba; `./curso calificar --alumno {alumno}`",
            file=sys.stderr,
        )
    for _alumno, motivo in hecho.rechazadas:
        print(f"✘ {motivo} (ni en feedback/ ni en los ficheros del aula virtual)", file=sys.stderr)
    if args.comprobar:
        if not hecho.atrasadas:
            print("Todas las devoluciones dicen lo que dice el libro.")
        return 1 if hecho.atrasadas else 0
    n = len(hecho.escritas)
    print(
        f"{n} {'devolución escrita' if n == 1 else 'devoluciones escritas'} desde el libro en "
        f"{carpeta / 'feedback'}/ (las demás ya decían lo mismo); para el intercambio de nbgrader, "
        f"`nbgrader release_feedback {desafio.slug}`."
    )
    if hecho.moodle:
        print(f"Moodle: sube {hecho.moodle} con «Subir varios archivos de retroalimentación en un zip».")
    if hecho.canvas:
        print(f"Canvas: en {hecho.canvas}/, un fichero por alumno con su prefijo de Canvas; adjúntalo en SpeedGrader.")
    print(f"CSV del curso reescrito desde el libro, con las notas de formgrader: {hecho.csv}")
    _explica_las_notas_del_aula(hecho)
    return 1 if hecho.rechazadas else 0


def _explica_las_notas_del_aula(hecho) -> None:
    """Dónde están los CSV de notas para el aula virtual, cómo se suben y quién no va en ellos."""
    if hecho.notas_moodle:
        print(
            f"Notas para Moodle: {hecho.notas_moodle}. En el curso, «Calificaciones» → «Importar» → «Archivo CSV»: "
            "súbelo con codificación UTF-8 y separador «Coma»; en «Identificar usuario», de «Dirección de correo» "
            "a la dirección de correo del usuario; en los mapeos, la columna del desafío a su tarea y "
            "«Retroalimentación» a la retroalimentación de esa tarea."
        )
        if hecho.sin_correo:
            print(
                f"» no van en el CSV de Moodle (el libro no tiene su correo): {', '.join(hecho.sin_correo)}; "
                "importa la lista del aula con `./curso alumnos` o ponles la nota a mano",
                file=sys.stderr,
            )
    if hecho.notas_canvas:
        print(
            f"Notas para Canvas: {hecho.notas_canvas}. En «Calificaciones», «Importar»: elige el fichero; si Canvas "
            "no reconoce la columna del desafío, elige allí la tarea que es."
        )
        if hecho.sin_canvas:
            print(
                f"» no van en el CSV de Canvas (su entrega no se recogió de un zip de Canvas, así que no se sabe "
                f"su id de Canvas): {', '.join(hecho.sin_canvas)}; ponles la nota a mano en Canvas",
                file=sys.stderr,
            )
    if not hecho.notas_moodle and not hecho.notas_canvas and (hecho.sin_correo or hecho.sin_canvas):
        print(
            "» no hay CSV de notas para el aula virtual: el libro no tiene el correo de nadie y ninguna entrega "
            "se recogió de Canvas; importa la lista del aula con `./curso alumnos`",
            file=sys.stderr,
        )
