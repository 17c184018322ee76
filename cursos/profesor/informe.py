"""Lo que queda de una calificación para el profesor: el CSV, el resumen por prueba y su gráfica.

El CSV sale del libro de notas (libro.tabla): todos los alumnos, con nombre y correo, la nota
final (con notas manuales y penalizaciones), la hora de entrega y una columna por prueba. Se
abre en una hoja de cálculo: ninguna celda empieza por lo que la hoja leería como fórmula.
"""

import csv
import os
from pathlib import Path

MAXIMO_MOTIVO = 600
ANTES = ["alumno", "puntos", "maximo", "motivo"]
DESPUES = ["nombre", "apellidos", "email", "entrega", "segundos_de_retraso", "sin_penalizar", "penalizacion"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def columnas(pruebas: list[str]) -> list[str]:
    return [*ANTES, *pruebas, *DESPUES]


def sin_formula(valor):
    """Un texto que empieza como una fórmula (=, +, -, @, tabulador, retorno) se escribe con ' delante."""
    if isinstance(valor, str) and valor.startswith(FORMULA):
        return "'" + valor
    return valor


def _celdas(fila: dict, pruebas: list[str]) -> dict:
    fila = {**fila, "motivo": corto(fila.get("motivo")), "segundos_de_retraso": fila.get("retraso", "")}
    return {k: sin_formula(fila.get(k, "")) for k in columnas(pruebas)}


class CsvPorAlumno:
    """El CSV escrito según termina cada alumno (con flush): si el lote se corta, lo calificado queda."""

    def __init__(self, ruta: Path, pruebas: list[str]):
        self.ruta, self.pruebas = ruta, pruebas
        self.fichero = ruta.open("w", newline="", encoding="utf-8")
        self.escritor = csv.DictWriter(self.fichero, columnas(pruebas))
        self.escritor.writeheader()

    def anade(self, fila: dict) -> None:
        self.escritor.writerow(_celdas(fila, self.pruebas))
        self.fichero.flush()

    def cierra(self) -> None:
        self.fichero.close()


def corto(texto: str | None) -> str:
    texto = (texto or "").replace("\n", " ")
    return texto if len(texto) <= MAXIMO_MOTIVO else texto[:MAXIMO_MOTIVO] + "…"


def escribe_csv(ruta: Path, filas: list[dict], pruebas: list[str]) -> None:
    """alumno, puntos, maximo, motivo, una columna por prueba y los datos del alumno y de la entrega.

    Se escribe aparte y se cambia de golpe: quien lo tenga abierto nunca ve medio fichero.
    """
    temporal = ruta.with_suffix(".csv.tmp")
    with temporal.open("w", newline="", encoding="utf-8") as f:
        escritor = csv.DictWriter(f, columnas(pruebas))
        escritor.writeheader()
        for fila in filas:
            escritor.writerow(_celdas(fila, pruebas))
    os.replace(temporal, ruta)


def cambia_fila(ruta: Path, fila: dict, pruebas: list[str]) -> list[dict] | None:
    """Pone al día la fila de un alumno en el CSV que ya hay, sin tocar las demás (recalificar a uno
    cuesta uno, no la lista entera). Devuelve las filas, con números donde el resumen los usa; None si
    no hay CSV o es de otras columnas (otra versión, otras pruebas): entonces se escribe entero."""
    try:
        with ruta.open(newline="", encoding="utf-8") as f:
            lector = csv.DictReader(f)
            if lector.fieldnames != columnas(pruebas):
                return None
            crudas = [c for c in lector if c["alumno"] != fila["alumno"]]
    except (OSError, UnicodeError, csv.Error):
        return None
    crudas = sorted([*crudas, _celdas(fila, pruebas)], key=lambda c: c["alumno"])
    temporal = ruta.with_suffix(".csv.tmp")
    with temporal.open("w", newline="", encoding="utf-8") as f:
        escritor = csv.DictWriter(f, columnas(pruebas))
        escritor.writeheader()
        escritor.writerows(crudas)
    os.replace(temporal, ruta)
    return [_con_numeros(c, pruebas) for c in crudas]


def _con_numeros(celdas: dict, pruebas: list[str]) -> dict:
    def numero(x):
        try:
            return float(x)
        except ValueError:
            return 0.0

    return {**celdas, **{k: numero(celdas[k]) for k in [*pruebas, "puntos", "maximo"]}}


def cuantos(n: int, cosa: str) -> str:
    """«1 entrega», «2 entregas», «0 alumnos»."""
    return f"{n} {cosa}{'' if n == 1 else 's'}"


def entregadas(filas: list[dict]) -> list[dict]:
    from cursos.profesor.libro import SIN_ENTREGA

    return [f for f in filas if f.get("motivo") != SIN_ENTREGA]


def suspensos_por_prueba(filas: list[dict], pruebas: list[str], puntos: dict[str, int]) -> dict[str, int]:
    return {p: sum(1 for f in filas if f[p] < puntos[p]) for p in pruebas}


def resumen(filas: list[dict], pruebas: list[str], puntos: dict[str, int]) -> str:
    """Sobre las entregas (quien no ha entregado no cuenta como suspenso de cada prueba)."""
    sin = len(filas) - len(filas := entregadas(filas))
    suspensos = suspensos_por_prueba(filas, pruebas, puntos)
    maximo = sum(puntos.values())
    enteras = sum(1 for f in filas if f["puntos"] == maximo)
    lineas = [
        f"{cuantos(len(filas), 'entrega')}; {enteras} con la nota entera ({cuantos(maximo, 'punto')})"
        + (f"; {cuantos(sin, 'alumno')} del libro sin entrega." if sin else "."),
        "Alumnos que no pasan cada prueba:",
    ]
    ancho = max(map(len, pruebas))
    for p in pruebas:
        lineas.append(f"  {p:<{ancho}}  {suspensos[p]:>4}  {'█' * round(40 * suspensos[p] / max(len(filas), 1))}")
    return "\n".join(lineas)


def grafica(ruta: Path, filas: list[dict], pruebas: list[str], puntos: dict[str, int], titulo: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # sin pantalla
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    filas = entregadas(filas)
    suspensos = suspensos_por_prueba(filas, pruebas, puntos)
    fig, eje = plt.subplots(figsize=(7, 0.45 * len(pruebas) + 1.4))
    barras = eje.barh(pruebas[::-1], [suspensos[p] for p in pruebas[::-1]], color="#c0392b")
    eje.bar_label(barras, padding=3)
    eje.set_xlim(0, max(len(filas), 1) * 1.1)
    eje.xaxis.set_major_locator(MaxNLocator(integer=True))
    eje.set_xlabel(f"alumnos que no la pasan (de {len(filas)})")
    eje.set_title(titulo)
    fig.tight_layout()
    fig.savefig(ruta, dpi=110)
    plt.close(fig)
