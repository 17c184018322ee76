"""Sin ciclos de importación en cursos/: ni arriba del todo ni dentro de una función."""

import ast

from cursos import RAIZ


def _modulo(ruta) -> str:
    partes = ruta.relative_to(RAIZ).with_suffix("").parts
    return ".".join(partes[:-1] if partes[-1] == "__init__" else partes)


def grafo() -> dict[str, set[str]]:
    """{módulo: módulos de cursos que importa}, contando también las importaciones perezosas."""
    rutas = {_modulo(r): r for r in (RAIZ / "cursos").rglob("*.py") if "recursos" not in r.parts}
    aristas = {}
    for nombre, ruta in rutas.items():
        importados = set()
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.ImportFrom) and nodo.module and nodo.module.startswith("cursos"):
                # from cursos.calificador import fuente: el submódulo si lo es, si no el paquete
                importados |= {
                    f"{nodo.module}.{a.name}" if f"{nodo.module}.{a.name}" in rutas else nodo.module for a in nodo.names
                }
            elif isinstance(nodo, ast.Import):
                importados |= {a.name for a in nodo.names if a.name.startswith("cursos")}
        aristas[nombre] = {m for m in importados if m in rutas and m != nombre}
    return aristas


def ciclos(aristas: dict[str, set[str]]) -> list[list[str]]:
    encontrados, estado = [], {}

    def visita(nodo, camino):
        estado[nodo] = "abierto"
        for siguiente in sorted(aristas[nodo]):
            if estado.get(siguiente) == "abierto":
                encontrados.append(camino[camino.index(siguiente) :] + [siguiente])
            elif siguiente not in estado:
                visita(siguiente, camino + [siguiente])
        estado[nodo] = "cerrado"

    for nodo in sorted(aristas):
        if nodo not in estado:
            visita(nodo, [nodo])
    return encontrados


def test_no_hay_ciclos_de_importacion():
    assert ciclos(grafo()) == []


def test_el_detector_ve_un_ciclo():
    assert ciclos({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b", "a"]]


def test_ninguna_prueba_importa_otra_prueba():
    """Lo compartido va en conftest.py o en un módulo de ayudas: importar un test_*.py lo ejecutaría
    dos veces (y sus fixtures también)."""
    culpables = []
    for ruta in (RAIZ / "tests").rglob("*.py"):
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            nombres = (
                [nodo.module or ""] + [a.name for a in nodo.names]
                if isinstance(nodo, ast.ImportFrom)
                else [a.name for a in nodo.names]
                if isinstance(nodo, ast.Import)
                else []
            )
            if any(n.rsplit(".", 1)[-1].startswith("test_") for n in nombres):
                culpables.append(f"{ruta.relative_to(RAIZ)}:{nodo.lineno}")
    assert not culpables, culpables
