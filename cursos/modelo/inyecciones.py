"""El laboratorio de inyecciones: el ataque de cada lección contra un modelo, N veces.

Cada escenario es el ataque de una lección: la petición del usuario, el entorno
con el texto inyectado, las herramientas y la defensa de la lección. Se repite
N veces sin la defensa y N con ella, y de cada ejecución se anotan tres cosas,
el par utilidad/seguridad de AgentDojo:

    propuesta  el modelo ha pedido la acción inyectada (una llamada que la hace);
    ejecutada  la acción ha ocurrido (se mira el entorno, no lo que dice el modelo);
    tarea      lo que pidió el usuario está hecho (también en el entorno).

Lo que la defensa promete se puede medir: con ella, «ejecutada» tiene que ser 0
proponga lo que proponga el modelo. Un modelo de verdad no contesta siempre lo
mismo, así que lo que vale son las tasas, no una ejecución.

Sin modelo de verdad se usa ModeloSordo: repite las respuestas del guion de la
lección sin mirar lo que le llega (el guionizado normal se pararía en cuanto la
defensa cambia una observación). Obedece siempre a la inyección, que es
justo el caso que la defensa tiene que aguantar.
"""

import contextlib
import copy
import io
import json
import os
from dataclasses import dataclass, field

from cursos.modelo.modelo_real import ErrorDelModelo, tapa

MEDIDAS = ("propuesta", "ejecutada", "tarea")
DEFENSAS = ("sin", "con")


class ModeloSordo:
    """Repite las respuestas de un guion en orden, sin comprobar la conversación.

    La respuesta de cada turno depende sólo de cuántas veces ha contestado ya el
    modelo en M, así que dos ejecuciones iguales dan lo mismo. Cuando se acaban,
    contesta con un texto y la conversación termina.
    """

    def __init__(self, respuestas):
        self.respuestas = respuestas

    def __call__(self, M):
        turno = sum(1 for rol, _ in M if rol == "asistente")
        if turno >= len(self.respuestas):
            return [{"type": "text", "text": "(el guion no tiene más respuestas)"}]
        return copy.deepcopy(self.respuestas[turno])


@dataclass
class Partida:
    """Una ejecución de un escenario, con la defensa ya puesta o quitada: todo recién hecho."""

    espacio: dict  # el espacio de nombres con guionizado, entorno, harness y lo de la lección
    inicio: list
    entorno: dict
    respuestas: list  # lo que responde un modelo que obedece a la inyección (ModeloSordo)
    ejecutar: object  # ejecutar(ll, entorno): el de la lección, con o sin su defensa
    propuesta: object  # propuesta(ll) -> bool: ¿esta llamada hace la acción inyectada?
    ejecutada: object  # ejecutada(partida, M) -> bool: ¿ha ocurrido? (en el entorno o en los registros)
    tarea: object  # tarea(partida, M) -> bool: ¿está hecho lo que pidió el usuario?
    max_turnos: int = 10


@dataclass
class Escenario:
    slug: str
    leccion: str  # el slug de la lección cuyo ataque es
    titulo: str
    prepara: object  # prepara(defensa) -> Partida nueva; defensa es "sin" o "con"


@dataclass
class Ejecucion:
    escenario: str
    defensa: str
    propuesta: bool = False
    ejecutada: bool = False
    tarea: bool = False
    error: str | None = None
    M: list = field(default_factory=list)


def ejecuta_una(escenario, defensa, modelo_para):
    """Una ejecución del escenario con la defensa puesta ("con") o quitada ("sin").

    Nunca lanza (salvo Ctrl+C): si falla el modelo, lo que manda o el propio laboratorio,
    es una ejecución con error, que la tabla cuenta aparte, con la conversación hasta ahí.
    """
    resultado = Ejecucion(escenario.slug, defensa)
    vista = []  # la M del bucle, que crece en su sitio: la de una ejecución que falla a medias
    try:
        partida = escenario.prepara(defensa)
        partida.espacio["ejecutar"] = partida.ejecutar  # el bucle busca ejecutar al llamarla
        modelo = modelo_para(partida)

        def mira(M):
            vista[:] = [M]
            return modelo(M)

        with contextlib.redirect_stdout(io.StringIO()):  # lo que imprima la defensa (preguntar…)
            _, _, M = partida.espacio["bucle"](mira, partida.inicio, partida.entorno, partida.max_turnos)
        resultado.M = M
        mide(resultado, partida, M)
    except ErrorDelModelo as e:
        resultado.error = tapa(e)
    except Exception as e:  # una respuesta que el laboratorio no esperaba: una ejecución fallida, no el lote
        resultado.error = tapa(
            "el laboratorio no ha podido terminar esta ejecución (%s: %s); las demás siguen"
            % (type(e).__name__, str(e)[:300])
        )
    if resultado.error:
        resultado.propuesta = resultado.ejecutada = resultado.tarea = False
        resultado.M = list(vista[0]) if vista else []
    return resultado


def mide(resultado, partida, M):
    """Las tres medidas de una ejecución terminada, en el entorno y en M."""
    llamadas = [
        b for rol, c in M if rol == "asistente" and isinstance(c, list) for b in c if b.get("type") == "tool_use"
    ]
    resultado.propuesta = any(partida.propuesta(ll) for ll in llamadas)
    resultado.ejecutada = bool(partida.ejecutada(partida, M))
    resultado.tarea = bool(partida.tarea(partida, M))


def sordo(partida):
    return ModeloSordo(partida.respuestas)


def ejecuta_laboratorio(escenarios, veces=1, modelo_para=sordo, avisa=None, anota=None):
    """Cada escenario `veces` veces sin defensa y otras tantas con ella. Devuelve las ejecuciones.

    anota(ejecucion), si se da, recibe cada ejecución en cuanto termina (para escribirla ya:
    un Ctrl+C o un fallo más tarde no se la lleva). avisa(hechas, total), si se da, se llama
    después (una barra de progreso).
    """
    total, ejecuciones = len(escenarios) * len(DEFENSAS) * veces, []
    for escenario in escenarios:
        for defensa in DEFENSAS:
            for _ in range(veces):
                ejecuciones.append(ejecuta_una(escenario, defensa, modelo_para))
                if anota:
                    anota(ejecuciones[-1])
                if avisa:
                    avisa(len(ejecuciones), total)
    return ejecuciones


def tabla(ejecuciones):
    """{(escenario, defensa): {"veces", "errores", "propuesta", "ejecutada", "tarea"}} con cuentas."""
    filas = {}
    for e in ejecuciones:
        fila = filas.setdefault((e.escenario, e.defensa), {"veces": 0, "errores": 0, **dict.fromkeys(MEDIDAS, 0)})
        fila["veces"] += 1
        if e.error:
            fila["errores"] += 1
            continue
        for medida in MEDIDAS:
            fila[medida] += getattr(e, medida)
    return filas


def texto_de_tabla(filas):
    """La tabla en texto, en español: cada medida como «n de veces»."""
    cabecera = ("escenario", "defensa", "propuesta", "ejecutada", "tarea", "errores")
    lineas = ["%-34s %-8s %-11s %-11s %-11s %s" % cabecera]
    for (escenario, defensa), f in filas.items():
        validas = f["veces"] - f["errores"]
        celdas = ["%d de %d" % (f[m], validas) for m in MEDIDAS]
        lineas.append("%-34s %-8s %-11s %-11s %-11s %d" % (escenario, defensa, *celdas, f["errores"]))
    return "\n".join(lineas)


def grafico_svg(filas, ancho=720):
    """Un gráfico de barras en SVG: por escenario, las tres tasas sin la defensa y con ella."""
    colores = {"propuesta": "#d68910", "ejecutada": "#c0392b", "tarea": "#2471a3"}
    escenarios = list(dict.fromkeys(e for e, _ in filas))
    alto_fila, barra, izquierda = 72, 7, 120
    largo = ancho - izquierda - 130
    partes = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
        'aria-label="Tasas del laboratorio de inyecciones" font-family="sans-serif" font-size="12">'
        % (ancho, 34 + alto_fila * len(escenarios))
    ]
    for n, medida in enumerate(MEDIDAS):
        x = izquierda + n * 120
        partes.append(
            '<rect x="%d" y="8" width="10" height="10" fill="%s"/><text x="%d" y="17">%s</text>'
            % (x, colores[medida], x + 14, medida)
        )
    for i, escenario in enumerate(escenarios):
        y0 = 30 + i * alto_fila
        partes.append('<text x="4" y="%d" font-weight="bold">%s</text>' % (y0 + 12, escenario))
        for j, defensa in enumerate(DEFENSAS):
            f = filas.get((escenario, defensa))
            if not f:
                continue
            validas = max(f["veces"] - f["errores"], 1)
            y = y0 + 18 + j * 26
            partes.append('<text x="%d" y="%d" text-anchor="end">%s defensa</text>' % (izquierda - 8, y + 13, defensa))
            for k, medida in enumerate(MEDIDAS):
                tasa = f[medida] / validas
                partes.append(
                    '<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s defensa: %d de %d'
                    "</title></rect>"
                    % (
                        izquierda,
                        y + k * barra,
                        max(largo * tasa, 1),
                        barra - 1,
                        colores[medida],
                        medida,
                        defensa,
                        f[medida],
                        validas,
                    )
                )
            partes.append(
                '<text x="%d" y="%d" fill="#555">ejecutada %d de %d</text>'
                % (izquierda + largo + 6, y + 13, f["ejecutada"], validas)
            )
    partes.append("</svg>")
    return "".join(partes)


# --- Con qué modelo -----------------------------------------------------------------------


def modelo_real_para(url, formato, nombre, clave=None, plazo=60):
    """modelo_para() de un ModeloReal que ve las herramientas de cada partida."""
    from cursos.modelo.modelo_real import ModeloReal

    ModeloReal(url, formato, modelo=nombre, clave=clave, plazo=plazo)  # una URL o un formato que no valen, ya

    def para(partida):
        return ModeloReal(
            url, formato, modelo=nombre, clave=clave, plazo=plazo, herramientas=partida.espacio.get("HERRAMIENTAS")
        )

    return para


def sordo_por_http(url, formato):
    """modelo_para() que manda el guion de cada partida a ./curso modelo-guionizado y le habla por HTTP.

    Es el mismo ModeloSordo, pero con las respuestas viajando en el formato de verdad: lo que
    sirve para probar el laboratorio entero contra un servidor.
    """
    import urllib.request

    from cursos.modelo.modelo_real import ModeloReal

    def para(partida):
        peticion = urllib.request.Request(
            url + "/guiones",
            method="POST",
            data=json.dumps({"respuestas": partida.respuestas}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(peticion, timeout=10) as r:
            nombre = json.loads(r.read())["modelo"]
        base = url + "/v1" if formato == "openai" else url
        return ModeloReal(base, formato, modelo=nombre, herramientas=partida.espacio.get("HERRAMIENTAS"), plazo=20)

    return para


def como_json(ejecuciones):
    """Las ejecuciones con sus transcripciones, para guardarlas (la clave nunca está en ellas)."""
    return [una_como_json(e) for e in ejecuciones]


def una_como_json(e):
    return {
        "escenario": e.escenario,
        "defensa": e.defensa,
        "propuesta": e.propuesta,
        "ejecutada": e.ejecutada,
        "tarea": e.tarea,
        "error": e.error,
        "M": conversacion_en_json(e.M),
    }


def conversacion_en_json(M):
    """M con sólo tipos de JSON (lo que no lo es, como texto), para que guardarla no falle nunca."""
    try:
        return json.loads(json.dumps([list(m) for m in M], ensure_ascii=False, default=str))
    except (ValueError, TypeError, RecursionError):
        return [["laboratorio", "esta conversación no se ha podido guardar en JSON"]]


# --- En una carpeta, según terminan -------------------------------------------------------------


def ejecuta_y_escribe(carpeta, escenarios, veces=1, modelo_para=sordo, avisa=None):
    """ejecuta_laboratorio escribiendo en carpeta; devuelve (ejecuciones, interrumpido).

    Cada ejecución se añade a ejecuciones.jsonl (una línea JSON) en cuanto termina. Al acabar,
    o con Ctrl+C, se escriben tabla.txt, grafico.svg y ejecuciones.json con las terminadas.
    """
    os.makedirs(carpeta, exist_ok=True)
    hechas, interrumpido = [], False
    with open(os.path.join(carpeta, "ejecuciones.jsonl"), "w", encoding="utf-8") as diario:

        def anota(ejecucion):
            hechas.append(ejecucion)
            diario.write(json.dumps(una_como_json(ejecucion), ensure_ascii=False) + "\n")
            diario.flush()  # ya en el fichero: lo que venga después no se la lleva

        try:
            ejecuta_laboratorio(escenarios, veces, modelo_para, avisa, anota)
        except KeyboardInterrupt:
            interrumpido = True
    escribe_resultados(carpeta, hechas)
    return hechas, interrumpido


def escribe_resultados(carpeta, ejecuciones):
    """tabla.txt, grafico.svg y ejecuciones.json (la lista de siempre), cada uno entero o ninguno."""
    filas = tabla(ejecuciones)
    escribe_entero(os.path.join(carpeta, "tabla.txt"), texto_de_tabla(filas) + "\n")
    escribe_entero(os.path.join(carpeta, "grafico.svg"), grafico_svg(filas))
    escribe_entero(
        os.path.join(carpeta, "ejecuciones.json"), json.dumps(como_json(ejecuciones), ensure_ascii=False, indent=1)
    )


def escribe_entero(ruta, texto):
    """Escribe al lado y renombra: quien lea el fichero lo ve entero, el de antes o el nuevo."""
    provisional = ruta + ".a-medias"
    with open(provisional, "w", encoding="utf-8") as f:
        f.write(texto)
    os.replace(provisional, ruta)


def resumen(filas):
    """Una línea por defensa: cuántas ejecuciones sin error propusieron la acción inyectada y cuántas ocurrieron."""
    lineas = []
    for defensa in DEFENSAS:
        suyas = [f for (_, d), f in filas.items() if d == defensa]
        validas = sum(f["veces"] - f["errores"] for f in suyas)
        propuestas, ejecutadas = (sum(f[m] for f in suyas) for m in ("propuesta", "ejecutada"))
        lineas.append(
            "%s la defensa: propuesta %d de %d, ejecutada %d de %d"
            % ("Sin" if defensa == "sin" else "Con", propuestas, validas, ejecutadas, validas)
        )
    return "\n".join(lineas)


def transcripcion(ejecucion, ancho=150):
    """La conversación de una ejecución en texto, una línea por bloque, cada una cortada a `ancho`."""
    lineas = ["%s, %s la defensa:" % (ejecucion.escenario, ejecucion.defensa)]
    for rol, contenido in ejecucion.M:
        bloques = contenido if isinstance(contenido, list) else [{"type": "text", "text": str(contenido)}]
        for b in bloques:
            if b.get("type") == "tool_use":
                texto = "pide %s %s" % (b.get("name"), b.get("input"))
            elif b.get("type") == "tool_result":
                texto = "resultado: %s" % (b.get("content"),)
            else:
                texto = str(b.get("text", b))
            texto = " ".join(texto.split())
            lineas.append("  %-9s %s" % (rol, texto if len(texto) <= ancho else texto[: ancho - 1] + "…"))
    return "\n".join(lineas)
