"""Lo que cita el alumno, escrito sin peligro: sin sustitutos sueltos, sin controles y con tope.

Lo que dice el alumno (sus excepciones, sus valores, su código) acaba en los motivos, las notas
y el cuaderno calificado; cada texto que sale del calificador pasa por aquí.
"""

import re
import unicodedata

MAXIMO_MENSAJE = 2000  # caracteres de cada motivo: lo bastante para entenderlo, no para llenar el disco

# Lo que el alumno puede meter en un texto y no se debe escribir tal cual: secuencias ANSI (pintan
# «✔ … puntos» falsos en una terminal o un visor), controles C0 y C1, y los que reordenan o esconden
# texto (U+202E, U+2066…, U+200B…). \n y \t se quedan: separan líneas del mensaje.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]")


def _visible_char(ch: str) -> bool:
    return ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")


def escribible(texto: str | None) -> str | None:
    """Sin sustitutos sueltos de UTF-16 ("\ud800" → "?"), que no se pueden escribir en UTF-8."""
    return None if texto is None else texto.encode("utf-8", "replace").decode("utf-8")


def sin_controles(texto: str | None) -> str | None:
    """Sin secuencias de escape ni caracteres de control o de formato: se ve lo que pone, no lo que pinta."""
    if texto is None or (texto.isascii() and texto.isprintable()):
        return texto
    return "".join(ch for ch in _ANSI.sub("", texto) if _visible_char(ch))


def limpio(texto: str | None) -> str | None:
    """Un motivo que se puede escribir siempre: escribible, sin controles y con tope."""
    if texto is None:
        return None
    texto = escribible(texto[: 4 * MAXIMO_MENSAJE])  # recortar antes: limpiar 16 MB cuesta
    # Un motivo es una línea: un salto de línea del alumno no puede dibujar otra («✔ … puntos»).
    texto = sin_controles(re.sub(r"\r\n|\r|\n|\t", " ⏎ ", texto))
    return texto if len(texto) <= MAXIMO_MENSAJE else texto[:MAXIMO_MENSAJE] + "… (recortado)"
