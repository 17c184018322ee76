"""La última puerta antes de escribir algo que ve un alumno o un corrector: nada de source/.

La solución del profesor (las regiones de `solucion.py`) y las pruebas ocultas (`ocultas.py`)
sólo viven en source/. Todo lo demás (el cuaderno de autograded/, que enseña formgrader; la
devolución; el zip de Moodle y la carpeta de Canvas) se hace con lo que el alumno entregó. Esta
puerta lo comprueba al escribir: si un texto trae una marca de nbgrader o un trozo de la solución
que no estaba en la entrega del alumno, no se escribe. Lo que el alumno escribió él mismo (aunque
coincida con la solución) sí se le puede enseñar: es suyo, y enseñárselo no le da nada nuevo.
"""

import functools
from pathlib import Path

from cursos.calificador.cuaderno import EntregaInvalida, lee_json
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso

MARCAS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
# Una región más corta que esto (p. ej. «return x») puede coincidir con un texto cualquiera: no se busca.
MINIMO = 40


class LlevaLaSolucion(ErrorDelCurso):
    """Un fichero para el alumno o el corrector traía algo de source/: no se ha escrito."""


def _plano(texto: str) -> str:
    """Sin espacios que cuenten: la misma solución con otra sangría o saltos de línea es la misma."""
    return " ".join(texto.split())


@functools.cache
def secretos(desafio: Desafio) -> tuple[str, ...]:
    """Lo que sólo está en source/: cada región de la solución y las pruebas ocultas, en plano."""
    regiones, actual = [], None
    for linea in desafio.lee("solucion.py").split("\n"):
        if "### BEGIN SOLUTION" in linea:
            actual = []
        elif "### END SOLUTION" in linea:
            regiones.append("\n".join(actual or []))
            actual = None
        elif actual is not None:
            actual.append(linea)
    ocultas = desafio.carpeta / "ocultas.py"
    if ocultas.is_file():
        regiones.append(ocultas.read_text(encoding="utf-8"))
    return tuple(p for p in map(_plano, regiones) if len(p) >= MINIMO)


def lo_que_trae(desafio: Desafio, texto: str, entregado: str = "") -> list[str]:
    """Qué de source/ trae el texto y no trae lo entregado: marcas y trozos de la solución."""
    plano, suyo = _plano(texto), _plano(entregado)
    trae = [m for m in MARCAS if m in texto and m not in entregado]
    if any(s in plano and s not in suyo for s in secretos(desafio)):
        trae.append("código de la solución del profesor")
    return trae


def comprueba(desafio: Desafio, texto: str, entregado: str, que: str) -> None:
    """LlevaLaSolucion si el texto lleva algo de source/ que el alumno no entregó. que: qué fichero."""
    trae = lo_que_trae(desafio, texto, entregado)
    if trae:
        raise LlevaLaSolucion(
            f"{que} no se ha escrito: llevaría lo que sólo está en source/ ({', '.join(trae)}) y no "
            "está en la entrega del alumno. Vuelve a calificar esa entrega con `./curso calificar --alumno` "
            "(el calificador escribe sólo lo entregado); si persiste, es un fallo del curso: avísanos"
        )


def texto_del_cuaderno(datos: dict) -> str:
    """Todo lo legible de un cuaderno: el código y el texto de sus celdas y sus salidas."""
    partes = []
    for celda in datos.get("cells", []) if isinstance(datos, dict) else []:
        if not isinstance(celda, dict):
            continue
        partes.append(_texto(celda.get("source", "")))
        for salida in celda.get("outputs", []) or []:
            if isinstance(salida, dict):
                partes += [_texto(salida.get(k, "")) for k in ("text", "evalue", "traceback")]
                partes += [_texto(v) for v in (salida.get("data") or {}).values()]
    return "\n".join(partes)


def _texto(valor) -> str:
    if isinstance(valor, list):
        return "\n".join(_texto(v) for v in valor)
    return valor if isinstance(valor, str) else ""


def lo_entregado(carpeta: Path) -> str:
    """El texto de los cuadernos de la carpeta de una entrega (submitted/<alumno>/<desafío>/).

    Se lee con lee_json, el lector del calificador (con su tope de tamaño). Si no se puede leer, "":
    entonces nada de la solución se puede atribuir al alumno.
    """
    partes = []
    for ruta in sorted(carpeta.glob("*.ipynb")) if carpeta.is_dir() else []:
        if ruta.is_symlink() or not ruta.is_file():
            continue
        try:
            partes.append(texto_del_cuaderno(lee_json(ruta)))
        except (OSError, EntregaInvalida):
            continue
    return "\n".join(partes)
