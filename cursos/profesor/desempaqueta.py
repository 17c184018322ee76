"""Lo que baja del aula virtual, desempaquetado: los zips (también los de dentro de otro) y la hora de cada fichero.

Sin rutas con «..» y con tope de tamaño. La hora de un fichero sacado de un zip es la de su
entrada en el zip más de dentro que la tenga, leída en la zona del curso (un zip guarda la hora
del reloj de quien lo hizo, sin zona); la de un zip que subió un alumno la pone el aula.
"""

import shutil
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cursos.errores import ErrorDelCurso
from cursos.profesor.lista import CANVAS, MOODLE
from cursos.profesor.tiempo import hora_del_fichero

MAXIMO_ZIP = 2 * 1024**3  # descomprimido: más que esto no es un lote de cuadernos
IGNORADOS = ("__MACOSX", ".DS_Store", "Thumbs.db")


class EntradaInvalida(ErrorDelCurso):
    """No se puede empezar a recoger (la entrada no existe, el zip está roto…)."""

    prefijo = "no se puede recoger"


@dataclass(frozen=True)
class HoraDelZip:
    """La hora de un fichero sacado de un zip: la de su entrada en el zip más de dentro que la tenga."""

    hora: datetime | None  # UTC, sin zona; None si ninguna entrada la tiene
    de_donde: str  # para la línea: de qué zip sale, o por qué no hay


def desempaqueta(entrada: Path, extraido: Path, tz) -> tuple[str | None, dict[Path, HoraDelZip], dict[Path, str]]:
    """Deja en extraido/ los ficheros de la entrada (los zips, cada uno en una carpeta con su nombre).

    tz: la zona del curso (CursoNbgrader.zona()), la de las horas de las entradas de un zip.

    Devuelve la carpeta del zip (si la entrada lo es), la hora de cada fichero sacado de un zip y
    los zips de dentro que no se pueden abrir, con el motivo (de ellos no sale nada; lo demás, sí).
    """
    horas: dict[Path, HoraDelZip] = {}
    rotos: dict[Path, str] = {}
    cabe = [MAXIMO_ZIP]  # lo que queda por descomprimir, entre todos los zips
    if entrada.is_file():
        motivo = _no_vale_el_zip(entrada, cabe)
        if motivo:
            raise EntradaInvalida(f"{motivo}; descárgalo otra vez del aula virtual")
        _saca(entrada, extraido / entrada.stem, None, horas, rotos, cabe, tz)
        return entrada.stem, horas, rotos
    for origen in sorted(entrada.rglob("*")):
        if not origen.is_file():
            continue
        destino = extraido / origen.relative_to(entrada)
        destino.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origen, destino)  # con su fecha: la hora de una entrega que no trae la suya
        if destino.suffix == ".zip":
            hora = HoraDelZip(hora_del_fichero(origen), "fecha del fichero")
            del_alumno = subido_por_un_alumno(origen.relative_to(entrada).parts)
            _saca_de_dentro(destino, hora, horas, rotos, cabe, tz, del_alumno)
    return None, horas, rotos


def _no_vale_el_zip(ruta: Path, cabe: list[int]) -> str:
    """Por qué no se desempaqueta un zip (roto, o demasiado grande); "" si vale."""
    try:
        with zipfile.ZipFile(ruta) as z:
            total = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):  # el texto de Python, en inglés, no le sirve a nadie
        return f"{ruta.name} no es un zip válido (está cortado o no es un zip)"
    if total > cabe[0]:
        return (
            f"{ruta.name} ocupa {total / 2**30:.1f} GB descomprimido: no es un lote de cuadernos; "
            "revisa qué has descargado"
        )
    cabe[0] -= total
    return ""


def subido_por_un_alumno(partes: tuple[str, ...] | list[str]) -> bool:
    """Si el zip lo subió un alumno: está en su carpeta de Moodle o tiene el nombre de un fichero de Canvas.

    Dentro de un zip del alumno, la hora de cada entrada la puso su ordenador (la puede atrasar);
    la que vale es a la que el aula lo recibió: la de su entrada en el zip del aula. Un zip que no es
    de nadie (el de Moodle comprimido otra vez) sólo envuelve: sus entradas conservan su hora.
    """
    return any(MOODLE.fullmatch(p) for p in partes[:-1]) or bool(partes and CANVAS.fullmatch(partes[-1]))


def _saca_de_dentro(
    ruta: Path, suya: HoraDelZip, horas: dict, rotos: dict, cabe: list[int], tz, del_alumno: bool = False
) -> None:
    """Un zip dentro de la entrada (o de otro zip): se saca a su lado, en una carpeta con su nombre."""
    motivo = _no_vale_el_zip(ruta, cabe)
    if motivo:
        rotos[ruta] = motivo
        return
    _saca(ruta, ruta.with_suffix(""), suya, horas, rotos, cabe, tz, del_alumno)


def _hora_de_la_entrada(info: zipfile.ZipInfo, tz) -> datetime | None:
    """La hora de una entrada del zip en UTC, o None si no la tiene: 1980-01-01 00:00 es el cero del
    formato, el que deja quien no la pone."""
    if tuple(info.date_time) <= (1980, 1, 1, 0, 0, 0):
        return None
    try:
        # Un zip guarda la hora del reloj de quien lo hizo, sin zona: la del curso.
        return datetime.fromtimestamp(datetime(*info.date_time, tzinfo=tz).timestamp(), UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):
        return None


def _saca(
    zip_: Path,
    carpeta: Path,
    de_fuera: HoraDelZip | None,
    horas: dict,
    rotos: dict,
    cabe: list[int],
    tz,
    del_alumno: bool = False,
) -> None:
    """Saca cada entrada del zip con su nombre de verdad y apunta su hora: la suya o, si no la tiene,
    la del zip en el que venía (de_fuera); los zips que trae, también."""
    carpeta.mkdir(parents=True, exist_ok=True)  # también la de un zip vacío: se dice que está vacío
    with zipfile.ZipFile(zip_) as z:
        for info in z.infolist():
            nombre = nombre_en_el_zip(info)
            partes = [p for p in nombre.split("/") if p]
            if info.is_dir() or nombre.startswith("/") or not partes or ".." in partes:
                continue
            destino = carpeta.joinpath(*partes)
            destino.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as dentro, destino.open("wb") as fuera:
                shutil.copyfileobj(dentro, fuera)
            horas[destino] = _hora_de(info, tz, zip_.name, de_fuera, del_alumno)
            if destino.suffix == ".zip":
                de_un_alumno = del_alumno or subido_por_un_alumno(partes)
                _saca_de_dentro(destino, horas[destino], horas, rotos, cabe, tz, de_un_alumno)


def _hora_de(
    info: zipfile.ZipInfo, tz, nombre_del_zip: str, de_fuera: HoraDelZip | None, del_alumno: bool = False
) -> HoraDelZip:
    if del_alumno:  # la hora de dentro la puso el ordenador del alumno: vale la del aula
        if de_fuera is not None and de_fuera.hora is not None:
            return HoraDelZip(de_fuera.hora, f"{de_fuera.de_donde}, la de {nombre_del_zip}, que subió el alumno")
        return HoraDelZip(
            None,
            f"{nombre_del_zip} lo subió el alumno y el aula no dice a qué hora (la de dentro la pone su ordenador)",
        )
    hora = _hora_de_la_entrada(info, tz)
    if hora is not None:
        return HoraDelZip(hora, f"hora en {nombre_del_zip}")
    if de_fuera is not None and de_fuera.hora is not None:
        return HoraDelZip(de_fuera.hora, f"{de_fuera.de_donde}, la de {nombre_del_zip} (sus entradas no tienen hora)")
    sin = f"su entrada en {nombre_del_zip} no tiene hora"
    return HoraDelZip(None, sin + (f" y {de_fuera.de_donde}" if de_fuera is not None else ""))


def nombre_en_el_zip(info: zipfile.ZipInfo) -> str:
    """El nombre de una entrada, también de los zips sin la marca UTF-8 (el zip de Windows, el
    de Info-ZIP en Linux): Python los lee en cp437 y «josé/» sería «jos├⌐/»; si sus bytes son
    UTF-8 válido, eso es lo que eran."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except UnicodeError:  # de verdad cp437 (o ni una cosa ni otra): se queda como está
        return info.filename


def _visibles(carpeta: Path) -> list[Path]:
    """Lo que hay en la carpeta, sin lo que se ignora ni los zips ya desempaquetados a su lado."""
    return [
        p
        for p in carpeta.iterdir()
        if p.name not in IGNORADOS
        and not p.name.startswith(".")
        and not (p.suffix == ".zip" and p.with_suffix("").is_dir())
    ]


def _de_un_zip(carpeta: Path) -> bool:
    return carpeta.with_suffix(".zip").is_file()


def sin_envoltorio(base: Path) -> Path:
    """Baja por la carpeta única que envuelve las de los alumnos (un zip hecho de la carpeta
    «entregas/» la lleva dentro, y el zip del LMS comprimido otra vez, la suya): si no, el alumno de
    todos sería «entregas». Una carpeta única con sólo ficheros (o con lo sacado de un zip que subió
    el alumno) sí es la de un alumno (el zip de una sola entrega), y la de Moodle, siempre."""
    while True:
        dentro = _visibles(base)
        if len(dentro) != 1 or not dentro[0].is_dir() or MOODLE.fullmatch(dentro[0].name):
            return base
        if not any(p.is_dir() and not _de_un_zip(p) for p in _visibles(dentro[0])):
            return base
        base = dentro[0]
