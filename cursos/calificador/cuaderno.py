"""Lee una entrega sin ejecutar nada: el código del alumno, o el motivo por el que vale 0.

Las celdas bloqueadas (partida, pruebas) no se leen de la entrega: el calificador
usa las del reparto. Si el alumno las ha editado, borrado o movido (JupyterLite lo
deja hacer), se restauran y se le dice, como hace el autograder de nbgrader. Lo
que no se adivina: una celda de la solución que falta o dos celdas con el mismo
grade_id. El código del alumno se lee como lo lee Jupyter (con el transformador de
IPython, con tope) y si es Python válido y qué funciones define se decide al correrlo, en
su intérprete, no por cómo se escribe.
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from cursos.calificador.congelado import celdas_fijas
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso

MAXIMO_BYTES = 5 * 1024 * 1024
MAXIMO_CODIGO = 200_000  # caracteres de código del alumno, entre todas sus celdas
# El transformador de IPython vuelve a leer la celda entera por cada orden (!, %, ?) que cambia:
# cuesta su tamaño por el número de órdenes, y corre en el proceso de confianza. Tope por entrega
# (~0,8 s aquí como mucho; una celda normal con unas magias usa unos miles).
MAXIMO_TRANSFORMAR = 200_000  # caracteres leídos por el transformador, entre todas las celdas
# Las líneas que el transformador podría cambiar: empiezan por una orden de IPython o piden ayuda.
ORDENES = re.compile(r"^[ \t]*[!%?,;/]|\?[ \t]*$|=[ \t]*[!%]", re.M)


class EntregaInvalida(ErrorDelCurso):
    """La entrega no se puede calificar; el mensaje es el motivo, para el alumno."""


@dataclass
class Entrega:
    celdas: list[str]  # el código del alumno, en orden: la solución y las celdas que haya añadido
    solucion: str
    notas: list[str] = field(default_factory=list)  # lo que el calificador ha arreglado o saltado, para el alumno


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


# Los ficheros que se entregan por error con el nombre cambiado, por sus primeros bytes.
FIRMAS = {
    b"%PDF": "un PDF",
    b"PK\x03\x04": "un zip (o un documento de Word, LibreOffice o Excel, que son zips)",
    b"\x89PNG": "una imagen PNG",
    b"\xff\xd8\xff": "una imagen JPEG",
    b"{\\rtf": "un documento RTF",
    b"\xd0\xcf\x11\xe0": "un documento de Office antiguo",
}


def _otro_formato(crudo: bytes) -> str | None:
    """Qué es el fichero si se reconoce por su firma y no es un cuaderno; None si puede serlo."""
    inicio = crudo[:8]
    return next((que for firma, que in FIRMAS.items() if inicio.startswith(firma)), None)


def lee_json(ruta: Path) -> dict:
    tamano = ruta.stat().st_size
    if tamano > MAXIMO_BYTES:
        raise EntregaInvalida(
            "el cuaderno ocupa %.1f MB y el máximo es %d MB: borra las salidas "
            "grandes y vuelve a entregarlo" % (tamano / 2**20, MAXIMO_BYTES // 2**20)
        )
    crudo = ruta.read_bytes()
    otro = _otro_formato(crudo)
    if otro:
        raise EntregaInvalida(
            f"no es un cuaderno de Jupyter sino {otro} con el nombre cambiado a .ipynb: entrega el cuaderno, "
            "el que se descarga desde Jupyter con «Download» (un .ipynb es texto que empieza por «{»)"
        )
    try:
        texto = crudo.decode("utf-8")
    except UnicodeDecodeError as e:
        raise EntregaInvalida(
            "no es un cuaderno de Jupyter: no es texto UTF-8 (byte %d). Si lo es, ábrelo en Jupyter, "
            "guárdalo otra vez y entrégalo" % e.start
        ) from None
    if not texto.strip():
        raise EntregaInvalida("el fichero está vacío: la subida no terminó; que el alumno lo entregue otra vez")
    try:
        datos = json.loads(texto)
    except json.JSONDecodeError as e:  # su mensaje es inglés («Unterminated string…»): dónde, en español
        raise EntregaInvalida(
            "el cuaderno no es JSON válido (se corta o se estropea en la línea %d, columna %d): "
            "no es un .ipynb que Jupyter pueda abrir" % (e.lineno, e.colno)
        ) from None
    except (ValueError, RecursionError):  # un entero de miles de cifras, un anidamiento sin fin
        raise EntregaInvalida("el cuaderno no es JSON válido: no es un .ipynb que Jupyter pueda abrir") from None
    if (
        not isinstance(datos, dict)
        or not isinstance(datos.get("cells"), list)
        or not all(isinstance(c, dict) for c in datos["cells"])
    ):
        raise EntregaInvalida("el fichero es JSON pero no un cuaderno: no tiene una lista de celdas")
    return datos


def _repetidas(celdas: list[dict], solucion: str) -> None:
    """Dos celdas con el mismo grade_id: no se sabe cuál es la de verdad, así que no se adivina.

    Decisión (docs/alumnos.md): tampoco con la de la solución partida en dos (Jupyter copia los
    metadatos a las dos mitades al dividir una celda). Una copia pegada más abajo también tiene
    esos metadatos, y el calificador no decide cuál vale: el motivo dice cómo juntarlas.
    """
    vistos = set()
    for celda in celdas:
        gid = _grade_id(celda)
        if gid in vistos and gid == solucion:
            raise EntregaInvalida(
                "la celda de tu solución («%s») está repetida: tu código está en dos celdas con sus mismos "
                "metadatos (pasa al dividir la celda en Jupyter, que los copia a las dos mitades) y el "
                "calificador no adivina cuál vale. Júntalas en una sola (selecciónalas y pulsa Mayús+M, "
                "«Combinar celdas»), o descarga el desafío otra vez y pega tu solución en su celda" % gid
            )
        if gid in vistos:
            raise EntregaInvalida(
                "la celda «%s» está repetida (dos celdas con el mismo grade_id en sus "
                "metadatos): deja sólo una, o descarga el desafío otra vez y copia tu "
                "solución" % gid
            )
        if gid is not None:
            vistos.add(gid)


def _restauradas(fijas: tuple, celdas: list[dict]) -> list[str]:
    """Las celdas bloqueadas borradas, editadas, cambiadas de tipo o movidas: se califican las del reparto.

    Como el autograder de nbgrader, que sobrescribe las celdas bloqueadas: las pruebas y el
    código de partida son los del repositorio, así que restaurarlas no cuesta confianza.
    """
    posiciones = {_grade_id(c): i for i, c in enumerate(celdas) if _grade_id(c) is not None}
    cambiadas, anterior = [], -1
    for gid, tipo, fuente in fijas:
        celda = celdas[posiciones[gid]] if gid in posiciones else None
        if (
            celda is None
            or celda.get("cell_type") != tipo
            or _fuente(celda).strip() != fuente.strip()
            or posiciones[gid] < anterior
        ):
            cambiadas.append(gid)
        if celda is not None:
            anterior = max(anterior, posiciones[gid])
    return cambiadas


def nota_de_restauradas(cambiadas: list[str]) -> str:
    nombres = ", ".join("«%s»" % g for g in cambiadas)
    if len(cambiadas) == 1:
        que = "la celda bloqueada %s se había borrado, editado o movido" % nombres
    else:
        que = "las celdas bloqueadas %s se habían borrado, editado o movido" % nombres
    return que + (
        ": se ha restaurado como en el enunciado (igual que hace nbgrader) y tu entrega se califica normalmente"
    )


def _del_curso_de_ahora(desafio: Desafio, fijas: tuple, cambiadas: list[str], celdas: list[dict]) -> list[str]:
    """De las celdas bloqueadas que no son las del reparto, las que son las del curso de ahora.

    El profesor cambió la lección después de repartir y el alumno bajó el cuaderno nuevo (la página
    y `./curso desafio` lo generan de la lección de ahora): no las ha tocado él. Sólo las que el
    curso cambió: una celda que el reparto y el curso de ahora tienen igual y el alumno movió sí es suya.
    """
    repartidas = {gid: (tipo, fuente.strip()) for gid, tipo, fuente in fijas}
    ahora = {gid: (tipo, fuente.strip()) for gid, tipo, fuente in celdas_fijas(desafio)}
    suyas = {_grade_id(c): (c.get("cell_type"), _fuente(c).strip()) for c in celdas if _grade_id(c) in ahora}
    return [g for g in cambiadas if g in suyas and suyas[g] == ahora[g] != repartidas.get(g)]


def nota_del_curso_cambiado(celdas: list[str]) -> str:
    nombres = ", ".join("«%s»" % g for g in celdas)
    return (
        f"tu cuaderno trae {'la celda' if len(celdas) == 1 else 'las celdas'} {nombres} de una versión del curso "
        "más nueva que la del reparto (el profesor cambió la lección después de repartir; tú no has tocado "
        "nada): tu entrega se califica con las del reparto, como las de tus compañeros"
    )


def _python(fuente: str, presupuesto: list[int]) -> str | None:
    """La celda como la lee Jupyter: IPython convierte %magias, !órdenes y nombre? en Python.

    Se hace aquí, con el transformador del propio IPython; lo que producen
    (get_ipython().run_line_magic(...)) lo atiende en el proceso del alumno un get_ipython() que
    no hace nada salvo correr el código de %time, %timeit, %%capture, %%writefile y %run.
    Sin órdenes, sólo las limpiezas baratas (sangría, >>>). Con órdenes, cuesta el tamaño de la
    celda por su número, que se descuenta de presupuesto; si no llega, None. Si el transformador
    no puede con la celda (sintaxis de un Python más nuevo que el de aquí), la celda va tal cual:
    quien decide si es Python válido es el intérprete del alumno.
    """
    from IPython.core.inputtransformer2 import TransformerManager

    gestor = TransformerManager()
    ordenes = len(ORDENES.findall(fuente))
    if not ordenes:
        gestor.token_transformers = []
    coste = len(fuente) * ordenes
    if coste > presupuesto[0]:
        return None
    presupuesto[0] -= coste
    try:
        return gestor.transform_cell(fuente)
    except Exception:
        return fuente


def _sin_la_celda(desafio: Desafio, celdas: list[dict]) -> str:
    """El motivo del 0 cuando falta la celda de la solución; si hay una celda nueva de código, lo dice.

    Decisión (docs/alumnos.md): se califica la celda de la solución que se repartió, no una celda
    nueva: sin sus metadatos no se distingue del resto del cuaderno (ni de la solución del profesor
    pegada), y el cuaderno calificado y la devolución sólo llevan esa celda.
    """
    motivo = (
        "falta la celda de la solución («%s»): se ha borrado, cambiado de tipo o le han "
        "quitado sus metadatos; descarga el desafío otra vez y copia tu solución" % desafio.celda_solucion
    )
    nuevas = [c for c in celdas if c.get("cell_type") == "code" and _grade_id(c) is None and _fuente(c).strip()]
    if nuevas:
        motivo += (
            " en la celda «Tu solución» (la que trae la función por completar): tu código está en una "
            "celda nueva, sin los metadatos de la solución, y el calificador sólo califica esa celda"
        )
    return motivo


def lee_entrega(desafio: Desafio, ruta: Path, repartido: Path | None = None) -> Entrega:
    """La entrega lista para calificar, o EntregaInvalida con el motivo.

    repartido: el cuaderno de release/, con el que se comparan las celdas bloqueadas.
    """
    celdas = lee_json(ruta)["cells"]
    fijas = celdas_fijas(desafio, repartido)
    _repetidas(celdas, desafio.celda_solucion)
    ids_fijas = {gid for gid, _, _ in fijas}
    solucion = [c for c in celdas if _grade_id(c) == desafio.celda_solucion]
    if not solucion or solucion[0].get("cell_type") != "code":
        raise EntregaInvalida(_sin_la_celda(desafio, celdas))
    notas = []
    cambiadas = _restauradas(fijas, celdas)
    del_curso = _del_curso_de_ahora(desafio, fijas, cambiadas, celdas) if repartido is not None else []
    if del_curso:
        notas.append(nota_del_curso_cambiado(del_curso))
    cambiadas = [g for g in cambiadas if g not in del_curso]
    if cambiadas:
        notas.append(nota_de_restauradas(cambiadas))
    # Una celda bloqueada copiada sin sus metadatos (p. ej. pegada desde otro cuaderno) no es código del alumno.
    copias = {fuente.strip() for gid, tipo, fuente in fijas if tipo == "code"}
    originales = [
        _fuente(c)
        for c in celdas
        if c.get("cell_type") == "code"
        and _grade_id(c) not in ids_fijas
        and (_grade_id(c) is not None or _fuente(c).strip() not in copias)
    ]
    if sum(map(len, originales)) > MAXIMO_CODIGO:
        raise EntregaInvalida("tu código ocupa más de %d caracteres" % MAXIMO_CODIGO)
    fuente_solucion = _fuente(solucion[0])
    if "\n".join(f.strip() for f in originales if f.strip()) == desafio.esqueleto().strip():
        raise EntregaInvalida("falta la solución: la celda «%s» sigue como en el enunciado" % desafio.celda_solucion)
    codigo, presupuesto = [], [MAXIMO_TRANSFORMAR]
    for n, fuente in enumerate(originales, 1):
        python = _python(fuente, presupuesto)
        if python is None:
            notas.append(
                "tu celda de código %d es muy larga para tantas órdenes de IPython (!, %%, ?): no se ha "
                "ejecutado y lo que define no cuenta. Pon las órdenes en una celda aparte, corta" % n
            )
            python = ""  # la celda sigue contando (las demás conservan su número), vacía
        codigo.append(python)
    return Entrega(codigo, fuente_solucion, notas)
