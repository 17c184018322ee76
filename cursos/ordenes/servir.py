"""./curso servir: construye el sitio si hace falta y lo sirve en 127.0.0.1."""

from cursos.ordenes import construir
from cursos.ordenes.opciones import error_de_puerto, puerto_libre

NOMBRE = "servir"
AYUDA = "construye el sitio si hace falta y lo sirve en 127.0.0.1"


def configura(parser) -> None:
    parser.add_argument("--puerto", type=int, default=8000, help="puerto (8000)")
    parser.add_argument("--subruta", default="/", help="sirve el sitio bajo esta ruta, p. ej. /curso/ (raíz)")


def ejecuta(args) -> int:
    from cursos.manifiesto import leer_curso
    from cursos.sitio import SITIO
    from cursos.sitio.construir import hace_falta_construir
    from cursos.sitio.servir import crea_servidor, url_de

    curso = leer_curso(args.curso)
    puerto_libre(args.puerto)  # antes de construir, que puede tardar minutos
    if not construir.referencias_bien(curso) or (hace_falta_construir(curso) and construir.ejecuta(args) != 0):
        return 2
    try:
        servidor = crea_servidor(SITIO, args.puerto, args.subruta)
    except OSError as e:
        raise error_de_puerto(e, args.puerto) from None
    print(f"Sirviendo el curso en {url_de(servidor)}  (Ctrl+C para parar)", flush=True)
    with servidor:
        servidor.serve_forever()
    return 0
