"""./curso restaurar: vuelve a poner una entrega sustituida, con sus notas (de
submitted/<alumno>/<desafío>/.anteriores/)."""

from cursos.ordenes.opciones import curso_existente, desafio_de, opcion_desafio, opcion_nbgrader

NOMBRE = "restaurar"
AYUDA = "vuelve a poner una entrega sustituida (guardada en .anteriores/)"


def configura(parser) -> None:
    parser.add_argument("--alumno", required=True, metavar="ID", help="el alumno cuya entrega anterior se restaura")
    opcion_desafio(parser)
    opcion_nbgrader(parser)
    parser.add_argument("--version", metavar="HORA", help="cuál de .anteriores/ (por omisión, la más nueva)")


def ejecuta(args) -> int:
    from cursos.profesor.anteriores import restaura
    from cursos.profesor.carpetas import Carpetas
    from cursos.profesor.configuracion import CursoNbgrader

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    entrega = Carpetas.de(carpeta).de_alumno("submitted", args.alumno, desafio.slug)
    lineas = restaura(entrega, CursoNbgrader.de(carpeta), desafio.slug, args.alumno, args.version)
    print("\n".join(lineas))
    print(f"Califícala otra vez: ./curso calificar --alumno {args.alumno} --desafio {desafio.slug}")
    return 0
