"""La hora de entrega: submitted/<alumno>/<desafío>/timestamp.txt, leída como la lee nbgrader.

El intercambio de nbgrader (`nbgrader collect`) y `curso recoger` dejan ahí la hora; se
interpreta con `nbgrader.utils.parse_utc`, la misma función que usan autograde y
formgrader, para que el libro guarde exactamente la hora con la que formgrader compara.

Ninguna hora depende de qué curso se leyó antes: la zona del curso (CursoNbgrader.zona()) se
pasa a cada función que la usa.
"""

from datetime import UTC, datetime, timedelta
from pathlib import Path

MARCA = "timestamp.txt"
MAXIMO = 1024  # bytes: una hora no ocupa más


def hora_de_entrega(carpeta: Path) -> tuple[datetime | None, str | None]:
    """(hora UTC sin zona, o None si no hay; aviso en español si timestamp.txt no se puede usar).

    El aviso lleva también lo que dejó dicho `curso recoger` (avisos_de_la_recogida): quien
    califica lo pone en el motivo de la nota, así sale en el CSV y en formgrader.
    """
    hora, aviso = _hora_de_entrega(carpeta)
    recogida = avisos_de_la_recogida(carpeta)
    return hora, "; ".join(filter(None, [recogida, aviso])) or None


def _hora_de_entrega(carpeta: Path) -> tuple[datetime | None, str | None]:
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


def nombre_de_zona(tz=None, hora: datetime | None = None) -> str:
    """«Europe/Madrid» si es la del curso; la de la máquina, por su abreviatura («CET»)."""
    local = (hora or datetime.now(UTC).replace(tzinfo=None)).replace(tzinfo=UTC).astimezone(tz)
    return getattr(tz, "key", None) or local.strftime("%Z") or "hora de esta máquina"


def en_zona(hora, tz) -> str:
    """Una hora UTC (sin zona, o el texto de timestamp.txt) como la lee el profesor: «2026-11-20
    12:00:30 Europe/Madrid (11:00:30 UTC)», o «… UTC» si la zona del curso (tz, de
    CursoNbgrader.zona(); None es la de esta máquina) es UTC."""
    from nbgrader.utils import parse_utc

    if isinstance(hora, str):
        hora = parse_utc(hora)
    local = hora.replace(tzinfo=UTC).astimezone(tz)
    nombre = nombre_de_zona(tz, hora)
    if local.utcoffset() == timedelta(0) and nombre in ("UTC", "Etc/UTC", "GMT"):
        return f"{hora:%Y-%m-%d %H:%M:%S} UTC"
    return f"{local:%Y-%m-%d %H:%M:%S} {nombre} ({hora:%H:%M:%S} UTC)"


def iso_en_zona(hora: datetime, tz) -> str:
    """Para el CSV: la hora en la zona del curso (tz), con su desfase («2026-11-20 12:00:30+01:00»)."""
    return hora.replace(tzinfo=UTC).astimezone(tz).isoformat(sep=" ", timespec="seconds")


def avisos_de_la_recogida(carpeta: Path) -> str:
    """Lo que `curso recoger` dejó dicho de esta entrega (otro alumno en el cuaderno, notas a mano
    quitadas al sustituirla): va al motivo de la nota, y de ahí al CSV y a formgrader."""
    ruta = carpeta / ".avisos-de-recogida"
    try:
        return ruta.read_text(encoding="utf-8")[: MAXIMO * 2].strip() if ruta.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return ""


def ahora_utc() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def hora_de_texto(texto) -> datetime | None:
    """ISO 8601 o el formato de nbgrader, a UTC sin zona; None si no se entiende."""
    from nbgrader.utils import parse_utc

    if not isinstance(texto, str) or not texto.strip():
        return None
    try:
        hora = datetime.fromisoformat(texto.strip())
        if hora.tzinfo is not None:
            hora = (hora - hora.utcoffset()).replace(tzinfo=None)
        return hora
    except ValueError:
        pass
    try:
        return parse_utc(texto)
    except (ValueError, OverflowError):
        return None


def hora_del_fichero(ruta: Path) -> datetime:
    return datetime.fromtimestamp(ruta.stat().st_mtime, UTC).replace(tzinfo=None)


def hora_de_la_entrega(carpeta: Path) -> datetime | None:
    """La hora de lo que ya hay en submitted/<alumno>/<desafío>/: su timestamp.txt o, sin él, la del cuaderno."""
    sello = carpeta / "timestamp.txt"
    if sello.is_file():
        hora = hora_de_texto(sello.read_text(encoding="utf-8", errors="replace"))
        if hora is not None:
            return hora
    cuadernos = list(carpeta.glob("*.ipynb"))
    return max(map(hora_del_fichero, cuadernos)) if cuadernos else None
