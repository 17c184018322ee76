"""Lo que la prosa de una lección afirma de la salida de cada celda.

Cada lección tiene un salidas.toml con una tabla [[celda]] por celda de código
que afirma algo: su etiqueta (celda = "salida-1", en la cabecera de la celda:
```python tags=["salida-1"]) y las líneas que su salida debe contener. Las mismas
afirmaciones se comprueban en CPython (nbclient) y en el navegador (Pyodide), así que las dos
pruebas no pueden divergir.
"""

from cursos import esquemas
from cursos.celdas import ErrorDeEtiqueta, numero
from cursos.manifiesto import Leccion


def afirmaciones(leccion: Leccion) -> dict[int, list[str]]:
    """{número de celda de código (1 es la primera): líneas que debe contener su salida}.

    El número sale de la etiqueta: ErrorDeEtiqueta si falta o está repetida.
    """
    if not leccion.salidas.exists():
        return {}
    fichero = f"lecciones/{leccion.slug}/salidas.toml"
    resultado = {}
    for celda in esquemas.lee_toml(leccion.salidas, esquemas.Salidas, ErrorDeEtiqueta, fichero).celda:
        n = numero(leccion.fuente, celda.celda)
        if n in resultado:
            raise ErrorDeEtiqueta(f"{fichero}: la celda «{celda.celda}» está dos veces; junta sus líneas en una")
        resultado[n] = list(celda.contiene)
    return resultado


def fallos(salida: str, esperadas: list[str]) -> list[str]:
    """Las líneas esperadas que no aparecen en la salida (vacía si todo cuadra).

    Se compara línea a línea quitando los espacios del final, que ni el
    navegador ni Jupyter conservan igual.
    """
    lineas = [linea.rstrip() for linea in salida.splitlines()]
    return [e for e in esperadas if e.rstrip() not in lineas]
