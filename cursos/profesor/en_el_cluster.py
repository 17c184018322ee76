"""`curso calificar --cluster tcp://…`: el lote repartido entre varias máquinas con Dask distributed.

Esta máquina es el coordinador, la de confianza: lee cada entrega (el primer paso de calificar.PASOS),
manda sus bytes, con lo repartido, a un trabajador de Dask (`dask worker`, en_el_trabajador.py), que la
califica en su caja con el mismo núcleo que una calificación local; y escribe aquí, sola, el libro,
autograded/, feedback/ y el CSV (los pasos que escriben, como siempre). Sólo el paso de calificar se va.

Si un trabajador muere a medias, el planificador de Dask vuelve a mandar sus entregas a otro; cada
una vuelve aquí una vez (as_completed da cada futuro una vez) y se escribe una vez. Un trabajador
distinto del coordinador (otro commit, otra huella de lo repartido, otro intérprete) para el lote.
"""

import collections
import sys
import uuid
from collections.abc import Iterator

from cursos.calificador.califica import limpios, rechazada
from cursos.calificador.resultado import Resultados
from cursos.profesor import en_el_trabajador
from cursos.profesor.una_entrega import Entregada, ErrorDeCalificacion, Lote, lee_la_entrega

ESQUEMAS = ("tcp://", "tls://")
ESPERA = 120  # segundos que se espera al primer trabajador


def conecta(direccion: str):
    """El cliente de Dask del planificador de direccion; ErrorDeCalificacion, con qué hacer, si no se puede."""
    if not direccion.startswith(ESQUEMAS):
        raise ErrorDeCalificacion(
            f"la dirección del cluster «{direccion}» tiene que ser la del planificador de Dask, como "
            "tcp://máquina:8786 (la que escribe `dask scheduler` al arrancar)"
        )
    from distributed import Client

    try:
        return Client(direccion, timeout=15, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise ErrorDeCalificacion(
            f"no se puede conectar con el planificador de Dask en {direccion} ({type(e).__name__}): arráncalo "
            "con `dask scheduler` en esa máquina, o corrige --cluster (o «cluster» en profesor.toml)"
        ) from None


class Reparto:
    """Una calificación en el cluster: las entregas según vuelven, y quién ha calificado cuántas."""

    def __init__(self, cliente, lote: Lote, pyodide: bool):
        self.cliente, self.lote, self.pyodide = cliente, lote, pyodide
        self.direccion = cliente.scheduler.address
        self.por_trabajador = collections.Counter()
        self.encierros = {}  # trabajador: lo que dice de su caja
        self.aqui = 0  # las rechazadas al leerlas, aquí, sin trabajador

    def describe(self) -> str:
        trabajadores = self.cliente.scheduler_info(n_workers=-1)["workers"]
        hilos = sum(t["nthreads"] for t in trabajadores.values())
        n = len(trabajadores)
        return (
            f"calificando en el cluster {self.direccion}: {n} trabajador{'es' if n != 1 else ''} con {hilos} "
            f"hilo{'s' if hilos != 1 else ''}; el código de cada alumno corre en la caja de su trabajador"
        )

    def espera_trabajadores(self) -> None:
        if self.cliente.scheduler_info(n_workers=-1)["workers"]:
            return
        direccion = self.direccion
        print(f"» esperando a que se conecte algún trabajador (`dask worker {direccion}`)…", file=sys.stderr)
        try:
            self.cliente.wait_for_workers(1, timeout=ESPERA)
        except TimeoutError:
            raise ErrorDeCalificacion(
                f"en {ESPERA} s no se ha conectado ningún trabajador a {direccion}: arranca `dask worker "
                f"{direccion}` en cada máquina que califica (docs/profesores-cluster.md)"
            ) from None

    def califica(self, entregadas: list[Entregada]) -> Iterator[Entregada]:
        """Cada entrega con sus Resultados, según terminan; las que no se leen aquí, sin salir de aquí."""
        from distributed import as_completed

        desafio = self.lote.desafio
        repartido = en_el_trabajador.lo_repartido(self.lote.rutas.del_desafio("release", desafio.slug))
        esperada = en_el_trabajador.identidad(desafio, repartido, self.pyodide)
        repartido = self.cliente.submit(en_el_trabajador.recibe, repartido, key=f"repartido-{uuid.uuid4().hex}")
        enviadas = {}  # clave del futuro: (futuro, entrega); cada una sale de aquí una vez
        try:
            for e in entregadas:
                lee_la_entrega(self.lote, e)  # el primer paso, aquí: rechaza enlaces y carpetas raras
                tarea = self._tarea(e, esperada)
                if tarea is None:
                    self.aqui += 1
                    yield e
                    continue
                futuro = self.cliente.submit(
                    en_el_trabajador.califica_aqui, tarea, repartido, key=f"califica-{uuid.uuid4().hex}"
                )
                enviadas[futuro.key] = futuro, e
            for futuro in as_completed([f for f, _ in enviadas.values()], loop=self.cliente.loop):
                if futuro.key in enviadas:
                    yield self._vuelve(enviadas.pop(futuro.key)[1], futuro)
        finally:  # el lote se ha parado (un trabajador distinto, Ctrl+C): lo que queda no se califica
            if enviadas:
                self.cliente.cancel([f for f, _ in enviadas.values()])

    def _tarea(self, e: Entregada, esperada) -> en_el_trabajador.Tarea | None:
        if e.resultados is not None:
            return None
        try:
            cuaderno = e.cuaderno.read_bytes()
        except OSError as error:
            e.resultados = rechazada(self.lote.desafio, f"no se ha podido leer la entrega: {error.strerror or error}")
            return None
        return en_el_trabajador.Tarea(
            self.lote.desafio.slug, e.alumno, cuaderno, self.lote.plazo, self.pyodide, esperada
        )

    def _vuelve(self, e: Entregada, futuro) -> Entregada:
        """La entrega con lo que ha dicho su trabajador; un trabajador distinto para el lote entero."""
        try:
            calificada = futuro.result()
        except en_el_trabajador.TrabajadorDistinto as error:
            raise ErrorDeCalificacion(str(error)) from None
        except Exception as error:  # p. ej. KilledWorker: la entrega ha matado a varios trabajadores seguidos
            motivo = f"no se ha podido calificar en el cluster ({type(error).__name__}: {error}); avisa al profesor"
            e.resultados = limpios(Resultados.no_calificable(self.lote.desafio.puntos(), motivo, None))
            self.por_trabajador["ninguno (fallo del cluster)"] += 1
            return e
        e.resultados = calificada.resultados
        self.por_trabajador[calificada.trabajador] += 1
        self.encierros[calificada.trabajador] = calificada.encierro
        return e

    def resumen(self) -> str:
        """Quién ha calificado cuántas, y la caja de cada trabajador (lo que le falta se dice)."""
        lineas = [f"Calificadas por cada trabajador del cluster {self.direccion}:"]
        for trabajador, cuantas in sorted(self.por_trabajador.items()):
            lineas.append(f"  {trabajador}: {cuantas}")
        if self.aqui:
            lineas.append(f"  rechazadas aquí al leerlas, sin mandarlas: {self.aqui}")
        for trabajador, encierro in sorted(self.encierros.items()):
            lineas.append(f"» {trabajador}: {encierro}")
        return "\n".join(lineas)
