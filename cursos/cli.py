"""La orden `curso`: una sola herramienta de línea de órdenes para todo el proyecto."""

import argparse
import errno
import os
import subprocess
import sys
from pathlib import Path

from cursos import RAIZ, laboratorio
from cursos.manifiesto import ErrorDeManifiesto, leer_curso

SALIDA = RAIZ / "build"

# argparse escribe en inglés lo suyo («usage:», «options»…): se traduce aquí, una vez.
TRADUCCIONES = {
    "usage: ": "uso: ",
    "positional arguments": "argumentos",
    "options": "opciones",
    "optional arguments": "opciones",
    "show this help message and exit": "muestra esta ayuda y sale",
    "the following arguments are required: %s": "falta: %s",
    "invalid choice: %(value)r (choose from %(choices)s)": "«%(value)s» no es válido; elige entre %(choices)s",
    "unrecognized arguments: %s": "no se entiende: %s",
    "expected one argument": "necesita un valor",
    "invalid %(type)s value: %(value)r": "«%(value)s» no es un valor válido",
    "ambiguous option: %(option)s could match %(matches)s": "la opción %(option)s es ambigua: %(matches)s",
    "not allowed with argument %s": "no se puede usar junto con %s",
    "%(prog)s: error: %(message)s\n": "%(prog)s: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s: %(message)s",
}
argparse._ = lambda texto: TRADUCCIONES.get(texto, texto)


class ErrorDeOrden(Exception):
    """Lo pedido no se puede hacer; el mensaje (una línea en español) dice qué hacer."""


class Parser(argparse.ArgumentParser):
    """argparse con los errores en una línea en español que dice cómo pedir ayuda."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (ayuda: {self.prog} --help)\n")


def segundos(texto: str) -> float:
    """--plazo: un número de segundos mayor que 0 (con 0 o menos, ninguna entrega tendría tiempo)."""
    try:
        valor = float(texto)
    except ValueError:
        raise argparse.ArgumentTypeError(f"«{texto}» no es un número de segundos (p. ej. 10)") from None
    if not 0 < valor < float("inf"):
        raise argparse.ArgumentTypeError(f"{texto}: tiene que ser un número de segundos mayor que 0 (p. ej. 10)")
    return valor


def ruta_del_usuario(texto: str) -> Path:
    """Las rutas relativas, desde donde se ha lanzado ./curso (el guion entra en el repositorio)."""
    base = Path(os.environ.get("CURSO_DIRECTORIO") or os.getcwd())
    return (base / Path(texto).expanduser()).resolve()


def desafios_validos() -> list[str]:
    return sorted(p.name for p in (RAIZ / "desafios").iterdir() if (p / "desafio.toml").is_file())


def desafio_de(args):
    """El --desafio pedido, o un error que lista los que hay."""
    from cursos.calificador.desafio import Desafio

    if args.desafio not in desafios_validos():
        raise ErrorDeOrden(f"no hay ningún desafío «{args.desafio}»; los que hay: {', '.join(desafios_validos())}")
    return Desafio(args.desafio)


def curso_existente(args) -> Path:
    """La carpeta del curso de nbgrader, que tiene que existir (no se sugiere crearla: puede ser una errata)."""
    carpeta = ruta_del_usuario(args.nbgrader)
    if not carpeta.is_dir():
        raise ErrorDeOrden(f"no existe la carpeta del curso de nbgrader {carpeta}: revisa la ruta de --nbgrader")
    return carpeta


def orden_cuadernos(args) -> int:
    """Genera los cuadernos .ipynb de las lecciones, con los módulos al lado."""
    from cursos.cuadernos import escribe_cuadernos
    from cursos.portada import escribe_portada

    curso = leer_curso(args.curso)
    destino = ruta_del_usuario(args.destino) if args.destino else SALIDA / "cuadernos" / curso.slug
    for ruta in [escribe_portada(curso, destino), *escribe_cuadernos(curso, destino)]:
        print("escrito", ruta.relative_to(RAIZ) if ruta.is_relative_to(RAIZ) else ruta)
    print(f"Ábrelos con Jupyter desde {destino}: los módulos del curso están a su lado.")
    return 0


def referencias_bien(curso) -> bool:
    """Antes de construir o servir: la solución de cada desafío pasa sus pruebas visibles con el código
    de partida de la lección (una edición de la lección puede romperlo); si no, lo dice y no sigue."""
    from cursos.calificador.referencia import comprueba, explica

    malas = comprueba(sorted({lc.desafio for lc in curso.lecciones if lc.desafio}))
    if malas:
        print(f"No se construye el sitio: {explica(malas)}", file=sys.stderr)
    return not malas


def orden_construir(args) -> int:
    """Construye el sitio estático: portada, páginas de lección, módulos, Pyodide y JupyterLite."""
    from cursos.sitio.construir import construir
    from cursos.sitio.distribucion import ErrorDeDistribucion

    curso = leer_curso(args.curso)
    if not referencias_bien(curso):
        return 2
    try:
        segundos = construir(curso)
    except ErrorDeDistribucion as e:
        print(f"No se ha podido construir el sitio: {e}", file=sys.stderr)
        return 2
    consejo = " Sírvelo con ./curso servir" if getattr(args, "funcion", None) is orden_construir else ""
    print(f"Sitio construido en build/sitio en {segundos:.1f} s.{consejo}")
    return 0


def orden_servir(args) -> int:
    """Construye el sitio si hace falta y lo sirve en 127.0.0.1."""
    from cursos.sitio import SITIO
    from cursos.sitio.construir import hace_falta_construir
    from cursos.sitio.servir import crea_servidor, url_de

    curso = leer_curso(args.curso)
    _puerto_libre(args.puerto)  # antes de construir, que puede tardar minutos
    if not referencias_bien(curso) or (hace_falta_construir(curso) and orden_construir(args) != 0):
        return 2
    try:
        servidor = crea_servidor(SITIO, args.puerto, args.subruta)
    except OSError as e:
        raise _error_de_puerto(e, args.puerto) from None
    print(f"Sirviendo el curso en {url_de(servidor)}  (Ctrl+C para parar)", flush=True)
    with servidor:
        servidor.serve_forever()
    return 0


def _puerto_libre(puerto: int) -> None:
    """Un ErrorDeOrden si no se puede escuchar en 127.0.0.1:puerto."""
    import socket

    if not puerto:
        return
    with socket.socket() as prueba:
        prueba.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # como el servidor
        try:
            prueba.bind(("127.0.0.1", puerto))
        except OSError as e:
            raise _error_de_puerto(e, puerto) from None


def _error_de_puerto(e: OSError, puerto: int) -> Exception:
    if e.errno == errno.EADDRINUSE:
        return ErrorDeOrden(f"el puerto {puerto} está ocupado (¿otro `./curso servir` abierto?): ciérralo "
                            f"o usa otro, p. ej. --puerto {puerto + 1}")
    if e.errno == errno.EACCES:
        return ErrorDeOrden(f"no se puede usar el puerto {puerto} sin permisos de administrador: usa uno "
                            "mayor que 1023, p. ej. --puerto 8000")
    return e


def orden_laboratorio(args) -> int:
    """Repite el laboratorio de las dos puertas y compara su evidencia con la guardada."""
    rutas = {"laboratorio": ruta_del_usuario(args.laboratorio), "referencia": ruta_del_usuario(args.referencia)}
    accion = laboratorio.verificar if args.accion == "verificar" else laboratorio.regenerar
    pasa, lineas = accion(**rutas)
    print("\n".join(lineas))
    return 0 if pasa else 1


def orden_pruebas(args) -> int:
    """Pasa ruff y todas las pruebas (CPython, navegador y calificador)."""
    if subprocess.call([sys.executable, "-m", "ruff", "check", str(RAIZ)]) != 0:
        print("ruff ha encontrado problemas: corrígelos antes de seguir.", file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "pytest", *args.pytest], cwd=RAIZ)


def orden_desafio(args) -> int:
    """Genera el cuaderno fuente de nbgrader y, con generate_assignment, la versión del alumno."""
    from cursos.calificador import CURSO_NBGRADER
    from cursos.calificador.fuente import (
        ErrorDeReparto,
        RepartoCongelado,
        cambios_del_reparto,
        genera_version_del_alumno,
    )
    from cursos.calificador.referencia import explica, fallos

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
    except RepartoCongelado as e:
        print(f"«{desafio.slug}» ya está repartido en {e.release} y no se cambia. Lo que cambiaría:", file=sys.stderr)
        for cambio in e.cambios:
            print(f"  - {cambio}", file=sys.stderr)
        print("Las entregas se siguen calificando contra lo que recibieron los alumnos (release/). Para repartir "
              f"de nuevo, `./curso desafio --desafio {desafio.slug} --forzar`: las entregas hechas con lo anterior "
              "se compararán con lo nuevo, así que fuerza sólo si nadie lo ha recibido aún.", file=sys.stderr)
        return 1
    except ErrorDeReparto as e:
        raise ErrorDeOrden(str(e)) from None
    if ya_igual:
        print(f"«{desafio.slug}» ya está repartido en {release} y no ha cambiado: nada que hacer.")
        return 0
    print(f"Versión del alumno en {release} (el cuaderno y los ficheros que carga). Se reparte tal cual: "
          "volver a ejecutar esta orden no la cambia.")
    return 0


def orden_calificar(args) -> int:
    """Califica submitted/<alumno>/<desafio>/ con el código del alumno aislado."""
    from cursos.calificador.calificar import ErrorDeCalificacion, califica
    from cursos.calificador.libro import LibroSinDesafio

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    try:
        califica(carpeta, desafio, args.plazo, alumno=args.alumno, anadir_alumnos=args.anadir_alumnos)
    except (LibroSinDesafio, ErrorDeCalificacion) as e:
        raise ErrorDeOrden(f"no se puede calificar: {e}") from None
    return 0


def orden_recoger(args) -> int:
    """Recoge las entregas (carpeta o zip del LMS) en submitted/<alumno>/<desafío>/ con timestamp.txt."""
    from cursos.calificador.recoger import PATRON, EntradaInvalida, escribe_informe, recoge

    if args.desafio:
        desafio_de(args)  # un desafío que no existe da la lista de los que hay
    curso_nbgrader = curso_existente(args)  # recoger en una errata crearía un curso nuevo
    desafios = {lc.desafio for lc in leer_curso(args.curso).lecciones if lc.desafio}
    try:
        informe = recoge(ruta_del_usuario(args.entrada), curso_nbgrader, desafios, args.desafio,
                         args.patron or PATRON, args.hora)
    except EntradaInvalida as e:
        raise ErrorDeOrden(f"no se puede recoger: {e}") from None
    print(escribe_informe(informe))
    for desafio in sorted({linea.desafio for linea in informe if linea.recogida}):
        una = sum(1 for linea in informe if linea.recogida and linea.desafio == desafio) == 1
        orden = f"./curso calificar --desafio {desafio} --nbgrader {curso_nbgrader}"
        print(f"Califíca{'la' if una else 'las'} con: {orden}")
    if any(linea.recogida for linea in informe):
        return 0
    if informe and all(linea.ya_estaba for linea in informe):
        print("Nada nuevo: todo lo de la entrada ya estaba recogido.")
        return 0
    print("curso recoger: no se ha recogido ninguna entrega (el motivo de cada fichero, arriba); corrige lo "
          "que dicen y vuelve a recoger", file=sys.stderr)
    return 1


def orden_devolver(args) -> int:
    """Escribe la devolución de cada alumno desde el libro (después de calificar a mano) y lo que se sube al LMS."""
    from cursos.calificador.libro import LibroSinDesafio
    from cursos.calificador.retroalimentacion import devuelve, explica_atrasada

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    try:
        hecho = devuelve(carpeta, desafio, comprobar=args.comprobar)
    except LibroSinDesafio as e:
        raise ErrorDeOrden(f"no se puede devolver: {e}") from None
    for alumno, antes, ahora in hecho.atrasadas:
        que = "sin reescribir (quita --comprobar para reescribirla)" if args.comprobar else "se reescribe"
        print(f"» {explica_atrasada(alumno, antes, ahora)}: el libro cambió después de escribirla; {que}",
              file=sys.stderr)
    for alumno in hecho.sin_calificar:
        print(f"» {alumno}: no hay cuaderno calificado en autograded/ (¿sin calificar?): su devolución no dice el "
              f"motivo de cada prueba; `./curso calificar --alumno {alumno}`", file=sys.stderr)
    if args.comprobar:
        if not hecho.atrasadas:
            print("Todas las devoluciones dicen lo que dice el libro.")
        return 1 if hecho.atrasadas else 0
    n = len(hecho.escritas)
    print(f"{n} {'devolución escrita' if n == 1 else 'devoluciones escritas'} desde el libro en "
          f"{carpeta / 'feedback'}/ (las demás ya decían lo mismo); para el intercambio de nbgrader, "
          f"`nbgrader release_feedback {desafio.slug}`.")
    if hecho.moodle:
        print(f"Moodle: sube {hecho.moodle} con «Subir varios archivos de retroalimentación en un zip».")
    if hecho.canvas:
        print(f"Canvas: en {hecho.canvas}/, un fichero por alumno con su prefijo de Canvas; adjúntalo en SpeedGrader.")
    return 0


def orden_copiar_libro(args) -> int:
    """Copia el libro de notas del curso entero a otra db_url vacía (p. ej. de SQLite a PostgreSQL)."""
    from cursos.calificador.configuracion import CursoNbgrader
    from cursos.calificador.fuente import con_herramientas_del_venv
    from cursos.calificador.informe import cuantos
    from cursos.calificador.mudanza import LibroOcupado, copia

    curso = CursoNbgrader.de(curso_existente(args))
    local = curso.libro_local
    if local is not None and not local.is_file():
        raise ErrorDeOrden(f"no hay libro de notas en {local}: no hay nada que copiar")
    con_herramientas_del_venv()
    try:
        copiadas = copia(curso.db_url, args.a, curso.course_id or "default_course")
    except LibroOcupado as e:
        raise ErrorDeOrden(str(e)) from None
    nombres = {"student": "alumno", "assignment": "desafío", "submitted_assignment": "entrega",
               "grade": "nota", "comment": "comentario"}
    print("Copiado: " + ", ".join(cuantos(copiadas.get(t, 0), n) for t, n in nombres.items()) + ".")
    print(f"Para usarlo, pon en {curso.carpeta / 'nbgrader_config.py'}: c.CourseDirectory.db_url = {args.a!r}")
    return 0


def orden_restaurar(args) -> int:
    """Vuelve a poner una entrega sustituida (de submitted/<alumno>/<desafío>/.anteriores/), con sus notas."""
    from cursos.calificador.anteriores import SinAnterior, restaura
    from cursos.calificador.carpetas import Carpetas
    from cursos.calificador.configuracion import CursoNbgrader

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    entrega = Carpetas.de(carpeta).de_alumno("submitted", args.alumno, desafio.slug)
    try:
        lineas = restaura(entrega, CursoNbgrader.de(carpeta), desafio.slug, args.alumno, args.version)
    except SinAnterior as e:
        raise ErrorDeOrden(str(e)) from None
    print("\n".join(lineas))
    print(f"Califícala otra vez: ./curso calificar --alumno {args.alumno} --desafio {desafio.slug}")
    return 0


def predeterminados() -> dict:
    """--nbgrader y --desafio por omisión: los de profesor.toml, o nbgrader/ y el primer desafío."""
    from cursos.calificador import CURSO_NBGRADER
    from cursos.calificador.configuracion import ErrorDeConfiguracion, ajustes

    try:
        datos = ajustes()
    except ErrorDeConfiguracion as e:
        print(f"curso: {e}", file=sys.stderr)
        sys.exit(2)
    nbgrader = (RAIZ / Path(datos["nbgrader"]).expanduser()).resolve() if "nbgrader" in datos else CURSO_NBGRADER
    return {"nbgrader": str(nbgrader), "desafio": datos.get("desafio", "permiso-en-ejecutar")}


def construye_parser() -> argparse.ArgumentParser:

    parser = Parser(prog="curso", description="Herramientas del curso «Agentes LLM».",
                    epilog="Ayuda de cada orden: ./curso ORDEN --help")
    parser.add_argument("--curso", default="llm-agents", help="slug del manifiesto en cursos/ (llm-agents)")
    sub = parser.add_subparsers(dest="orden", required=True, metavar="orden", title="órdenes")

    p = sub.add_parser("cuadernos", help="genera los cuadernos .ipynb de las lecciones")
    p.add_argument("--destino", help="carpeta de salida (build/cuadernos/<curso>)")
    p.set_defaults(funcion=orden_cuadernos)

    p = sub.add_parser("construir", help="construye el sitio estático en build/sitio")
    p.set_defaults(funcion=orden_construir)

    p = sub.add_parser("servir", help="construye el sitio si hace falta y lo sirve en 127.0.0.1")
    p.add_argument("--puerto", type=int, default=8000, help="puerto (8000)")
    p.add_argument("--subruta", default="/", help="sirve el sitio bajo esta ruta, p. ej. /curso/ (raíz)")
    p.set_defaults(funcion=orden_servir)

    omision = predeterminados()
    nbgrader, un_desafio = omision["nbgrader"], omision["desafio"]
    ayuda_nbgrader = (f"carpeta del curso de nbgrader, relativa a donde estás ({nbgrader}; cámbiala con "
                      "«nbgrader» en profesor.toml)")
    ayuda_desafio = f"el desafío: {', '.join(desafios_validos())} ({un_desafio}; cámbialo en profesor.toml)"
    p = sub.add_parser("desafio", help="reparte el desafío en formato nbgrader (source/ y release/)")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--forzar", action="store_true",
                   help="vuelve a generar release/ aunque ya esté repartido "
                   "(las entregas hechas se comparan con lo nuevo)")
    p.set_defaults(funcion=orden_desafio)

    p = sub.add_parser("calificar", help="califica las entregas con el código del alumno aislado")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--alumno", metavar="ID", help="califica de nuevo sólo la entrega de este alumno")
    p.add_argument("--anadir-alumnos", action="store_true",
                   help="califica y añade al libro también las carpetas de alumnos que no están en su lista")
    p.add_argument("--plazo", type=segundos, default=10.0, metavar="S",
                   help="segundos de CPU por entrega, todas las pruebas (10)")
    p.set_defaults(funcion=orden_calificar)

    p = sub.add_parser("recoger", help="recoge las entregas (carpeta o zip del LMS) en submitted/ de nbgrader")
    p.add_argument("entrada", help="la carpeta o el .zip con los cuadernos que han entregado los alumnos")
    p.add_argument("--desafio", metavar="SLUG", help="recoge sólo este desafío (por omisión, cada cuaderno va al suyo)")
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--patron", help="expresión regular con el grupo (?P<alumno>…) que saca el alumno de la "
                   "ruta dentro de la entrada, para cuadernos sin identificador (la primera carpeta); con "
                   "Moodle o Canvas y la lista de alumnos en el libro no hace falta")
    p.add_argument("--hora", choices=["fichero", "alumno"], default="fichero",
                   help="de dónde sale la hora de la entrega: fichero (la del zip del aula virtual o la fecha "
                   "del fichero) o alumno (la que pone el navegador al descargar; sólo si los ficheros se han "
                   "copiado y han perdido su fecha) (fichero)")
    p.set_defaults(funcion=orden_recoger)

    p = sub.add_parser("devolver", help="escribe la devolución de cada alumno desde el libro (tras calificar a mano)")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--comprobar", action="store_true",
                   help="no escribe nada: dice qué devoluciones no dicen ya lo del libro (y acaba con 1 si hay)")
    p.set_defaults(funcion=orden_devolver)

    p = sub.add_parser("copiar-libro", help="copia el libro de notas entero a otra db_url vacía (p. ej. PostgreSQL)")
    p.add_argument("--a", required=True, metavar="DB_URL",
                   help="la base de datos nueva, vacía: postgresql+psycopg://usuario@servidor/base o sqlite:///ruta")
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.set_defaults(funcion=orden_copiar_libro)

    p = sub.add_parser("restaurar", help="vuelve a poner una entrega sustituida (guardada en .anteriores/)")
    p.add_argument("--alumno", required=True, metavar="ID", help="el alumno cuya entrega anterior se restaura")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--version", metavar="HORA", help="cuál de .anteriores/ (por omisión, la más nueva)")
    p.set_defaults(funcion=orden_restaurar)

    p = sub.add_parser("laboratorio", help="verifica (o regenera) la evidencia del laboratorio de las dos puertas")
    p.add_argument("accion", choices=["verificar", "regenerar"],
                   help="verificar: repite los 14 escenarios y compara; regenerar: reescribe la referencia")
    p.add_argument("--laboratorio", default=str(laboratorio.LABORATORIO), help="código del laboratorio")
    p.add_argument("--referencia", default=str(laboratorio.REFERENCIA), help="evidencia JSON de referencia")
    p.set_defaults(funcion=orden_laboratorio)

    p = sub.add_parser("pruebas", help="pasa ruff y todas las pruebas; lo que siga va a pytest (-q, -k …)")
    p.set_defaults(funcion=orden_pruebas)
    return parser


def main(argv=None) -> int:
    parser = construye_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.orden != "pruebas":
        parser.error("no se entiende: " + " ".join(extra))
    args.pytest = extra
    try:
        return args.funcion(args)
    except ErrorDeManifiesto as e:
        print(f"Error en el manifiesto del curso: {e}", file=sys.stderr)
        return 2
    except ErrorDeOrden as e:
        print(f"curso {args.orden}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # nada de tracebacks: una línea que diga qué ha pasado
        from cursos.calificador.configuracion import ErrorDeConfiguracion

        if isinstance(e, ErrorDeConfiguracion):
            print(f"curso {args.orden}: {e}", file=sys.stderr)
            return 2
        primera = (str(e).strip().splitlines() or [""])[0]
        print(f"curso {args.orden}: error inesperado ({type(e).__name__}: {primera}); si se repite, "
              "avisa a quien mantiene el curso con la orden que has lanzado", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
