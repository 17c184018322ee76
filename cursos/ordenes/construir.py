"""./curso construir: el sitio estático (portada, páginas de lección, módulos, Pyodide y JupyterLite)."""

import sys

NOMBRE = "construir"
AYUDA = "construye el sitio estático en build/sitio"


def configura(parser) -> None:
    pass


def referencias_bien(curso) -> bool:
    """Antes de construir o servir: la solución de cada desafío pasa sus pruebas visibles con el código
    de partida de la lección (una edición de la lección puede romperlo); si no, lo dice y no sigue."""
    from cursos.calificador.referencia import comprueba, explica

    malas = comprueba(sorted({lc.desafio for lc in curso.lecciones if lc.desafio}))
    if malas:
        print(f"No se construye el sitio: {explica(malas)}", file=sys.stderr)
    return not malas


def ejecuta(args) -> int:
    from cursos.manifiesto import leer_curso
    from cursos.sitio.construir import construir

    curso = leer_curso(args.curso)
    if not referencias_bien(curso):
        return 2
    segundos = construir(curso)  # ErrorDeDistribucion dice ella misma que no se ha construido
    consejo = " Sírvelo con ./curso servir" if args.orden == NOMBRE else ""
    print(f"Sitio construido en build/sitio en {segundos:.1f} s.{consejo}")
    return 0
