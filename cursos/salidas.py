"""Lo que la prosa de una lección afirma de la salida de cada celda.

Cada lección tiene un salidas.toml con una tabla [[celda]] por celda de código
que afirma algo: su etiqueta (celda = "salida-1", en la cabecera de la celda:
```python tags=["salida-1"]) y las líneas que su salida debe contener. Las mismas
afirmaciones se comprueban en CPython (nbclient) y en el navegador (Pyodide), así que las dos
pruebas no pueden divergir.
"""

import tomllib

from cursos.celdas import ErrorDeEtiqueta, numero
from cursos.manifiesto import Leccion


def afirmaciones(leccion: Leccion) -> dict[int, list[str]]:
    """{número de celda de código (1 es la primera): líneas que debe contener su salida}.

    El número sale de la etiqueta: ErrorDeEtiqueta si falta o está repetida.
    """
    if not leccion.salidas.exists():
        return {}
    fichero = f"lecciones/{leccion.slug}/salidas.toml"
    try:
        datos = tomllib.loads(leccion.salidas.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ErrorDeEtiqueta(f"{fichero} no es TOML válido ({e}): corrígelo") from None
    if otras := set(datos) - {"celda"}:
        raise ErrorDeEtiqueta(f"{fichero}: sólo admite tablas [[celda]]; sobra {', '.join(sorted(otras))}")
    resultado = {}
    for celda in datos.get("celda", []):
        if not isinstance(celda.get("celda"), str):
            raise ErrorDeEtiqueta(
                f"{fichero}: «celda = {celda.get('celda')!r}» tiene "
                'que ser la etiqueta de la celda (celda = "salida-1"), no su número'
            )
        if otras := set(celda) - {"celda", "contiene"}:  # una errata («contine») no se salta en silencio
            raise ErrorDeEtiqueta(
                f"{fichero}, celda «{celda['celda']}»: clave desconocida "
                f"{', '.join(sorted(otras))}; las claves son celda y contiene"
            )
        lineas = celda.get("contiene")
        if not isinstance(lineas, list) or not lineas or not all(isinstance(x, str) for x in lineas):
            raise ErrorDeEtiqueta(
                f"{fichero}, celda «{celda['celda']}»: «contiene» tiene que ser una lista "
                'de líneas de texto (contiene = ["…"])'
            )
        n = numero(leccion.fuente, celda["celda"])
        if n in resultado:
            raise ErrorDeEtiqueta(f"{fichero}: la celda «{celda['celda']}» está dos veces; junta sus líneas en una")
        resultado[n] = lineas
    return resultado


def fallos(salida: str, esperadas: list[str]) -> list[str]:
    """Las líneas esperadas que no aparecen en la salida (vacía si todo cuadra).

    Se compara línea a línea quitando los espacios del final, que ni el
    navegador ni Jupyter conservan igual.
    """
    lineas = [linea.rstrip() for linea in salida.splitlines()]
    return [e for e in esperadas if e.rstrip() not in lineas]
