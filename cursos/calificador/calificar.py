"""`curso calificar`: califica submitted/<alumno>/<desafio>/<cuaderno>.ipynb con notas de fiar.

Por cada alumno: se lee la entrega sin ejecutarla (cuaderno.py), su código corre
aislado y las pruebas deciden aquí (banco.py); la nota va al libro de nbgrader,
el cuaderno calificado a autograded/ (para `nbgrader generate_feedback`) y una
fila al CSV. Lo que falle con un alumno le da 0 con su motivo; los demás siguen.
"""

import contextlib
import copy
import functools
import html
import json
import os
import re
import shutil
import sys
import threading
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from tqdm import tqdm

from cursos.calificador import informe, libro, retroalimentacion, sin_solucion
from cursos.calificador.aislamiento import Aislamiento, detecta
from cursos.calificador.banco import PLAZO, QUE_PASO, corre_pruebas, espacio_de_pruebas
from cursos.calificador.caja.protocolo import Clave, Rechazo
from cursos.calificador.carpetas import Carpetas
from cursos.calificador.configuracion import CursoNbgrader
from cursos.calificador.congelado import repartido as repartido_de
from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega
from cursos.calificador.fuente import cuaderno_fuente, prueba_del_id
from cursos.calificador.tiempo import MARCA, hora_de_entrega
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso

A_LA_VEZ = min(2, os.cpu_count() or 1)
# Procesos del alumno lanzados de antemano (Aislamiento.con_reserva): Node y Pyodide de la entrega
# siguiente arrancan mientras se califica la actual. Cada uno lo usa una sola entrega.
RESERVA = A_LA_VEZ
MAXIMO_MENSAJE = 2000  # caracteres de cada motivo: lo bastante para entenderlo, no para llenar el disco


@dataclass
class Calificacion:
    alumno: str
    resultados: dict[str, str | None]  # prueba: None si pasa, o por qué no
    motivo: str
    solucion: str | None = None
    notas: tuple[str, ...] = ()  # lo que el calificador ha arreglado o saltado (celdas restauradas...)
    reloj: bool = False  # se acabó el plazo de reloj sin agotar la CPU: merece un intento a solas


def carpetas_de_entrega(rutas: Carpetas, desafio: Desafio) -> list[tuple[str, Path]]:
    """(alumno, submitted/<alumno>/<desafío>) de cada entrega; los enlaces simbólicos también, para
    que cuaderno_de_la_entrega los rechace con su motivo en vez de saltarlos en silencio."""
    carpetas = []
    for alumno, carpeta in rutas.entregas(desafio.slug):
        if escribible(alumno) != alumno:  # el libro de notas no puede guardar ese nombre
            print(
                f"» se salta {escribible(alumno)!r}: el nombre de la carpeta no es UTF-8 válido; "
                "renómbrala con el identificador del alumno y vuelve a calificar",
                file=sys.stderr,
            )
            continue
        carpetas.append((alumno, carpeta))
    return carpetas


def cuaderno_de_la_entrega(carpeta: Path, desafio: Desafio, raiz: Path) -> Path:
    """El único cuaderno de la carpeta, se llame como se llame (el navegador lo renombra: «… (1).ipynb»).

    Ninguna carpeta entre la del curso (raiz) y el cuaderno puede ser un enlace simbólico,
    y su ruta real tiene que estar dentro de submitted/: si no, se calificaría el trabajo de otro.
    """
    relativa = carpeta.relative_to(raiz)
    for n in range(len(relativa.parts), 0, -1):
        ruta = raiz.joinpath(*relativa.parts[:n])
        if ruta.is_symlink():
            raise EntregaInvalida(
                f"la carpeta {ruta.name} es un enlace simbólico, no una carpeta: entrega una copia del cuaderno"
            )
    cuadernos = sorted(p for p in carpeta.glob("*.ipynb") if p.is_file() or p.is_symlink())
    if not cuadernos:
        raise EntregaInvalida("la carpeta de la entrega no tiene ningún cuaderno .ipynb")
    if len(cuadernos) > 1:
        raise EntregaInvalida(
            "la carpeta de la entrega tiene %d cuadernos (%s) y no se sabe cuál calificar: "
            "deja sólo el que entregas" % (len(cuadernos), ", ".join(p.name for p in cuadernos))
        )
    ruta = cuadernos[0]
    if ruta.is_symlink():
        raise EntregaInvalida("el cuaderno es un enlace simbólico, no un fichero: entrega una copia")
    if os.path.realpath(ruta) != os.path.join(os.path.realpath(raiz), relativa, ruta.name):
        raise EntregaInvalida(
            "la ruta del cuaderno pasa por un enlace simbólico y sale de submitted/: entrega una copia del cuaderno"
        )
    return ruta


def califica_una(
    desafio: Desafio, aislamiento: Aislamiento, alumno: str, carpeta: Path, plazo: float, rutas: Carpetas
) -> Calificacion:
    pruebas = list(desafio.puntos())
    try:
        repartido = rutas.del_desafio("release", desafio.slug) / desafio.cuaderno
        entrega = lee_entrega(desafio, cuaderno_de_la_entrega(carpeta, desafio, rutas.raiz), repartido)
    except EntregaInvalida as e:
        motivo = f"{QUE_PASO[Rechazo.tipo]}: {e}"
        return Calificacion(alumno, dict.fromkeys(pruebas, motivo), motivo)
    except OSError as e:
        motivo = f"{QUE_PASO[Rechazo.tipo]}: no se ha podido leer la entrega: {e.strerror or e}"
        return Calificacion(alumno, dict.fromkeys(pruebas, motivo), motivo)
    # Un espacio de pruebas nuevo por alumno: nada de una entrega llega a la siguiente.
    avisos, estado = [], {}
    # Con el código de partida y los módulos que se repartieron, no con los de ahora en el repositorio.
    espacio = espacio_de_pruebas(desafio, repartido_de(rutas.del_desafio("release", desafio.slug), desafio))
    resultados = corre_pruebas(aislamiento, desafio, espacio, entrega, plazo, avisos, estado)
    fallan = [p for p, m in resultados.items() if m]
    motivo = f"no pasa {', '.join(fallan)}. {fallan[0]}: {resultados[fallan[0]]}" if fallan else ""
    if fallan and avisos:
        motivo = f"al cargar tu código, {'; '.join(avisos)}. " + motivo
    notas = [*entrega.notas, *estado.get(Clave.SINTAXIS, [])]
    if notas:
        motivo = " ".join(filter(None, [motivo, "Nota: " + "; ".join(notas) + "."]))
    return Calificacion(alumno, resultados, motivo, entrega.solucion, tuple(notas), bool(estado.get("reloj")))


def _salida(nombre: str, mensaje: str | None, puntos: int) -> dict:
    if mensaje is None:
        return nbformat.v4.new_output("stream", name="stdout", text=f"✔ {nombre}: {puntos} de {puntos} puntos\n")
    return nbformat.v4.new_output(
        "error",
        ename="Fallo",
        evalue=f"✘ {nombre}: {mensaje}",
        traceback=[f"✘ {nombre} (0 de {puntos} puntos): {mensaje}"],
    )


# Lo que enseña la celda de la solución del cuaderno calificado cuando la entrega no la trae.
FALTA_LA_SOLUCION = "# La entrega no trae la solución del alumno: esta celda falta o no se ha podido leer."


@functools.cache
def _visible(desafio: Desafio) -> nbformat.NotebookNode:
    return cuaderno_fuente(desafio, ocultas=False)


def texto_plano(texto: str) -> str:
    """Para una celda de Markdown: ni HTML ni Markdown del alumno (![…](…), [enlaces], `código`)."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~>])", r"\\\1", html.escape(texto, quote=False))


def escribe_calificado(rutas: Carpetas, desafio: Desafio, c: Calificacion) -> None:
    """autograded/<alumno>/<desafio>/: el cuaderno del alumno con los resultados de confianza."""
    cuaderno = copy.deepcopy(_visible(desafio))
    puntos = desafio.puntos()
    for celda in cuaderno.cells:
        gid = celda.metadata["nbgrader"]["grade_id"]
        if gid == desafio.celda_solucion:
            # Sólo lo que entregó el alumno: nunca la celda de source/, que lleva la solución del profesor.
            celda.source = c.solucion if c.solucion is not None else FALTA_LA_SOLUCION
            celda.metadata["curso"] = {"falta_la_solucion": c.solucion is None}
        if celda.metadata["nbgrader"]["grade"]:  # las celdas con nota son las de las pruebas
            prueba = prueba_del_id(gid)
            celda.outputs = [_salida(prueba, c.resultados[prueba], puntos[prueba])]
    if c.solucion is None:
        # El motivo puede citar lo que trae la entrega (p. ej. su cell_type): escapado, no HTML.
        cuaderno.cells.insert(0, nbformat.v4.new_markdown_cell(f"**Entrega no calificable: {texto_plano(c.motivo)}.**"))
    for nota in reversed(c.notas):
        cuaderno.cells.insert(0, nbformat.v4.new_markdown_cell(f"**Nota del calificador:** {texto_plano(nota)}."))
    destino = rutas.de_alumno("autograded", c.alumno, desafio.slug)
    try:
        sin_solucion.comprueba(
            desafio,
            sin_solucion.texto_del_cuaderno(cuaderno),
            sin_solucion.lo_entregado(rutas.de_alumno("submitted", c.alumno, desafio.slug)),
            f"el cuaderno calificado de {c.alumno}",
        )
    except sin_solucion.LlevaLaSolucion:
        (destino / desafio.cuaderno).unlink(missing_ok=True)  # tampoco queda uno de antes que la lleve
        raise
    destino.mkdir(parents=True, exist_ok=True)
    # json.dump y no nbformat.write: validar el mismo esquema 200 veces cuesta más que calificar.
    with (destino / desafio.cuaderno).open("w", encoding="utf-8") as f:
        json.dump(cuaderno, f, ensure_ascii=False, indent=1)


def fila(c: Calificacion, puntos: dict[str, int]) -> dict:
    obtenidos = {p: (puntos[p] if m is None else 0) for p, m in c.resultados.items()}
    return {
        "alumno": c.alumno,
        "puntos": sum(obtenidos.values()),
        "maximo": sum(puntos.values()),
        "motivo": c.motivo,
        **obtenidos,
    }


# Lo que el alumno puede meter en un texto y no se debe escribir tal cual: secuencias ANSI (pintan
# «✔ … puntos» falsos en una terminal o un visor), controles C0 y C1, y los que reordenan o esconden
# texto (U+202E, U+2066…, U+200B…). \n y \t se quedan: separan líneas del mensaje.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]")


def _visible_char(ch: str) -> bool:
    return ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")


def escribible(texto: str | None) -> str | None:
    """Sin sustitutos sueltos de UTF-16 ("\ud800" → "?"), que no se pueden escribir en UTF-8."""
    return None if texto is None else texto.encode("utf-8", "replace").decode("utf-8")


def sin_controles(texto: str | None) -> str | None:
    """Sin secuencias de escape ni caracteres de control o de formato: se ve lo que pone, no lo que pinta."""
    if texto is None or (texto.isascii() and texto.isprintable()):
        return texto
    return "".join(ch for ch in _ANSI.sub("", texto) if _visible_char(ch))


def limpio(texto: str | None) -> str | None:
    """Un motivo que se puede escribir siempre: escribible, sin controles y con tope."""
    if texto is None:
        return None
    texto = escribible(texto[: 4 * MAXIMO_MENSAJE])  # recortar antes: limpiar 16 MB cuesta
    # Un motivo es una línea: un salto de línea del alumno no puede dibujar otra («✔ … puntos»).
    texto = sin_controles(re.sub(r"\r\n|\r|\n|\t", " ⏎ ", texto))
    return texto if len(texto) <= MAXIMO_MENSAJE else texto[:MAXIMO_MENSAJE] + "… (recortado)"


class _Turnos:
    """Las entregas se califican a la vez (compartido); una que se reintenta, a solas (exclusivo).

    Con preferencia para quien espera el turno exclusivo: si no, dos hilos que se turnan lo harían
    esperar siempre.
    """

    def __init__(self):
        self.cond = threading.Condition()
        self.dentro = 0
        self.solo = False
        self.esperan = 0

    def compartido(self):
        return self._turno(exclusivo=False)

    def exclusivo(self):
        return self._turno(exclusivo=True)

    @contextlib.contextmanager
    def _turno(self, exclusivo: bool):
        with self.cond:
            if exclusivo:
                self.esperan += 1
                self.cond.wait_for(lambda: not self.solo and self.dentro == 0)
                self.esperan -= 1
                self.solo = True
            else:
                self.cond.wait_for(lambda: not self.solo and self.esperan == 0)
                self.dentro += 1
        try:
            yield
        finally:
            with self.cond:
                if exclusivo:
                    self.solo = False
                else:
                    self.dentro -= 1
                self.cond.notify_all()


TURNOS = _Turnos()


def califica_sin_fallar(
    desafio: Desafio, aislamiento: Aislamiento, alumno: str, carpeta: Path, plazo: float, rutas: Carpetas
) -> Calificacion:
    """La calificación de un alumno, pase lo que pase; con los textos limpios antes de salir de aquí.

    Si se le acabó el reloj sin agotar su CPU (la máquina estaba ocupada, o su código espera),
    se califica otra vez, a solas, antes de darle un 0; el motivo dice qué ha pasado.
    """
    c = _intenta(desafio, aislamiento, alumno, carpeta, plazo, rutas, TURNOS.compartido)
    if c.reloj:
        c = _intenta(desafio, aislamiento, alumno, carpeta, plazo, rutas, TURNOS.exclusivo)
        if c.reloj:
            c.motivo = (c.motivo + " (calificada otra vez, sola, y se ha vuelto a acabar el reloj)").lstrip()
    # Lo que dice el alumno (sus excepciones, sus valores) acaba en estos textos.
    return Calificacion(
        c.alumno,
        {p: limpio(m) for p, m in c.resultados.items()},
        limpio(c.motivo),
        sin_controles(escribible(c.solucion)),
        tuple(limpio(n) for n in c.notas),
        c.reloj,
    )


def _intenta(desafio, aislamiento, alumno, carpeta, plazo, rutas, turno) -> Calificacion:
    try:
        with turno():
            return califica_una(desafio, aislamiento, alumno, carpeta, plazo, rutas)
    except Exception as e:  # un fallo del calificador con un alumno no para a los demás
        motivo = f"no se ha podido calificar ({type(e).__name__}: {e}); avisa al profesor"
        return Calificacion(alumno, dict.fromkeys(desafio.puntos(), motivo), motivo)


class ErrorDeCalificacion(ErrorDelCurso):
    """No se puede calificar lo pedido; el mensaje dice qué hacer."""


def sin_el_python_del_navegador(aislamiento) -> str:
    """Por qué no se califica con Pyodide y qué hacer. Calificar con otro Python que el del alumno
    lo tiene que pedir el profesor (--python-de-la-maquina): una nota no cambia de intérprete sin más."""
    motivo = next((f for f in aislamiento.faltan if "Python del navegador" in f), "Pyodide no arranca aquí")
    return (
        f"el código de los alumnos tiene que correr con el Python del navegador, el mismo con el que lo "
        f"probaron, y aquí no puede ({motivo}). Instala Node (p. ej. `apt-get install nodejs`) y pasa "
        "`./curso construir`, que descarga Pyodide; o, si aceptas calificar con el Python de esta máquina "
        "(otra versión: lo que sólo vale en el 3.14 del navegador no califica), añade --python-de-la-maquina"
    )


def _elige(
    rutas: Carpetas,
    desafio: Desafio,
    carpetas: list[tuple[str, Path]],
    conocidos: set[str],
    alumno: str | None,
    anadir_alumnos: bool,
) -> list[tuple[str, Path]]:
    """Las entregas que se califican: la de --alumno, y sólo de alumnos del libro si el libro tiene lista."""
    if alumno is not None:
        carpetas = [(a, c) for a, c in carpetas if a == alumno]
        if not carpetas:
            raise ErrorDeCalificacion(
                f"no hay entrega de «{alumno}» en "
                f"{rutas.de_alumno('submitted', alumno, desafio.slug)}/: revisa el "
                "identificador (o recógela antes)"
            )
    if not conocidos:
        if carpetas:
            print(
                f"» el libro no tenía alumnos: se añaden los {len(carpetas)} de {rutas.nombre('submitted')}/. "
                "A partir de ahora sólo se califica a los del libro (añade otros con `nbgrader db student add` o "
                "--anadir-alumnos)",
                file=sys.stderr,
            )
        return carpetas
    fuera = [a for a, _ in carpetas if a not in conocidos]
    if fuera and not anadir_alumnos:
        for a in fuera:
            print(
                f"» «{a}» no está en la lista de alumnos del libro: no se califica. Si es un error de nombre, "
                f"renombra su carpeta en {rutas.nombre('submitted')}/; si es un alumno nuevo, "
                f"`nbgrader db student add {a}` o "
                "./curso calificar --anadir-alumnos",
                file=sys.stderr,
            )
        return [(a, c) for a, c in carpetas if a in conocidos]
    return carpetas


def _copia_hora(rutas: Carpetas, desafio: Desafio, alumno: str, carpeta: Path) -> None:
    """autograded/<alumno>/<desafío>/timestamp.txt, como lo deja nbgrader autograde."""
    destino = rutas.de_alumno("autograded", alumno, desafio.slug) / MARCA
    origen = carpeta / MARCA
    if origen.is_file() and not origen.is_symlink() and destino.parent.is_dir():
        shutil.copyfile(origen, destino)
    elif destino.exists():
        destino.unlink()


def _anota(
    gradebook, curso: CursoNbgrader, penalizador, desafio: Desafio, c: Calificacion, carpeta: Path
) -> tuple[dict, bool]:
    """Al libro, y de vuelta (la fila del libro, con las notas manuales y la penalización; True).

    Si el libro no la acepta: (la fila calculada aquí, que dice por qué; False).
    """
    puntos = desafio.puntos()
    f = fila(c, puntos)
    hora, aviso = hora_de_entrega(carpeta)
    motivo = "; ".join(filter(None, [aviso, c.motivo]))
    try:
        libro.anota(
            gradebook, desafio, c.alumno, {p: f[p] for p in puntos}, hora=hora, motivo=motivo, penalizador=penalizador
        )
        return libro.fila(gradebook, desafio, c.alumno), True
    except Exception as e:  # p. ej. un nombre que la base de datos no acepta: los demás siguen
        print(f"» {c.alumno}: no se ha podido anotar en el libro ({type(e).__name__}: {e})", file=sys.stderr)
        return {**f, "motivo": f"NO ANOTADA EN EL LIBRO ({type(e).__name__}); {motivo}"}, False


def _sin_carpeta(f: dict, desafio: Desafio) -> dict:
    """Una nota del libro cuya entrega ya no está en submitted/: se conserva, y se dice."""
    if f["motivo"] == libro.SIN_ENTREGA:
        return f
    print(
        f"» {f['alumno']}: su entrega de {desafio.slug} ya no está en submitted/ (¿movida o borrada?); "
        "el libro conserva la nota de la última calificación",
        file=sys.stderr,
    )
    return {**f, "motivo": "su entrega ya no está en submitted/: es la nota de la última calificación. " + f["motivo"]}


def califica(
    curso_nbgrader: Path,
    desafio: Desafio,
    plazo: float = PLAZO,
    progreso=True,
    a_la_vez: int = A_LA_VEZ,
    alumno: str | None = None,
    anadir_alumnos: bool = False,
    pyodide: bool = True,
    reserva: int = RESERVA,
) -> list[dict]:
    """Califica las entregas del desafío (o sólo la de `alumno`); devuelve las filas del CSV.

    Varias entregas a la vez (cada una con su proceso y su espacio de pruebas): casi todo el
    tiempo es esperar al proceso del alumno. El libro, autograded/, feedback/ y una fila del
    CSV en curso se escriben aquí, de una en una y según termina cada alumno: si el lote se
    corta, lo calificado está en el libro. Al final, el CSV entero sale del libro: todos sus
    alumnos, también los que no han entregado.

    pyodide: el código del alumno corre en el Python del navegador (Pyodide bajo Node); si aquí no
    arranca, ErrorDeCalificacion sin tocar el libro. Con False, en el de esta máquina.
    reserva: cuántos procesos del alumno se lanzan de antemano.
    """
    # pyodide=False: el Python de esta máquina (unas 15 veces más rápido de arrancar, pero no es el del
    # navegador: lo que sólo existe en el 3.14 no califica). Se decide antes de abrir el libro.
    aislamiento = detecta((curso_nbgrader, Path.cwd()), pyodide)
    if pyodide and not aislamiento.con_pyodide():
        raise ErrorDeCalificacion(sin_el_python_del_navegador(aislamiento))
    curso = CursoNbgrader.de(curso_nbgrader)
    gradebook = libro.abre(curso, desafio)
    with gradebook:
        penalizador = curso.penalizador()
        rutas = Carpetas.de(curso_nbgrader)
        carpetas = carpetas_de_entrega(rutas, desafio)
        presentes = {a for a, _ in carpetas}
        carpetas = _elige(rutas, desafio, carpetas, libro.alumnos(gradebook), alumno, anadir_alumnos)
        print("»", aislamiento.describe(), file=sys.stderr)
        de_quien = dict(carpetas)
        carpeta_csv = curso_nbgrader / "calificaciones"
        carpeta_csv.mkdir(exist_ok=True)
        en_curso = informe.CsvPorAlumno(carpeta_csv / f"{desafio.slug}.en-curso.csv", list(desafio.puntos()))
        sin_libro, inicio = {}, time.monotonic()
        with aislamiento.con_reserva(reserva), ThreadPoolExecutor(max(1, a_la_vez)) as hilos:
            calificaciones = hilos.map(
                lambda ac: califica_sin_fallar(desafio, aislamiento, *ac, plazo, rutas), carpetas
            )
            for c in tqdm(
                calificaciones, total=len(carpetas), desc="Calificando", unit="entrega", disable=not progreso
            ):
                f, anotada = _anota(gradebook, curso, penalizador, desafio, c, de_quien[c.alumno])
                if not anotada:
                    sin_libro[c.alumno] = f
                try:
                    escribe_calificado(rutas, desafio, c)
                    _copia_hora(rutas, desafio, c.alumno, de_quien[c.alumno])
                    # Con los comentarios de formgrader que ya estén en el libro (recalificar no los quita).
                    comentarios = (
                        retroalimentacion.comentarios_del_libro(gradebook, desafio, c.alumno) if anotada else None
                    )
                    retroalimentacion.escribe(rutas, desafio, f, c.resultados, c.solucion, comentarios)
                except sin_solucion.LlevaLaSolucion as e:  # la nota ya está en el libro; nada de source/ sale
                    print(f"» {c.alumno}: {e}", file=sys.stderr)
                except (OSError, ValueError) as e:  # la nota ya está en el libro; el lote sigue
                    print(
                        f"» {c.alumno}: no se ha podido escribir su cuaderno calificado o su devolución ({e})",
                        file=sys.stderr,
                    )
                en_curso.anade(f)
        en_curso.cierra()
        segundos = time.monotonic() - inicio
        csv_ = curso_nbgrader / "calificaciones" / f"{desafio.slug}.csv"
        filas = None
        if alumno is not None and alumno not in sin_libro:  # recalificar a uno cuesta uno
            filas = informe.cambia_fila(csv_, libro.fila_al_dia(gradebook, desafio, alumno), list(desafio.puntos()))
        if filas is None:
            filas = {
                f["alumno"]: _sin_carpeta(f, desafio) if f["alumno"] not in presentes else f
                for f in libro.tabla(gradebook, desafio)
            }
            filas = sorted({**filas, **sin_libro}.values(), key=lambda f: f["alumno"])
            informe.escribe_csv(csv_, filas, list(desafio.puntos()))
    _informa(curso_nbgrader, rutas, desafio, filas, desafio.puntos(), segundos, len(carpetas), curso.db_url)
    en_curso.ruta.unlink(missing_ok=True)
    return filas


def _informa(
    curso_nbgrader: Path,
    rutas: Carpetas,
    desafio: Desafio,
    filas: list[dict],
    puntos: dict[str, int],
    segundos: float,
    calificadas: int,
    db_url: str,
) -> None:
    carpeta = curso_nbgrader / "calificaciones"
    pruebas = list(puntos)
    print(informe.resumen(filas, pruebas, puntos))
    hay = bool(informe.entregadas(filas))
    if hay:
        informe.grafica(
            carpeta / f"{desafio.slug}.png", filas, pruebas, puntos, f"{desafio.slug}: alumnos que no pasan cada prueba"
        )
    if calificadas:
        print(f"{calificadas} calificadas en {segundos:.2f} s, {segundos / calificadas:.3f} s por entrega.")
    else:
        print(f"No hay entregas que calificar en {rutas.de_alumno('submitted', '<alumno>', desafio.slug)}/.")
    libro_visible = db_url.removeprefix("sqlite:///") if db_url.startswith("sqlite:///") else "el servidor de db_url"
    print(
        f"CSV{' y gráfica' if hay else ''} en {carpeta}/{desafio.slug}.csv{' y .png' if hay else ''}; "
        f"notas en {libro_visible}; devolución en español en {rutas.raiz / rutas.nombre('feedback')}/ "
        f"(repártela con `nbgrader release_feedback {desafio.slug}`)"
    )
