"""La evidencia del laboratorio de las dos puertas («La propuesta no es el permiso»), reproducible.

`./curso laboratorio` (cursos/ordenes/laboratorio.py) vuelve a ejecutar aquí los 14 escenarios
en los dos modos con laboratorio_puerta.py (y harness.py), construye el JSON completo de la
evidencia (huellas SHA-256 del código y de los fixtures, las 28 comprobaciones y cada resultado)
y lo compara con la referencia guardada en el repositorio. Cualquier byte distinto en el código o
en los fixtures cambia la evidencia, y la diferencia se enseña en español. (El otro laboratorio,
el de inyecciones contra un modelo de verdad, está en cursos/modelo/.)
"""

import json
from pathlib import Path

from cursos import RAIZ

LABORATORIO = RAIZ / "lecciones" / "la-propuesta-no-es-el-permiso" / "laboratorio_puerta.py"
HARNESS = RAIZ / "harness.py"  # el laboratorio usa sus bloques de observación
REFERENCIA = RAIZ / "lecciones" / "la-propuesta-no-es-el-permiso" / "evidencia.json"
PASA = "PASS: {coinciden}/{total} checks; complete evidence identical"
MAX_DIFERENCIAS = 40  # las primeras bastan para ver qué ha cambiado


def carga(ruta: Path = LABORATORIO) -> dict:
    """El laboratorio cargado como en la lección: harness.py y él, en un espacio de nombres nuevo."""
    espacio = {"__name__": "__laboratorio__"}
    for fichero in (HARNESS, ruta):
        exec(compile(fichero.read_text(encoding="utf-8"), str(fichero), "exec"), espacio)
    return espacio


def evidencia_de(ruta: Path = LABORATORIO) -> dict:
    """La evidencia completa de una ejecución nueva, tal como quedaría en JSON."""
    codigo = {HARNESS.name: HARNESS.read_bytes(), LABORATORIO.name: ruta.read_bytes()}
    return json.loads(como_json(carga(ruta)["evidencia"](codigo)))


def como_json(evidencia: dict) -> str:
    """El texto canónico de la evidencia: claves ordenadas, una línea por dato."""
    return json.dumps(evidencia, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _nombre(elemento, indice: int) -> str:
    """Cómo llamar a un elemento de una lista en el diff: escenario/modo si lo tiene."""
    if isinstance(elemento, dict) and "escenario" in elemento and "modo" in elemento:
        return "%s/%s" % (elemento["escenario"], elemento["modo"])
    return str(indice)


def _corto(valor) -> str:
    return json.dumps(valor, ensure_ascii=False, sort_keys=True)


def diferencias(referencia, actual, ruta: str = "evidencia") -> list[str]:
    """Cada punto en el que la evidencia actual difiere de la referencia, en una línea."""
    if isinstance(referencia, dict) and isinstance(actual, dict):
        lineas = []
        for clave in sorted(set(referencia) | set(actual)):
            donde = "%s.%s" % (ruta, clave)
            if clave not in actual:
                lineas.append("%s: está en la referencia y falta ahora" % donde)
            elif clave not in referencia:
                lineas.append("%s: sobra ahora (no está en la referencia)" % donde)
            else:
                lineas.extend(diferencias(referencia[clave], actual[clave], donde))
        return lineas
    if isinstance(referencia, list) and isinstance(actual, list):
        lineas = []
        if len(referencia) != len(actual):
            lineas.append("%s: la referencia tiene %d elementos y ahora hay %d" % (ruta, len(referencia), len(actual)))
        for i, (r, a) in enumerate(zip(referencia, actual, strict=False)):
            lineas.extend(diferencias(r, a, "%s[%s]" % (ruta, _nombre(r, i))))
        return lineas
    if referencia != actual:
        return ["%s: referencia %s, ahora %s" % (ruta, _corto(referencia), _corto(actual))]
    return []


def comprobaciones_fallidas(evidencia: dict) -> list[str]:
    """Los escenarios en los que lo observado no es lo que se declaró."""
    return [
        "%s/%s: esperado %s, observado %s" % (r["escenario"], r["modo"], _corto(r["esperado"]), _corto(r["observado"]))
        for r in evidencia["resultados"]
        if not r["coincide"]
    ]


def verificar(laboratorio: Path = LABORATORIO, referencia: Path = REFERENCIA) -> tuple[bool, list[str]]:
    """(pasa, líneas del informe). Pasa si todas las comprobaciones coinciden y
    la evidencia es idéntica a la de referencia, byte a byte en su forma canónica."""
    actual = evidencia_de(laboratorio)
    cuenta = actual["comprobaciones"]
    marcador = "%d/%d checks" % (cuenta["coinciden"], cuenta["total"])
    if not referencia.exists():
        return False, [
            "FAIL: %s; no existe la evidencia de referencia %s" % (marcador, referencia),
            "Créala a propósito con: ./curso laboratorio regenerar",
        ]
    guardada = json.loads(referencia.read_text(encoding="utf-8"))
    lineas = diferencias(guardada, actual)
    fallidas = comprobaciones_fallidas(actual)
    if not lineas and not fallidas:
        return True, [PASA.format(**cuenta)]
    puntos = "1 punto" if len(lineas) == 1 else "%d puntos" % len(lineas)
    informe = ["FAIL: %s; la evidencia difiere de la referencia en %s" % (marcador, puntos)]
    informe += ["  comprobación fallida: " + f for f in fallidas]
    informe += ["  - " + linea for linea in lineas[:MAX_DIFERENCIAS]]
    if len(lineas) > MAX_DIFERENCIAS:
        informe.append("  … y %d diferencias más" % (len(lineas) - MAX_DIFERENCIAS))
    informe.append("Si el cambio es deliberado, regenera la referencia: ./curso laboratorio regenerar")
    return False, informe


def regenerar(laboratorio: Path = LABORATORIO, referencia: Path = REFERENCIA) -> tuple[bool, list[str]]:
    """Escribe la referencia con una ejecución nueva, sólo si las 28 comprobaciones coinciden."""
    actual = evidencia_de(laboratorio)
    fallidas = comprobaciones_fallidas(actual)
    if fallidas:
        return False, ["No se regenera: hay comprobaciones que no coinciden."] + ["  " + f for f in fallidas]
    referencia.parent.mkdir(parents=True, exist_ok=True)
    referencia.write_text(como_json(actual), encoding="utf-8")
    cuenta = actual["comprobaciones"]
    return True, ["escrita %s (%d/%d checks)" % (referencia, cuenta["coinciden"], cuenta["total"])]
