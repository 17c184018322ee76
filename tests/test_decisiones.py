"""Las fichas de docs/decisiones/: una sola plantilla, con su estado, y nombradas por su tema."""

import re

from cursos import RAIZ

FICHAS = sorted(p for p in (RAIZ / "docs" / "decisiones").glob("*.md") if p.name != "README.md")
SECCIONES = ["## Contexto", "## Decisión", "## Consecuencias"]
ESTADO = re.compile(r"\*\*Estado:\*\* (aceptada|descartada|sustituida por \[[^]]+\]\([^)]+\.md\))")


def fuera_de_plantilla(texto: str) -> list[str]:
    """Lo que le falta a una ficha para seguir la plantilla (vacío si la sigue)."""
    lineas = texto.splitlines()
    faltas = []
    if not lineas or not lineas[0].startswith("# "):
        faltas.append("la primera línea es el título, «# …»")
    if len(lineas) < 3 or not ESTADO.match(lineas[2]):
        faltas.append("la tercera línea es «**Estado:** aceptada.» (o descartada, o sustituida por [otra](otra.md))")
    if [linea for linea in lineas if linea.startswith("## ")] != SECCIONES:
        faltas.append("sus secciones son, en este orden y sin más: " + ", ".join(SECCIONES))
    return faltas


def test_cada_ficha_sigue_la_plantilla():
    malas = {p.name: f for p in FICHAS if (f := fuera_de_plantilla(p.read_text(encoding="utf-8")))}
    assert not malas, malas


def test_la_plantilla_ve_una_ficha_que_no_la_sigue():
    buena = "# Título\n\n**Estado:** aceptada.\n\n## Contexto\n\nx\n\n## Decisión\n\ny\n\n## Consecuencias\n\nz\n"
    assert fuera_de_plantilla(buena) == []
    assert len(fuera_de_plantilla(buena.replace("**Estado:** aceptada.", "Estado: aplicada"))) == 1
    assert len(fuera_de_plantilla(buena.replace("## Consecuencias", "## Razón"))) == 1


def test_cada_ficha_se_llama_por_su_tema():
    """Ni la tarea ni el equipo que la escribió (b1a-, b3r-…): eso no dice de qué trata."""
    assert not [p.name for p in FICHAS if re.match(r"b\d+[a-z]?-", p.name)]
