"""./curso alumnos: la lista de alumnos que se baja de Moodle o de Canvas, tal cual, al libro de notas."""

import sys

from cursos.ordenes.opciones import curso_existente, opcion_nbgrader, ruta_del_usuario

NOMBRE = "alumnos"
AYUDA = "pone en el libro de notas la lista de alumnos bajada de Moodle o de Canvas"


def configura(parser) -> None:
    parser.add_argument(
        "fichero",
        help="el CSV tal como lo baja el aula: la exportación de usuarios o de participantes de Moodle, o la "
        "del libro de calificaciones de Canvas",
    )
    opcion_nbgrader(parser)


def ejecuta(args) -> int:
    from cursos.profesor.importa_alumnos import importa
    from cursos.profesor.informe import cuantos

    carpeta = curso_existente(args)
    hecho = importa(carpeta, ruta_del_usuario(args.fichero))
    for id_, alumno, nuevo in hecho.alumnos:
        datos = ", ".join(filter(None, [alumno.completo(), alumno.email, alumno.lms and f"id del aula {alumno.lms}"]))
        print(f"✔ {id_}: {datos}{' (nuevo)' if nuevo else ''}")
    for aviso in hecho.avisos:
        print(f"» {aviso}", file=sys.stderr)
    nuevos = sum(1 for *_, nuevo in hecho.alumnos if nuevo)
    print(
        f"Lista de {hecho.formato}: {cuantos(len(hecho.alumnos), 'alumno')} en el libro de notas "
        f"({cuantos(nuevos, 'nuevo')}, {cuantos(len(hecho.alumnos) - nuevos, 'puesto')} al día). "
        "Importarla otra vez pone al día, no duplica."
    )
    return 0
