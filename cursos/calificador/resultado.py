"""Lo que sale del calificador por cada entrega: una nota por prueba, con su tipo y su motivo.

Es el único tipo que cruza del núcleo de confianza al flujo del profesor (cursos/profesor/):
quien escribe el libro, el cuaderno calificado, la devolución o el CSV lee esto y nada más.
Hace el papel del results.json de PrairieLearn: calificable dice si se ha podido calificar.
"""

import enum
from dataclasses import dataclass

from cursos.calificador.caja.protocolo import Caida, Rechazo, SinCPU, SinReloj


class Tipo(enum.StrEnum):
    """Qué ha pasado en una prueba que no pasa. Es un texto (va así al CSV): sus valores no cambian.

    Los de lo que corta al alumno son el tipo de su excepción (protocolo.py): no se repiten aquí.
    """

    CPU = SinCPU.tipo
    RELOJ = SinReloj.tipo
    CAIDA = Caida.tipo
    RECHAZO = Rechazo.tipo
    RESULTADO = "resultado"  # un Fallo: lo que ha devuelto o lanzado no es lo esperado
    VARIACION = "variacion"  # el Fallo de una variación oculta (VariacionOculta, en desafios/base.py)
    FALTA = "falta"  # no define una función que el desafío pide


# Qué ha pasado, dicho para el alumno: encabeza el motivo de cada prueba que no pasa.
QUE_PASO = {
    Tipo.CPU: "tiempo de CPU agotado",
    Tipo.RELOJ: "tiempo de reloj agotado",
    Tipo.CAIDA: "tu código se ha caído",
    Tipo.RECHAZO: "rechazado",
    Tipo.RESULTADO: "resultado incorrecto",
    Tipo.VARIACION: "resultado incorrecto",
    Tipo.FALTA: "falta la solución",
}


@dataclass(frozen=True)
class Prueba:
    """La nota de una prueba. tipo y motivo son None si pasa; tipo es None también si el calificador
    mismo ha fallado con la entrega (entonces la entrega no es calificable)."""

    puntos: int
    maximo: int
    tipo: Tipo | None = None
    motivo: str | None = None

    @property
    def pasa(self) -> bool:
        return self.motivo is None


@dataclass(frozen=True)
class Resultados:
    """La calificación de una entrega, con los textos ya limpios (saneado.py)."""

    pruebas: dict[str, Prueba]  # en el orden de desafio.toml
    calificable: bool  # False: la entrega no se ha podido leer o calificar; cada prueba vale 0
    motivo: str  # el resumen para el alumno: qué no pasa y por qué, con las notas
    solucion: str | None = None  # el código de la celda de la solución, tal como se entregó
    notas: tuple[str, ...] = ()  # lo que el calificador ha arreglado o saltado (celdas restauradas...)
    reloj: bool = False  # se acabó el plazo de reloj sin agotar la CPU: merece un intento a solas

    @classmethod
    def no_calificable(cls, puntos: dict[str, int], motivo: str, tipo: Tipo | None) -> "Resultados":
        """Cada prueba a 0 con el mismo motivo: una entrega rechazada (tipo RECHAZO) o que ha hecho fallar
        al calificador (tipo None)."""
        return cls({p: Prueba(0, m, tipo, motivo) for p, m in puntos.items()}, False, motivo)

    def motivos(self) -> dict[str, str | None]:
        """{prueba: None si pasa, o por qué no}."""
        return {nombre: prueba.motivo for nombre, prueba in self.pruebas.items()}

    def puntos(self) -> int:
        return sum(prueba.puntos for prueba in self.pruebas.values())

    def maximo(self) -> int:
        return sum(prueba.maximo for prueba in self.pruebas.values())
