"""El proceso del alumno visto desde el calificador: arrancarlo y hablarle por el canal, con topes y plazo.

Una línea JSON por mensaje, en los dos sentidos; del alumno sólo se acepta un objeto JSON de
tamaño y forma acotados. Cada motivo por el que se deja de escucharle es una excepción del
protocolo (SinCPU, SinReloj, Caida, Rechazo): quien llama decide por el tipo.
"""

import json
import os
import select
import signal
import time

from cursos.calificador.aislamiento import ARRANQUE_CPU, Aislamiento, termina
from cursos.calificador.caja.protocolo import SIN_CPU, Caida, Clave, Rechazo, SinCPU, SinReloj, SinRespuesta

MAXIMO_LINEA = 1 << 20  # bytes por mensaje del alumno
MAXIMO_TOTAL = 16 << 20  # bytes de todos sus mensajes en una entrega: lo que este lado guarda y compara
MAXIMO_NODOS = 20_000  # listas, objetos y valores en un mensaje: comparar no puede costar minutos
MAXIMO_RESPUESTAS = 64 << 20  # bytes de todas las respuestas a una entrega


def reloj(plazo: float, aislamiento=None) -> float:
    """Segundos de reloj por entrega: holgados, sólo para quien espera sin gastar CPU (sleep, input).

    La CPU se cobra aparte (RLIMIT_CPU): una máquina ocupada no se la quita a nadie. Con Pyodide,
    también la CPU de arrancarlo (ARRANQUE_CPU), que tampoco es del alumno, y 6 s más: arrancar
    Node es casi todo CPU y en una máquina ocupada tarda varias veces lo que gasta.
    """
    if getattr(aislamiento, "con_pyodide", lambda: False)():
        return 2 * (plazo + ARRANQUE_CPU) + 3 + 6
    return 2 * plazo + 3


class Hijo:
    """El proceso del alumno y el canal: una línea JSON por mensaje, con plazo."""

    def __init__(self, aislamiento: Aislamiento, inicio: dict, limite: float, plazo: float):
        self.limite, self.plazo, self.aislamiento = limite, plazo, aislamiento
        self.proceso = aislamiento.arranca(plazo)
        os.set_blocking(self.proceso.stdin.fileno(), False)
        self.resto = b""
        self.recibidos = self.enviados = 0
        try:
            self.envia(inicio)
            listo = self.recibe()
            if listo.get(Clave.LISTO) is not True:
                raise Caida("el proceso de tu código no ha arrancado")
            errores = listo.get(Clave.ERRORES)
            self.errores = [str(e)[:300] for e in errores[:5]] if isinstance(errores, list) else []
            definidas = listo.get(Clave.DEFINIDAS)
            self.definidas = set(definidas) if isinstance(definidas, list) else set()
            self.sintaxis = _sintaxis(listo.get(Clave.SINTAXIS), listo.get(Clave.VERSION))
        except SinRespuesta:
            self.cierra()  # que no quede nada vivo de un arranque fallido
            raise

    def envia(self, mensaje) -> None:
        """Escribe sin bloquear: un proceso que no lee no puede colgar al calificador."""
        datos, fd = json.dumps(mensaje).encode() + b"\n", self.proceso.stdin.fileno()
        self.enviados += len(datos)
        if self.enviados > MAXIMO_RESPUESTAS:
            raise Rechazo("tu código ha pedido más de %d MB de respuestas" % (MAXIMO_RESPUESTAS >> 20))
        while datos:
            if not select.select([], [fd], [], self._queda())[1]:
                continue
            try:
                datos = datos[os.write(fd, datos) :]
            except BlockingIOError:
                continue
            except OSError:
                raise self._terminado() from None

    def _queda(self) -> float:
        queda = self.limite - time.monotonic()
        if queda <= 0:
            raise SinReloj(
                "ha pasado el plazo de reloj (%g s) sin agotar sus %g s de CPU: tu código "
                "espera (sleep, input, un bloqueo…) o la máquina estaba muy ocupada"
                % (reloj(self.plazo, self.aislamiento), self.plazo)
            )
        return queda

    def _terminado(self) -> SinRespuesta:
        """Por qué ha terminado el proceso del alumno: su CPU, o cualquier otra cosa (una caída).

        Su CPU: sale con SIN_CPU o SIGXCPU, o la CPU que ha gastado (él y lo que lanzó) llega a su
        límite blando. Node no recibe SIGXCPU y muere con el SIGKILL del límite duro, un segundo
        después (unshare, al verlo, sale con 1).
        """
        codigo, cpu = self._espera(2)
        if codigo in (SIN_CPU, -signal.SIGXCPU) or cpu >= getattr(self.proceso, "cpu", float("inf")) - 0.1:
            return SinCPU("ha gastado sus %g s de CPU para todas las pruebas (¿un bucle sin fin?)" % self.plazo)
        return Caida("el proceso de tu código ha terminado (¿exit, os._exit, una señal, memoria?)")

    def _espera(self, segundos: float) -> tuple[int | None, float]:
        """(código de salida o None si sigue vivo, segundos de CPU que ha gastado con sus descendientes)."""
        final = time.monotonic() + segundos
        while True:
            try:
                pid, estado, uso = os.wait4(self.proceso.pid, os.WNOHANG)
            except ChildProcessError:  # ya esperado
                return self.proceso.returncode, 0.0
            if pid:
                self.proceso.returncode = os.waitstatus_to_exitcode(estado)
                return self.proceso.returncode, uso.ru_utime + uso.ru_stime
            if time.monotonic() > final:
                return None, 0.0
            time.sleep(0.01)

    def recibe(self) -> dict:
        fd = self.proceso.stdout.fileno()
        while b"\n" not in self.resto:
            if not select.select([fd], [], [], self._queda())[0]:
                continue
            trozo = os.read(fd, 65536)
            if not trozo:
                raise self._terminado()
            self.resto += trozo
            if len(self.resto) > MAXIMO_LINEA and b"\n" not in self.resto:
                raise Rechazo("tu código ha mandado un mensaje de más de 1 MB")
        linea, self.resto = self.resto.split(b"\n", 1)
        self.recibidos += len(linea)
        if self.recibidos > MAXIMO_TOTAL:
            raise Rechazo("tu código ha mandado más de %d MB en total" % (MAXIMO_TOTAL >> 20))
        try:
            mensaje = json.loads(linea)
        except (ValueError, RecursionError):
            raise Rechazo("ha llegado un mensaje que no es JSON (¿escribes en el canal?)") from None
        if not isinstance(mensaje, dict):
            raise Rechazo("ha llegado un mensaje que no es un objeto JSON")
        if nodos(mensaje) > MAXIMO_NODOS:
            raise Rechazo("tu código ha mandado un valor con más de %d elementos" % MAXIMO_NODOS)
        return mensaje

    def cierra(self) -> None:
        termina(self.proceso)


def _sintaxis(celdas, version) -> list[str]:
    """Una nota por celda del alumno que no es Python válido (lo dice su proceso; la 0 es la de partida)."""
    version = version if isinstance(version, str) and len(version) < 20 else "?"
    notas = []
    for celda in celdas[:5] if isinstance(celdas, list) else []:
        if not (isinstance(celda, list) and len(celda) == 3 and isinstance(celda[0], int) and celda[0] > 0):
            continue
        notas.append(
            "tu celda de código %d no es Python válido para el calificador, que usa el mismo Python %s "
            "que el navegador, ni para IPython (%s, línea %s): no se ha ejecutado y lo que define no "
            "cuenta" % (celda[0], version, str(celda[1])[:200], celda[2] if isinstance(celda[2], int) else "?")
        )
    return notas


def nodos(valor, tope: int = MAXIMO_NODOS) -> int:
    """Cuántos valores hay dentro (sin recursión: JSON ya ha limitado la profundidad); para en tope + 1."""
    cuenta, pendientes = 0, [valor]
    while pendientes and cuenta <= tope:
        actual = pendientes.pop()
        cuenta += 1
        if isinstance(actual, dict):
            pendientes.extend(actual.values())
        elif isinstance(actual, list):
            pendientes.extend(actual)
    return cuenta
