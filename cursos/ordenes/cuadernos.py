"""./curso cuadernos: los cuadernos .ipynb de las lecciones, con los módulos al lado."""

from cursos import RAIZ
from cursos.ordenes.opciones import ruta_del_usuario

NOMBRE = "cuadernos"
AYUDA = "genera los cuadernos .ipynb de las lecciones"
SALIDA = RAIZ / "build" / "cuadernos"


def configura(parser) -> None:
    parser.add_argument("--destino", help="carpeta de salida (build/cuadernos/<curso>)")


def ejecuta(args) -> int:
    from cursos.cuadernos import escribe_cuadernos
    from cursos.manifiesto import leer_curso
    from cursos.portada import escribe_portada

    curso = leer_curso(args.curso)
    destino = ruta_del_usuario(args.destino) if args.destino else SALIDA / curso.slug
    for ruta in [escribe_portada(curso, destino), *escribe_cuadernos(curso, destino)]:
        print("escrito", ruta.relative_to(RAIZ) if ruta.is_relative_to(RAIZ) else ruta)
    print(f"Ábrelos con Jupyter desde {destino}: los módulos del curso están a su lado.")
    return 0
