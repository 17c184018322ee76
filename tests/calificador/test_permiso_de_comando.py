"""El desafío «El permiso de una orden»: entregas honestas y tramposas en un mismo lote.

El encierro y el canal son los del primer desafío (test_trampas.py los prueba a fondo); aquí
va una muestra de las mismas trampas sobre una función que lo deniega todo, más las propias de
este desafío: copiar las respuestas visibles, contestar por el número de llamada, redefinir
las pruebas, una decisión que se dice igual a todo, leer las variaciones ocultas.
"""

import functools
import json
import re

import pytest

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.calificador.ayudas import calificado, con_prueba_editada
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_sobre, procesos_con

COMANDO = Desafio("permiso-de-comando")
SOLUCION = COMANDO.lee("solucion.py")
FIRMA = "def permiso_de_comando(orden, lectura):\n"
NADA = FIRMA + "    return 'denegar'\n"

OTRO_ESTILO = '''import re

def _argv(orden):
    """El argv de la orden, o None si no es una orden que se pueda leer como un solo programa."""
    if isinstance(orden, list):
        return orden if all(type(a) is str for a in orden) else None
    if not isinstance(orden, str) or len(orden) > LIMITE_DE_ORDEN or re.search(r"[;&|<>()$`\\n\\r!\\0]", orden):
        return None
    # Sin lo que va entre comillas o tras una barra, lo que queda es lo que bash expandiría.
    fuera = re.sub(r"""'[^']*'|"(?:\\\\.|[^"\\\\])*"|\\\\.""", "", orden)
    if re.search(r"[{}*?\\[\\]~#]", fuera):
        return None
    try:
        return shlex.split(orden)
    except ValueError:
        return None

def permiso_de_comando(orden, lectura):
    argv = _argv(orden)
    if not argv:
        return "denegar"
    if argv[0].split("/")[-1] in LANZADORES or "=" in argv[0]:
        return "denegar"
    permitidas = lectura.get(argv[0])
    if permitidas is None:
        return "preguntar"
    for arg in argv[1:]:
        if arg.startswith("-") and arg != "-" and arg not in permitidas:
            return "preguntar"
    return "permitir"
'''

CON_CONJUNTOS = """import os

def permiso_de_comando(orden, lectura):
    if isinstance(orden, str):
        if len(orden) > LIMITE_DE_ORDEN or any(c in orden for c in SINTAXIS) or set(sin_comillas(orden)) & EXPANSIONES:
            return "denegar"
        try:
            orden = argv_de(orden)
        except ValueError:
            return "denegar"
    elif not isinstance(orden, list) or not all(isinstance(a, str) for a in orden):
        return "denegar"
    if len(orden) == 0:
        return "denegar"
    programa, *args = orden
    if os.path.basename(programa) in LANZADORES or "=" in programa:
        return "denegar"
    opciones = {a for a in args if a[:1] == "-" and a != "-"}
    return "permitir" if programa in lectura and opciones <= set(lectura[programa]) else "preguntar"
"""


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


def visibles() -> list[tuple[object, str]]:
    """(orden, decisión) de las pruebas visibles, en el orden en que las pasa el calificador."""
    g = espacio_de_pruebas(COMANDO)
    g.pop("PARTES_OCULTAS")  # en el cuaderno no están: el alumno sólo puede copiar lo que ve
    casos = []
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        if nombre != "variaciones":
            casos += g["UTILIDAD"] + _casos_de(g, prueba)
    return casos


def _casos_de(g, prueba) -> list:
    """Los casos que una prueba visible pasa a comprueba_casos."""
    apuntados = []
    original = g["comprueba_casos"]
    g["comprueba_casos"] = lambda casos, lectura=None: apuntados.extend(casos)
    try:
        prueba(None)
    finally:
        g["comprueba_casos"] = original
    return apuntados


def tabla_visible() -> str:
    """Copia las respuestas de las pruebas visibles: lo que no está en la tabla, denegar."""
    tabla = {json.dumps(orden): debe for orden, debe in visibles()}
    return (
        "import json\nRESPUESTAS = %r\n" % tabla + FIRMA + "    return RESPUESTAS.get(json.dumps(orden), 'denegar')\n"
    )


def tabla_y_la_leccion() -> str:
    """Copia las respuestas visibles y, para lo que no está en la tabla, usa la decisión de la lección."""
    return tabla_visible().replace(
        "RESPUESTAS.get(json.dumps(orden), 'denegar')", "RESPUESTAS.get(json.dumps(orden)) or permiso_por_argv(orden)"
    )


def por_cuenta() -> str:
    """Contesta por el número de llamada, con la secuencia de las pruebas visibles."""
    secuencia = [debe for _, debe in visibles()]
    return (
        "SECUENCIA = %r\nLLAMADAS = [0]\n" % secuencia
        + FIRMA
        + "    n = LLAMADAS[0]\n    LLAMADAS[0] += 1\n"
        + "    return SECUENCIA[n] if n < len(SECUENCIA) else 'denegar'\n"
    )


SIN_TOPE = cambia("        if len(orden) > LIMITE_DE_ORDEN:\n", "        if False:\n")
SIN_OPCIONES = cambia("all(o in lectura[programa] for o in opciones)", "True")
SIN_LANZADORES = cambia('programa.rsplit("/", 1)[-1] in LANZADORES or ', "")
SIN_RUTA = cambia('programa.rsplit("/", 1)[-1] in LANZADORES', "programa in LANZADORES")
SINTAXIS_CORTA = cambia("SINTAXIS & set(orden)", 'any(s in orden for s in (";", "&&", "||", "|"))')
OPCIONES_TROCEADAS = cambia(
    'opciones = [a for a in argv[1:] if a.startswith("-") and a != "-"]',
    'opciones = [a if a.startswith("--") else "-" + c for a in argv[1:] if a.startswith("-") and a != "-"\n'
    '                for c in (a[1:] if not a.startswith("--") else "x")]',
)

HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_otro_estilo": (OTRO_ESTILO, 10),
    "bien_con_conjuntos": (CON_CONJUNTOS, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            "    if isinstance(orden, str):\n",
            "    print('decido', orden, file=sys.stderr)\n    if isinstance(orden, str):\n",
        ),
        10,
    ),
    "deniega_todo": (NADA, 0),
    "pregunta_todo": (FIRMA + "    return 'preguntar'\n", 0),
    "permite_todo": (FIRMA + "    return 'permitir'\n", 0),
    # La de la lección decide con LECTURA: las partes ocultas, con otras listas, la suspenden.
    "la_de_la_leccion": (FIRMA + "    return permiso_por_argv(orden)\n", 0),
    "por_texto": (
        FIRMA + "    if not isinstance(orden, str) or not orden.split():\n        return 'denegar'\n"
        "    return 'permitir' if orden.split()[0] in lectura else 'preguntar'\n",
        0,
    ),
    # Sin el tope de longitud no permite nada de más: sólo tarda. Pierde el punto de «argv» (CALIFICACION.md).
    "sin_tope_de_longitud": (SIN_TOPE, 9),
    "sin_opciones": (SIN_OPCIONES, 4),  # también find -delete como argv
    "opciones_troceadas": (OPCIONES_TROCEADAS, 4),
    "sin_lanzadores": (SIN_LANZADORES, 4),
    "lanzadores_sin_ruta": (SIN_RUTA, 4),
    "sintaxis_corta": (SINTAXIS_CORTA, 4),
    "lectura_fija": (
        cambia(
            "programa in lectura and all(o in lectura[programa]", "programa in LECTURA and all(o in LECTURA[programa]"
        ),
        1,
    ),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def trampas_del_comando(curso, puerto: int) -> dict[str, str]:
    """Una muestra de las trampas del primer desafío, sobre esta función, y las de este desafío."""
    # Aquí denegar no da puntos (cada prueba empieza por lecturas que se permiten): la función que no
    # hace nada deniega, y lo que una trampa cuela por el canal, como mucho, hace de lo que devolvería.
    codigos = muestra_sobre(curso, puerto, FIRMA, "'denegar'", '"denegar"')
    codigos["t09_mata_al_padre"] += "    return 'denegar'\n"
    codigos.update(
        {
            "c01_copia_las_visibles": tabla_visible(),
            "c02_contesta_por_cuenta": por_cuenta(),
            "c08_tabla_y_la_leccion": tabla_y_la_leccion(),
            "c03_redefine_las_pruebas": NADA
            + (
                "def comprueba_casos(*a, **k):\n    return None\nUTILIDAD = []\n"
                "def decide(*a):\n    return 'permitir'\nclass Fallo(Exception):\n    pass\n"
                "LECTURA.clear()\nSINTAXIS.clear()\n"
            ),
            "c04_decision_igual_a_todo": (
                "class Decision(str):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n    __hash__ = str.__hash__\n"
                + FIRMA
                + "    return Decision('denegar')\n"
            ),
            "c05_lee_las_ocultas": FIRMA
            + ("    try:\n        return open(%r).read()[-2000:]\n    except OSError as e:\n        return str(e)\n")
            % str(RAIZ / "desafios" / COMANDO.slug / "ocultas.py"),
            "c06_devuelve_las_tres": FIRMA + "    return ['permitir', 'preguntar', 'denegar']\n",
            "c07_muta_la_lista": FIRMA
            + ("    lectura.clear()\n    lectura.update({'rm': [], 'sh': ['-c']})\n    return 'denegar'\n"),
        }
    )
    return codigos


LOTE = Lote(
    COMANDO,
    HONESTAS,
    trampas_del_comando,
    minimo=20,
    escucha=True,
    cuadernos_tramposos=lambda curso, cuaderno: {
        "n01_prueba_editada": con_prueba_editada(cuaderno, NADA, COMANDO, "prueba_sintaxis")
    },
    lee_ocultas=("c05_lee_las_ocultas", ("fprint",)),
)


def test_denegar_preguntar_o_permitir_todo_no_aprueba_nada(lote):
    filas = lote["filas"]
    for alumno in ("deniega_todo", "pregunta_todo", "permite_todo"):
        assert filas[alumno]["puntos"] == 0
    # Con LECTURA fija, las partes ocultas de otras listas fallan; la de argv usa la de la lección.
    assert filas["lectura_fija"]["variaciones"] == 0 and filas["lectura_fija"]["lectura"] == 0
    assert filas["lectura_fija"]["argv"] == 1
    assert filas["sin_opciones"]["opciones"] == 0 and filas["sin_opciones"]["sintaxis"] == 2


def test_copiar_las_visibles_no_da_ningun_punto(lote):
    """Las respuestas copiadas del cuaderno, o dadas por número de llamada, fallan en la parte oculta de
    cada prueba visible: 0 de 10."""
    for alumno in ("c01_copia_las_visibles", "c02_contesta_por_cuenta", "c08_tabla_y_la_leccion"):
        fila = lote["filas"][alumno]
        assert fila["puntos"] == 0, fila["motivo"]
        # En un solo proceso, la primera prueba que cae dice cuál de sus partes ocultas no pasa.
        assert re.search(r"(una parte oculta de esta prueba|la variación oculta 1 de \d+) no pasa", fila["motivo"])


def test_el_motivo_dice_la_orden_y_lo_esperado(lote):
    motivo = lote["filas"]["sin_opciones"]["motivo"]
    assert (
        'con la orden "find . -name \\"*.txt\\" -delete", se esperaba preguntar y tu función ha dado permitir' in motivo
    )
    assert "tu función ha lanzado ValueError: todavía no" in lote["filas"]["lanza"]["motivo"]
    assert "falta la solución" in lote["filas"]["x_stub"]["motivo"]


def test_nada_se_lee_ni_sale(lote):
    assert lote["conexion"] is None and procesos_con("sleep 7777") == []
    assert "fprint" not in calificado(lote["curso"], "lectura_fija", COMANDO)  # la pista no desvela el caso


def test_la_de_la_leccion_solo_pasa_la_sintaxis_visible():
    """En el espacio de pruebas, permiso_por_argv de la lección pasa la sintaxis que ve el alumno y no las
    opciones; con las partes ocultas, que usan otras listas, tampoco la sintaxis (la referencia lo pasa
    todo, también las ocultas: test_comunes.py)."""
    g = espacio_de_pruebas(COMANDO)
    partes = g.pop("PARTES_OCULTAS")
    g["permiso_de_comando"] = lambda orden, lectura: g["permiso_por_argv"](orden)
    g["PRUEBAS"]["sintaxis"][1](None)
    with pytest.raises(g["Fallo"], match="-delete"):
        g["PRUEBAS"]["opciones"][1](None)
    g["PARTES_OCULTAS"] = partes
    with pytest.raises(g["VariacionOculta"]):
        g["PRUEBAS"]["sintaxis"][1](None)


def test_cada_prueba_visible_tiene_su_parte_oculta():
    """Las partes ocultas cubren todas las pruebas visibles, y cada una trae lo que la tabla de lo visible no
    tiene: alguna orden que se permite y que no está en las pruebas que ve el alumno."""
    g = espacio_de_pruebas(COMANDO)
    vistas = {json.dumps(orden) for orden, _ in visibles()}
    assert set(g["PARTES_OCULTAS"]) == set(COMANDO.puntos()) - {"variaciones"}
    for nombre, partes in g["PARTES_OCULTAS"].items():
        nuevas = [o for p in partes for o, debe in p["casos"] if debe == "permitir" and json.dumps(o) not in vistas]
        assert nuevas, nombre
