"""Antes de repartir o construir: la solución de referencia pasa las pruebas visibles con el código
de partida de ahora (el de la lección).

Una edición de la lección que cambia el código de partida (una palabra más en la receta) puede
romper el desafío: la página y el calificador suspenderían código correcto. `curso desafio`
(también con --forzar), `curso construir` y `curso servir` lo comprueban aquí antes de dar nada
por bueno, y nombran la prueba que falla. Se corre en este proceso, como las pruebas del curso:
es código del repositorio, no de un alumno.
"""

import contextlib
import hashlib
import io

from cursos import RAIZ
from cursos.desafio import Desafio

# Lo que ya ha pasado no se repite (construir y servir lo piden cada vez): una marca por huella de
# todo lo que entra en la comprobación.
PASADAS = RAIZ / "build" / "descargas" / "referencia"


def huella(desafio: Desafio) -> str:
    h = hashlib.sha256()
    for parte in (
        desafio.partida(),
        desafio.lee("solucion.py"),
        desafio.pruebas(),
        desafio.lee("ocultas.py"),
        *(f"{n}\0{t}" for n, t in desafio.modulos()),
    ):
        h.update(parte.encode("utf-8") + b"\0\0")
    return h.hexdigest()[:16]


def fallos(desafio: Desafio) -> list[str]:
    """Las líneas «✘ prueba (n p.): motivo» de las pruebas visibles que no pasa la solución de
    referencia; [] si pasan todas."""
    from cursos.calificador.banco import espacio_de_pruebas

    salida = io.StringIO()
    try:
        espacio = espacio_de_pruebas(desafio)
        with contextlib.redirect_stdout(salida):
            exec(compile(desafio.lee("solucion.py"), f"desafios/{desafio.slug}/solucion.py", "exec"), espacio)
            pasan = espacio["comprueba_todas"]()
    except Exception as e:  # el código de partida o la solución ya no se pueden ni ejecutar
        return [f"✘ el código de partida, la solución o las pruebas lanzan {type(e).__name__}: {e}"]
    lineas = [linea for linea in salida.getvalue().splitlines() if linea.startswith("✘")]
    return lineas or [f"✘ {nombre}" for nombre, bien in pasan.items() if not bien]


def comprueba(slugs: list[str]) -> list[str]:
    """Las líneas de error de todos los desafíos, para el profesor: «desafío: ✘ prueba…»."""
    lineas = []
    for slug in slugs:
        desafio = Desafio(slug)
        marca = PASADAS / f"{slug}-{huella(desafio)}"
        if marca.is_file():
            continue
        malas = fallos(desafio)
        lineas += [f"{slug}: {linea}" for linea in malas]
        if not malas:
            PASADAS.mkdir(parents=True, exist_ok=True)
            marca.touch()
    return lineas


def explica(lineas: list[str]) -> str:
    return (
        "la solución de referencia ya no pasa las pruebas visibles con el código de partida de la lección "
        "(¿una edición de la lección?): " + "; ".join(lineas) + ". Corrige la lección o el desafío "
        "(desafios/<slug>/) y vuelve a probar; `./curso pruebas -k comunes` lo comprueba también"
    )
