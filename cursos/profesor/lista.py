"""De quién es una entrega del aula virtual: la carpeta (o el nombre) que pone el LMS y la lista
de alumnos del libro de notas, nunca sólo lo que dice el navegador.

- Moodle baja una carpeta por alumno, «Nombre Apellidos_<id>_assignsubmission_file_/» (o, sin
  «descargar en carpetas», los ficheros sueltos con ese prefijo).
- Canvas baja los ficheros sueltos, «apellidonombre_<id>_<envío>_<fichero>» (con «_late» si es tarde).

En Canvas, el id es el del usuario: el alumno del libro es el que lo tiene en `lms_user_id` y, si
ninguno lo tiene, el que se llama así. En Moodle, no: el número de la carpeta sale de
`get_uniqueid_for_user` (mod/assign/locallib.php), un número de participante de cada tarea, que
cambia de una tarea a otra; lo que dice quién es, es el nombre. El número sólo desempata entre dos
que se llaman igual y sirve de comprobación: si es el `lms_user_id` de otro alumno, no se recoge
(choque_de_numero). El nombre se compara normalizado (sin tildes ni mayúsculas, en cualquier orden,
y con un solo apellido si el LMS sólo pone uno). Si no es ninguno, o son dos, no se adivina: el
motivo nombra a los candidatos.
"""

import itertools
import re
import shlex
import unicodedata
from dataclasses import dataclass

MOODLE = re.compile(r"(?P<nombre>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_?")
MOODLE_PLANO = re.compile(r"(?P<nombre>.+?)_(?P<id>\d+)_assignsubmission_file_(?P<fichero>.+\.ipynb)")
CANVAS = re.compile(r"(?P<nombre>[^\W_]+)(?:_late)?_(?P<id>\d+)(?:_(?P<envio>\d+))?_(?P<fichero>.+)", re.I)


@dataclass(frozen=True)
class AlumnoDelLibro:
    id: str
    nombre: str = ""
    apellidos: str = ""
    email: str = ""
    lms: str = ""  # lms_user_id

    def describe(self) -> str:
        completo = " ".join(filter(None, [self.nombre, self.apellidos]))
        return f"{self.id} ({completo})" if completo else self.id


@dataclass(frozen=True)
class DelAula:
    """Lo que dice el LMS de una entrega: qué aula, el nombre del alumno, su id y la carpeta."""

    aula: str  # «Moodle» o «Canvas»
    nombre: str  # tal cual lo pone el LMS
    id: str
    carpeta: str  # lo que se apunta para devolverle la nota (la carpeta de Moodle, el prefijo de Canvas)
    fichero: str  # el nombre del cuaderno sin lo que añade el LMS


def del_aula(origen: str) -> DelAula | None:
    """La carpeta de Moodle o el nombre de Canvas de una ruta dentro de la entrada; None si no es de un LMS."""
    partes = origen.split("/")
    for parte in partes[:-1]:
        hallado = MOODLE.fullmatch(parte)
        if hallado:
            return DelAula("Moodle", hallado["nombre"], hallado["id"], parte, partes[-1])
    plano = MOODLE_PLANO.fullmatch(partes[-1])  # Moodle sin «descargar en carpetas»
    if plano:
        return DelAula("Moodle", plano["nombre"], plano["id"], partes[-1][: plano.start("fichero")], plano["fichero"])
    hallado = CANVAS.fullmatch(partes[-1])
    if hallado and hallado["fichero"].endswith(".ipynb"):
        prefijo = partes[-1][: hallado.start("fichero")].rstrip("_")
        return DelAula("Canvas", hallado["nombre"], hallado["id"], prefijo, hallado["fichero"])
    return None


def normaliza(texto: str) -> list[str]:
    """«María  Sánchez-Ruiz» → ["maria", "sanchez", "ruiz"]: sin tildes, en minúsculas, por palabras."""
    sin_tildes = "".join(c for c in unicodedata.normalize("NFKD", texto or "") if not unicodedata.combining(c))
    return re.findall(r"[^\W_]+", sin_tildes.casefold())


def _por_palabras(palabras: list[str], a: AlumnoDelLibro) -> bool:
    """Moodle: las mismas palabras, en cualquier orden; o unas dentro de las otras (falta el segundo
    apellido, o un segundo nombre), siempre con al menos un nombre y un apellido en común."""
    nombre, apellidos = set(normaliza(a.nombre)), set(normaliza(a.apellidos))
    del_aula, del_libro = set(palabras), nombre | apellidos
    if not (del_aula & nombre and del_aula & apellidos):
        return False
    return del_aula <= del_libro or del_libro <= del_aula


def _juntas(a: AlumnoDelLibro) -> set[str]:
    """Canvas: «apellidosnombre» juntos, sin tildes; con los dos apellidos o el primero, y el orden al revés."""
    nombre, apellidos = normaliza(a.nombre), normaliza(a.apellidos)
    if not nombre or not apellidos:
        return set()
    nombres = {"".join(nombre), nombre[0]}
    apellidos_ = {"".join(apellidos), apellidos[0]}
    return {x + y for n, ap in itertools.product(nombres, apellidos_) for x, y in ((ap, n), (n, ap))}


def busca(aula: DelAula, lista: list[AlumnoDelLibro]) -> tuple[list[AlumnoDelLibro], str]:
    """(los alumnos del libro que pueden ser, por qué): en Moodle, por nombre (el número sólo desempata);
    en Canvas, por lms_user_id y, si ninguno lo tiene, por nombre."""
    por_id = [a for a in lista if a.lms and a.lms == aula.id]
    if aula.aula == "Moodle":
        palabras = normaliza(aula.nombre)
        por_nombre = [a for a in lista if _por_palabras(palabras, a)]
        mismos = [a for a in por_nombre if a in por_id]
        if len(por_nombre) > 1 and len(mismos) == 1:  # dos que se llaman así: el número dice cuál
            return mismos, "nombre y lms_user_id"
        return por_nombre, "nombre"
    if por_id:
        return por_id, "lms_user_id"
    junto = "".join(normaliza(aula.nombre))
    return [a for a in lista if junto in _juntas(a)], "nombre"


def choque_de_numero(aula: DelAula, alumno: AlumnoDelLibro, lista: list[AlumnoDelLibro]) -> AlumnoDelLibro | None:
    """El otro alumno del libro que tiene el número de esta carpeta de Moodle como lms_user_id (None si
    ninguno): el nombre dice uno y el número otro, y no se sabe cuál vale."""
    if aula.aula != "Moodle":
        return None
    return next((a for a in lista if a.lms and a.lms == aula.id and a.id != alumno.id), None)


def _orden_sin_numero(a: AlumnoDelLibro) -> str:
    """La orden que quita el lms_user_id de un alumno sin borrarle el nombre ni el correo (la de nbgrader
    escribe todos los campos: los que no se le dan, los deja vacíos)."""
    partes = ["nbgrader", "db", "student", "add", a.id]
    for opcion, valor in (("--first-name", a.nombre), ("--last-name", a.apellidos), ("--email", a.email)):
        if valor:
            partes += [opcion, valor]
    return " ".join(shlex.quote(p) for p in partes) + " --lms-user-id ''"


def motivo_de_choque(aula: DelAula, por_nombre: AlumnoDelLibro, por_numero: AlumnoDelLibro) -> str:
    """Por qué no se recoge una carpeta de Moodle cuyo nombre es de un alumno y su número, de otro, y qué hacer."""
    return (
        f"la carpeta «{aula.carpeta}» de Moodle es, por su nombre, de {por_nombre.describe()}, pero su número "
        f"{aula.id} es el lms_user_id de {por_numero.describe()} en el libro: no se recoge nada de esta "
        "carpeta (las demás, sí). En Moodle ese número es el de participante de esta tarea (cambia de una "
        f"tarea a otra), no el id del usuario: si la entrega es de {por_nombre.id} (lo normal, el nombre lo "
        f"pone Moodle), quita ese número a {por_numero.id} ({_orden_sin_numero(por_numero)}) y vuelve a "
        f"recoger; si es de {por_numero.id}, compruébalo en Moodle antes de tocar nada"
    )


def parecidos(aula: DelAula, lista: list[AlumnoDelLibro], cuantos: int = 3) -> list[AlumnoDelLibro]:
    """Los del libro que comparten alguna palabra del nombre con el del LMS (para el motivo)."""
    palabras = set(normaliza(aula.nombre))
    junto = "".join(normaliza(aula.nombre))

    def comun(a):
        suyas = set(normaliza(a.nombre)) | set(normaliza(a.apellidos))
        return len(palabras & suyas) + sum(1 for p in suyas if len(p) > 2 and p in junto)

    return [a for a in sorted(lista, key=lambda a: (-comun(a), a.id)) if comun(a)][:cuantos]


def motivo_sin_alumno(aula: DelAula, encontrados: list[AlumnoDelLibro], lista: list[AlumnoDelLibro]) -> str:
    """Por qué no se recoge una entrega del LMS que no es de un solo alumno del libro, y qué hacer."""
    quien = f"«{aula.nombre}» (id {aula.id} de {aula.aula})"
    arreglo = (
        "pon su id del aula en el libro (nbgrader db student add ID --lms-user-id "
        f"{aula.id}, con su nombre y apellidos) y vuelve a recoger"
    )
    if encontrados:
        nombres = ", ".join(a.describe() for a in encontrados)
        return f"{quien} puede ser cualquiera de estos alumnos del libro: {nombres}; no se adivina: {arreglo}"
    if aula.aula == "Moodle":  # el número de Moodle es de esta tarea: no identifica a nadie
        arreglo = (
            "si es un alumno del curso, ponlo en el libro con su nombre y apellidos como los escribe Moodle "
            "(nbgrader db student add ID --first-name NOMBRE --last-name APELLIDOS) y vuelve a recoger"
        )
    cerca = parecidos(aula, lista)
    pista = f" (los más parecidos: {', '.join(a.describe() for a in cerca)})" if cerca else ""
    por = "por nombre" if aula.aula == "Moodle" else "por lms_user_id ni por nombre"
    return f"{quien} no es ningún alumno del libro {por}{pista}; {arreglo}"
