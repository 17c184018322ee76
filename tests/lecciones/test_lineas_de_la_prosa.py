"""La prosa de las lecciones se parte hacia los 100 caracteres, como el resto del Markdown del curso.

El alumno no ve los saltos de línea de la fuente (un párrafo es un párrafo), pero quien revisa una lección o lee
su diferencia en un commit, sí: una línea de 170 caracteres entre otras de 100 se lee mal y esconde cambios.
Cuentan las líneas de prosa: no las de las celdas de código, que son lo que el alumno ve tal cual, ni las filas
de una tabla, que en Markdown no se pueden partir. Tampoco dos que se pueden partir pero se dejan enteras:
- una imagen sola en su línea: su texto alternativo es un atributo, y un salto dentro de él llega tal cual al
  `alt` del HTML (y al lector de pantalla);
- una cita de una sola línea (`> …`): es un dato citado tal cual, lo que dice un fichero o un mensaje, y quien
  compara la prosa con sus datos la busca entera (test_voz_propia_leccion_5.py toma cada línea `>` por un
  bloque: partida, el dato ya no se reconoce y sus dos mitades cuentan como frases de la lección).
"""

import re

import pytest

from cursos.manifiesto import leer_curso
from cursos.sitio.paginas import markdown

CURSO = leer_curso()
ANCHO = 100
# Lecciones que aún tienen líneas de prosa más largas. Al partirlas, salen de aquí: la prueba falla si una de
# la lista ya no tiene ninguna.
PENDIENTES: set[str] = set()
# Una imagen sola en su línea: `![texto alternativo](fichero)`.
IMAGEN = re.compile(r"!\[[^\]]*\]\([^)\s]*\)")


def cita_de_una_linea(lineas: list[str], n: int) -> bool:
    """La línea n (desde 1) es una cita `>` sin otra línea de cita antes ni después."""
    cita = [linea.startswith(">") for linea in ["", *lineas, ""]]
    return cita[n] and not cita[n - 1] and not cita[n + 1]


def lineas_largas(texto: str) -> list[int]:
    """Los números de las líneas de prosa de más de ANCHO caracteres."""
    lineas = texto.split("\n")
    largas, en_codigo = [], False
    for n, linea in enumerate(lineas, 1):
        if linea.startswith("```"):
            en_codigo = not en_codigo
        elif (
            en_codigo
            or linea.lstrip().startswith("|")
            or IMAGEN.fullmatch(linea.strip())
            or cita_de_una_linea(lineas, n)
        ):
            continue
        elif len(linea) > ANCHO:
            largas.append(n)
    return largas


def test_lineas_largas_cuenta_la_prosa_y_no_el_codigo_ni_las_tablas_ni_las_imagenes():
    larga = "x" * (ANCHO + 1)
    imagen = "![" + larga + "](figura.png)"
    texto = "\n".join(
        ["corta", larga, "```python", larga, "```", "| " + larga + " |", imagen, "Mira " + imagen, "x" * ANCHO]
    )
    assert lineas_largas(texto) == [2, 8]


def test_una_cita_de_una_linea_se_deja_entera_y_una_de_varias_se_parte():
    larga = "> " + "x" * ANCHO
    assert lineas_largas("\n".join(["texto", "", larga, "", "texto"])) == []
    assert lineas_largas("\n".join(["", larga, "> y sigue", ""])) == [2]
    assert lineas_largas("\n".join(["", "> empieza", larga, ""])) == [3]


def test_un_salto_en_el_texto_alternativo_llega_al_html():
    """Por eso la imagen se deja entera: en un párrafo el salto no cambia lo que se lee; en el `alt`, sí."""
    assert 'alt="uno\ndos"' in markdown("![uno\ndos](figura.png)")
    assert markdown("uno\ndos").replace("\n", " ") == markdown("uno dos").replace("\n", " ")


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_la_prosa_de_la_leccion_se_parte_hacia_los_100_caracteres(leccion):
    largas = lineas_largas(leccion.fuente.read_text(encoding="utf-8"))
    if leccion.slug in PENDIENTES:
        assert largas, "lecciones/%s/leccion.md ya no tiene líneas largas: sácala de PENDIENTES" % leccion.slug
        pytest.skip("pendiente de partir: líneas %s" % largas)
    assert largas == [], "lecciones/%s/leccion.md: líneas de más de %d caracteres: %s" % (leccion.slug, ANCHO, largas)
