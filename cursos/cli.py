"""La orden `curso`: una sola herramienta de línea de órdenes para todo el proyecto."""

import argparse
import errno
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

from cursos import RAIZ, laboratorio
from cursos.errores import CODIGO_DE_SALIDA, ErrorDelCurso
from cursos.manifiesto import leer_curso

SALIDA = RAIZ / "build"


class ErrorDeOrden(ErrorDelCurso):
    """Lo pedido no se puede hacer; el mensaje (una línea en español) dice qué hacer."""


# Los errores de argparse llegan a Parser.error ya escritos en inglés: cada plantilla inglesa
# (la de argparse) con la suya en español. Se traducen al mostrarlos, sólo en este parser: nada
# de tocar el argparse de los demás.
TRADUCCIONES = {
    "the following arguments are required: %(lista)s": "falta: %(lista)s",
    "invalid choice: %(valor)r (choose from %(opciones)s)": "«%(valor)s» no es válido; elige entre %(opciones)s",
    "unrecognized arguments: %(lista)s": "no se entiende: %(lista)s",
    "expected one argument": "necesita un valor",
    "invalid %(tipo)s value: %(valor)r": "«%(valor)s» no es un valor válido",
    "ambiguous option: %(opcion)s could match %(posibles)s": "la opción %(opcion)s es ambigua: %(posibles)s",
    "argument %(argumento)s: not allowed with argument %(otro)s": "%(argumento)s: no se puede usar junto con %(otro)s",
    "argument %(argumento)s: %(mensaje)s": "%(argumento)s: %(mensaje)s",
}


def _patron(plantilla: str) -> re.Pattern:
    """La plantilla de argparse como expresión regular: %(x)s es cualquier texto; %(x)r, un repr de texto."""
    trozos = re.split(r"%\((\w+)\)([sr])", plantilla)
    patron = ""
    for n, trozo in enumerate(trozos):
        if n % 3 == 0:
            patron += re.escape(trozo)
        elif n % 3 == 1:
            nombre, forma = trozo, trozos[n + 1]
            patron += f"(?P<{nombre}>.+?)" if forma == "s" else f"['\"](?P<{nombre}>.+?)['\"]"
    return re.compile(patron, re.DOTALL)


_PATRONES = [(_patron(ingles), espanol) for ingles, espanol in TRADUCCIONES.items()]


def traduce(mensaje: str) -> str:
    """El mensaje de error de argparse en español; el que no tiene plantilla, tal cual."""
    for patron, espanol in _PATRONES:
        encaja = patron.fullmatch(mensaje)
        if encaja:
            return espanol % {nombre: traduce(valor) for nombre, valor in encaja.groupdict().items()}
    return mensaje


class Formato(argparse.HelpFormatter):
    """La ayuda con «uso:» delante en vez de «usage:»."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "uso: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse en español: la ayuda, sus títulos y los errores, en una línea que dice cómo pedir ayuda.

    Las subórdenes (add_subparsers) se crean con esta misma clase, así que también lo están.
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Formato)
        super().__init__(*args, add_help=False, **kwargs)
        # Los dos grupos que argparse crea él solo, con su título en inglés.
        self._positionals.title = "argumentos"
        self._optionals.title = "opciones"
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS, help="muestra esta ayuda y sale")

    def error(self, message):
        self.exit(2, f"{self.prog}: {traduce(message)} (ayuda: {self.prog} --help)\n")


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
    from cursos.desafio import Desafio

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
    from cursos.pyodide.distribucion import ErrorDeDistribucion
    from cursos.sitio.construir import construir

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
        return ErrorDeOrden(
            f"el puerto {puerto} está ocupado (¿otro `./curso servir`, `./curso formgrader` o "
            "Jupyter abierto?): ciérralo "
            f"o usa otro, p. ej. --puerto {puerto + 1}"
        )
    if e.errno == errno.EACCES:
        return ErrorDeOrden(
            f"no se puede usar el puerto {puerto} sin permisos de administrador: usa uno "
            "mayor que 1023, p. ej. --puerto 8000"
        )
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
    if subprocess.call([sys.executable, "-m", "ruff", "format", "--check", "-q", str(RAIZ)]) != 0:
        print("ruff format cambiaría esos ficheros: pasa `.venv/bin/ruff format .` y vuelve a probar.", file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "pytest", *args.pytest], cwd=RAIZ)


def orden_desafio(args) -> int:
    """Genera el cuaderno fuente de nbgrader y, con generate_assignment, la versión del alumno."""
    from cursos.calificador.referencia import explica, fallos
    from cursos.profesor import CURSO_NBGRADER
    from cursos.profesor.fuente import (
        ErrorDeReparto,
        RepartoCongelado,
        cambios_del_reparto,
        genera_version_del_alumno,
    )

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
        print(
            "Las entregas se siguen calificando contra lo que recibieron los alumnos (release/). Para repartir "
            f"de nuevo, `./curso desafio --desafio {desafio.slug} --forzar`: las entregas hechas con lo anterior "
            "se compararán con lo nuevo, así que fuerza sólo si nadie lo ha recibido aún.",
            file=sys.stderr,
        )
        return 1
    except ErrorDeReparto as e:
        raise ErrorDeOrden(str(e)) from None
    if ya_igual:
        print(f"«{desafio.slug}» ya está repartido en {release} y no ha cambiado: nada que hacer.")
        return 0
    print(
        f"Versión del alumno en {release} (el cuaderno y los ficheros que carga). Se reparte tal cual: "
        "volver a ejecutar esta orden no la cambia."
    )
    return 0


def orden_calificar(args) -> int:
    """Califica submitted/<alumno>/<desafio>/ con el código del alumno aislado."""
    from cursos.profesor import retroalimentacion
    from cursos.profesor.calificar import ErrorDeCalificacion, califica
    from cursos.profesor.libro import LibroSinDesafio

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    try:
        califica(
            carpeta,
            desafio,
            args.plazo,
            alumno=args.alumno,
            anadir_alumnos=args.anadir_alumnos,
            pyodide=not args.python_de_la_maquina,
        )
    except (LibroSinDesafio, ErrorDeCalificacion) as e:
        raise ErrorDeOrden(f"no se puede calificar: {e}") from None
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


def orden_recoger(args) -> int:
    """Recoge las entregas (carpeta o zip del LMS) en submitted/<alumno>/<desafío>/ con timestamp.txt."""
    from cursos.profesor.recoger import PATRON, EntradaInvalida, escribe_informe, recoge

    if args.desafio:
        desafio_de(args)  # un desafío que no existe da la lista de los que hay
    curso_nbgrader = curso_existente(args)  # recoger en una errata crearía un curso nuevo
    desafios = {lc.desafio for lc in leer_curso(args.curso).lecciones if lc.desafio}
    try:
        informe = recoge(
            ruta_del_usuario(args.entrada), curso_nbgrader, desafios, args.desafio, args.patron or PATRON, args.hora
        )
    except EntradaInvalida as e:
        raise ErrorDeOrden(f"no se puede recoger: {e}") from None
    from cursos.profesor.configuracion import aviso_de_zona

    aviso = aviso_de_zona(curso_nbgrader)  # después de recoger, como siempre
    if aviso:
        print(aviso, file=sys.stderr)
    print(escribe_informe(informe))
    for desafio in sorted({linea.desafio for linea in informe if linea.recogida}):
        una = sum(1 for linea in informe if linea.recogida and linea.desafio == desafio) == 1
        orden = f"./curso calificar --desafio {desafio} --nbgrader {curso_nbgrader}"
        print(f"Califíca{'la' if una else 'las'} con: {orden}")
    paradas = [linea for linea in informe if linea.para]
    if paradas:  # las demás se han recogido, pero éstas necesitan que decidas algo
        print(
            f"curso recoger: {len(paradas)} fichero{'s' if len(paradas) != 1 else ''} sin recoger hasta que "
            "decidas de quién es (el motivo y qué hacer, arriba)",
            file=sys.stderr,
        )
        return 1
    # Recoger otra vez la misma descarga no es un error: nada nuevo, y nada que arreglar.
    if any(linea.recogida for linea in informe) or (informe and all(linea.neutra for linea in informe)):
        return 0
    print(
        "curso recoger: no se ha recogido ninguna entrega (el motivo de cada fichero, arriba); corrige lo "
        "que dicen y vuelve a recoger",
        file=sys.stderr,
    )
    return 1


def orden_modelo_guionizado(args) -> int:
    import json

    from cursos.modelo.servidor import ModeloServido, servidor

    guiones = []
    for fichero in args.guion:
        ruta = ruta_del_usuario(fichero)
        try:
            guiones.append(json.loads(ruta.read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            raise ErrorDeOrden(
                f"no se puede leer el guion {ruta} ({e}): tiene que ser una lista de turnos en JSON"
            ) from None
    servido = ModeloServido(guiones, clave=args.clave, demora=args.demora)
    try:
        http = servidor(servido, args.puerto)
    except OSError as e:
        raise ErrorDeOrden(
            f"no se puede usar el puerto {args.puerto} ({e.strerror}): "
            "elige otro con --puerto o cierra lo que lo está usando"
        ) from None
    base = f"http://127.0.0.1:{http.server_address[1]}"
    modelos = ", ".join(sorted(servido.guiones)) or "ninguno (regístralos con POST /guiones)"
    print(
        f"Modelo guionizado en {base}: formato anthropic en {base}/v1/messages, formato openai en "
        f"{base}/v1/chat/completions. Modelos: {modelos}, y fallo-401, fallo-429, fallo-lenta… "
        "Ctrl+C para parar.",
        flush=True,
    )
    try:
        http.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def orden_inyecciones(args) -> int:
    """La clave, si hace falta, sale de CURSO_MODELO_CLAVE: nunca de la línea de órdenes, que queda en el historial."""
    from cursos.modelo import escenarios, inyecciones

    todos = escenarios.escenarios()
    elegidos = [e for e in todos if not args.escenario or e.slug in args.escenario]
    if not elegidos or args.veces < 1:
        raise ErrorDeOrden(
            "no hay nada que ejecutar: los escenarios son "
            + ", ".join(e.slug for e in todos)
            + "; y --veces tiene que ser 1 o más"
        )
    modelo_para = inyecciones.sordo
    if args.url:
        from cursos.modelo.modelo_real import ErrorDelModelo

        try:  # una URL que no vale (http:// a otro ordenador con la clave…) se dice antes de empezar
            modelo_para = inyecciones.modelo_real_para(
                args.url, args.formato, args.modelo, os.environ.get("CURSO_MODELO_CLAVE"), args.plazo
            )
        except ErrorDelModelo as e:
            raise ErrorDeOrden(f"--url: {e}") from None

    def avisa(hechas, total):
        lleno = 30 * hechas // total
        print(f"\r[{'#' * lleno}{'.' * (30 - lleno)}] {hechas}/{total}", end="", file=sys.stderr, flush=True)

    # Cada ejecución se escribe al terminar: un fallo o un Ctrl+C a medias no se lleva las hechas.
    salida = ruta_del_usuario(args.salida)
    ejecuciones, interrumpido = inyecciones.ejecuta_y_escribe(salida, elegidos, args.veces, modelo_para, avisa)
    print(file=sys.stderr)
    print(inyecciones.texto_de_tabla(inyecciones.tabla(ejecuciones)))
    errores = [e for e in ejecuciones if e.error]
    for e in errores[:3]:
        print(f"error en {e.escenario} ({e.defensa} defensa): {e.error}", file=sys.stderr)
    print(f"Escrito en {salida}: tabla.txt, grafico.svg, ejecuciones.json (las conversaciones) y ejecuciones.jsonl.")
    if interrumpido:
        total = len(elegidos) * len(inyecciones.DEFENSAS) * args.veces
        print(f"Interrumpido: sólo {len(ejecuciones)} de {total} ejecuciones; son las que hay.", file=sys.stderr)
        return 130
    return 1 if errores and len(errores) == len(ejecuciones) else 0


def orden_devolver(args) -> int:
    """Escribe la devolución de cada alumno desde el libro (después de calificar a mano) y lo que se sube al LMS."""
    from cursos.profesor.libro import LibroSinDesafio
    from cursos.profesor.retroalimentacion import avisa_atrasadas, devuelve

    desafio = desafio_de(args)
    carpeta = curso_existente(args)
    try:
        hecho = devuelve(carpeta, desafio, comprobar=args.comprobar)
    except LibroSinDesafio as e:
        raise ErrorDeOrden(f"no se puede devolver: {e}") from None
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


def orden_formgrader(args) -> int:
    """JupyterLab en la carpeta del curso, con formgrader diciendo en su columna de nota la del CSV."""
    import subprocess

    from cursos.profesor import formgrader
    from cursos.profesor.fuente import con_herramientas_del_venv

    carpeta = curso_existente(args)
    if getattr(os, "geteuid", lambda: -1)() == 0 and not args.como_root:  # Jupyter acabaría en inglés
        raise ErrorDeOrden(
            "estás como root, y Jupyter no arranca como root: quien abra formgrader podría ejecutar "
            "cualquier cosa como root desde la terminal o un cuaderno de JupyterLab. Si es lo que quieres "
            "(p. ej. en un contenedor sólo tuyo), añade --como-root; si no, lánzalo con tu usuario"
        )
    _puerto_libre(args.puerto)
    con_herramientas_del_venv()
    clave = formgrader.clave_nueva()
    print(
        f"» formgrader en {formgrader.url_de_formgrader(args.puerto, clave)} (con su clave: ábrela tal cual), "
        "con la nota del CSV y de nbgrader export en su columna de nota (Ctrl+C para parar)",
        flush=True,
    )
    orden = formgrader.orden_de_jupyter(carpeta, args.puerto, como_root=args.como_root)
    return subprocess.call(orden, cwd=carpeta, env=formgrader.entorno_de_jupyter(clave))


def orden_copiar_libro(args) -> int:
    """Copia el libro de notas del curso entero a otra db_url vacía (p. ej. de SQLite a PostgreSQL)."""
    from cursos.profesor.configuracion import CursoNbgrader
    from cursos.profesor.fuente import con_herramientas_del_venv
    from cursos.profesor.informe import cuantos
    from cursos.profesor.mudanza import LibroOcupado, copia

    curso = CursoNbgrader.de(curso_existente(args))
    local = curso.libro_local
    if local is not None and not local.is_file():
        raise ErrorDeOrden(f"no hay libro de notas en {local}: no hay nada que copiar")
    con_herramientas_del_venv()
    try:
        copiadas = copia(curso.db_url, args.a, curso.course_id or "default_course")
    except LibroOcupado as e:
        raise ErrorDeOrden(str(e)) from None
    nombres = {
        "student": "alumno",
        "assignment": "desafío",
        "submitted_assignment": "entrega",
        "grade": "nota",
        "comment": "comentario",
    }
    print("Copiado: " + ", ".join(cuantos(copiadas.get(t, 0), n) for t, n in nombres.items()) + ".")
    print(f"Para usarlo, pon en {curso.carpeta / 'nbgrader_config.py'}: c.CourseDirectory.db_url = {args.a!r}")
    return 0


def orden_restaurar(args) -> int:
    """Vuelve a poner una entrega sustituida (de submitted/<alumno>/<desafío>/.anteriores/), con sus notas."""
    from cursos.profesor.anteriores import SinAnterior, restaura
    from cursos.profesor.carpetas import Carpetas
    from cursos.profesor.configuracion import CursoNbgrader

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


def orden_alumnos(args) -> int:
    """Pone en el libro de notas la lista de alumnos que se baja de Moodle o de Canvas, tal cual."""
    from cursos.profesor.importa_alumnos import ListaInvalida, importa
    from cursos.profesor.informe import cuantos

    carpeta = curso_existente(args)
    try:
        hecho = importa(carpeta, ruta_del_usuario(args.fichero))
    except ListaInvalida as e:
        raise ErrorDeOrden(f"no se importa la lista: {e}") from None
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


def predeterminados() -> dict:
    """--nbgrader y --desafio por omisión: los de profesor.toml, o nbgrader/ y el primer desafío."""
    from cursos.profesor import CURSO_NBGRADER
    from cursos.profesor.configuracion import ErrorDeConfiguracion, ajustes

    try:
        datos = ajustes()
    except ErrorDeConfiguracion as e:
        print(f"curso: {e}", file=sys.stderr)
        sys.exit(2)
    nbgrader = (RAIZ / Path(datos["nbgrader"]).expanduser()).resolve() if "nbgrader" in datos else CURSO_NBGRADER
    return {"nbgrader": str(nbgrader), "desafio": datos.get("desafio", "permiso-en-ejecutar")}


def construye_parser() -> argparse.ArgumentParser:

    parser = Parser(
        prog="curso",
        description="Herramientas del curso «Agentes LLM».",
        epilog="Ayuda de cada orden: ./curso ORDEN --help",
    )
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
    ayuda_nbgrader = (
        f"carpeta del curso de nbgrader, relativa a donde estás ({nbgrader}; cámbiala con «nbgrader» en profesor.toml)"
    )
    ayuda_desafio = f"el desafío: {', '.join(desafios_validos())} ({un_desafio}; cámbialo en profesor.toml)"
    p = sub.add_parser("desafio", help="reparte el desafío en formato nbgrader (source/ y release/)")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument(
        "--forzar",
        action="store_true",
        help="vuelve a generar release/ aunque ya esté repartido (las entregas hechas se comparan con lo nuevo)",
    )
    p.set_defaults(funcion=orden_desafio)

    p = sub.add_parser("calificar", help="califica las entregas con el código del alumno aislado")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--alumno", metavar="ID", help="califica de nuevo sólo la entrega de este alumno")
    p.add_argument(
        "--anadir-alumnos",
        action="store_true",
        help="califica y añade al libro también las carpetas de alumnos que no están en su lista",
    )
    p.add_argument(
        "--plazo", type=segundos, default=10.0, metavar="S", help="segundos de CPU por entrega, todas las pruebas (10)"
    )
    p.add_argument(
        "--python-de-la-maquina",
        action="store_true",
        help="califica con el Python de esta máquina, no con el del navegador (Pyodide bajo Node): por si éste no "
        "arranca aquí; es otra versión",
    )
    p.set_defaults(funcion=orden_calificar)

    p = sub.add_parser("recoger", help="recoge las entregas (carpeta o zip del LMS) en submitted/ de nbgrader")
    p.add_argument("entrada", help="la carpeta o el .zip con los cuadernos que han entregado los alumnos")
    p.add_argument("--desafio", metavar="SLUG", help="recoge sólo este desafío (por omisión, cada cuaderno va al suyo)")
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument(
        "--patron",
        help="expresión regular con el grupo (?P<alumno>…) que saca el alumno de la "
        "ruta dentro de la entrada, para cuadernos sin identificador (la primera carpeta); con "
        "Moodle o Canvas y la lista de alumnos en el libro no hace falta",
    )
    p.add_argument(
        "--hora",
        choices=["fichero", "alumno"],
        default="fichero",
        help="de dónde sale la hora de la entrega: fichero (la del zip del aula virtual o la fecha "
        "del fichero) o alumno (la que pone el navegador al descargar; sólo si los ficheros se han "
        "copiado y han perdido su fecha) (fichero)",
    )
    p.set_defaults(funcion=orden_recoger)

    p = sub.add_parser(
        "devolver",
        help="escribe desde el libro (tras calificar a mano) la devolución de cada alumno, el CSV del curso y las "
        "notas para Moodle y Canvas",
    )
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument(
        "--comprobar",
        action="store_true",
        help="no escribe nada: dice qué devoluciones no dicen ya lo del libro (y acaba con 1 si hay)",
    )
    p.set_defaults(funcion=orden_devolver)

    p = sub.add_parser(
        "formgrader",
        help="abre JupyterLab con formgrader en la carpeta del curso, con la nota "
        "del CSV (penalización y crédito extra) en su columna de nota",
    )
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--puerto", type=int, default=8888, help="puerto en 127.0.0.1 (8888)")
    p.add_argument(
        "--como-root",
        action="store_true",
        help="arranca aunque seas root (Jupyter se niega si no: quien abra la página manda como root)",
    )
    p.set_defaults(funcion=orden_formgrader)

    p = sub.add_parser("copiar-libro", help="copia el libro de notas entero a otra db_url vacía (p. ej. PostgreSQL)")
    p.add_argument(
        "--a",
        required=True,
        metavar="DB_URL",
        help="la base de datos nueva, vacía: postgresql+psycopg://usuario@servidor/base o sqlite:///ruta",
    )
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.set_defaults(funcion=orden_copiar_libro)

    p = sub.add_parser("restaurar", help="vuelve a poner una entrega sustituida (guardada en .anteriores/)")
    p.add_argument("--alumno", required=True, metavar="ID", help="el alumno cuya entrega anterior se restaura")
    p.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda_desafio)
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.add_argument("--version", metavar="HORA", help="cuál de .anteriores/ (por omisión, la más nueva)")
    p.set_defaults(funcion=orden_restaurar)

    p = sub.add_parser("alumnos", help="pone en el libro de notas la lista de alumnos bajada de Moodle o de Canvas")
    p.add_argument(
        "fichero",
        help="el CSV tal como lo baja el aula: la exportación de usuarios o de participantes de Moodle, o la "
        "del libro de calificaciones de Canvas",
    )
    p.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda_nbgrader)
    p.set_defaults(funcion=orden_alumnos)

    p = sub.add_parser("laboratorio", help="verifica (o regenera) la evidencia del laboratorio de las dos puertas")
    p.add_argument(
        "accion",
        choices=["verificar", "regenerar"],
        help="verificar: repite los 14 escenarios y compara; regenerar: reescribe la referencia",
    )
    p.add_argument("--laboratorio", default=str(laboratorio.LABORATORIO), help="código del laboratorio")
    p.add_argument("--referencia", default=str(laboratorio.REFERENCIA), help="evidencia JSON de referencia")
    p.set_defaults(funcion=orden_laboratorio)

    p = sub.add_parser(
        "modelo-guionizado",
        help="sirve el modelo guionizado por HTTP, en los formatos de Anthropic y OpenAI (para probar ModeloReal)",
    )
    p.add_argument("--puerto", type=int, default=8001, help="puerto en 127.0.0.1 (8001)")
    p.add_argument(
        "--guion",
        action="append",
        default=[],
        metavar="FICHERO",
        help="un guion en JSON (lista de turnos {espera, responde}); se puede repetir",
    )
    p.add_argument("--clave", help="la clave que se exige en cada petición (por omisión, ninguna)")
    p.add_argument("--demora", type=segundos, default=5.0, metavar="S", help="segundos de fallo-lenta (5)")
    p.set_defaults(funcion=orden_modelo_guionizado)

    p = sub.add_parser(
        "inyecciones",
        help="el laboratorio de inyecciones: el ataque de cada lección contra un "
        "modelo, N veces, sin la defensa y con ella",
    )
    p.add_argument("--url", help="el endpoint de un modelo de verdad (sin él, el modelo guionizado que obedece)")
    p.add_argument("--formato", choices=["openai", "anthropic"], default="openai", help="formato del endpoint (openai)")
    p.add_argument("--modelo", default="", help="el nombre del modelo en ese servidor")
    p.add_argument("--veces", type=int, default=1, metavar="N", help="ejecuciones de cada escenario y defensa (1)")
    p.add_argument("--escenario", action="append", default=[], metavar="SLUG", help="sólo este escenario (se repite)")
    p.add_argument(
        "--salida",
        default="build/inyecciones",
        metavar="CARPETA",
        help="dónde escribir tabla.txt, grafico.svg y ejecuciones.json (build/inyecciones)",
    )
    p.add_argument("--plazo", type=segundos, default=60.0, metavar="S", help="segundos por respuesta del modelo (60)")
    p.set_defaults(funcion=orden_inyecciones)

    p = sub.add_parser("pruebas", help="pasa ruff y todas las pruebas; lo que siga va a pytest (-q, -k …)")
    p.set_defaults(funcion=orden_pruebas)
    return parser


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # --depurar vale en cualquier sitio de la orden (también al final, donde se escribe al repetirla).
    depurar = "--depurar" in argv or os.environ.get("CURSO_DEPURAR", "") not in ("", "0")
    argv = [a for a in argv if a != "--depurar"]
    parser = construye_parser()
    parser.add_argument(
        "--depurar",
        action="store_true",
        help="si algo falla, enseña también el traceback (también con CURSO_DEPURAR=1)",
    )
    args, extra = parser.parse_known_args(argv)
    if extra and args.orden != "pruebas":
        parser.error("no se entiende: " + " ".join(extra))
    args.pytest = extra
    try:
        return args.funcion(args)
    except KeyboardInterrupt:
        return 130
    except ErrorDelCurso as e:  # un error de uso: el mensaje dice qué corregir, sin traceback
        if depurar:
            traceback.print_exc()
        print(f"curso {args.orden}: {e}", file=sys.stderr)
        return CODIGO_DE_SALIDA
    except Exception as e:  # un fallo del curso: una línea, y el traceback sólo si se pide
        if depurar:
            traceback.print_exc()
        primera = (str(e).strip().splitlines() or [""])[0]
        print(
            f"curso {args.orden}: error inesperado ({type(e).__name__}: {primera}); para ver dónde, repite la "
            "orden con --depurar, y si se repite, avisa a quien mantiene el curso",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
