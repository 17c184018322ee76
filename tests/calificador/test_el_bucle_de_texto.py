"""El desafío «El bucle y su protocolo de texto»: entregas honestas y tramposas en un mismo lote.

El modelo guionizado de cada prueba es un apoderado: vive en el proceso de confianza, que
comprueba cada M que le manda el bucle del alumno y cuenta sus llamadas. Del alumno sólo
vuelven textos y listas. La muestra de trampas es la del primer desafío.
"""

import ast
import functools

from cursos import RAIZ
from cursos.desafio import Desafio
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_con

BUCLE = Desafio("el-bucle-de-texto")
SOLUCION = BUCLE.lee("solucion.py")
CONVERSA = SOLUCION[SOLUCION.index("def conversa(") :]
LEE = "def lee_accion(respuesta):\n"
FIRMA_BUCLE = "def bucle_de_texto(modelo, inicio, entorno, max_turnos):\n"
NADA = LEE + "    return None\n" + FIRMA_BUCLE + "    return 'fin', None, []\n" + CONVERSA
RESTO = FIRMA_BUCLE + "    return None\n" + CONVERSA  # delante de un lee_accion tramposo


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


PARSER = SOLUCION[: SOLUCION.index(FIRMA_BUCLE)]
BUCLE_BIEN = SOLUCION[SOLUCION.index(FIRMA_BUCLE) : SOLUCION.index("def conversa(")]

# Otro estilo: una expresión regular y un while con M nueva en cada vuelta.
CON_REGEX = (
    """import re
LINEA_DE_ACCION = re.compile(r"\\s*acci[oó]n\\s*:(.*)", re.IGNORECASE)


def lee_accion(respuesta):
    for linea in respuesta.splitlines():
        encaja = LINEA_DE_ACCION.fullmatch(linea.strip())
        if encaja and encaja.group(1).strip():
            herramienta, *resto = encaja.group(1).split(None, 1)
            return (herramienta, resto[0].strip() if resto else "")
    return None


def bucle_de_texto(modelo, inicio, entorno, max_turnos):
    M, turnos = [*inicio], 0
    while turnos < max_turnos:
        turnos += 1
        r = modelo(M)
        M = M + [("asistente", r)]
        a = lee_accion(r)
        if not a:
            return ("fin", r, M)
        M = M + [("usuario", f"Observación: {observa(a, entorno)}")]
    return ("max_turnos", None, M)


"""
    + CONVERSA
)

DE_LA_LECCION = (
    """def lee_accion(respuesta):
    for linea in respuesta.splitlines():
        if linea.startswith("Acción: "):
            herramienta, _, argumento = linea[len("Acción: "):].partition(" ")
            return herramienta, argumento
    return None


"""
    + BUCLE_BIEN
    + CONVERSA
)

SIN_TOPE = (
    PARSER
    + """def bucle_de_texto(modelo, inicio, entorno, max_turnos):
    M = list(inicio)
    while True:
        respuesta = modelo(M)
        M.append(("asistente", respuesta))
        accion = lee_accion(respuesta)
        if accion is None:
            return "fin", respuesta, M
        M.append(("usuario", "Observación: " + observa(accion, entorno)))


"""
    + CONVERSA
)

SOLO_LA_PRIMERA_LINEA = cambia(
    "    for linea in respuesta.splitlines():\n", "    for linea in respuesta.splitlines()[:1]:\n"
)


def _acciones_visibles() -> list:
    """La tabla ACCIONES de pruebas.py, leída sin ejecutarla: lo que un tramposo copiaría."""
    arbol = ast.parse(BUCLE.lee("pruebas.py"))
    return next(
        ast.literal_eval(n.value)
        for n in arbol.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "ACCIONES"
    )


TABLA = "TABLA = %r\n\n\n" % {r: a for r, a in _acciones_visibles()}

# Las visibles copiadas en una tabla y nada más: el bucle de la lección sobre esa tabla.
SOLO_LA_TABLA = (
    TABLA
    + """def lee_accion(respuesta):
    return TABLA.get(respuesta)


"""
    + BUCLE_BIEN
    + CONVERSA
)

# Las respuestas de las visibles en el orden en que las piden: la primera llamada, la primera respuesta.
POR_ORDEN = (
    "ORDEN = %r\nVEZ = [0]\n\n\n" % [a for _, a in _acciones_visibles()]
    + """def lee_accion(respuesta):
    VEZ[0] += 1
    return ORDEN[(VEZ[0] - 1) % len(ORDEN)]


"""
    + BUCLE_BIEN
    + CONVERSA
)

# Las visibles copiadas en una tabla; lo demás, el parser de la lección.
FIJAS = (
    TABLA
    + """def lee_accion(respuesta):
    if respuesta in TABLA:
        return TABLA[respuesta]
    for linea in respuesta.splitlines():
        if linea.startswith("Acción: "):
            herramienta, _, argumento = linea[len("Acción: "):].partition(" ")
            return [herramienta, argumento]
    return None


"""
    + BUCLE_BIEN
    + CONVERSA
)

# Escrita sólo con el enunciado: find en vez de partition, la tilde con replace y un while.
CON_FIND = '''def lee_accion(respuesta):
    for linea in respuesta.splitlines():
        limpia = linea.strip()
        pos = limpia.find(":")
        if pos < 0:
            continue
        palabra = limpia[:pos].rstrip().lower().replace("ó", "o")
        if palabra != "accion":
            continue
        accion = limpia[pos + 1:].strip()
        if accion == "":
            continue
        palabras = accion.split(maxsplit=1)
        herramienta = palabras[0]
        argumento = palabras[1].strip() if len(palabras) == 2 else ""
        return [herramienta, argumento]
    return None


def bucle_de_texto(modelo, inicio, entorno, max_turnos):
    M = list(inicio)
    turno = 0
    while turno < max_turnos:
        turno = turno + 1
        respuesta = modelo(M)
        M.append(("asistente", respuesta))
        accion = lee_accion(respuesta)
        if accion is None:
            return ("fin", respuesta, M)
        M.append(("usuario", "Observación: " + observa(accion, entorno)))
    return ("max_turnos", None, M)


def conversa(inicio, entorno, max_turnos):
    """Tu bucle con el modelo de cada prueba, que la prueba pone en `modelo`. No la cambies."""
    return bucle_de_texto(modelo, inicio, entorno, max_turnos)
'''

# Escrita sólo con el enunciado: unicodedata quita la tilde, una función por línea y un bucle recursivo.
SIN_TILDES = '''import unicodedata


def _sin_tildes(texto):
    descompuesto = unicodedata.normalize("NFD", texto)
    return "".join(c for c in descompuesto if unicodedata.category(c) != "Mn")


def _accion_de_linea(linea):
    cabeza, hay, cola = linea.strip().partition(":")
    if not hay or _sin_tildes(cabeza.strip()).casefold() != "accion":
        return None
    trozos = cola.split()
    if not trozos:
        return None
    herramienta = trozos[0]
    argumento = cola.strip()[len(herramienta):].strip()
    return (herramienta, argumento)


def lee_accion(respuesta):
    acciones = [a for a in map(_accion_de_linea, respuesta.splitlines()) if a]
    return list(acciones[0]) if acciones else None


def bucle_de_texto(modelo, inicio, entorno, max_turnos):
    def turno(M, quedan):
        if quedan <= 0:
            return "max_turnos", None, M
        respuesta = modelo(M)
        M = M + [("asistente", respuesta)]
        accion = lee_accion(respuesta)
        if accion is None:
            return "fin", respuesta, M
        return turno(M + [("usuario", "Observación: %s" % observa(accion, entorno))], quedan - 1)
    return turno(list(inicio), max_turnos)


def conversa(inicio, entorno, max_turnos):
    """Tu bucle con el modelo de cada prueba, que la prueba pone en `modelo`. No la cambies."""
    return bucle_de_texto(modelo, inicio, entorno, max_turnos)
'''


HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "con_find": (CON_FIND, 10),
    "sin_tildes": (SIN_TILDES, 10),
    "bien_con_regex": (CON_REGEX, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            "        respuesta = modelo(M)\n",
            "        respuesta = modelo(M)\n        print('turno', len(M), file=sys.stderr)\n",
        ),
        10,
    ),
    # La celda de la lección: el bucle está bien, pero su lee_accion no es el tolerante. Las conversaciones
    # ocultas traen acciones tolerantes: sólo queda el tope.
    "parser_de_la_leccion": (DE_LA_LECCION, 2),
    "sin_tope": (SIN_TOPE, 6),
    "un_turno_de_mas": (cambia("range(max_turnos)", "range(max_turnos + 1)"), 6),
    "sin_prefijo": (cambia('"Observación: " + observa', "observa"), 3),  # el modelo diverge en cada conversación
    "no_salta_las_vacias": (
        cambia(
            "        if partes:  # «Acción:» sin nada detrás no es una acción\n"
            '            return [partes[0], partes[1].strip() if len(partes) > 1 else ""]\n',
            '        return [partes[0] if partes else "", partes[1].strip() if len(partes) > 1 else ""]\n',
        ),
        5,
    ),
    "solo_la_primera_linea": (SOLO_LA_PRIMERA_LINEA, 3),
    "lanza": (
        LEE + "    raise ValueError('todavía no')\n" + FIRMA_BUCLE + "    raise ValueError('todavía no')\n" + CONVERSA,
        0,
    ),
    "tabla_y_parser_de_la_leccion": (FIJAS, 2),  # las visibles de lee_accion copiadas: sólo el tope
}


def trampas_del_bucle(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre estas funciones, y las de este desafío."""
    codigos = muestra_con(curso, puerto, NADA, RESTO + LEE)
    ocultas = RAIZ / "desafios" / BUCLE.slug / "ocultas.py"
    codigos.update(
        {
            "b01_redefine_las_pruebas": NADA
            + (
                "class Fallo(Exception):\n    pass\n"
                "def exige(*a, **k):\n    pass\n"
                "def comprueba_conversacion(*a, **k):\n    pass\n"
            ),
            "b02_lee_el_guion": NADA.replace(
                "    return 'fin', None, []\n",
                (
                    "    guion = modelo.__self__.guionizado.guion\n"
                    "    return 'fin', guion[-1]['responde'], guion[-1]['espera'] + [['asistente', guion[-1]['responde']]]\n"  # noqa: E501
                ),
            ),
            "b03_lee_las_ocultas": NADA.replace(
                "    return None\n",
                (
                    "    try:\n        return [open(%r).read()[-500:], '']\n"
                    "    except OSError as e:\n        return [str(e), '']\n"
                )
                % str(ocultas),
                1,
            ),
            "b04_igual_a_todo": (
                "class Siempre(list):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n"
                + NADA.replace("    return None\n", "    return Siempre(['x', 'y'])\n", 1).replace(
                    "    return 'fin', None, []\n", "    return Siempre()\n"
                )
            ),
            "b05_sin_llamar_al_modelo": NADA.replace(
                "    return 'fin', None, []\n",
                (
                    "    M = [list(m) for m in inicio]\n"
                    "    if max_turnos == 0:\n        return 'max_turnos', None, M\n"
                    "    return 'fin', 'El martes tienes dentista a las 17:30.', M\n"
                ),
            ),
            "b07_tabla_de_las_visibles": SOLO_LA_TABLA,
            "b08_visibles_por_orden": POR_ORDEN,
            "b06_modelo_propio": NADA.replace(
                FIRMA_BUCLE,
                (
                    "class Modelo:\n    def __call__(self, M):\n        return 'Listo.'\n"
                    + FIRMA_BUCLE
                    + "    modelo = Modelo()\n    M = list(inicio)\n    r = modelo(M)\n"
                    "    return 'fin', r, M + [('asistente', r)]\n"
                ),
            ).replace("    return 'fin', None, []\n", "", 1),
        }
    )
    return codigos


LOTE = Lote(BUCLE, HONESTAS, trampas_del_bucle, minimo=20, lee_ocultas=("b03_lee_las_ocultas", ("TALLER",)))


def test_cada_fallo_cuesta_lo_suyo(lote):
    filas = lote["filas"]
    assert filas["parser_de_la_leccion"]["accion"] == 0 and filas["parser_de_la_leccion"]["tope"] == 2
    assert filas["parser_de_la_leccion"]["conversacion"] == 0 and filas["parser_de_la_leccion"]["fallos"] == 0
    assert filas["sin_tope"]["tope"] == 0 and filas["sin_tope"]["conversacion"] == 2
    assert filas["tabla_y_parser_de_la_leccion"]["accion"] == 0
    assert filas["solo_la_primera_linea"]["conversacion"] == 0 and filas["solo_la_primera_linea"]["tope"] == 2


def test_el_motivo_cuenta_la_conversacion(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "el modelo ha recibido una M que no es la del guion" in motivos["sin_prefijo"]
    assert "Observación: Martes" in motivos["sin_prefijo"]  # el guion dice qué esperaba
    assert (
        "lee_accion('acción: leer agenda.txt') debía devolver ['leer', 'agenda.txt']" in motivos["parser_de_la_leccion"]
    )
    assert "debía llamar al modelo 4 veces y lo ha llamado 5" in motivos["un_turno_de_mas"]
    tabla = motivos["tabla_y_parser_de_la_leccion"]
    assert "la variación oculta 1 de 1 no pasa" in tabla and "HUERTO" not in tabla and "huerto" not in tabla


def test_el_esqueleto_conserva_conversa(lote):
    """El cuaderno repartido trae conversa entera (que el esqueleto es el de la página: test_comunes.py)."""
    celda = next(c for c in lote["cuaderno"].cells if c.metadata["nbgrader"]["grade_id"] == BUCLE.celda_solucion)
    assert CONVERSA.strip() in celda.source
