"""Lo que la prosa de una lección afirma de la salida de cada celda.

Cada lección tiene un salidas.toml con una tabla [[celda]] por celda de código
que afirma algo: su número (1 es la primera celda de código) y las líneas que su
salida debe contener. Las mismas afirmaciones se comprueban en CPython (nbclient)
y en el navegador (Pyodide), así que las dos pruebas no pueden divergir.
"""

import tomllib

from cursos.manifiesto import Leccion


def afirmaciones(leccion: Leccion) -> dict[int, list[str]]:
    """{número de celda de código: líneas que debe contener su salida}."""
    if not leccion.salidas.exists():
        return {}
    datos = tomllib.loads(leccion.salidas.read_text(encoding="utf-8"))
    return {celda["celda"]: celda["contiene"] for celda in datos.get("celda", [])}


def fallos(salida: str, esperadas: list[str]) -> list[str]:
    """Las líneas esperadas que no aparecen en la salida (vacía si todo cuadra).

    Se compara línea a línea quitando los espacios del final, que ni el
    navegador ni Jupyter conservan igual.
    """
    lineas = [linea.rstrip() for linea in salida.splitlines()]
    return [e for e in esperadas if e.rstrip() not in lineas]
