"""De quién es cada fichero recogido, de qué desafío y de qué hora: la candidata, o la línea que la descarta.

Las reglas, en el docstring de recoger.py: el alumno sale de la carpeta del aula (casada con la
lista del libro, lista.py) antes que de lo que dice el cuaderno; la hora, del lado del profesor.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from nbgrader.plugins import FileNameCollectorPlugin

from cursos.calificador.cuaderno import EntregaInvalida, lee_json
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.desempaqueta import EntradaInvalida, HoraDelZip
from cursos.profesor.lista import (
    AlumnoDelLibro,
    busca,
    choque_de_numero,
    del_aula,
    motivo_de_choque,
    motivo_sin_alumno,
)
from cursos.profesor.tiempo import ahora_utc, en_zona, hora_de_la_entrega, hora_de_texto, hora_del_fichero

# Un identificador que puede ser nombre de carpeta en cualquier sistema y en el libro de notas:
# letras, cifras, «_», y «.», «@», «+», «-» (no al principio). El mismo que pide la página.
ALUMNO = re.compile(r"[^\W][\w.@+-]{0,63}\Z")
HOLGURA = timedelta(minutes=5)  # menos que esto entre dos relojes no merece una nota


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
class Quien:
    """De quién es una entrega, según su carpeta del aula, su cuaderno y la lista del libro."""

    alumno: str
    carpeta: str | None  # la del alumno en el LMS (o lo que da el patrón), si la hay
    confirmada: bool  # la carpeta es la del alumno (no sólo lo dice el cuaderno)
    aviso: str  # el cuaderno dice otro alumno que su carpeta del LMS: el aviso ("" si no)
    fichero: str  # el nombre del fichero dentro de la carpeta del alumno


class ColectorDelCurso(FileNameCollectorPlugin):
    """El colector de nbgrader, con el patrón del profesor, para los cuadernos sin alumno."""

    def del_nombre(self, origen: str) -> dict:
        grupos = self._match(origen) or {}
        return {
            "alumno": grupos.get("alumno") or grupos.get("student_id"),
            "hora": grupos.get("hora") or grupos.get("timestamp"),
        }


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
    tz=None,
) -> Candidata | Linea:
    """Lo que dice un fichero de sí mismo (alumno, desafío, hora), o la línea del informe que lo descarta.

    lista: los alumnos del libro; con ella, una entrega del LMS es del alumno de su carpeta.
    hora_del_zip: la de su entrada en el zip, si viene de uno (si no, la fecha del fichero).
    rutas: las carpetas del curso; con ellas, sólo se recogen los desafíos repartidos (release/).
    tz: la zona del curso (CursoNbgrader.zona()), en la que se dicen las horas.
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
        return _no_se_lee(origen, datos, colector, desafios, solo, lista or [], rutas, tz)
    meta = datos.get("metadata")
    curso = meta.get("curso") if isinstance(meta, dict) else None
    curso = curso if isinstance(curso, dict) else {}
    del_nombre = colector.del_nombre(origen)
    del_cuaderno = curso.get("alumno")
    del_cuaderno = del_cuaderno.strip() if isinstance(del_cuaderno, str) and del_cuaderno.strip() else None
    quien = decide_el_alumno(origen, del_nombre["alumno"], del_cuaderno, lista or [], patron_propio)
    if isinstance(quien, Linea):
        return quien
    alumno = quien.alumno
    desafio = _desafio(origen, curso.get("desafio"), quien.fichero, desafios, alumno)
    if isinstance(desafio, Linea):
        return desafio
    sin_repartir = _sin_repartir(desafio, rutas)
    if sin_repartir:
        return no(sin_repartir, alumno, desafio)
    if solo and desafio != solo:
        return no(f"es del desafío «{desafio}», no de «{solo}»: recógelo con --desafio {desafio}", alumno, desafio)
    horas = _horas(ruta, curso.get("descargado"), del_nombre["hora"], hora_del, hora_del_zip, tz)
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
        quien.aviso + aviso,
        carpeta=quien.carpeta,
        confirmada=quien.confirmada,
        identidad=quien.aviso,
    )


def decide_el_alumno(
    origen: str, de_la_carpeta: str | None, del_cuaderno: str | None, lista: list[AlumnoDelLibro], patron_propio: bool
) -> "Quien | Linea":
    """De quién es una entrega, o la línea que dice por qué no se recoge: las reglas del docstring
    de recoger.py, sin leer nada (una prueba por regla en tests/profesor/test_decide_el_alumno.py).

    de_la_carpeta: la carpeta del alumno en la entrada (o el grupo «alumno» del patrón);
    del_cuaderno: metadata["curso"]["alumno"]; lista: los alumnos del libro (vacía: sin lista).
    """
    del_libro = _del_libro(origen, de_la_carpeta, del_cuaderno, lista)
    if isinstance(del_libro, Linea):
        return del_libro
    quien = del_libro or _sin_lista(origen, de_la_carpeta, del_cuaderno, patron_propio)
    if isinstance(quien, Linea):
        return quien
    if not quien.alumno:
        return Linea(
            origen,
            False,
            "sin identificador del alumno: el cuaderno no lo trae (se bajó de JupyterLite, no con "
            "«Descargar para entregar») y ni su nombre ni su carpeta lo dan; ponlo en una carpeta "
            "con el identificador del alumno (o usa --patron), o pon la lista de alumnos en el libro "
            "para recoger las carpetas de Moodle y Canvas, y vuelve a recoger",
        )
    if not ALUMNO.match(quien.alumno):
        return Linea(
            origen,
            False,
            f"el identificador «{quien.alumno[:80]}» no vale como nombre de carpeta (sólo letras, cifras y "
            "_ . @ + -, hasta 64): renombra la carpeta o usa --patron",
            quien.alumno[:80],
        )
    return quien


def _sin_lista(origen: str, carpeta: str | None, del_cuaderno: str | None, patron_propio: bool) -> "Quien | Linea":
    """Sin una lista que lo decida: manda la carpeta del LMS si es un identificador; si no, el cuaderno."""
    fichero = Path(origen).name
    if not del_cuaderno:
        return Quien(carpeta or "", carpeta, carpeta is not None, "", fichero)
    if carpeta and carpeta != del_cuaderno and (patron_propio or ALUMNO.match(carpeta)):
        return Linea(
            origen,
            False,
            f"el cuaderno dice que es de «{del_cuaderno[:80]}» y viene de la carpeta de «{carpeta}»: "
            "no se recoge (¿un ordenador compartido?); averigua de quién es, ponlo en la carpeta "
            "con su identificador y vuelve a recoger",
            carpeta,
        )
    return Quien(del_cuaderno, carpeta, carpeta == del_cuaderno, "", fichero)


def _desafio(origen: str, desafio, fichero: str, desafios: set[str], alumno: str) -> str | Linea:
    """De qué desafío es: el de sus metadatos o, si no es de este curso, el de su nombre; o la línea que lo descarta."""
    if not isinstance(desafio, str) or desafio not in desafios:
        # «permiso (1).ipynb» del navegador, «permiso-1.ipynb» de Canvas al volver a entregar
        desafio_nombre = _desafio_del_nombre(fichero, desafios)
        if desafio_nombre:
            desafio = desafio_nombre
        elif isinstance(desafio, str):
            return Linea(origen, False, f"es del desafío «{desafio[:80]}», que este curso no tiene", alumno)
        else:
            # No decir que lo renombre: con el nombre de un desafío, el cuaderno de otra asignatura
            # pasaría por una entrega.
            return Linea(
                origen,
                False,
                "no es la entrega de ningún desafío de este curso (ni sus metadatos ni su nombre dicen "
                "uno): se salta. Si el alumno quería entregar un desafío, que entregue el cuaderno de "
                "«Descargar para entregar»",
                alumno,
            )
    return desafio


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


def _no_se_lee(origen, por_que, colector, desafios, solo, lista, rutas, tz) -> Linea:
    """La línea de un fichero que no se puede leer; si se sabe de quién y de qué desafío es (por su
    carpeta y su nombre) y ya hay una entrega suya, dice que ésa se queda, sin cambios."""
    carpeta = colector.del_nombre(origen)["alumno"]
    identidad = _del_libro(origen, carpeta, None, lista)
    if isinstance(identidad, Quien):
        alumno, fichero = identidad.alumno, identidad.fichero
    else:
        alumno = carpeta if not lista and carpeta and ALUMNO.match(carpeta) else None
        fichero = Path(origen).name
    desafio = _desafio_del_nombre(fichero, desafios) or solo
    linea = Linea(origen, False, f"no se puede leer: {por_que}", alumno, desafio)
    if alumno and desafio and rutas is not None:
        anterior = rutas.de_alumno("submitted", alumno, desafio)
        hora = hora_de_la_entrega(anterior) if anterior.is_dir() else None
        if hora is not None:
            linea.motivo += f"; se queda la entrega que ya había de {alumno} (la de {en_zona(hora, tz)}), sin cambios"
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


def _del_libro(
    origen: str, de_la_carpeta: str | None, del_cuaderno: str | None, lista: list[AlumnoDelLibro]
) -> "Quien | Linea | None":
    """Quién entrega, según el LMS y la lista del libro; la línea que dice por qué no se recoge, o
    None si la lista no lo decide (sin lista, o la carpeta no es del LMS)."""
    if not lista:
        return None
    if de_la_carpeta in {a.id for a in lista}:  # la carpeta es el identificador de un alumno del libro
        aviso = _otro(del_cuaderno, de_la_carpeta, de_la_carpeta, "")
        return Quien(de_la_carpeta, de_la_carpeta, True, aviso, Path(origen).name)
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
    return Quien(alumno, aula.carpeta, True, _otro(del_cuaderno, alumno, aula.nombre, f" en {aula.aula}"), aula.fichero)


def _otro(del_cuaderno: str | None, alumno: str, carpeta: str, aula: str) -> str:
    """El aviso de un cuaderno que dice ser de otro alumno que el de su carpeta ("" si coinciden)."""
    if not del_cuaderno or del_cuaderno == alumno:
        return ""
    return (
        f"; ⚠ el cuaderno dice que es de «{del_cuaderno[:80]}», pero viene de la carpeta de «{carpeta}»{aula}: "
        f"se recoge para {alumno} (¿un ordenador compartido?); compruébalo con los dos alumnos"
    )


def _horas(ruta: Path, texto_descargado, texto_del_nombre, hora_del: str, del_zip: HoraDelZip | None, tz):
    """(hora, de dónde sale, «descargado» si vale, aviso): manda la hora del lado del profesor.
    Si no hay ninguna (un zip sin horas), el motivo de no recogerlo."""
    del_profesor, de_donde = hora_de_texto(texto_del_nombre), "hora del nombre"
    if del_profesor is None and del_zip is not None:
        del_profesor, de_donde = del_zip.hora, del_zip.de_donde
    elif del_profesor is None:
        del_profesor, de_donde = hora_del_fichero(ruta), "fecha del fichero"
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
            f"; el cuaderno dice que se descargó el {en_zona(descargado, tz)}, después de la "
            f"{de_donde} o en el futuro (el reloj del ordenador del alumno): no se usa"
        )
        descargado = None
    if hora_del == "alumno" and descargado is not None:
        return descargado, "descargado", descargado, aviso
    if descargado is not None and abs(descargado - del_profesor) > HOLGURA:
        aviso = f"; el cuaderno dice que se descargó el {en_zona(descargado, tz)} (según el ordenador del alumno)"
    return del_profesor, de_donde, descargado, aviso


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


def sin_conflictos(candidatas: list[Candidata]) -> tuple[list[Candidata], list[Linea]]:
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
