"""./curso copiar-libro: el libro de notas del curso entero, a otra db_url vacía (p. ej. de SQLite a PostgreSQL)."""

from cursos.errores import ErrorDeOrden
from cursos.ordenes.opciones import curso_existente, opcion_nbgrader

NOMBRE = "copiar-libro"
AYUDA = "copia el libro de notas entero a otra db_url vacía (p. ej. PostgreSQL)"
# Las tablas del libro, con el nombre que se les da al contarlas.
TABLAS = {
    "student": "alumno",
    "assignment": "desafío",
    "submitted_assignment": "entrega",
    "grade": "nota",
    "comment": "comentario",
}


def configura(parser) -> None:
    parser.add_argument(
        "--a",
        required=True,
        metavar="DB_URL",
        help="la base de datos nueva, vacía: postgresql+psycopg://usuario@servidor/base o sqlite:///ruta",
    )
    opcion_nbgrader(parser)


def ejecuta(args) -> int:
    from cursos.profesor.configuracion import CursoNbgrader
    from cursos.profesor.fuente import con_herramientas_del_venv
    from cursos.profesor.informe import cuantos
    from cursos.profesor.mudanza import copia

    curso = CursoNbgrader.de(curso_existente(args))
    local = curso.libro_local
    if local is not None and not local.is_file():
        raise ErrorDeOrden(f"no hay libro de notas en {local}: no hay nada que copiar")
    con_herramientas_del_venv()
    copiadas = copia(curso.db_url, args.a, curso.course_id or "default_course")
    print("Copiado: " + ", ".join(cuantos(copiadas.get(t, 0), n) for t, n in TABLAS.items()) + ".")
    print(f"Para usarlo, pon en {curso.carpeta / 'nbgrader_config.py'}: c.CourseDirectory.db_url = {args.a!r}")
    return 0
