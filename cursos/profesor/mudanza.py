"""`curso copiar-libro`: el libro de notas entero a otra db_url (p. ej. de SQLite a PostgreSQL).

Se copia fila a fila cada tabla del esquema de nbgrader, en el orden de sus claves ajenas, con
sus identificadores: alumnos (con nombre, correo y lms_user_id), desafíos con su fecha límite,
cuadernos y celdas, entregas con su hora, notas automáticas y a mano, crédito extra y
comentarios. Nada se calcula otra vez. El destino tiene que estar vacío: escribir encima de
otro libro mezclaría dos cursos, así que se rechaza.
"""

from sqlalchemy import create_engine, func, insert, inspect, select

from cursos.errores import ErrorDelCurso


class LibroOcupado(ErrorDelCurso):
    """El destino ya tiene datos, o no se puede abrir; el mensaje dice qué hacer."""


def _tablas():
    from nbgrader.api import Base

    return Base.metadata.sorted_tables  # las de las que dependen otras, antes


def _filas(conexion, tabla) -> int:
    return conexion.execute(select(func.count()).select_from(tabla)).scalar_one()


def _ocupadas(url: str) -> dict[str, int]:
    """{tabla: filas} de las tablas de nbgrader con datos en url (un libro recién creado sólo tiene su curso)."""
    motor = create_engine(url)
    try:
        with motor.connect() as con:
            existen = set(inspect(con).get_table_names())
            return {t.name: n for t in _tablas() if t.name in existen and t.name != "course" and (n := _filas(con, t))}
    finally:
        motor.dispose()


def copia(origen: str, destino: str, course_id: str) -> dict[str, int]:
    """Copia el libro de origen en destino; devuelve {tabla: filas copiadas}."""
    from nbgrader.api import Gradebook

    if origen == destino:
        raise LibroOcupado("el libro de destino es el mismo que el de origen: da otra db_url")
    try:
        ocupadas = _ocupadas(destino)
    except Exception as e:
        raise LibroOcupado(
            f"no se puede abrir el libro de destino ({type(e).__name__}: "
            f"{(str(e).strip().splitlines() or [''])[0]}); revisa la db_url"
        ) from None
    if ocupadas:
        que = ", ".join(f"{n} en {t}" for t, n in ocupadas.items())
        raise LibroOcupado(
            f"el libro de destino no está vacío ({que}): no se escribe encima de otro libro; "
            "da una base de datos nueva (createdb …) o vacía"
        )
    Gradebook(destino, course_id).close()  # crea las tablas y apunta la versión del esquema, como nbgrader
    copiadas = {}
    fuente, meta = create_engine(origen), create_engine(destino)
    try:
        with fuente.connect() as leer, meta.begin() as escribir:
            for tabla in _tablas():
                filas = [dict(f._mapping) for f in leer.execute(select(tabla))]
                if tabla.name == "course":  # el que acaba de crear Gradebook se cambia por los del origen
                    escribir.execute(tabla.delete())
                if filas:
                    escribir.execute(insert(tabla), filas)
                copiadas[tabla.name] = len(filas)
    finally:
        fuente.dispose()
        meta.dispose()
    return copiadas
