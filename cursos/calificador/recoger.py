"""`curso recoger`: de lo que entregan los alumnos (una carpeta o el zip del LMS) a
submitted/<alumno>/<desafío>/<desafío>.ipynb con su timestamp.txt, como lo espera nbgrader.

De nbgrader se usa lo que sirve tal cual: su FileNameCollectorPlugin, configurado con un
patrón, saca el alumno del nombre del fichero o de su carpeta. Los zips se desempaquetan aquí
(también los de dentro de otro zip, sin rutas con «..»): el ExtractorPlugin de nbgrader pone a
lo de un zip de dentro la hora a la que se desempaqueta (y un alumno que sube entrega.zip a tiempo
saldría tarde) y se para entero si uno de dentro está roto. `nbgrader zip_collect`
entero no sirve: vacía submitted/<alumno>/ con --force (y una entrega vieja pisaría una
nueva), se para ante un duplicado sin hora y no lee los metadatos del cuaderno, que es
donde «Descargar para entregar» pone el alumno, el desafío y la hora. Eso es lo que se
escribe aquí, con un informe de cada fichero.

De dónde sale cada dato de una entrega:
- alumno: con lista de alumnos en el libro, el de la carpeta de Moodle o el nombre de Canvas
  casado con esa lista (lista.py: en Moodle manda el nombre; su número es de la tarea y sólo
  se comprueba), o el de la carpeta si es el identificador de uno de ellos; un
  cuaderno que dice otro se recoge para ése y se marca. Sin lista, lo de siempre:
  el de la carpeta que el LMS crea para cada alumno (por omisión, la primera carpeta
  dentro de la entrada; con --patron, su grupo «alumno»), porque el LMS sabe quién entrega;
  metadata["curso"]["alumno"] (lo pone la página, que lo recuerda en el navegador: en un
  ordenador compartido puede ser el de otro) nunca hace que un cuaderno sustituya la entrega de
  otro alumno:
  - carpeta con identificador (o --patron) distinto del del cuaderno: no se recoge, con los dos;
  - carpeta que no es un identificador (el nombre completo que ponen Moodle o Canvas): vale el
    del cuaderno, pero si dos carpetas distintas dicen ser del mismo alumno (en esta entrada, o
    una ya recogida antes) es un conflicto y no se recoge ninguna (lo de submitted/ se queda);
  - sin carpeta (un cuaderno suelto): el del cuaderno.
- desafío: metadata["curso"]["desafio"] (lo trae el cuaderno repartido), si este curso lo ha
  repartido (release/<desafío>/).
- hora: la del lado del profesor: la del grupo «hora» del patrón; si no, la de su entrada en el
  zip más de dentro que la tenga (un zip dentro del del LMS, o el del LMS comprimido otra vez) o
  la fecha del fichero; un fichero de un zip sin hora no se recoge. metadata["curso"]["descargado"] la pone el reloj del
  navegador del alumno: sólo se informa (en la línea, si difiere más de unos minutos), salvo con
  --hora alumno (ficheros copiados que han perdido su fecha). Aun así, una «descargado» en el
  futuro o posterior a la hora del profesor no se usa.
"""

import re
import secrets
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from nbgrader.plugins import FileNameCollectorPlugin
from nbgrader.utils import parse_utc

from cursos.calificador import anteriores, libro
from cursos.calificador.carpetas import Carpetas
from cursos.calificador.configuracion import CursoNbgrader
from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega, lee_json
from cursos.calificador.lista import (
    CANVAS,
    MOODLE,
    AlumnoDelLibro,
    busca,
    choque_de_numero,
    del_aula,
    motivo_de_choque,
    motivo_sin_alumno,
)
from cursos.calificador.tiempo import en_zona, zona
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso

DEL_AULA = ".carpeta-del-aula"  # de qué carpeta del LMS vino lo recogido (para los conflictos entre recogidas)
SECRETO = "submission_secret.txt"  # como lo escribe `nbgrader submit`: release_feedback lo necesita
FORMATO_HORA = "%Y-%m-%d %H:%M:%S.%f UTC"  # el de timestamp.txt de nbgrader (timestamp_format)
PATRON = r"(?P<alumno>[^/]+)/"  # la primera carpeta dentro de la entrada
# Un identificador que puede ser nombre de carpeta en cualquier sistema y en el libro de notas:
# letras, cifras, «_», y «.», «@», «+», «-» (no al principio). El mismo que pide la página.
ALUMNO = re.compile(r"[^\W][\w.@+-]{0,63}\Z")
MAXIMO_ZIP = 2 * 1024**3  # descomprimido: más que esto no es un lote de cuadernos
IGNORADOS = ("__MACOSX", ".DS_Store", "Thumbs.db")
HORAS = ("fichero", "alumno")  # de dónde sale la hora de una entrega (--hora)
HOLGURA = timedelta(minutes=5)  # menos que esto entre dos relojes no merece una nota


class EntradaInvalida(ErrorDelCurso):
    """No se puede empezar a recoger (la entrada no existe, el zip está roto…)."""


@dataclass
class Linea:
    """Una línea del informe: un fichero de la entrada y qué ha pasado con él."""

    origen: str
    recogida: bool
    motivo: str
    alumno: str | None = None
    desafio: str | None = None
    ya_estaba: bool = False  # no se recoge porque submitted/ ya tiene esta misma entrega: nada nuevo
    se_queda: bool = False  # no se recoge y la entrega que ya hay en submitted/ sigue, sin cambios
    duplicada: bool = False  # otra del mismo alumno y desafío en esta entrada es más nueva
    para: bool = False  # hace falta que el profesor decida algo: la orden acaba con error

    @property
    def neutra(self) -> bool:
        """No se recoge, pero no hay nada que arreglar: no es un fallo de la recogida."""
        return self.ya_estaba or self.se_queda or self.duplicada


@dataclass
class Candidata:
    origen: str
    fichero: Path
    alumno: str
    desafio: str
    hora: datetime  # UTC, sin zona (como parse_utc de nbgrader)
    de_donde: str
    descargado: datetime | None = None  # la del navegador, si vale (no futura ni posterior)
    aviso: str = ""  # las dos horas, si difieren
    carpeta: str | None = None  # la del alumno en el LMS (o lo que da el patrón), si la hay
    confirmada: bool = False  # la carpeta es la del alumno (no sólo lo dice el cuaderno)
    identidad: str = ""  # el cuaderno dice otro alumno que su carpeta del LMS: el aviso


@dataclass(frozen=True)
class HoraDelZip:
    """La hora de un fichero sacado de un zip: la de su entrada en el zip más de dentro que la tenga."""

    hora: datetime | None  # UTC, sin zona; None si ninguna entrada la tiene
    de_donde: str  # para la línea: de qué zip sale, o por qué no hay


class ColectorDelCurso(FileNameCollectorPlugin):
    """El colector de nbgrader, con el patrón del profesor, para los cuadernos sin alumno."""

    def del_nombre(self, origen: str) -> dict:
        grupos = self._match(origen) or {}
        return {
            "alumno": grupos.get("alumno") or grupos.get("student_id"),
            "hora": grupos.get("hora") or grupos.get("timestamp"),
        }


def ahora_utc() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def hora_de_texto(texto) -> datetime | None:
    """ISO 8601 o el formato de nbgrader, a UTC sin zona; None si no se entiende."""
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


def _desempaqueta(entrada: Path, extraido: Path) -> tuple[str | None, dict[Path, HoraDelZip], dict[Path, str]]:
    """Deja en extraido/ los ficheros de la entrada (los zips, cada uno en una carpeta con su nombre).

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
        _saca(entrada, extraido / entrada.stem, None, horas, rotos, cabe)
        return entrada.stem, horas, rotos
    for origen in sorted(entrada.rglob("*")):
        if not origen.is_file():
            continue
        destino = extraido / origen.relative_to(entrada)
        destino.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(origen, destino)  # con su fecha: la hora de una entrega que no trae la suya
        if destino.suffix == ".zip":
            hora = HoraDelZip(_hora_del_fichero(origen), "fecha del fichero")
            del_alumno = subido_por_un_alumno(origen.relative_to(entrada).parts)
            _saca_de_dentro(destino, hora, horas, rotos, cabe, del_alumno)
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
    ruta: Path, suya: HoraDelZip, horas: dict, rotos: dict, cabe: list[int], del_alumno: bool = False
) -> None:
    """Un zip dentro de la entrada (o de otro zip): se saca a su lado, en una carpeta con su nombre."""
    motivo = _no_vale_el_zip(ruta, cabe)
    if motivo:
        rotos[ruta] = motivo
        return
    _saca(ruta, ruta.with_suffix(""), suya, horas, rotos, cabe, del_alumno)


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
    del_alumno: bool = False,
) -> None:
    """Saca cada entrada del zip con su nombre de verdad y apunta su hora: la suya o, si no la tiene,
    la del zip en el que venía (de_fuera); los zips que trae, también."""
    tz = zona()
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
                _saca_de_dentro(destino, horas[destino], horas, rotos, cabe, de_un_alumno)


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


def _hora_del_fichero(ruta: Path) -> datetime:
    return datetime.fromtimestamp(ruta.stat().st_mtime, UTC).replace(tzinfo=None)


def lee_candidata(
    ruta: Path,
    origen: str,
    colector: ColectorDelCurso,
    desafios: set[str],
    solo: str | None,
    patron_propio: bool = False,
    hora_del: str = "fichero",
    lista: list[AlumnoDelLibro] | None = None,
    hora_del_zip: HoraDelZip | None = None,
    rutas: Carpetas | None = None,
) -> Candidata | Linea:
    """Lo que dice un fichero de sí mismo (alumno, desafío, hora), o la línea del informe que lo descarta.

    lista: los alumnos del libro; con ella, una entrega del LMS es del alumno de su carpeta.
    hora_del_zip: la de su entrada en el zip, si viene de uno (si no, la fecha del fichero).
    rutas: las carpetas del curso; con ellas, sólo se recogen los desafíos repartidos (release/).
    """

    def no(motivo, alumno=None, desafio=None):
        return Linea(origen, False, motivo, alumno, desafio)

    if ruta.suffix == ".json":
        return no(
            "es un JSON, no un cuaderno: parece «Descargar mi progreso», que no es la entrega; "
            "el alumno debe entregar el .ipynb de «Descargar para entregar»"
        )
    if ruta.suffix != ".ipynb":
        return no("no es un cuaderno .ipynb: se ignora")
    datos = _lee_cuaderno(ruta)
    if isinstance(datos, str):
        return _no_se_lee(origen, datos, colector, desafios, solo, lista or [], rutas)
    meta = datos.get("metadata")
    curso = meta.get("curso") if isinstance(meta, dict) else None
    curso = curso if isinstance(curso, dict) else {}
    del_nombre = colector.del_nombre(origen)
    del_cuaderno = curso.get("alumno")
    del_cuaderno = del_cuaderno.strip() if isinstance(del_cuaderno, str) and del_cuaderno.strip() else None
    identidad = _del_libro(origen, del_nombre["alumno"], del_cuaderno, lista or [])
    if isinstance(identidad, Linea):
        return identidad
    if identidad is not None:
        alumno, carpeta, confirmada, aviso_identidad, fichero = identidad
    else:
        aviso_identidad, fichero = "", Path(origen).name
        carpeta = del_nombre["alumno"]
        alumno, confirmada = carpeta, carpeta is not None
        if del_cuaderno:
            if carpeta and carpeta != del_cuaderno and (patron_propio or ALUMNO.match(carpeta)):
                return no(
                    f"el cuaderno dice que es de «{del_cuaderno[:80]}» y viene de la carpeta de «{carpeta}»: "
                    "no se recoge (¿un ordenador compartido?); averigua de quién es, ponlo en la carpeta "
                    "con su identificador y vuelve a recoger",
                    carpeta,
                )
            alumno, confirmada = del_cuaderno, carpeta == del_cuaderno
    if not alumno:
        return no(
            "sin identificador del alumno: el cuaderno no lo trae (se bajó de JupyterLite, no con "
            "«Descargar para entregar») y ni su nombre ni su carpeta lo dan; ponlo en una carpeta "
            "con el identificador del alumno (o usa --patron), o pon la lista de alumnos en el libro "
            "para recoger las carpetas de Moodle y Canvas, y vuelve a recoger"
        )
    if not ALUMNO.match(alumno):
        return no(
            f"el identificador «{alumno[:80]}» no vale como nombre de carpeta (sólo letras, cifras y "
            "_ . @ + -, hasta 64): renombra la carpeta o usa --patron",
            alumno[:80],
        )
    desafio = curso.get("desafio")
    if not isinstance(desafio, str) or desafio not in desafios:
        # «permiso (1).ipynb» del navegador, «permiso-1.ipynb» de Canvas al volver a entregar
        desafio_nombre = _desafio_del_nombre(fichero, desafios)
        if desafio_nombre:
            desafio = desafio_nombre
        elif isinstance(desafio, str):
            return no(f"es del desafío «{desafio[:80]}», que este curso no tiene", alumno)
        else:
            # No decir que lo renombre: con el nombre de un desafío, el cuaderno de otra asignatura
            # pasaría por una entrega.
            return no(
                "no es la entrega de ningún desafío de este curso (ni sus metadatos ni su nombre dicen "
                "uno): se salta. Si el alumno quería entregar un desafío, que entregue el cuaderno de "
                "«Descargar para entregar»",
                alumno,
            )
    sin_repartir = _sin_repartir(desafio, rutas)
    if sin_repartir:
        return no(sin_repartir, alumno, desafio)
    if solo and desafio != solo:
        return no(f"es del desafío «{desafio}», no de «{solo}»: recógelo con --desafio {desafio}", alumno, desafio)
    horas = _horas(ruta, curso.get("descargado"), del_nombre["hora"], hora_del, hora_del_zip)
    if isinstance(horas, str):
        return no(horas, alumno, desafio)
    hora, de_donde, descargado, aviso = horas
    return Candidata(
        origen,
        ruta,
        alumno,
        desafio,
        hora,
        de_donde,
        descargado,
        aviso_identidad + aviso,
        carpeta=carpeta,
        confirmada=confirmada,
        identidad=aviso_identidad,
    )


def _desafio_del_nombre(fichero: str, desafios: set[str]) -> str | None:
    """«permiso (1).ipynb» del navegador, «permiso-1.ipynb» de Canvas al volver a entregar."""
    nombre = re.sub(r"\s*\(\d+\)$|-\d+$", "", Path(fichero).stem)
    return nombre if nombre in desafios else None


def _sin_repartir(desafio: str, rutas: Carpetas | None) -> str:
    """Por qué no se recoge un desafío que este curso no ha repartido ("" si lo ha repartido)."""
    if rutas is None or rutas.del_desafio("release", desafio).is_dir():
        return ""
    release = rutas.del_desafio("release", desafio).relative_to(rutas.raiz)
    return (
        f"es del desafío «{desafio}», que no se ha repartido en este curso (no hay {release}/ en "
        f"{rutas.raiz}): no se recoge. Si el desafío es de este curso, repártelo antes "
        f"(./curso desafio --desafio {desafio} --nbgrader {rutas.raiz}) y vuelve a recoger"
    )


def _no_se_lee(origen, por_que, colector, desafios, solo, lista, rutas) -> Linea:
    """La línea de un fichero que no se puede leer; si se sabe de quién y de qué desafío es (por su
    carpeta y su nombre) y ya hay una entrega suya, dice que ésa se queda, sin cambios."""
    carpeta = colector.del_nombre(origen)["alumno"]
    identidad = _del_libro(origen, carpeta, None, lista)
    if isinstance(identidad, tuple):
        alumno, fichero = identidad[0], identidad[4]
    else:
        alumno = carpeta if not lista and carpeta and ALUMNO.match(carpeta) else None
        fichero = Path(origen).name
    desafio = _desafio_del_nombre(fichero, desafios) or solo
    linea = Linea(origen, False, f"no se puede leer: {por_que}", alumno, desafio)
    if alumno and desafio and rutas is not None:
        anterior = rutas.de_alumno("submitted", alumno, desafio)
        hora = hora_de_la_entrega(anterior) if anterior.is_dir() else None
        if hora is not None:
            linea.motivo += f"; se queda la entrega que ya había de {alumno} (la de {en_zona(hora)}), sin cambios"
            linea.se_queda = True
    return linea


def _lee_cuaderno(ruta: Path) -> dict | str:
    """El cuaderno, o por qué no se puede leer (en español: vacío, no UTF-8, JSON roto y dónde…)."""
    try:
        return lee_json(ruta)
    except EntregaInvalida as e:
        return str(e)
    except OSError as e:
        return e.strerror or str(e)


def _del_libro(origen: str, de_la_carpeta: str | None, del_cuaderno: str | None, lista: list[AlumnoDelLibro]):
    """Quién entrega, según el LMS y la lista del libro: (alumno, carpeta, True, aviso, fichero), la
    línea que dice por qué no se recoge, o None si la lista no lo decide (sin lista, o la carpeta no es
    del LMS)."""
    if not lista:
        return None
    if de_la_carpeta in {a.id for a in lista}:  # la carpeta es el identificador de un alumno del libro
        return (
            de_la_carpeta,
            de_la_carpeta,
            True,
            _otro(del_cuaderno, de_la_carpeta, de_la_carpeta, ""),
            Path(origen).name,
        )
    aula = del_aula(origen)
    if aula is None:
        return None
    encontrados, _ = busca(aula, lista)
    if len(encontrados) != 1:
        return Linea(origen, False, motivo_sin_alumno(aula, encontrados, lista))
    otro = choque_de_numero(aula, encontrados[0], lista)
    if otro is not None:  # el nombre dice uno y el número otro: que decida el profesor
        return Linea(origen, False, motivo_de_choque(aula, encontrados[0], otro), para=True)
    alumno = encontrados[0].id
    return alumno, aula.carpeta, True, _otro(del_cuaderno, alumno, aula.nombre, f" en {aula.aula}"), aula.fichero


def _otro(del_cuaderno: str | None, alumno: str, carpeta: str, aula: str) -> str:
    """El aviso de un cuaderno que dice ser de otro alumno que el de su carpeta ("" si coinciden)."""
    if not del_cuaderno or del_cuaderno == alumno:
        return ""
    return (
        f"; ⚠ el cuaderno dice que es de «{del_cuaderno[:80]}», pero viene de la carpeta de «{carpeta}»{aula}: "
        f"se recoge para {alumno} (¿un ordenador compartido?); compruébalo con los dos alumnos"
    )


def _horas(ruta: Path, texto_descargado, texto_del_nombre, hora_del: str, del_zip: HoraDelZip | None = None):
    """(hora, de dónde sale, «descargado» si vale, aviso): manda la hora del lado del profesor.
    Si no hay ninguna (un zip sin horas), el motivo de no recogerlo."""
    del_profesor, de_donde = hora_de_texto(texto_del_nombre), "hora del nombre"
    if del_profesor is None and del_zip is not None:
        del_profesor, de_donde = del_zip.hora, del_zip.de_donde
    elif del_profesor is None:
        del_profesor, de_donde = _hora_del_fichero(ruta), "fecha del fichero"
    descargado = hora_de_texto(texto_descargado)
    if del_profesor is None:
        if hora_del == "alumno" and descargado is not None and descargado <= ahora_utc() + HOLGURA:
            return descargado, "descargado", descargado, ""
        # Sin hora no se sabe si llegó a tiempo: cualquiera que se le pusiera podría penalizarla o no.
        return (
            f"no se sabe a qué hora se entregó ({de_donde}): no se recoge. Descarga otra vez las "
            "entregas del aula virtual y recoge ese zip tal cual; si los ficheros han perdido su fecha, "
            "recoge con --hora alumno"
        )
    aviso = ""
    # Con holgura: un zip guarda la hora con 2 s de resolución y los relojes difieren un poco;
    # sin ella, un cuaderno subido en el mismo segundo en que se bajó saldría «en el futuro».
    if descargado is not None and descargado > min(del_profesor, ahora_utc()) + HOLGURA:
        aviso = (
            f"; el cuaderno dice que se descargó el {en_zona(descargado)}, después de la "
            f"{de_donde} o en el futuro (el reloj del ordenador del alumno): no se usa"
        )
        descargado = None
    if hora_del == "alumno" and descargado is not None:
        return descargado, "descargado", descargado, aviso
    if descargado is not None and abs(descargado - del_profesor) > HOLGURA:
        aviso = f"; el cuaderno dice que se descargó el {en_zona(descargado)} (según el ordenador del alumno)"
    return del_profesor, de_donde, descargado, aviso


def alumnos_del_libro(curso_nbgrader: Path) -> set[str]:
    """Los identificadores de los alumnos del libro de notas (vacío si no hay libro o lista)."""
    return {a.id for a in lista_del_libro(curso_nbgrader)}


def lista_del_libro(curso_nbgrader: Path) -> list[AlumnoDelLibro]:
    """Los alumnos que conoce el libro de notas del curso (su db_url: SQLite donde diga la
    configuración o PostgreSQL), con nombre y lms_user_id; vacía si no hay libro o lista
    (entonces vale cualquiera)."""
    from sqlalchemy import create_engine, inspect, text

    curso = CursoNbgrader.de(curso_nbgrader)
    local = curso.libro_local
    if local is not None and not local.is_file():  # no se crea un libro sólo por recoger
        return []
    try:
        motor = create_engine(curso.db_url)
        try:
            with motor.connect() as con:
                if not inspect(con).has_table("student"):  # un libro sin tablas todavía
                    return []
                columnas = {c["name"] for c in inspect(con).get_columns("student")}
                lms = "lms_user_id" if "lms_user_id" in columnas else "NULL"  # libros de nbgrader < 0.8
                filas = con.execute(text(f"SELECT id, first_name, last_name, email, {lms} FROM student"))
                return [
                    AlumnoDelLibro(f[0], f[1] or "", f[2] or "", f[3] or "", str(f[4] or "").strip()) for f in filas
                ]
        finally:
            motor.dispose()
    except Exception as e:  # el servidor no contesta, la URL está mal…
        primera = (str(e).strip().splitlines() or [""])[0]
        raise EntradaInvalida(
            f"no se puede leer la lista de alumnos del libro de notas ({type(e).__name__}: "
            f"{primera}); revisa c.CourseDirectory.db_url en nbgrader_config.py"
        ) from None


def hora_de_la_entrega(carpeta: Path) -> datetime | None:
    """La hora de lo que ya hay en submitted/<alumno>/<desafío>/: su timestamp.txt o, sin él, la del cuaderno."""
    sello = carpeta / "timestamp.txt"
    if sello.is_file():
        hora = hora_de_texto(sello.read_text(encoding="utf-8", errors="replace"))
        if hora is not None:
            return hora
    cuadernos = list(carpeta.glob("*.ipynb"))
    return max(map(_hora_del_fichero, cuadernos)) if cuadernos else None


def _carpeta_recogida(carpeta: Path) -> str | None:
    """La carpeta del LMS de la que vino lo que ya hay en submitted/ ("" si de ninguna); None si no se sabe."""
    try:
        return (carpeta / DEL_AULA).read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return None


def pon_secreto(carpeta: Path) -> None:
    """submission_secret.txt como lo deja `nbgrader submit` (secrets.token_hex(64), sin salto de
    línea): con él `nbgrader release_feedback` sabe con qué nombre dejar la devolución."""
    (carpeta / SECRETO).write_text(secrets.token_hex(64), encoding="utf-8")


def coloca(c: Candidata, rutas: Carpetas, curso: CursoNbgrader | None = None) -> Linea:
    """Copia la entrega a submitted/ salvo que ya haya una igual o más nueva, o que ésta no se pueda
    calificar y la que hay sí. La que se sustituye se guarda en .anteriores/, con sus notas a mano."""
    carpeta = rutas.de_alumno("submitted", c.alumno, c.desafio)
    destino = carpeta / f"{c.desafio}.ipynb"
    hora = c.hora.strftime(FORMATO_HORA)
    anterior = hora_de_la_entrega(carpeta) if carpeta.is_dir() else None
    otra = _carpeta_recogida(carpeta)
    if not c.confirmada and otra is not None and otra != (c.carpeta or ""):
        return Linea(
            c.origen,
            False,
            f"conflicto: el cuaderno dice que es de «{c.alumno}», pero la entrega de "
            f"«{c.alumno}» que ya está en submitted/ vino de la carpeta «{otra or '(ninguna)'}» y éste, "
            f"de «{c.carpeta or '(ninguna)'}»: no se recoge y se queda la que había; averigua de quién "
            "es cada una",
            c.alumno,
            c.desafio,
        )
    if anterior is not None and anterior > ahora_utc() + HOLGURA:
        anterior = None  # una hora en el futuro (un reloj mal puesto) no para una entrega de verdad
    if anterior is not None and anterior >= c.hora:
        igual = destino.is_file() and destino.read_bytes() == c.fichero.read_bytes()
        if igual and not (carpeta / SECRETO).is_file():  # recogida por una versión anterior
            pon_secreto(carpeta)
        if igual:
            motivo = "ya estaba recogida"
        elif anterior == c.hora:
            motivo = f"es la misma hora ({en_zona(hora)}) que la que ya hay en submitted/: se queda la que había"
        else:
            motivo = (
                f"en submitted/ ya hay una entrega más nueva ({en_zona(anterior)}) que esta "
                f"({en_zona(c.hora)}): se deja la que había"
            )
            if anteriores.versiones(carpeta):
                motivo += (
                    f" (si la que vale es una anterior, `./curso restaurar --alumno {c.alumno} --desafio {c.desafio}`)"
                )
        return Linea(c.origen, False, motivo + c.aviso, c.alumno, c.desafio, ya_estaba=igual, se_queda=not igual)
    if anterior is not None:
        rota = _no_se_puede_calificar(c.fichero, c.desafio, rutas)
        if rota and not _no_se_puede_calificar(_cuaderno_de(carpeta), c.desafio, rutas):
            return Linea(
                c.origen,
                False,
                f"no sustituye a la de {en_zona(anterior)}, que sí se puede calificar: "
                f"ésta no ({rota}); se queda la que había, sin cambios. Si de verdad es la que vale, que el "
                "alumno la entregue otra vez bien",
                c.alumno,
                c.desafio,
                se_queda=True,
            )
    curso = curso or CursoNbgrader.de(rutas.raiz)
    guardada, notas = (
        anteriores.guarda(carpeta, curso, c.desafio, c.alumno)
        if anterior is not None and carpeta.is_dir()
        else (None, {})
    )
    carpeta.mkdir(parents=True, exist_ok=True)
    for viejo in carpeta.glob("*.ipynb"):  # una sola entrega por carpeta (sin hora no se guardaba)
        viejo.unlink()
    shutil.copyfile(c.fichero, destino)
    (carpeta / "timestamp.txt").write_text(hora, encoding="utf-8")
    pon_secreto(carpeta)  # una entrega nueva, un secreto nuevo, como en cada `nbgrader submit`
    (carpeta / DEL_AULA).write_text(c.carpeta or "", encoding="utf-8")
    avisos = [c.identidad.removeprefix("; ")] if c.identidad else []
    sustituye = ""
    if guardada is not None:
        sustituye = (
            f"; sustituye a la de {en_zona(anterior)}, que se guarda en "
            f"{guardada.relative_to(rutas.raiz)}/ (`./curso restaurar --alumno {c.alumno} "
            f"--desafio {c.desafio}` la vuelve a poner)"
        )
    if notas:
        a_mano = (
            f"⚠ la entrega sustituida tenía {libro.describe_notas_a_mano(notas)} en el libro: eran de "
            f"aquel cuaderno, así que se quitan del libro y se guardan con él; ponlas otra vez en formgrader "
            "si siguen valiendo"
        )
        avisos.append(a_mano)
        sustituye += "; " + a_mano
    (carpeta / anteriores.AVISOS).unlink(missing_ok=True)
    if avisos:
        (carpeta / anteriores.AVISOS).write_text("; ".join(avisos), encoding="utf-8")
    return Linea(
        c.origen,
        True,
        f"→ {carpeta.relative_to(rutas.raiz)}/ ({c.de_donde}: {en_zona(c.hora)}){sustituye}{c.aviso}",
        c.alumno,
        c.desafio,
    )


def _cuaderno_de(carpeta: Path) -> Path | None:
    cuadernos = sorted(carpeta.glob("*.ipynb"))
    return cuadernos[0] if len(cuadernos) == 1 else None


def _no_se_puede_calificar(ruta: Path | None, slug: str, rutas: Carpetas) -> str:
    """Por qué el calificador daría un 0 sin probar nada (sin celda de la solución, roto, vacío…); "" si se puede."""
    if ruta is None:
        return "no hay un cuaderno"
    try:
        desafio = Desafio(slug)
        repartido = rutas.del_desafio("release", slug) / desafio.cuaderno
        lee_entrega(desafio, ruta, repartido if repartido.is_file() else None)
    except EntregaInvalida as e:
        return str(e)
    except OSError as e:
        return e.strerror or str(e)
    return ""


def recoge(
    entrada: Path,
    curso_nbgrader: Path,
    desafios: set[str],
    solo: str | None = None,
    patron: str = PATRON,
    hora: str = "fichero",
) -> list[Linea]:
    """Recoge todas las entregas de entrada (carpeta o zip); devuelve el informe, una línea por fichero."""
    if not entrada.exists():
        raise EntradaInvalida(f"no existe {entrada}: da la carpeta o el zip con las entregas")
    if entrada.is_file() and entrada.suffix not in (".zip", ".ipynb"):
        raise EntradaInvalida(
            f"{entrada.name} no es ni una carpeta ni un .zip: da la carpeta o el zip con las entregas"
        )
    try:
        grupos = re.compile(patron).groupindex
    except re.error as e:
        raise EntradaInvalida(f"el patrón {patron!r} no es una expresión regular válida ({e})") from None
    if "alumno" not in grupos and "student_id" not in grupos:
        raise EntradaInvalida(
            f"el patrón {patron!r} no tiene el grupo del alumno: ponlo con (?P<alumno>…), "
            "p. ej. --patron '(?P<alumno>[^_/]+)_'"
        )
    if hora not in HORAS:
        raise EntradaInvalida(
            f"--hora {hora}: elige «fichero» (la fecha del fichero o del zip) o «alumno» "
            "(la que pone el navegador al descargar)"
        )
    if solo is not None and solo not in desafios:
        raise EntradaInvalida(f"el curso no tiene el desafío «{solo}»; los que tiene: {', '.join(sorted(desafios))}")
    rutas = Carpetas.de(curso_nbgrader)
    colector = ColectorDelCurso(named_regexp=patron)
    lista = lista_del_libro(curso_nbgrader)
    conocidos = {a.id for a in lista}
    informe, candidatas = [], []
    with tempfile.TemporaryDirectory() as tmp:
        extraido = Path(tmp)
        horas, rotos = {}, {}
        if entrada.suffix == ".ipynb":  # un solo cuaderno: no hay carpeta de la que sacar el alumno
            shutil.copy2(entrada, extraido / entrada.name)
            del_zip = None
        else:
            del_zip, horas, rotos = _desempaqueta(entrada, extraido)
        base = extraido / del_zip if del_zip is not None else extraido  # el zip se extrae en su carpeta
        if patron == PATRON:
            base = sin_envoltorio(base)
        # Lo que queda fuera de base es lo que se ignora: el envoltorio ya desempaquetado, __MACOSX…
        ficheros = sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
        if not ficheros:
            raise EntradaInvalida(
                f"{entrada.name} está vací{'o' if entrada.is_file() else 'a'}: no hay ningún "
                "fichero que recoger; descarga otra vez las entregas del aula virtual"
            )
        for ruta in ficheros:
            relativa = ruta.relative_to(base)
            if any(p in IGNORADOS or p.startswith(".") for p in relativa.parts):
                continue
            if ruta in rotos:  # un zip de dentro que no se abre: lo demás se recoge
                motivo = f"{rotos[ruta]}: no se saca nada de él; que el alumno lo entregue otra vez"
                informe.append(Linea(relativa.as_posix(), False, motivo))
                continue
            if ruta.suffix == ".zip":  # ya desempaquetado: lo que cuenta es lo de dentro
                continue
            resultado = lee_candidata(
                ruta,
                relativa.as_posix(),
                colector,
                desafios,
                solo,
                patron != PATRON,
                hora,
                lista,
                horas.get(ruta),
                rutas,
            )
            if isinstance(resultado, Linea):
                informe.append(resultado)
            elif conocidos and resultado.alumno not in conocidos:
                informe.append(
                    Linea(
                        resultado.origen,
                        False,
                        f"alumno desconocido «{resultado.alumno}»: no está en la lista de alumnos "
                        f"del libro de notas; si es un alumno, añádelo (nbgrader db student add "
                        f"{resultado.alumno}) y vuelve a recoger",
                        resultado.alumno,
                        resultado.desafio,
                    )
                )
            else:
                candidatas.append(resultado)
        candidatas, conflictos = _sin_conflictos(candidatas)
        informe += conflictos + _coloca_las_mas_nuevas(candidatas, curso_nbgrader)
    return informe


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


def _sin_conflictos(candidatas: list[Candidata]) -> tuple[list[Candidata], list[Linea]]:
    """Dos carpetas distintas que dicen ser del mismo alumno (sólo por lo que dice el cuaderno):
    ninguna de ellas se recoge. La carpeta que es la del alumno sí (el LMS sabe quién entrega)."""
    grupos: dict[tuple[str, str], list[Candidata]] = {}
    for c in candidatas:
        grupos.setdefault((c.alumno, c.desafio), []).append(c)
    quedan, conflictos = [], []
    for (alumno, _), grupo in grupos.items():
        carpetas = sorted({c.carpeta or "" for c in grupo})
        if len(carpetas) == 1:
            quedan += grupo
            continue
        nombres = ", ".join(f"«{x or '(ninguna)'}»" for x in carpetas)
        for c in grupo:
            if c.confirmada:
                quedan.append(c)
            else:
                conflictos.append(
                    Linea(
                        c.origen,
                        False,
                        f"conflicto: varias carpetas ({nombres}) tienen cuadernos "
                        f"que dicen ser de «{alumno}»: no se recoge ninguno de los que sólo lo dice el "
                        "cuaderno (lo que ya hay en submitted/ se queda); averigua de quién es "
                        "cada uno y ponlo en una carpeta con su identificador",
                        alumno,
                        c.desafio,
                    )
                )
    return quedan, conflictos


def _coloca_las_mas_nuevas(candidatas: list[Candidata], curso_nbgrader: Path) -> list[Linea]:
    """De cada alumno y desafío, la más nueva; las demás, al informe como duplicadas."""
    grupos: dict[tuple[str, str], list[Candidata]] = {}
    for c in candidatas:
        grupos.setdefault((c.alumno, c.desafio), []).append(c)
    informe, rutas, curso = [], Carpetas.de(curso_nbgrader), CursoNbgrader.de(curso_nbgrader)
    for grupo in grupos.values():
        # A la misma hora (ficheros copiados a la vez) desempata la «descargado» que vale.
        grupo.sort(key=lambda c: (c.hora, c.descargado or datetime.min, c.origen))
        nueva = grupo[-1]
        for vieja in grupo[:-1]:
            cual = "a la misma hora" if vieja.hora == nueva.hora else "más nueva"
            informe.append(
                Linea(
                    vieja.origen,
                    False,
                    f"duplicada: {nueva.alumno} entregó otra {cual} ({nueva.origen}, "
                    f"{en_zona(nueva.hora)}); se queda aquélla{vieja.aviso}",
                    vieja.alumno,
                    vieja.desafio,
                    duplicada=True,
                )
            )
        informe.append(coloca(nueva, rutas, curso))
    return informe


def _marca(linea: Linea) -> str:
    if linea.recogida:
        return "✔"
    return "·" if linea.ya_estaba else "✘"  # lo ya recogido no es un fallo: nada que arreglar


def escribe_informe(informe: list[Linea]) -> str:
    lineas = [f"{_marca(linea)} {linea.origen}: {linea.motivo}" for linea in sorted(informe, key=lambda x: x.origen)]
    recogidas = sum(linea.recogida for linea in informe)
    ya = sum(linea.ya_estaba for linea in informe)
    sin_recoger = len(informe) - recogidas - ya
    if not recogidas and informe and all(linea.neutra for linea in informe):
        nada = []
        if ya:
            nada.append("la entrega ya estaba recogida" if ya == 1 else f"las {ya} entregas ya estaban recogidas")
        if sin_recoger:
            n = "s" if sin_recoger != 1 else ""
            nada.append(
                f"{sin_recoger} fichero{n} no se recoge{'n' if n else ''} y se queda la entrega que había, "
                "sin cambios (el motivo, arriba)"
            )
        lineas.append("Nada nuevo: " + "; ".join(nada) + ".")
        return "\n".join(lineas)
    partes = [f"{recogidas} recogida{'s' if recogidas != 1 else ''}"]
    if ya:
        partes.append(f"{ya} ya estaba{'n' if ya != 1 else ''} recogida{'s' if ya != 1 else ''}")
    if sin_recoger:
        partes.append(f"{sin_recoger} sin recoger (el motivo, arriba)")
    lineas.append(", ".join(partes) + ".")
    return "\n".join(lineas)
