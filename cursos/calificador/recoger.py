"""`curso recoger`: de lo que entregan los alumnos (una carpeta o el zip del LMS) a
submitted/<alumno>/<desafío>/<desafío>.ipynb con su timestamp.txt, como lo espera nbgrader.

De nbgrader se usa lo que sirve tal cual: su ExtractorPlugin desempaqueta (también zips
dentro de zips, sin rutas con «..») y su FileNameCollectorPlugin, configurado con un
patrón, saca el alumno del nombre del fichero o de su carpeta. `nbgrader zip_collect`
entero no sirve: vacía submitted/<alumno>/ con --force (y una entrega vieja pisaría una
nueva), se para ante un duplicado sin hora y no lee los metadatos del cuaderno, que es
donde «Descargar para entregar» pone el alumno, el desafío y la hora. Eso es lo que se
escribe aquí, con un informe de cada fichero.

De dónde sale cada dato de una entrega:
- alumno: con lista de alumnos en el libro, el de la carpeta de Moodle o el nombre de Canvas
  casado con esa lista (lista.py), o el de la carpeta si es el identificador de uno de ellos; un
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
- desafío: metadata["curso"]["desafio"] (lo trae el cuaderno repartido).
- hora: la del lado del profesor: la del grupo «hora» del patrón; si no, la de su entrada en el
  zip del LMS o la fecha del fichero. metadata["curso"]["descargado"] la pone el reloj del
  navegador del alumno: sólo se informa (en la línea, si difiere más de unos minutos), salvo con
  --hora alumno (ficheros copiados que han perdido su fecha). Aun así, una «descargado» en el
  futuro o posterior a la hora del profesor no se usa.
"""

import os
import re
import secrets
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from nbgrader.plugins import ExtractorPlugin, FileNameCollectorPlugin
from nbgrader.utils import parse_utc

from cursos.calificador import anteriores, libro
from cursos.calificador.carpetas import Carpetas
from cursos.calificador.configuracion import CursoNbgrader
from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega, lee_json
from cursos.calificador.lista import AlumnoDelLibro, busca, del_aula, motivo_sin_alumno
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


def _desempaqueta(entrada: Path, extraido: Path) -> str | None:
    """Deja en extraido/ los ficheros de la entrada con su fecha; devuelve la carpeta del zip, si lo es.

    Con el ExtractorPlugin de nbgrader; él no conserva fechas, así que se ponen después
    (son la hora de una entrega que no trae la suya).
    """
    with tempfile.TemporaryDirectory() as tmp:
        if entrada.is_file():
            archivo = Path(tmp)
            shutil.copy2(entrada, archivo / entrada.name)
        else:
            archivo = entrada
        _comprueba_zips(archivo)
        extractor = ExtractorPlugin()
        try:
            extractor.extract(str(archivo), str(extraido))
        except Exception as e:  # setuptools.UnrecognizedFormat, zipfile.BadZipFile, OSError
            raise EntradaInvalida(
                f"no se ha podido desempaquetar {entrada.name}: {e}; comprueba que el "
                "zip está completo (descárgalo otra vez del LMS)"
            ) from None
        _pon_fechas(archivo, extraido)
    return Path(entrada.name).stem if entrada.is_file() else None


def _zips(archivo: Path):
    for raiz, _, nombres in os.walk(archivo):
        for nombre in nombres:
            if Path(nombre).suffix in (".zip", ".gz"):
                yield Path(raiz) / nombre


def _comprueba_zips(archivo: Path) -> None:
    for ruta in _zips(archivo):
        if ruta.suffix != ".zip":
            continue
        try:
            with zipfile.ZipFile(ruta) as z:
                total = sum(i.file_size for i in z.infolist())
        except (zipfile.BadZipFile, OSError) as e:
            raise EntradaInvalida(f"{ruta.name} no es un zip válido ({e}): descárgalo otra vez del LMS") from None
        if total > MAXIMO_ZIP:
            raise EntradaInvalida(
                f"{ruta.name} ocupa {total / 2**30:.1f} GB descomprimido: no es un lote de "
                "cuadernos; revisa qué has descargado"
            )


def _pon_fechas(archivo: Path, extraido: Path) -> None:
    """La fecha de cada fichero suelto y de cada entrada de los zips de primer nivel."""
    for raiz, _, nombres in os.walk(archivo):
        for nombre in nombres:
            origen = Path(raiz) / nombre
            destino = extraido / origen.relative_to(archivo)
            if destino.is_file():
                os.utime(destino, ns=(origen.stat().st_atime_ns, origen.stat().st_mtime_ns))
    for ruta in _zips(archivo):
        if ruta.suffix != ".zip":
            continue
        carpeta = extraido / ruta.relative_to(archivo).with_suffix("")
        tz = zona()  # un zip guarda la hora del reloj de quien lo hizo, sin zona: la del curso
        with zipfile.ZipFile(ruta) as z:
            for info in z.infolist():
                destino = _renombra(carpeta, info)
                if destino.is_file():
                    segundos = datetime(*info.date_time, tzinfo=tz).timestamp()
                    os.utime(destino, (segundos, segundos))


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


def _renombra(carpeta: Path, info: zipfile.ZipInfo) -> Path:
    """Pone con su nombre de verdad el fichero que el extractor sacó con el nombre en cp437."""
    sacado = carpeta.joinpath(*info.filename.split("/"))
    bueno = carpeta.joinpath(*nombre_en_el_zip(info).split("/"))
    if bueno == sacado or not sacado.is_file() or bueno.exists() or ".." in bueno.parts:
        return sacado
    bueno.parent.mkdir(parents=True, exist_ok=True)
    sacado.rename(bueno)
    for vacia in sacado.parents:  # las carpetas con el nombre mal que se han quedado vacías
        if vacia == carpeta or not vacia.is_relative_to(carpeta) or any(vacia.iterdir()):
            break
        vacia.rmdir()
    return bueno


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
) -> Candidata | Linea:
    """Lo que dice un fichero de sí mismo (alumno, desafío, hora), o la línea del informe que lo descarta.

    lista: los alumnos del libro; con ella, una entrega del LMS es del alumno de su carpeta.
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
        return no(f"no se puede leer: {datos}")
    meta = datos.get("metadata")
    curso = meta.get("curso") if isinstance(meta, dict) else None
    curso = curso if isinstance(curso, dict) else {}
    del_nombre = colector.del_nombre(origen)
    del_cuaderno = curso.get("alumno")
    del_cuaderno = del_cuaderno.strip() if isinstance(del_cuaderno, str) and del_cuaderno.strip() else None
    identidad = _del_libro(origen, del_nombre["alumno"], del_cuaderno, lista or [])
    if isinstance(identidad, str):
        return no(identidad)
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
        desafio_nombre = re.sub(r"\s*\(\d+\)$|-\d+$", "", Path(fichero).stem)
        if desafio_nombre in desafios:
            desafio = desafio_nombre
        elif isinstance(desafio, str):
            return no(f"es del desafío «{desafio[:80]}», que este curso no tiene", alumno)
        else:
            return no(
                "no se sabe de qué desafío es: el cuaderno no lo dice y su nombre no es el de "
                "ningún desafío; llámalo como el desafío (p. ej. permiso-en-ejecutar.ipynb) y "
                "vuelve a recoger",
                alumno,
            )
    if solo and desafio != solo:
        return no(f"es del desafío «{desafio}», no de «{solo}»: recógelo con --desafio {desafio}", alumno, desafio)
    hora, de_donde, descargado, aviso = _horas(ruta, curso.get("descargado"), del_nombre["hora"], hora_del)
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


def _lee_cuaderno(ruta: Path) -> dict | str:
    """El cuaderno, o por qué no se puede leer (en español: vacío, no UTF-8, JSON roto y dónde…)."""
    try:
        return lee_json(ruta)
    except EntregaInvalida as e:
        return str(e)
    except OSError as e:
        return e.strerror or str(e)


def _del_libro(origen: str, de_la_carpeta: str | None, del_cuaderno: str | None, lista: list[AlumnoDelLibro]):
    """Quién entrega, según el LMS y la lista del libro: (alumno, carpeta, True, aviso, fichero), el
    motivo de no recogerla, o None si la lista no lo decide (sin lista, o la carpeta no es del LMS)."""
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
        return motivo_sin_alumno(aula, encontrados, lista)
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


def _horas(ruta: Path, texto_descargado, texto_del_nombre, hora_del: str):
    """(hora, de dónde sale, «descargado» si vale, aviso): manda la hora del lado del profesor."""
    del_profesor, de_donde = hora_de_texto(texto_del_nombre), "hora del nombre"
    if del_profesor is None:
        del_profesor, de_donde = _hora_del_fichero(ruta), "fecha del fichero"
    descargado = hora_de_texto(texto_descargado)
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
        return Linea(c.origen, False, motivo + c.aviso, c.alumno, c.desafio, ya_estaba=igual)
    if anterior is not None:
        rota = _no_se_puede_calificar(c.fichero, c.desafio, rutas)
        if rota and not _no_se_puede_calificar(_cuaderno_de(carpeta), c.desafio, rutas):
            return Linea(
                c.origen,
                False,
                f"no sustituye a la de {en_zona(anterior)}, que sí se puede calificar: "
                f"ésta no ({rota}); se queda la que había. Si de verdad es la que vale, que el alumno la "
                "entregue otra vez bien",
                c.alumno,
                c.desafio,
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
    colector = ColectorDelCurso(named_regexp=patron)
    lista = lista_del_libro(curso_nbgrader)
    conocidos = {a.id for a in lista}
    informe, candidatas = [], []
    with tempfile.TemporaryDirectory() as tmp:
        extraido = Path(tmp)
        if entrada.suffix == ".ipynb":  # un solo cuaderno: no hay carpeta de la que sacar el alumno
            shutil.copy2(entrada, extraido / entrada.name)
            del_zip = None
        else:
            del_zip = _desempaqueta(entrada, extraido)
        base = extraido / del_zip if del_zip is not None else extraido  # el zip se extrae en su carpeta
        if patron == PATRON:
            base = sin_envoltorio(base)
        ficheros = sorted(p for p in extraido.rglob("*") if p.is_file())
        if not ficheros:
            raise EntradaInvalida(
                f"{entrada.name} está vací{'o' if entrada.is_file() else 'a'}: no hay ningún "
                "fichero que recoger; descarga otra vez las entregas del aula virtual"
            )
        for ruta in ficheros:
            relativa = ruta.relative_to(base)
            if any(p in IGNORADOS or p.startswith(".") for p in relativa.parts) or ruta.suffix in (".zip", ".gz"):
                continue
            resultado = lee_candidata(
                ruta, relativa.as_posix(), colector, desafios, solo, patron != PATRON, hora, lista
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
    return [p for p in carpeta.iterdir() if p.name not in IGNORADOS and not p.name.startswith(".")]


def sin_envoltorio(base: Path) -> Path:
    """Baja por la carpeta única que envuelve las de los alumnos (un zip hecho de la carpeta
    «entregas/» la lleva dentro): si no, el alumno de todos sería «entregas». Una carpeta única
    con sólo ficheros sí es la de un alumno (el zip de una sola entrega)."""
    while True:
        dentro = _visibles(base)
        if len(dentro) != 1 or not dentro[0].is_dir() or not any(p.is_dir() for p in _visibles(dentro[0])):
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
                )
            )
        informe.append(coloca(nueva, rutas, curso))
    return informe


def escribe_informe(informe: list[Linea]) -> str:
    lineas = [
        f"{'✔' if linea.recogida else '✘'} {linea.origen}: {linea.motivo}"
        for linea in sorted(informe, key=lambda x: x.origen)
    ]
    recogidas = sum(linea.recogida for linea in informe)
    sin_recoger = len(informe) - recogidas
    lineas.append(
        f"{recogidas} recogida{'s' if recogidas != 1 else ''}"
        + (f", {sin_recoger} sin recoger (el motivo, arriba)." if sin_recoger else ".")
    )
    return "\n".join(lineas)
