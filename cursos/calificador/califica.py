"""La entrada del calificador: una entrega, contra lo repartido, en su caja; sale Resultados.

Se lee la entrega sin ejecutarla (cuaderno.py), su código corre aislado y las pruebas deciden
en este proceso (banco.py); lo que cita del alumno sale limpio (saneado.py). Nada de aquí
escribe: el libro, el cuaderno calificado, la devolución y el CSV son del profesor
(cursos/profesor/calificar.py), que sólo lee el resultado.
"""

import re
import sys
from pathlib import Path

from cursos.calificador.aislamiento import Aislamiento
from cursos.calificador.banco import PLAZO, Pasada, corre_pruebas, espacio_de_pruebas
from cursos.calificador.congelado import repartido as repartido_de
from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega
from cursos.calificador.resultado import QUE_PASO, Prueba, Resultados, Tipo
from cursos.calificador.saneado import escribible, limpio, sin_controles
from cursos.desafio import Desafio


def rechazada(desafio: Desafio, por_que: str) -> Resultados:
    """Una entrega que no se puede calificar (no se lee, no es un cuaderno…): 0 en cada prueba, con el motivo."""
    return limpios(Resultados.no_calificable(desafio.puntos(), f"{QUE_PASO[Tipo.RECHAZO]}: {por_que}", Tipo.RECHAZO))


def califica_entrega(
    desafio: Desafio, repartido: Path, entrega: Path, aislamiento: Aislamiento, plazo: float = PLAZO
) -> Resultados:
    """La calificación del cuaderno entregado (entrega) contra release/<desafío>/ (repartido).

    Con el código de partida, los módulos y las celdas bloqueadas que se repartieron, no con los de
    ahora en el repositorio; y un espacio de pruebas nuevo: nada de una entrega llega a la siguiente.
    """
    try:
        leida = lee_entrega(desafio, entrega, repartido / desafio.cuaderno)
    except EntregaInvalida as e:
        return rechazada(desafio, str(e))
    except OSError as e:
        return rechazada(desafio, f"no se ha podido leer la entrega: {e.strerror or e}")
    espacio = espacio_de_pruebas(desafio, repartido_de(repartido, desafio))
    pasada = corre_pruebas(aislamiento, desafio, espacio, leida, plazo)
    notas = (*leida.notas, *pasada.sintaxis, *sin_paquetes(pasada))
    return limpios(
        Resultados(_pruebas(desafio, pasada), True, _motivo(pasada, notas), leida.solucion, notas, pasada.reloj)
    )


SIN_MODULO = re.compile(r"No module named '([A-Za-z_]\w*)")


def sin_paquetes(pasada: Pasada) -> tuple[str, ...]:
    """Una nota por paquete que su código importa y el calificador no tiene (numpy, pandas…).

    Decisión (docs/alumnos.md): el calificador corre el Python del navegador sin paquetes, sólo con la
    biblioteca estándar; en la página y en JupyterLite sí cargan (Pyodide los descarga), y por eso se
    dice qué ha pasado y qué hacer. Se mira lo que ha lanzado su código (al cargar o en una prueba
    visible), no cómo está escrito: un import dentro de un try que no falla no es un problema.
    """
    textos = [*pasada.avisos, *(m for m in pasada.motivos().values() if m)]
    faltan = sorted({m for t in textos for m in SIN_MODULO.findall(t) if m not in sys.stdlib_module_names})
    return tuple(
        f"tu código importa «{m}», que no es de la biblioteca estándar: el calificador corre tu código con el "
        "mismo Python que el navegador pero sin paquetes (en la página o en JupyterLite sí carga, porque Pyodide "
        f"lo descarga). Escribe esa parte sin «{m}», con lo que trae Python (listas, math, statistics, json…), "
        "como dice el enunciado, y vuelve a entregar"
        for m in faltan[:3]
    )


def _pruebas(desafio: Desafio, pasada: Pasada) -> dict[str, Prueba]:
    pruebas = {}
    for nombre, maximo in desafio.puntos().items():
        r = pasada.resultados[nombre]
        pruebas[nombre] = Prueba(maximo, maximo) if r is None else Prueba(0, maximo, r.tipo, r.motivo())
    return pruebas


def _motivo(pasada: Pasada, notas: tuple[str, ...]) -> str:
    """«no pasa a, b. a: por qué», con lo que lanzó su código al cargarse y las notas del calificador."""
    motivos = pasada.motivos()
    fallan = [p for p, m in motivos.items() if m]
    motivo = f"no pasa {', '.join(fallan)}. {fallan[0]}: {motivos[fallan[0]]}" if fallan else ""
    if fallan and pasada.avisos:
        motivo = f"al cargar tu código, {'; '.join(pasada.avisos)}. " + motivo
    if notas:
        motivo = " ".join(filter(None, [motivo, "Nota: " + "; ".join(notas) + "."]))
    return motivo


def limpios(r: Resultados) -> Resultados:
    """Los mismos resultados con cada texto limpio: lo que dice el alumno (sus excepciones, sus valores)
    acaba en ellos."""
    return Resultados(
        {n: Prueba(p.puntos, p.maximo, p.tipo, limpio(p.motivo)) for n, p in r.pruebas.items()},
        r.calificable,
        limpio(r.motivo),
        sin_controles(escribible(r.solucion)),
        tuple(limpio(n) for n in r.notas),
        r.reloj,
    )
