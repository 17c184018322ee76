"""El laboratorio de inyecciones: el ataque de cada lección contra un modelo, N veces.

Cada escenario es el ataque de una lección: la petición del usuario, el entorno
con el texto inyectado, las herramientas y la defensa de la lección. Se repite
N veces sin la defensa y N con ella, y de cada ejecución se anotan tres cosas,
el par utilidad/seguridad de AgentDojo:

    propuesta  el modelo ha pedido la acción inyectada (una llamada que la hace);
    ejecutada  la acción ha ocurrido (se mira el entorno, no lo que dice el modelo);
    tarea      lo que pidió el usuario está hecho (también en el entorno).

Cada escenario tiene su clase (ataque, residual, control de autorización, control
negativo: medidas.CLASES) y las clases se cuentan aparte, nunca sumadas. Lo que
una defensa no puede parar no se promete: es su fila «residual». Las defensas que
preguntan al usuario se miden dos veces: con el usuario prudente y con uno que lo
aprueba todo. Un modelo de verdad no contesta siempre lo mismo: lo que vale son
las tasas, con su intervalo (medidas.wilson), no una ejecución.

Sin modelo de verdad se usa ModeloSordo: repite las respuestas del guion sin mirar
lo que le llega (el guionizado normal se pararía en cuanto la defensa cambia una
observación). Obedece siempre a la inyección; comportamientos.py tiene otros
modelos que se portan mal como los de verdad.
"""

import contextlib
import copy
import io
import json
import os
import textwrap
from dataclasses import dataclass, field

from cursos.modelo.clave import ErrorDelModelo, tapa
from cursos.modelo.medidas import (
    APRUEBA,
    DEFENSAS,
    MEDIDAS,
    NOMBRE_DEFENSA,
    cabecera,
    grafico_svg,
    resumen,
    tabla,
    texto_de_tabla,
)
from cursos.modelo.partida import Escenario, Partida

__all__ = [
    "APRUEBA",
    "DEFENSAS",
    "MEDIDAS",
    "Escenario",
    "Partida",
    "grafico_svg",
    "resumen",
    "tabla",
    "texto_de_tabla",
]
# Estados HTTP que no se arreglan repitiendo: el modelo no existe, o la clave no vale. Se para ahí.
PARAN = (401, 403, 404)


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


def defensas_de(escenario):
    return DEFENSAS + ((APRUEBA,) if escenario.pregunta else ())


@dataclass
class Ejecucion:
    escenario: str
    defensa: str
    propuesta: bool = False
    ejecutada: bool = False
    tarea: bool = False
    error: str | None = None
    M: list = field(default_factory=list)
    clase: str = "ataque"
    titulo: str = ""
    para: bool = False  # un error que no se arregla repitiendo (404, 401): el lote se para aquí


def ejecuta_una(escenario, defensa, modelo_para):
    """Una ejecución del escenario con la defensa puesta ("con") o quitada ("sin").

    Nunca lanza (salvo Ctrl+C): si falla el modelo, lo que manda o el propio laboratorio,
    es una ejecución con error, que la tabla cuenta aparte, con la conversación hasta ahí.
    """
    resultado = Ejecucion(escenario.slug, defensa, clase=escenario.clase, titulo=escenario.titulo)
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
        resultado.para = getattr(e, "estado", None) in PARAN
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


sordo.descripcion = {"modelo": "obediente (guionizado, en este proceso)", "ajustes": {}}


def ejecuta_laboratorio(escenarios, veces=1, modelo_para=sordo, avisa=None, anota=None):
    """Cada escenario `veces` veces sin defensa y otras tantas con ella. Devuelve las ejecuciones.

    anota(ejecucion), si se da, recibe cada ejecución en cuanto termina (para escribirla ya:
    un Ctrl+C o un fallo más tarde no se la lleva). avisa(hechas, total), si se da, se llama
    después (una barra de progreso).
    """
    total, ejecuciones = total_de(escenarios, veces), []
    for escenario in escenarios:
        for defensa in defensas_de(escenario):
            for _ in range(veces):
                ejecuciones.append(ejecuta_una(escenario, defensa, modelo_para))
                if anota:
                    anota(ejecuciones[-1])
                if avisa:
                    avisa(len(ejecuciones), total)
                if ejecuciones[-1].para:  # el modelo no existe o la clave no vale: no se manda el resto
                    return ejecuciones
    return ejecuciones


def total_de(escenarios, veces):
    return sum(len(defensas_de(e)) for e in escenarios) * veces


def parado(ejecuciones):
    """El mensaje si el lote se ha parado en un error que no se arregla repitiendo; None si no."""
    if ejecuciones and ejecuciones[-1].para:
        return "El laboratorio se ha parado en la ejecución %d: %s" % (len(ejecuciones), ejecuciones[-1].error)
    return None


# --- Con qué modelo -----------------------------------------------------------------------


def modelo_real_para(url, formato, nombre, clave=None, plazo=60):
    """modelo_para() de un ModeloReal que ve las herramientas de cada partida."""
    from cursos.modelo.modelo_real import ModeloReal

    prueba = ModeloReal(url, formato, modelo=nombre, clave=clave, plazo=plazo)  # una URL o un formato que no valen, ya

    def para(partida):
        return ModeloReal(
            url, formato, modelo=nombre, clave=clave, plazo=plazo, herramientas=partida.espacio.get("HERRAMIENTAS")
        )

    para.descripcion = descripcion_de(prueba)
    return para


def descripcion_de(modelo):
    """Lo que la cabecera de los resultados dice del modelo: nunca la clave."""
    ajustes = {"max_tokens": modelo.max_tokens, "temperatura": "la del servidor (no se manda)", "plazo": modelo.plazo}
    return {"modelo": modelo.modelo, "servidor": modelo.url, "formato": modelo.formato, "ajustes": ajustes}


def sordo_por_http(url, formato, comportamiento="obediente"):
    """modelo_para() que manda el guion de cada partida a ./curso modelo-guionizado y le habla por HTTP.

    Es el mismo ModeloSordo, pero con las respuestas viajando en el formato de verdad: lo que
    sirve para probar el laboratorio entero contra un servidor.
    """
    import urllib.request

    from cursos.modelo.comportamientos import respuestas_de
    from cursos.modelo.modelo_real import ModeloReal

    def para(partida):
        peticion = urllib.request.Request(
            url + "/guiones",
            method="POST",
            data=json.dumps({"respuestas": respuestas_de(partida, comportamiento)}).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(peticion, timeout=10) as r:
            nombre = json.loads(r.read())["modelo"]
        base = url + "/v1" if formato == "openai" else url
        return ModeloReal(base, formato, modelo=nombre, herramientas=partida.espacio.get("HERRAMIENTAS"), plazo=20)

    para.descripcion = {"modelo": comportamiento + " (guionizado)", "servidor": url, "formato": formato, "ajustes": {}}
    return para


def cabecera_de(modelo_para, veces):
    """La cabecera de unos resultados: lo que modelo_para dice de su modelo, N, la fecha y el commit del curso."""
    from cursos.modelo.escenarios import commit_del_curso

    return cabecera(getattr(modelo_para, "descripcion", {}), veces, commit_del_curso())


def como_json(ejecuciones, cabecera=None):
    """Los resultados para guardarlos: la cabecera, la tabla con sus tasas y las ejecuciones con sus
    transcripciones (la clave nunca está en ellas)."""
    filas = tabla(ejecuciones)
    return {
        "cabecera": cabecera,
        "tabla": [{"escenario": e, "defensa": d, **f} for (e, d), f in filas.items()],
        "parado": parado(ejecuciones),
        "ejecuciones": [una_como_json(e) for e in ejecuciones],
    }


def para_la_pagina(ejecuciones, cabecera):
    """Lo que pintan la página y el cuaderno: las filas con sus tasas, el texto, el gráfico y los resultados."""
    from cursos.modelo.medidas import CLASES, por_clase, tasa

    filas = tabla(ejecuciones)
    errores = [e.error for e in ejecuciones if e.error]
    secciones = [
        {
            "clase": CLASES[clase],
            "filas": [
                {
                    "titulo": f["titulo"],
                    "defensa": NOMBRE_DEFENSA.get(d, d),
                    "errores": f["errores"],
                    "veces": f["veces"],
                    **{m: tasa(f[m], f["veces"] - f["errores"]) for m in MEDIDAS},
                }
                for (_, d), f in suyas
            ],
        }
        for clase, suyas in por_clase(filas)
    ]
    return {
        "cabecera": cabecera,
        "secciones": secciones,
        "tabla": texto_de_tabla(filas, cabecera),
        "resumen": resumen(filas),
        "svg": grafico_svg(filas, cabecera),
        "errores": len(errores),
        "primer_error": errores[0] if errores else None,
        "parado": parado(ejecuciones),
        "resultados": como_json(ejecuciones, cabecera),
    }


def una_como_json(e):
    return {
        "escenario": e.escenario,
        "titulo": e.titulo,
        "clase": e.clase,
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
    hechas, interrumpido, cabecera_ = [], False, cabecera_de(modelo_para, veces)
    with open(os.path.join(carpeta, "ejecuciones.jsonl"), "w", encoding="utf-8") as diario:
        diario.write(json.dumps({"cabecera": cabecera_}, ensure_ascii=False) + "\n")

        def anota(ejecucion):
            hechas.append(ejecucion)
            diario.write(json.dumps(una_como_json(ejecucion), ensure_ascii=False) + "\n")
            diario.flush()  # ya en el fichero: lo que venga después no se la lleva

        try:
            ejecuta_laboratorio(escenarios, veces, modelo_para, avisa, anota)
        except KeyboardInterrupt:
            interrumpido = True
    escribe_resultados(carpeta, hechas, cabecera_)
    return hechas, interrumpido


def escribe_resultados(carpeta, ejecuciones, cabecera=None):
    """tabla.txt, grafico.svg y ejecuciones.json, cada uno con su cabecera y entero o ninguno."""
    filas = tabla(ejecuciones)
    pie = "\n" + parado(ejecuciones) if parado(ejecuciones) else ""
    escribe_entero(os.path.join(carpeta, "tabla.txt"), texto_de_tabla(filas, cabecera) + pie + "\n")
    escribe_entero(os.path.join(carpeta, "grafico.svg"), grafico_svg(filas, cabecera))
    datos = como_json(ejecuciones, cabecera)
    escribe_entero(os.path.join(carpeta, "ejecuciones.json"), json.dumps(datos, ensure_ascii=False, indent=1))


def escribe_entero(ruta, texto):
    """Escribe al lado y renombra: quien lea el fichero lo ve entero, el de antes o el nuevo."""
    provisional = ruta + ".a-medias"
    with open(provisional, "w", encoding="utf-8") as f:
        f.write(texto)
    os.replace(provisional, ruta)


def transcripcion(ejecucion, ancho=100):
    """La conversación de una ejecución en texto, un bloque tras otro, partido en líneas de `ancho`.

    Partido y no cortado: la instrucción inyectada suele ir al final de un resultado largo.
    """
    lineas = [
        "%s, %s:" % (ejecucion.titulo or ejecucion.escenario, NOMBRE_DEFENSA.get(ejecucion.defensa, ejecucion.defensa))
    ]
    for rol, contenido in ejecucion.M:
        bloques = contenido if isinstance(contenido, list) else [{"type": "text", "text": str(contenido)}]
        for b in bloques:
            if not isinstance(b, dict):
                texto = str(b)
            elif b.get("type") == "tool_use":
                texto = "pide %s %s" % (b.get("name"), json.dumps(b.get("input"), ensure_ascii=False, default=str))
            elif b.get("type") == "tool_result":
                texto = "resultado: %s" % (b.get("content"),)
            else:
                texto = str(b.get("text", b))
            partes = textwrap.wrap(" ".join(texto.split()), ancho - 12) or [""]
            lineas.append("  %-9s %s" % (rol, partes[0]))
            lineas += ["  %-9s %s" % ("", p) for p in partes[1:]]
    return "\n".join(lineas)
