"""Las preguntas de autoevaluación de una lección, leídas y comprobadas desde preguntas.toml."""

import json

from cursos import esquemas
from cursos.manifiesto import ErrorDeManifiesto, Leccion

# El aviso de cada tipo, una vez: viaja con cada pregunta («aviso») a la página, a su
# JavaScript y al widget del cuaderno, que lo enseñan tal cual.
TIPOS = {
    "verdadero_falso": "Verdadero o falso.",
    "una": "Elige una respuesta.",
    "varias": "Marca todas las correctas. Se califica todo o nada: no hay puntuación parcial.",
}


class ErrorDePreguntas(ErrorDeManifiesto):
    """preguntas.toml no se puede usar; el mensaje dice qué pregunta, qué clave y qué hacer."""


def preguntas_de(leccion: Leccion) -> list[dict]:
    """Las preguntas de la lección, comprobadas, tal como las leen el cuaderno y la página; [] si no tiene."""
    if not leccion.preguntas.exists():
        return []
    donde = f"lecciones/{leccion.slug}/preguntas.toml"
    preguntas = esquemas.lee_toml(leccion.preguntas, esquemas.Preguntas, ErrorDePreguntas, donde).pregunta
    for pregunta in preguntas:
        _comprueba(pregunta, f"{donde}, pregunta «{pregunta.id}»")
    return [_como_dict(p) for p in preguntas]


def _comprueba(pregunta: esquemas.Pregunta, donde: str) -> None:
    """Lo que el esquema no dice: el tipo y cuántas opciones son correctas."""
    if pregunta.tipo not in TIPOS:
        raise ErrorDePreguntas(f"{donde}: el tipo debe ser uno de {', '.join(TIPOS)}")
    correctas = [o for o in pregunta.opcion if o.correcta]
    if not correctas:
        raise ErrorDePreguntas(f"{donde}: ninguna opción es correcta; marca una con correcta = true")
    if pregunta.tipo != "varias" and len(correctas) != 1:
        raise ErrorDePreguntas(f"{donde}: una pregunta de tipo {pregunta.tipo} tiene una sola correcta")


def _como_dict(pregunta: esquemas.Pregunta) -> dict:
    """La pregunta con su aviso; de cada opción, sólo las claves que trae (el JSON no cambia)."""
    opciones = [{k: v for k, v in vars(o).items() if v is not None} for o in pregunta.opcion]
    return {**vars(pregunta), "opcion": opciones, "aviso": TIPOS[pregunta.tipo]}


def como_json(preguntas: list[dict]) -> str:
    """Las preguntas tal como las leen el cuaderno y la página."""
    return json.dumps(preguntas, ensure_ascii=False, indent=1)
