"""Lo que queda de una calificación para el profesor: el CSV, el resumen por prueba y su gráfica."""

import csv
from pathlib import Path

MAXIMO_MOTIVO = 600


def corto(texto: str | None) -> str:
    texto = (texto or "").replace("\n", " ")
    return texto if len(texto) <= MAXIMO_MOTIVO else texto[:MAXIMO_MOTIVO] + "…"


def escribe_csv(ruta: Path, filas: list[dict], pruebas: list[str]) -> None:
    """alumno, puntos, maximo, motivo y una columna por prueba (los puntos obtenidos)."""
    with ruta.open("w", newline="", encoding="utf-8") as f:
        escritor = csv.DictWriter(f, ["alumno", "puntos", "maximo", "motivo", *pruebas])
        escritor.writeheader()
        for fila in filas:
            escritor.writerow({**fila, "motivo": corto(fila["motivo"])})


def suspensos_por_prueba(filas: list[dict], pruebas: list[str], puntos: dict[str, int]) -> dict[str, int]:
    return {p: sum(1 for f in filas if f[p] < puntos[p]) for p in pruebas}


def resumen(filas: list[dict], pruebas: list[str], puntos: dict[str, int]) -> str:
    suspensos = suspensos_por_prueba(filas, pruebas, puntos)
    maximo = sum(puntos.values())
    enteras = sum(1 for f in filas if f["puntos"] == maximo)
    lineas = [f"{len(filas)} entregas; {enteras} con la nota entera ({maximo} puntos).",
              "Alumnos que no pasan cada prueba:"]
    ancho = max(map(len, pruebas))
    for p in pruebas:
        lineas.append(f"  {p:<{ancho}}  {suspensos[p]:>4}  {'█' * round(40 * suspensos[p] / max(len(filas), 1))}")
    return "\n".join(lineas)


def grafica(ruta: Path, filas: list[dict], pruebas: list[str], puntos: dict[str, int], titulo: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # sin pantalla
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

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
