"""El libro de notas de nbgrader, con su propia API, desde el proceso de confianza: el único registro.

Se escribe como lo escribe `nbgrader autograde`, para que `nbgrader export`, formgrader y
`generate_feedback` digan lo mismo que el CSV:
- la entrega guarda la hora de submitted/<alumno>/<desafío>/timestamp.txt (formgrader da por
  calificada una entrega si esa hora coincide con la del libro);
- cada calificación escribe la nota automática de todas las celdas de prueba, también un 0: una
  recalificación nunca deja la nota anterior; las notas manuales del profesor no se tocan;
- la penalización por retraso la pone el plugin de retrasos de nbgrader con la configuración del
  curso, sobre la nota del cuaderno (con las manuales), igual que AssignLatePenalties;
- el motivo de la nota va como comentario automático de la celda de la solución (formgrader lo
  enseña al lado).

El CSV sale de aquí (`tabla`): todos los alumnos del libro, también los que no han entregado.
"""

import sys
from datetime import datetime
from pathlib import Path

from nbgrader.api import Comment, Grade, Gradebook, MissingEntry, Student, SubmittedAssignment, SubmittedNotebook

from cursos.contrato import id_de_prueba, prueba_del_id
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.fuente import con_herramientas_del_venv
from cursos.profesor.tiempo import iso_en_zona, retraso_legible

SIN_ENTREGA = "sin entrega"
PASA = "Pasa todas las pruebas."  # el comentario de formgrader cuando no hay motivo
SEPARADOR = "\n— "  # entre el motivo y la nota final, en el comentario de formgrader


class LibroSinDesafio(ErrorDelCurso):
    """El libro no conoce el desafío (o no se puede abrir); el mensaje dice qué hacer."""

    prefijo = "no se puede {orden}"  # calificar o devolver


def url_del_libro(curso_nbgrader: Path) -> str:
    """La db_url del curso (la de su configuración; por omisión, su gradebook.db)."""
    return CursoNbgrader.de(curso_nbgrader).db_url


def _orden(curso: Path, desafio: Desafio) -> str:
    return f"`./curso desafio --desafio {desafio.slug} --nbgrader {curso}`"


def abre(curso: CursoNbgrader, desafio: Desafio) -> Gradebook:
    """El libro del curso, abierto una vez por calificación (abrirlo cuesta medio segundo)."""
    local = curso.libro_local
    if local is not None and not local.exists():
        raise LibroSinDesafio(
            f"no hay libro de notas en {local}: reparte antes el desafío con {_orden(curso.carpeta, desafio)}"
        )
    con_herramientas_del_venv()
    try:
        libro = Gradebook(curso.db_url, curso.course_id or "default_course")
    except Exception as e:  # p. ej. el servidor de PostgreSQL no contesta
        primera = (str(e).strip().splitlines() or [""])[0]
        raise LibroSinDesafio(
            f"no se puede abrir el libro de notas ({type(e).__name__}: {primera}); "
            "revisa c.CourseDirectory.db_url en nbgrader_config.py"
        ) from None
    try:
        asignado = libro.find_assignment(desafio.slug)
    except MissingEntry:
        libro.close()
        raise LibroSinDesafio(
            f"el libro de notas no tiene el desafío «{desafio.slug}»: repártelo antes con "
            f"{_orden(curso.carpeta, desafio)}"
        ) from None
    if asignado.duedate is None and curso.penaliza_retrasos():
        print(
            f"» aviso: hay una política de retrasos en la configuración, pero «{desafio.slug}» no tiene fecha "
            "límite en el libro de notas, así que nadie llega tarde y no se penaliza a nadie; si tiene plazo, "
            f'`nbgrader db assignment add {desafio.slug} --duedate "2026-03-01 12:00:00 Europe/Madrid"` y '
            "vuelve a calificar",
            file=sys.stderr,
        )
    return libro


def alumnos(libro: Gradebook) -> set[str]:
    return {s.id for s in libro.students}


def anota(
    libro: Gradebook,
    desafio: Desafio,
    alumno: str,
    puntos: dict[str, float],
    *,
    zona,
    hora: datetime | None = None,
    motivo: str = "",
    penalizador=None,
) -> dict:
    """puntos: {prueba: puntos}. Una sola transacción por alumno: o todo o nada (el alumno, la
    entrega y sus notas). Devuelve su fila del libro (fila_del_libro), leída en esa transacción.

    hora: la de timestamp.txt (None si no hay, como en nbgrader). penalizador: el
    AssignLatePenalties del curso (CursoNbgrader.penalizador()); sin él no se penaliza.
    zona: la del curso (CursoNbgrader.zona()), para la hora de la fila.
    """
    try:
        estudiante = _alumno_del_libro(libro, alumno)
        entrega = _entrega_del_libro(libro, desafio, estudiante, hora)
        nb = entrega.notebooks[0]
        notas = {n.name: n for n in nb.grades}
        for prueba, valor in puntos.items():
            notas[id_de_prueba(prueba)].auto_score = valor
            notas[id_de_prueba(prueba)].needs_manual_grade = False
        for comentario in nb.comments:
            if comentario.name == desafio.celda_solucion:
                comentario.auto_comment = motivo or PASA
        _penaliza(libro, entrega, nb, alumno, penalizador)
        _con_nota_final(libro, desafio, entrega)
        libro.db.flush()
        fila = fila_del_libro(libro, desafio, estudiante, zona)
        libro.db.commit()
        return fila
    except Exception:
        libro.db.rollback()
        raise


def _alumno_del_libro(libro: Gradebook, alumno: str) -> Student:
    """El alumno del libro; si no está, se añade sin confirmar (Gradebook.add_student confirmaría)."""
    try:
        return libro.find_student(alumno)
    except MissingEntry:
        estudiante = Student(id=alumno)
        libro.db.add(estudiante)
        return estudiante


def _entrega_del_libro(libro: Gradebook, desafio: Desafio, estudiante: Student, hora: datetime | None):
    """La entrega del alumno; si no está, una nueva con la forma del desafío repartido, como la crea
    Gradebook.add_submission (un cuaderno con una nota por celda de prueba y un comentario por
    celda de solución), pero sin confirmar: así va en la misma transacción que sus notas."""
    try:
        entrega = libro.find_submission(desafio.slug, estudiante.id)
        entrega.timestamp = hora  # también None: como autograde, la hora es la de ahora en submitted/
        return entrega
    except MissingEntry:
        pass
    with libro.db.no_autoflush:  # se añade entera al final, como en add_submission
        entrega = SubmittedAssignment(
            assignment=libro.find_assignment(desafio.slug), student=estudiante, timestamp=hora
        )
        for cuaderno in entrega.assignment.notebooks:
            nb = SubmittedNotebook(notebook=cuaderno, assignment=entrega)
            for celda in cuaderno.grade_cells:
                Grade(cell=celda, notebook=nb)
            for celda in cuaderno.solution_cells:
                Comment(cell=celda, notebook=nb)
            for celda in cuaderno.task_cells:
                Comment(cell=celda, notebook=nb)
                Grade(cell=celda, notebook=nb)
    libro.db.add(entrega)
    return entrega


def _penaliza(libro: Gradebook, entrega, nb, alumno: str, penalizador) -> None:
    """Lo mismo que AssignLatePenalties.preprocess de nbgrader, sobre la nota ya guardada."""
    libro.db.flush()
    libro.db.expire(nb)  # score es una suma en SQL: se vuelve a leer con las notas nuevas
    libro.db.expire(entrega)
    nb.late_submission_penalty = None
    if penalizador is not None and entrega.total_seconds_late > 0:
        penalizacion = penalizador.plugin_inst.late_submission_penalty(alumno, nb.score, entrega.total_seconds_late)
        if penalizacion is not None:
            nb.late_submission_penalty = min(max(penalizacion, 0), nb.score)


def fila_del_libro(libro: Gradebook, desafio: Desafio, alumno, tz) -> dict:
    """La fila del CSV de un alumno, tal como está en el libro (con notas manuales, crédito extra y
    penalizaciones). «entrega» es la hora en la zona del curso (tz: CursoNbgrader.zona()), con su desfase."""
    alumno = libro.find_student(alumno) if isinstance(alumno, str) else alumno
    pruebas = desafio.puntos()
    base = {
        "alumno": alumno.id,
        "nombre": alumno.first_name or "",
        "apellidos": alumno.last_name or "",
        "email": alumno.email or "",
        "maximo": sum(pruebas.values()),
    }
    try:
        entrega = libro.find_submission(desafio.slug, alumno.id)
    except MissingEntry:
        return {
            **base,
            "puntos": 0,
            "motivo": SIN_ENTREGA,
            **dict.fromkeys(pruebas, 0),
            "entrega": "",
            "retraso": "",
            "sin_penalizar": 0,
            "penalizacion": 0,
            "extra": 0,
        }
    nb = entrega.notebooks[0]
    notas = {g.name: g for g in nb.grades}
    motivo = motivo_de_la_nota(nb, desafio)
    manuales = [p for p in pruebas if notas[id_de_prueba(p)].manual_score is not None]
    extra = credito_extra([nb])
    if extra:
        motivo = f"crédito extra del profesor: {puntos_es(extra)}. " + motivo
    if manuales:
        motivo = f"nota manual del profesor en {', '.join(manuales)}. " + motivo
    retraso = entrega.total_seconds_late
    if entrega.late_submission_penalty:
        motivo = (
            f"entregada con {retraso_legible(retraso)} de retraso: {puntos_es(entrega.late_submission_penalty)} "
            f"de penalización. " + motivo
        )
    return {
        **base,
        "puntos": _numero(nota_final(entrega)),
        "motivo": motivo.strip(),
        **{p: _numero(notas[id_de_prueba(p)].score) for p in pruebas},
        "entrega": iso_en_zona(entrega.timestamp, tz) if entrega.timestamp else "",
        "retraso": round(retraso) if retraso else 0,
        "sin_penalizar": _numero(entrega.score),
        "penalizacion": _numero(entrega.late_submission_penalty),
        "extra": _numero(extra),
        # Para la devolución: el motivo del calificador solo y las pruebas con nota a mano.
        "del_calificador": motivo_de_la_nota(nb, desafio),
        "a_mano": manuales,
        "extras": {
            p: _numero(notas[id_de_prueba(p)].extra_credit) for p in pruebas if notas[id_de_prueba(p)].extra_credit
        },
        "comentarios": comentarios_del_profesor(nb),
    }


def comentarios_del_profesor(nb) -> dict[str, str]:
    """{celda: comentario} que el profesor escribió en formgrader (para la devolución)."""
    return {c.name: c.manual_comment for c in sorted(nb.comments, key=lambda c: c.name) if c.manual_comment}


def motivo_de_la_nota(nb, desafio: Desafio) -> str:
    """El motivo que escribió el calificador (el comentario automático de la solución), sin la línea de
    la nota final que se le añade para formgrader."""
    motivo = next((c.auto_comment or "" for c in nb.comments if c.name == desafio.celda_solucion), "")
    motivo = motivo.split(SEPARADOR)[0].strip()
    return "" if motivo == PASA else motivo


def nota_final(puntuada) -> float:
    """La nota de una entrega (o de uno de sus cuadernos) como la da `nbgrader export` y el CSV: la
    suma de sus notas (automáticas o a mano, con el crédito extra) menos la penalización por retraso."""
    return max(0.0, puntuada.score - (puntuada.late_submission_penalty or 0))


def credito_extra(cuadernos) -> float:
    """El crédito extra que el profesor ha puesto en formgrader, en todas las celdas de los cuadernos."""
    return sum(g.extra_credit or 0 for nb in cuadernos for g in nb.grades)


def nota_en_texto(final: float, maximo: float, penalizacion: float = 0, extra: float = 0) -> str:
    """La nota como la lee el profesor en formgrader: «9 / 10 (−2 por retraso, +1 extra)». Con más
    puntos que el máximo (por el crédito extra) se dice así, «10 / 10 + 1 extra»: nunca «11 / 10»."""
    final, maximo = _numero(round(float(final), 2)), _numero(round(float(maximo), 2))
    sobra = _numero(round(final - maximo, 2))
    texto = f"{numero_es(min(final, maximo))} / {numero_es(maximo)}"
    if sobra > 0:
        texto += f" + {numero_es(sobra)} extra"
    detalle = []
    if penalizacion:
        detalle.append(f"−{numero_es(round(penalizacion, 2))} por retraso")
    if extra and round(extra, 2) != max(sobra, 0):  # si no es ya el «+ 1 extra» de arriba
        detalle.append(f"+{numero_es(round(extra, 2))} extra")
    return texto + (f" ({', '.join(detalle)})" if detalle else "")


def _con_nota_final(libro: Gradebook, desafio: Desafio, entrega) -> None:
    """Añade al comentario de la solución la nota final, la del CSV: formgrader abierto sin
    `./curso formgrader` enseña en su columna de nota la de nbgrader, que suma el crédito extra y no
    resta la penalización por retraso; en este comentario se ve lo que de verdad vale."""
    libro.db.flush()
    libro.db.expire(entrega)
    nb = entrega.notebooks[0]
    maximo = sum(desafio.puntos().values())
    partes = [f"Nota final (la del CSV y de nbgrader export): {puntos_es(nota_final(entrega))} de {maximo}"]
    if entrega.late_submission_penalty:
        partes.append(
            f"entregada con {retraso_legible(entrega.total_seconds_late)} de retraso: "
            f"{puntos_es(entrega.late_submission_penalty)} de penalización"
        )
    extra = credito_extra([nb])
    if extra:
        partes.append(f"con {puntos_es(extra)} de crédito extra")
    for comentario in nb.comments:
        if comentario.name == desafio.celda_solucion:
            motivo = (comentario.auto_comment or PASA).split(SEPARADOR)[0].strip() or PASA
            comentario.auto_comment = motivo + SEPARADOR + "; ".join(partes) + "."


def sincroniza(libro: Gradebook, desafio: Desafio) -> None:
    """La nota final de cada entrega en su comentario de formgrader, con lo que haya ahora en el libro
    (notas a mano, crédito extra): se hace cada vez que se escribe el CSV."""
    for entrega in libro.assignment_submissions(desafio.slug):
        if entrega.notebooks:
            _con_nota_final(libro, desafio, entrega)
    libro.db.commit()


def fila_al_dia(libro: Gradebook, desafio: Desafio, alumno: str, tz) -> dict:
    """La fila de un solo alumno, con su comentario de formgrader al día (sincroniza, para uno)."""
    try:
        entrega = libro.find_submission(desafio.slug, alumno)
    except MissingEntry:
        return fila_del_libro(libro, desafio, alumno, tz)
    if entrega.notebooks:
        _con_nota_final(libro, desafio, entrega)
        libro.db.commit()
    return fila_del_libro(libro, desafio, alumno, tz)


def puntos_es(x: float) -> str:
    """«1 punto», «0 puntos», «9,5 puntos»: en español, con coma decimal."""
    x = _numero(round(float(x), 2))
    return f"{numero_es(x)} punto{'' if x == 1 else 's'}"


def numero_es(x) -> str:
    return str(_numero(x)).replace(".", ",")


def tabla(libro: Gradebook, desafio: Desafio, tz) -> list[dict]:
    """Una fila por alumno del libro, por identificador: el CSV entero. Antes, la nota final de cada
    entrega va a su comentario de formgrader (sincroniza): así dicen lo mismo."""
    sincroniza(libro, desafio)
    return [fila_del_libro(libro, desafio, s, tz) for s in sorted(libro.students, key=lambda s: s.id)]


def _numero(x: float) -> float | int:
    """2.0 → 2 (como lo escribiría una persona); 1.5 se queda."""
    return int(x) if float(x).is_integer() else x


def quita_notas_a_mano(curso: CursoNbgrader, slug: str, alumno: str) -> dict:
    """Quita del libro las notas a mano, el crédito extra y los comentarios del profesor de la entrega
    de un alumno, y los devuelve ({} si no tenía): eran de otro cuaderno, que se acaba de sustituir."""
    guardadas = {"notas": {}, "extra": {}, "comentarios": {}}
    with _abierto(curso) as libro:
        if libro is None:
            return {}
        try:
            nb = libro.find_submission(slug, alumno).notebooks[0]
        except (MissingEntry, IndexError):
            return {}
        for g in nb.grades:
            if g.manual_score is not None:
                guardadas["notas"][g.name], g.manual_score = g.manual_score, None
            if g.extra_credit:
                guardadas["extra"][g.name], g.extra_credit = g.extra_credit, None
        for c in nb.comments:
            if c.manual_comment:
                guardadas["comentarios"][c.name], c.manual_comment = c.manual_comment, None
        libro.db.commit()
    return guardadas if any(guardadas.values()) else {}


def pon_notas_a_mano(curso: CursoNbgrader, slug: str, alumno: str, guardadas: dict) -> bool:
    """Vuelve a poner en el libro las notas a mano guardadas con una entrega (al restaurarla)."""
    with _abierto(curso) as libro:
        if libro is None or not guardadas:
            return False
        try:
            nb = libro.find_submission(slug, alumno).notebooks[0]
        except (MissingEntry, IndexError):
            return False
        for g in nb.grades:
            g.manual_score = guardadas.get("notas", {}).get(g.name, g.manual_score)
            g.extra_credit = guardadas.get("extra", {}).get(g.name, g.extra_credit)
        for c in nb.comments:
            c.manual_comment = guardadas.get("comentarios", {}).get(c.name, c.manual_comment)
        libro.db.commit()
    return True


def describe_notas_a_mano(guardadas: dict) -> str:
    """«nota a mano en permitir (0,5), 0,5 puntos de crédito extra y 1 comentario del profesor»."""
    partes = []
    if guardadas.get("notas"):
        partes.append(
            "nota a mano en "
            + ", ".join(f"{prueba_del_id(n) or n} ({numero_es(v)})" for n, v in guardadas["notas"].items())
        )
    extra = sum(guardadas.get("extra", {}).values())
    if extra:
        partes.append(f"{puntos_es(extra)} de crédito extra")
    comentarios = len(guardadas.get("comentarios", {}))
    if comentarios:
        partes.append(f"{comentarios} comentario{'s' if comentarios != 1 else ''} del profesor")
    return " y ".join(filter(None, [", ".join(partes[:-1]), partes[-1]])) if partes else ""


class _abierto:
    """El libro del curso abierto (o None si no hay libro local todavía), cerrado al salir."""

    def __init__(self, curso: CursoNbgrader):
        self.curso, self.libro = curso, None

    def __enter__(self):
        local = self.curso.libro_local
        if local is not None and not local.exists():
            return None
        con_herramientas_del_venv()
        self.libro = Gradebook(self.curso.db_url, self.curso.course_id or "default_course")
        return self.libro

    def __exit__(self, *_):
        if self.libro is not None:
            self.libro.close()
