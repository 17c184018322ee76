"""`curso alumnos`: la lista de alumnos del aula virtual, tal como se descarga, al libro de notas.

`nbgrader db student import` pide un CSV con sus columnas (`id,first_name,last_name,email,
lms_user_id`) y no lee lo que bajan Moodle y Canvas. Aquí se lee lo que bajan:
- Moodle: la exportación de usuarios (`id,username,email,firstname,lastname,idnumber,…`) o la
  descarga de los participantes o del libro de calificaciones, con las cabeceras en inglés o en
  español («Nombre», «Apellido(s)», «Dirección de correo»), en UTF-8 con o sin BOM;
- Canvas: la exportación del libro de calificaciones (`Student,ID,SIS User ID,SIS Login ID,
  Section,…`), con «Apellidos, Nombre» en Student y la fila «Points Possible», que no es nadie.

El formato se sabe por la cabecera. Cada alumno se escribe con la API de nbgrader
(update_or_create_student), con su nombre, apellidos, correo y el id del aula en lms_user_id.
El identificador es el del resto del curso, «nombre.apellido» sin tildes (ines.lopez); quien ya
está en el libro (el mismo lms_user_id o el mismo correo) conserva el suyo, así que importar otra
vez la lista pone al día y nunca duplica.
"""

import csv
from dataclasses import dataclass, field
from pathlib import Path

from cursos.errores import ErrorDelCurso
from cursos.profesor.lista import AlumnoDelLibro, normaliza

# Las cabeceras de Moodle de cada dato, en sus exportaciones y en inglés o español (sin mayúsculas).
DE_MOODLE = {
    "nombre": ("firstname", "first name", "nombre"),
    "apellidos": ("lastname", "last name", "surname", "apellido(s)", "apellidos"),
    "email": ("email", "email address", "dirección de correo", "dirección email", "correo electrónico"),
    "id": ("id",),  # el id de usuario: sólo lo trae la exportación de usuarios
}
DE_CANVAS = ("student", "id")
SIN_ALUMNO = ("points possible", "student, test", "test student")  # filas de Canvas que no son alumnos
# Van pegadas al apellido que les sigue: «de la Torre Vélez» es «delatorre» y «velez».
PARTICULAS = {"da", "das", "de", "del", "der", "di", "do", "dos", "la", "las", "le", "los", "van", "von", "y"}
LARGO = 64  # lo más largo que admite un identificador (recoger.ALUMNO)


class ListaInvalida(ErrorDelCurso):
    """El fichero no es una lista de Moodle ni de Canvas (o no se puede leer); el mensaje dice qué falta."""

    prefijo = "no se importa la lista"


@dataclass(frozen=True)
class DelFichero:
    """Un alumno tal como lo dice el fichero del aula."""

    nombre: str
    apellidos: str
    email: str = ""
    lms: str = ""  # el id de usuario del aula (Canvas: ID; Moodle: id)

    def completo(self) -> str:
        return " ".join(filter(None, [self.nombre, self.apellidos]))


@dataclass
class Importacion:
    """Lo que ha hecho `curso alumnos`: el formato, cada alumno con su identificador, y los avisos."""

    formato: str  # «Moodle» o «Canvas»
    alumnos: list[tuple[str, DelFichero, bool]] = field(default_factory=list)  # (id, del fichero, nuevo)
    avisos: list[str] = field(default_factory=list)


# Leer el fichero.


def lee(ruta: Path) -> tuple[str, list[DelFichero]]:
    """(«Moodle» o «Canvas», los alumnos del fichero); ListaInvalida si no es ninguno de los dos."""
    try:
        texto = ruta.read_text(encoding="utf-8-sig")  # -sig: sin el BOM que pone Moodle
    except UnicodeDecodeError:
        raise ListaInvalida(f"{ruta} no está en UTF-8: descárgalo otra vez del aula eligiendo UTF-8") from None
    except OSError as e:
        raise ListaInvalida(f"no se puede leer {ruta} ({e.strerror or e}): revisa la ruta") from None
    try:  # Moodle deja elegir el separador al descargar: coma, punto y coma o tabulador
        dialecto = csv.Sniffer().sniff(texto.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialecto = csv.excel
    filas = list(csv.DictReader(texto.splitlines(), dialect=dialecto))
    cabecera = {c.strip().casefold(): c for c in (filas[0].keys() if filas else _cabecera(texto, dialecto))}
    if all(c in cabecera for c in DE_CANVAS):
        return "Canvas", _de_canvas(filas, cabecera)
    if any(c in cabecera for c in DE_MOODLE["nombre"]):
        return "Moodle", _de_moodle(ruta, filas, cabecera)
    tiene = ", ".join(f"«{c}»" for c in cabecera.values() if c) or "ninguna"
    raise ListaInvalida(
        f"{ruta} no es una lista de Moodle ni de Canvas: le falta la columna «firstname» (o «Nombre», "
        f"«First name») de Moodle, o las columnas «Student» e «ID» de Canvas; columnas que tiene: {tiene}. "
        "Descárgala de Moodle (Participantes, o Administración del sitio → Usuarios → Acciones en lote → "
        "Descargar) o de Canvas (Calificaciones → Exportar) y pásala tal cual"
    )


def _cabecera(texto: str, dialecto) -> list[str]:
    """La cabecera de un fichero sin filas (DictReader no la da si no hay ninguna)."""
    return next(csv.reader(texto.splitlines(), dialect=dialecto), [])


def _columna(ruta: Path, cabecera: dict[str, str], dato: str) -> str:
    """La cabecera de Moodle que trae ese dato, o ListaInvalida con la columna que falta."""
    hallada = next((cabecera[c] for c in DE_MOODLE[dato] if c in cabecera), None)
    if hallada is None:
        nombres = " o ".join(f"«{c}»" for c in DE_MOODLE[dato])
        raise ListaInvalida(
            f"{ruta} parece una lista de Moodle, pero le falta la columna {nombres}: descárgala otra vez con esa "
            "columna (en Participantes, o con la exportación de usuarios, que la trae siempre)"
        )
    return hallada


def _de_moodle(ruta: Path, filas: list[dict], cabecera: dict[str, str]) -> list[DelFichero]:
    nombre, apellidos, email = (_columna(ruta, cabecera, d) for d in ("nombre", "apellidos", "email"))
    id_ = cabecera.get("id")
    alumnos = []
    for f in filas:
        if not (f.get(nombre) or "").strip() and not (f.get(apellidos) or "").strip():
            continue  # una fila vacía al final
        alumnos.append(
            DelFichero(
                (f.get(nombre) or "").strip(),
                (f.get(apellidos) or "").strip(),
                (f.get(email) or "").strip(),
                (f.get(id_) or "").strip() if id_ else "",
            )
        )
    return alumnos


def _de_canvas(filas: list[dict], cabecera: dict[str, str]) -> list[DelFichero]:
    student, id_ = cabecera["student"], cabecera["id"]
    login = cabecera.get("sis login id")
    alumnos = []
    for f in filas:
        quien, usuario = (f.get(student) or "").strip(), (f.get(id_) or "").strip()
        if not usuario or quien.casefold() in SIN_ALUMNO:  # «Points Possible», el alumno de prueba
            continue
        apellidos, coma, nombre = quien.partition(",")
        if not coma:  # sin coma, «Nombre Apellidos»
            nombre, _, apellidos = quien.partition(" ")
        correo = (f.get(login) or "").strip() if login else ""
        alumnos.append(DelFichero(nombre.strip(), apellidos.strip(), correo if "@" in correo else "", usuario))
    return alumnos


# Los identificadores.


def apellidos_en_piezas(apellidos: str) -> list[str]:
    """«de la Torre Vélez» → ["delatorre", "velez"]; «Ortiz-Bernal» → ["ortiz", "bernal"]."""
    piezas, particulas = [], ""
    for palabra in normaliza(apellidos):
        if palabra in PARTICULAS:
            particulas += palabra
        else:
            piezas.append(particulas + palabra)
            particulas = ""
    return piezas + ([particulas] if particulas else [])


def id_corto(a: DelFichero) -> str:
    """«nombre.apellido», como en el resto del curso: Inés López Ruiz es ines.lopez."""
    nombre, apellidos = normaliza(a.nombre), apellidos_en_piezas(a.apellidos)
    if nombre and apellidos:
        return f"{nombre[0]}.{apellidos[0]}"[:LARGO]
    return id_largo(a)


def id_largo(a: DelFichero) -> str:
    """Con todos los nombres y apellidos, para desempatar: ana.garcia.perez, jose.manuel.zuniga."""
    palabras = normaliza(a.nombre) + apellidos_en_piezas(a.apellidos)
    palabras = palabras or normaliza(a.email.partition("@")[0]) or [f"alumno{a.lms}"]
    return ".".join(palabras)[:LARGO]


def _es_el_mismo(a: DelFichero, del_libro: AlumnoDelLibro) -> bool:
    """El del libro es este alumno del fichero: el mismo id del aula o el mismo correo."""
    if a.lms and del_libro.lms:
        return a.lms == del_libro.lms
    return bool(a.email) and a.email.casefold() == del_libro.email.casefold()


def identificadores(alumnos: list[DelFichero], libro: list[AlumnoDelLibro]) -> tuple[list[str], list[str]]:
    """(el identificador de cada alumno del fichero, en su orden; los avisos de los empates).

    Quien ya está en el libro conserva el suyo. A los demás, «nombre.apellido», salvo si lo tendrían
    dos, o si ya es de otro alumno del libro: entonces, con todos sus nombres y apellidos (y, si aún
    coinciden, su id del aula). Todo sale del fichero y del libro, así que importarlo otra vez da lo mismo.
    """
    ids: list[str | None] = [next((b.id for b in libro if _es_el_mismo(a, b)), None) for a in alumnos]
    # Uno del libro sin id del aula ni correo (lo puso el profesor a mano) puede ser éste: se le pone.
    ajenos = {b.id: b for b in libro if (b.lms or b.email) and b.id not in ids}
    nuevos: dict[str, list[int]] = {}
    for n, a in enumerate(alumnos):
        if ids[n] is None:
            nuevos.setdefault(id_corto(a), []).append(n)
    usados, avisos = {i for i in ids if i}, []
    for corto, cuales in nuevos.items():
        if len(cuales) == 1 and corto not in usados and corto not in ajenos:
            ids[cuales[0]] = corto
            usados.add(corto)
            continue
        if corto in ajenos:
            por_que = f"ya es de {ajenos[corto].describe()} en el libro"
        elif len(cuales) > 1:
            por_que = f"lo tendrían {len(cuales)} alumnos de la lista"
        else:
            por_que = "ya lo tiene otro alumno de la lista"
        for n in cuales:
            largo = id_largo(alumnos[n])
            if largo in usados or sum(id_largo(alumnos[m]) == largo for m in cuales) > 1:
                largo = f"{largo}.{alumnos[n].lms or n + 1}"[:LARGO]  # se llaman igual del todo
            ids[n] = largo
            usados.add(largo)
        avisos.append(
            f"«{corto}» {por_que}: "
            + ", ".join(f"{alumnos[n].completo()} es {ids[n]}" for n in cuales)
            + " (con todos sus nombres y apellidos; siempre el mismo al importar otra vez)"
        )
    return [i or "" for i in ids], avisos


# El libro de notas.


def importa(curso_nbgrader: Path, ruta: Path) -> Importacion:
    """Lee el fichero y pone a cada alumno en el libro de notas del curso (update_or_create_student)."""
    from nbgrader.api import Gradebook

    from cursos.profesor.configuracion import CursoNbgrader
    from cursos.profesor.fuente import con_herramientas_del_venv

    formato, alumnos = lee(ruta)
    if not alumnos:
        raise ListaInvalida(f"{ruta} es una lista de {formato}, pero no tiene ningún alumno")
    curso = CursoNbgrader.de(curso_nbgrader)
    con_herramientas_del_venv()
    with Gradebook(curso.db_url, curso.course_id or "default_course") as libro:
        del_libro = [
            AlumnoDelLibro(s.id, s.first_name or "", s.last_name or "", s.email or "", str(s.lms_user_id or ""))
            for s in libro.students
        ]
        ids, avisos = identificadores(alumnos, del_libro)
        hecho = Importacion(formato, avisos=avisos)
        ya = {b.id for b in del_libro}
        for id_, a in zip(ids, alumnos, strict=True):
            # Lo que el fichero no trae (el correo en Canvas, el id en la lista de participantes) no se borra.
            datos = {"first_name": a.nombre, "last_name": a.apellidos, "email": a.email, "lms_user_id": a.lms}
            libro.update_or_create_student(id_, **{k: v for k, v in datos.items() if v})
            hecho.alumnos.append((id_, a, id_ not in ya))
    return hecho
