"""Una entrega, de su carpeta a sus Resultados: los pasos de calificar que corren en los hilos.

Los dos primeros PASOS de calificar.py (encontrar el cuaderno y calificarlo con el núcleo de
confianza) y el reintento a solas de quien se queda sin reloj. Aparte de calificar.py porque los
usa también cada trabajador del cluster (en_el_trabajador.py), que no escribe nada del lote.
"""

import contextlib
import os
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from cursos.calificador.aislamiento import Aislamiento
from cursos.calificador.califica import califica_entrega, limpios, rechazada
from cursos.calificador.cuaderno import EntregaInvalida
from cursos.calificador.resultado import Resultados
from cursos.calificador.saneado import limpio
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso
from cursos.profesor.carpetas import Carpetas


class ErrorDeCalificacion(ErrorDelCurso):
    """No se puede calificar lo pedido; el mensaje dice qué hacer."""

    prefijo = "no se puede calificar"


@dataclass
class Lote:
    """Lo que comparten las entregas de una calificación: el desafío, la caja, el libro y el CSV en curso."""

    desafio: Desafio
    aislamiento: Aislamiento
    plazo: float
    rutas: Carpetas
    gradebook: object = None
    penalizador: object = None
    en_curso: object = None  # el informe.CsvPorAlumno del lote
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


# Los pasos de los hilos (o del trabajador del cluster), en orden: los primeros de calificar.PASOS.
PASOS_DE_LOS_HILOS = (lee_la_entrega, califica_la_entrega)


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
            for paso in PASOS_DE_LOS_HILOS:
                paso(lote, e)
        return e.resultados
    except Exception as error:  # un fallo del calificador con un alumno no para a los demás
        motivo = f"no se ha podido calificar ({type(error).__name__}: {error}); avisa al profesor"
        return limpios(Resultados.no_calificable(lote.desafio.puntos(), motivo, None))
