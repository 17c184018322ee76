"""Lee una entrega sin ejecutar nada: el código del alumno, o el motivo por el que vale 0.

Las celdas bloqueadas (partida, pruebas) no se leen de la entrega: el calificador
usa las suyas. Sólo se exige que sigan ahí, iguales y en su sitio, porque una
entrega que las ha tocado no es la que el alumno ha visto pasar.
"""

import ast
import json
from dataclasses import dataclass
from pathlib import Path

from cursos.calificador.fuente import STUB, Desafio, celdas_fijas

MAXIMO_BYTES = 5 * 1024 * 1024
MAXIMO_CODIGO = 200_000  # caracteres de código del alumno, entre todas sus celdas


class EntregaInvalida(Exception):
    """La entrega no se puede calificar; el mensaje es el motivo, para el alumno."""


@dataclass
class Entrega:
    celdas: list[str]  # el código del alumno, en orden: la solución y las celdas que haya añadido
    solucion: str
    redefine: str | None = None  # qué nombres intocables del código de partida redefine, si alguno


def _fuente(celda: dict) -> str:
    fuente = celda.get("source", "")
    if isinstance(fuente, list) and all(isinstance(x, str) for x in fuente):
        return "".join(fuente)
    if isinstance(fuente, str):
        return fuente
    raise EntregaInvalida("una celda tiene un «source» que no es texto: el cuaderno está dañado")


def _grade_id(celda: dict) -> str | None:
    meta = celda.get("metadata")
    nb = meta.get("nbgrader") if isinstance(meta, dict) else None
    return nb.get("grade_id") if isinstance(nb, dict) and isinstance(nb.get("grade_id"), str) else None


def lee_json(ruta: Path) -> dict:
    tamano = ruta.stat().st_size
    if tamano > MAXIMO_BYTES:
        raise EntregaInvalida("el cuaderno ocupa %.1f MB y el máximo es %d MB: borra las salidas "
                              "grandes y vuelve a entregarlo" % (tamano / 2**20, MAXIMO_BYTES // 2**20))
    try:
        texto = ruta.read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise EntregaInvalida("el cuaderno no está en UTF-8 (byte %d): guárdalo otra vez desde Jupyter"
                              % e.start) from None
    try:
        datos = json.loads(texto)
    except (ValueError, RecursionError) as e:  # JSONDecodeError, o un entero de miles de cifras
        raise EntregaInvalida("el cuaderno no es JSON válido (%s): no es un .ipynb que Jupyter pueda "
                              "abrir" % getattr(e, "msg", e)) from None
    if not isinstance(datos, dict) or not isinstance(datos.get("cells"), list) or \
            not all(isinstance(c, dict) for c in datos["cells"]):
        raise EntregaInvalida("el fichero es JSON pero no un cuaderno: no tiene una lista de celdas")
    return datos


def _comprueba_fijas(fijas: tuple, celdas: list[dict]) -> None:
    """Las celdas bloqueadas siguen ahí, iguales, del mismo tipo y en el mismo orden."""
    posiciones = {}
    for i, celda in enumerate(celdas):
        gid = _grade_id(celda)
        if gid is not None:
            if gid in posiciones:
                raise EntregaInvalida("la celda «%s» está repetida" % gid)
            posiciones[gid] = i
    anterior = -1
    for gid, tipo, fuente in fijas:
        if gid not in posiciones:
            raise EntregaInvalida("falta la celda «%s» (bloqueada): se ha borrado o le han quitado sus "
                                  "metadatos; descarga el desafío otra vez y copia tu solución" % gid)
        celda = celdas[posiciones[gid]]
        if celda.get("cell_type") != tipo:
            raise EntregaInvalida("la celda «%s» era de tipo %s y ahora es %s" % (gid, tipo, celda.get("cell_type")))
        if _fuente(celda).strip() != fuente.strip():
            raise EntregaInvalida("la celda «%s» está bloqueada y se ha modificado" % gid)
        if posiciones[gid] < anterior:
            raise EntregaInvalida("la celda «%s» se ha movido de su sitio" % gid)
        anterior = posiciones[gid]


# Con ellos se puede cambiar un nombre sin escribirlo (exec("bu" + "cle = …"), vars()[…]):
# si hay nombres intocables, su uso cuenta como redefinirlos, salvo la línea que carga un módulo.
DINAMICOS = {"exec", "eval", "compile", "globals", "vars", "locals", "__import__", "setattr", "delattr",
             "getattr", "__builtins__"}
ATRIBUTOS_DINAMICOS = {"__dict__", "__globals__", "__builtins__", "f_globals", "f_locals", "f_back", "_getframe",
                       "__code__", "__defaults__", "__kwdefaults__", "__closure__", "modules"}
MODULOS_DINAMICOS = {"builtins", "importlib", "inspect", "types", "ctypes", "gc", "__main__", "runpy", "code"}


def _carga_de_modulo(nodo: ast.AST, modulos: set[str]) -> bool:
    """¿Es exec(open("<módulo del curso>", ...).read())? La forma de cargar del curso."""
    return (isinstance(nodo, ast.Call) and isinstance(nodo.func, ast.Name) and nodo.func.id == "exec"
            and len(nodo.args) == 1 and isinstance(leer := nodo.args[0], ast.Call)
            and isinstance(leer.func, ast.Attribute) and leer.func.attr == "read"
            and isinstance(abrir := leer.func.value, ast.Call) and isinstance(abrir.func, ast.Name)
            and abrir.func.id == "open" and abrir.args and isinstance(abrir.args[0], ast.Constant)
            and abrir.args[0].value in modulos)


def _codigo_dinamico(arbol: ast.AST, modulos: set[str]) -> set[str]:
    """Los usos de exec, globals(), __dict__… que no son la línea de carga de un módulo."""
    permitidos = {id(n.func) for n in ast.walk(arbol) if _carga_de_modulo(n, modulos)}
    usos = set()
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Name) and nodo.id in DINAMICOS and id(nodo) not in permitidos:
            usos.add(nodo.id + "(…)")
        elif isinstance(nodo, ast.Attribute) and nodo.attr in ATRIBUTOS_DINAMICOS:
            usos.add("." + nodo.attr)
        elif isinstance(nodo, ast.Import):
            usos |= {"import " + a.name for a in nodo.names if a.name.split(".")[0] in MODULOS_DINAMICOS}
        elif isinstance(nodo, ast.ImportFrom):
            if (nodo.module or "").split(".")[0] in MODULOS_DINAMICOS:
                usos.add("from %s import" % nodo.module)
            if any(a.name == "*" for a in nodo.names):
                usos.add("import *")
    return usos


def _nombres_que_define(arbol: ast.AST, intocables: tuple[str, ...]) -> set[str]:
    nombres = set()
    for nodo in ast.walk(arbol):
        if isinstance(nodo, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            nombres.add(nodo.name)
        elif isinstance(nodo, ast.Name) and isinstance(nodo.ctx, (ast.Store, ast.Del)):
            nombres.add(nodo.id)
        elif isinstance(nodo, ast.alias):
            nombres.add(nodo.asname or nodo.name.split(".")[0])
        elif isinstance(nodo, ast.Constant) and nodo.value in intocables:
            nombres.add(nodo.value)  # globals()["bucle"] = ...
        elif isinstance(nodo, ast.Attribute) and isinstance(nodo.ctx, (ast.Store, ast.Del)):
            nombres.add(nodo.attr)  # __main__.bucle = ...
    return nombres


def _sin_magias(fuente: str) -> str:
    """Las órdenes de IPython (%time, !ls, %%capture) no son Python: fuera del cuaderno no se ejecutan."""
    if fuente.lstrip().startswith("%%"):
        return ""
    lineas = []
    for linea in fuente.split("\n"):
        resto = linea.lstrip()
        lineas.append(linea[:len(linea) - len(resto)] + "pass" if resto[:1] in ("%", "!") else linea)
    return "\n".join(lineas)


def lee_entrega(desafio: Desafio, ruta: Path, repartido: Path | None = None) -> Entrega:
    """La entrega lista para calificar, o EntregaInvalida con el motivo.

    repartido: el cuaderno de release/, con el que se comparan las celdas bloqueadas.
    """
    celdas = lee_json(ruta)["cells"]
    _comprueba_fijas(celdas_fijas(desafio, repartido), celdas)
    fijas = {gid for gid, _, _ in celdas_fijas(desafio, repartido)}
    solucion = [c for c in celdas if _grade_id(c) == desafio.celda_solucion]
    if not solucion or solucion[0].get("cell_type") != "code":
        raise EntregaInvalida("falta la celda de la solución («%s»): se ha borrado o cambiado de tipo"
                              % desafio.celda_solucion)
    codigo = [_sin_magias(_fuente(c)) for c in celdas if c.get("cell_type") == "code" and _grade_id(c) not in fijas]
    if sum(map(len, codigo)) > MAXIMO_CODIGO:
        raise EntregaInvalida("tu código ocupa más de %d caracteres" % MAXIMO_CODIGO)
    fuente_solucion = _fuente(solucion[0])
    falta = [f for f in desafio.funciones if f"def {f}" not in fuente_solucion]
    # Con varias funciones, una a medias se califica; sin tocar ninguna, no hay solución.
    if fuente_solucion.count(STUB) >= len(desafio.funciones) or falta:
        raise EntregaInvalida("falta la solución: la celda «%s» sigue como en el enunciado (o no define %s)"
                              % (desafio.celda_solucion, " ni ".join(falta or desafio.funciones)))
    nombres, dinamico = set(), set()
    modulos = {nombre for nombre, _ in desafio.modulos()}  # los que la línea de carga puede abrir
    for n, fuente in enumerate(codigo, 1):
        try:
            arbol = ast.parse(fuente)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
            raise EntregaInvalida("tu celda de código %d no es Python válido: %s (línea %s)"
                                  % (n, getattr(e, "msg", e), getattr(e, "lineno", "?"))) from None
        nombres |= _nombres_que_define(arbol, desafio.intocables)
        dinamico |= _codigo_dinamico(arbol, modulos)
    cambia = sorted(nombres & set(desafio.intocables))
    if desafio.intocables and dinamico:
        cambia.append("con código dinámico (%s), que no deja comprobar que no toca %s"
                      % (", ".join(sorted(dinamico)), " ni ".join(desafio.intocables)))
    return Entrega(codigo, fuente_solucion, ", ".join(cambia) or None)
