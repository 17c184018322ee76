"""La hora de entrega: submitted/<alumno>/<desafío>/timestamp.txt, leída como la lee nbgrader.

El intercambio de nbgrader (`nbgrader collect`) y `curso recoger` dejan ahí la hora; se
interpreta con `nbgrader.utils.parse_utc`, la misma función que usan autograde y
formgrader, para que el libro guarde exactamente la hora con la que formgrader compara.
"""

from datetime import datetime
from pathlib import Path

MARCA = "timestamp.txt"
MAXIMO = 1024  # bytes: una hora no ocupa más


def hora_de_entrega(carpeta: Path) -> tuple[datetime | None, str | None]:
    """(hora UTC sin zona, o None si no hay; aviso en español si timestamp.txt no se puede usar)."""
    from nbgrader.utils import parse_utc

    ruta = carpeta / MARCA
    if not ruta.exists() and not ruta.is_symlink():
        return None, None
    if ruta.is_symlink() or not ruta.is_file() or ruta.stat().st_size > MAXIMO:
        return None, f"{MARCA} no es un fichero corto normal: se califica sin hora de entrega"
    try:
        texto = ruta.read_text(encoding="utf-8").strip()
        return (parse_utc(texto) if texto else None), (None if texto else f"{MARCA} está vacío")
    except (ValueError, OverflowError, UnicodeDecodeError):
        return None, f"{MARCA} no tiene una hora válida: se califica sin hora de entrega"


def retraso_legible(segundos: float) -> str:
    """«2 d 3 h», «5 h 10 min», «40 min», «30 s»."""
    segundos = int(segundos)
    dias, resto = divmod(segundos, 86400)
    horas, resto = divmod(resto, 3600)
    minutos, segs = divmod(resto, 60)
    if dias:
        return f"{dias} d {horas} h"
    if horas:
        return f"{horas} h {minutos} min"
    return f"{minutos} min" if minutos else f"{segs} s"
