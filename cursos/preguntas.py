"""Las preguntas de autoevaluación de una lección, leídas y comprobadas desde preguntas.toml."""

import json
import tomllib

from cursos.manifiesto import ErrorDeManifiesto, Leccion

# El aviso de cada tipo, una vez: viaja con cada pregunta («aviso») a la página, a su
# JavaScript y al widget del cuaderno, que lo enseñan tal cual.
TIPOS = {
    "verdadero_falso": "Verdadero o falso.",
    "una": "Elige una respuesta.",
    "varias": "Marca todas las correctas. Se califica todo o nada: no hay puntuación parcial.",
}


def preguntas_de(leccion: Leccion) -> list[dict]:
    """Las preguntas de la lección, comprobadas; [] si no tiene."""
    if not leccion.preguntas.exists():
        return []
    datos = tomllib.loads(leccion.preguntas.read_text(encoding="utf-8"))
    preguntas = datos.get("pregunta", [])
    for pregunta in preguntas:
        _comprueba(pregunta, leccion.slug)
        pregunta["aviso"] = TIPOS[pregunta["tipo"]]
    return preguntas


def _comprueba(pregunta: dict, slug: str) -> None:
    donde = f"lecciones/{slug}/preguntas.toml, pregunta «{pregunta.get('id', '?')}»"
    for clave in ("id", "tipo", "enunciado", "opcion"):
        if clave not in pregunta:
            raise ErrorDeManifiesto(f"{donde}: falta «{clave}»")
    if pregunta["tipo"] not in TIPOS:
        raise ErrorDeManifiesto(f"{donde}: el tipo debe ser uno de {', '.join(TIPOS)}")
    correctas = [o for o in pregunta["opcion"] if o.get("correcta")]
    if not correctas:
        raise ErrorDeManifiesto(f"{donde}: ninguna opción es correcta")
    if pregunta["tipo"] != "varias" and len(correctas) != 1:
        raise ErrorDeManifiesto(f"{donde}: una pregunta de tipo {pregunta['tipo']} tiene una sola correcta")
    for opcion in pregunta["opcion"]:
        if not opcion.get("texto") or not opcion.get("explicacion"):
            raise ErrorDeManifiesto(f"{donde}: cada opción necesita «texto» y «explicacion»")


def como_json(preguntas: list[dict]) -> str:
    """Las preguntas tal como las leen el cuaderno y la página."""
    return json.dumps(preguntas, ensure_ascii=False, indent=1)
