"""`curso calificar`: califica submitted/<alumno>/<desafio>/<cuaderno>.ipynb con notas de fiar.

Cada entrega pasa por los PASOS, en orden, como en `Autograde.autograde_preprocessors` de
nbgrader: se encuentra su cuaderno; la califica el núcleo de confianza
(calificador.califica.califica_entrega, que devuelve Resultados); y con eso se anota en el libro
de nbgrader, se añade su fila al CSV en curso y se escriben el cuaderno calificado (autograded/,
para `nbgrader generate_feedback`: calificado.py) y la devolución. Lo que falle con un alumno le
da 0 con su motivo; los demás siguen.
"""

import contextlib
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from tqdm import tqdm

from cursos.calificador.aislamiento import Aislamiento, detecta
from cursos.calificador.banco import PLAZO
from cursos.calificador.califica import califica_entrega, limpios, rechazada
from cursos.calificador.cuaderno import EntregaInvalida
from cursos.calificador.resultado import Resultados
from cursos.calificador.saneado import escribible, limpio
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso
from cursos.profesor import informe, libro, retroalimentacion, sin_solucion
from cursos.profesor.calificado import copia_hora, escribe_calificado
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.tiempo import hora_de_entrega

A_LA_VEZ = min(2, os.cpu_count() or 1)
# Procesos del alumno lanzados de antemano (Aislamiento.con_reserva): Node y Pyodide de la entrega
# siguiente arrancan mientras se califica la actual. Cada uno lo usa una sola entrega.
RESERVA = A_LA_VEZ


@dataclass
class Lote:
    """Lo que comparten las entregas de una calificación: el desafío, la caja, el libro y el CSV en curso."""

    desafio: Desafio
    aislamiento: Aislamiento
    plazo: float
    rutas: Carpetas
    gradebook: object = None
    penalizador: object = None
    en_curso: informe.CsvPorAlumno | None = None
    zona: object = None  # la del curso (CursoNbgrader.zona()): la de las horas del CSV
    sin_libro: dict[str, dict] = field(default_factory=dict)  # las filas que el libro no ha aceptado


@dataclass
class Entregada:
    """Una entrega según pasa por los PASOS."""

    alumno: str
    carpeta: Path  # submitted/<alumno>/<desafío>/
    cuaderno: Path | None = None
    resultados: Resultados | None = None
    fila: dict | None = None  # la del libro, o la calculada aquí si el libro no la acepta
    anotada: bool = False


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


def fila(alumno: str, r: Resultados) -> dict:
    """La fila del CSV calculada aquí: la que va al libro (y la que queda si el libro no la acepta)."""
    obtenidos = {nombre: prueba.puntos for nombre, prueba in r.pruebas.items()}
    return {"alumno": alumno, "puntos": r.puntos(), "maximo": r.maximo(), "motivo": r.motivo, **obtenidos}


# --- Los pasos de cada entrega -----------------------------------------------------------------


def lee_la_entrega(lote: Lote, e: Entregada) -> None:
    """El cuaderno de la carpeta de la entrega; si no hay uno que se pueda calificar, rechazada."""
    try:
        e.cuaderno = cuaderno_de_la_entrega(e.carpeta, lote.desafio, lote.rutas.raiz)
    except EntregaInvalida as error:
        e.resultados = rechazada(lote.desafio, str(error))
    except OSError as error:
        e.resultados = rechazada(lote.desafio, f"no se ha podido leer la entrega: {error.strerror or error}")


def califica_la_entrega(lote: Lote, e: Entregada) -> None:
    """El núcleo de confianza: la entrega, contra lo repartido, en su caja."""
    if e.resultados is None:
        release = lote.rutas.del_desafio("release", lote.desafio.slug)
        e.resultados = califica_entrega(lote.desafio, release, e.cuaderno, lote.aislamiento, lote.plazo)


def anota_en_el_libro(lote: Lote, e: Entregada) -> None:
    """Al libro, y de vuelta: la fila del libro, con las notas manuales y la penalización.

    Si el libro no la acepta, la fila calculada aquí, que dice por qué (y el lote sigue).
    """
    f = fila(e.alumno, e.resultados)
    hora, aviso = hora_de_entrega(e.carpeta)
    motivo = "; ".join(filter(None, [aviso, e.resultados.motivo]))
    puntos = lote.desafio.puntos()
    try:
        libro.anota(
            lote.gradebook,
            lote.desafio,
            e.alumno,
            {p: f[p] for p in puntos},
            hora=hora,
            motivo=motivo,
            penalizador=lote.penalizador,
        )
        e.fila, e.anotada = libro.fila(lote.gradebook, lote.desafio, e.alumno, lote.zona), True
    except Exception as error:  # p. ej. un nombre que la base de datos no acepta: los demás siguen
        print(f"» {e.alumno}: no se ha podido anotar en el libro ({type(error).__name__}: {error})", file=sys.stderr)
        e.fila = {**f, "motivo": f"NO ANOTADA EN EL LIBRO ({type(error).__name__}); {motivo}"}
        lote.sin_libro[e.alumno] = e.fila


def anade_al_csv(lote: Lote, e: Entregada) -> None:
    """Su fila al CSV en curso: si el lote se corta, se sabe hasta dónde ha llegado."""
    lote.en_curso.anade(e.fila)


def escribe_el_calificado(lote: Lote, e: Entregada) -> None:
    escribe_calificado(lote.rutas, lote.desafio, e.alumno, e.resultados)
    copia_hora(lote.rutas, lote.desafio, e.alumno, e.carpeta)


def escribe_la_devolucion(lote: Lote, e: Entregada) -> None:
    """feedback/: con los comentarios de formgrader que ya estén en el libro (recalificar no los quita)."""
    comentarios = retroalimentacion.comentarios_del_libro(lote.gradebook, lote.desafio, e.alumno) if e.anotada else None
    retroalimentacion.escribe(
        lote.rutas, lote.desafio, e.fila, e.resultados.motivos(), e.resultados.solucion, comentarios
    )


# Los pasos de cada entrega, en orden y declarados una vez. Los EN_LOS_HILOS primeros corren en los
# hilos, varias entregas a la vez (casi todo es esperar al proceso del alumno); los demás escriben,
# de una en una y según termina cada entrega.
PASOS = (
    lee_la_entrega,
    califica_la_entrega,
    anota_en_el_libro,
    anade_al_csv,
    escribe_el_calificado,
    escribe_la_devolucion,
)
EN_LOS_HILOS = 2


def _escribe(lote: Lote, e: Entregada) -> None:
    """Los pasos que escriben. La nota ya está en el libro: si uno falla, el lote sigue sin él y sin los de después."""
    for paso in PASOS[EN_LOS_HILOS:]:
        try:
            paso(lote, e)
        except sin_solucion.LlevaLaSolucion as error:  # nada de source/ sale
            print(f"» {e.alumno}: {error}", file=sys.stderr)
            return
        except (OSError, ValueError) as error:
            print(
                f"» {e.alumno}: no se ha podido escribir su cuaderno calificado o su devolución ({error})",
                file=sys.stderr,
            )
            return


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


def califica_sin_fallar(lote: Lote, e: Entregada) -> Entregada:
    """Los pasos de los hilos, pase lo que pase.

    Si se le acabó el reloj sin agotar su CPU (la máquina estaba ocupada, o su código espera),
    se califica otra vez, a solas, antes de darle un 0; el motivo dice qué ha pasado.
    """
    r = _intenta(lote, e, TURNOS.compartido)
    if r.reloj:
        r = _intenta(lote, e, TURNOS.exclusivo)
        if r.reloj:
            otra_vez = " (calificada otra vez, sola, y se ha vuelto a acabar el reloj)"
            r = replace(r, motivo=limpio((r.motivo + otra_vez).lstrip()))
    e.resultados = r
    return e


def _intenta(lote: Lote, e: Entregada, turno) -> Resultados:
    e.cuaderno = e.resultados = None
    try:
        with turno():
            for paso in PASOS[:EN_LOS_HILOS]:
                paso(lote, e)
        return e.resultados
    except Exception as error:  # un fallo del calificador con un alumno no para a los demás
        motivo = f"no se ha podido calificar ({type(error).__name__}: {error}); avisa al profesor"
        return limpios(Resultados.no_calificable(lote.desafio.puntos(), motivo, None))


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
        rutas = Carpetas.de(curso_nbgrader)
        carpetas = carpetas_de_entrega(rutas, desafio)
        presentes = {a for a, _ in carpetas}
        carpetas = _elige(rutas, desafio, carpetas, libro.alumnos(gradebook), alumno, anadir_alumnos)
        print("»", aislamiento.describe(), file=sys.stderr)
        carpeta_csv = curso_nbgrader / "calificaciones"
        carpeta_csv.mkdir(exist_ok=True)
        en_curso = informe.CsvPorAlumno(carpeta_csv / f"{desafio.slug}.en-curso.csv", list(desafio.puntos()))
        lote = Lote(desafio, aislamiento, plazo, rutas, gradebook, curso.penalizador(), en_curso, curso.zona())
        inicio = time.monotonic()
        with aislamiento.con_reserva(reserva), ThreadPoolExecutor(max(1, a_la_vez)) as hilos:
            entregadas = hilos.map(lambda ac: califica_sin_fallar(lote, Entregada(*ac)), carpetas)
            for e in tqdm(entregadas, total=len(carpetas), desc="Calificando", unit="entrega", disable=not progreso):
                _escribe(lote, e)
        en_curso.cierra()
        segundos = time.monotonic() - inicio
        csv_ = curso_nbgrader / "calificaciones" / f"{desafio.slug}.csv"
        filas = None
        if alumno is not None and alumno not in lote.sin_libro:  # recalificar a uno cuesta uno
            filas = informe.cambia_fila(
                csv_, libro.fila_al_dia(gradebook, desafio, alumno, lote.zona), list(desafio.puntos())
            )
        if filas is None:
            filas = {
                f["alumno"]: _sin_carpeta(f, desafio) if f["alumno"] not in presentes else f
                for f in libro.tabla(gradebook, desafio, lote.zona)
            }
            filas = sorted({**filas, **lote.sin_libro}.values(), key=lambda f: f["alumno"])
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
