"""El desafío «La decisión de cada petición»: entregas honestas y tramposas en un mismo lote.

El encierro y el canal son los del primer desafío (test_trampas.py los prueba a fondo); aquí
va una muestra de las mismas trampas sobre una función que lo deniega todo, más las propias de
este desafío: copiar las respuestas visibles, contestar por el número de llamada, redefinir
las pruebas, una decisión que se dice igual a todo, leer las variaciones ocultas, cambiar la
ejecución que recibe.
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

PETICION = Desafio("decide-peticion")
SOLUCION = PETICION.lee("solucion.py")
FIRMA = "def decide_peticion(url, ejecucion):\n"
NADA = FIRMA + "    return 'denegar'\n"

OTRO_ESTILO = '''import re

NOMBRE = re.compile(r"[a-z0-9.-]+")
IP = re.compile(r"[0-9]+|0x[0-9a-f]*")

def host_y_puerto(url):
    """El host en ASCII llano y si el puerto es el de siempre, o None si no se sabe adónde va la URL."""
    try:
        p = urllib.parse.urlsplit(url)
        host, puerto = p.hostname, p.port
    except (ValueError, TypeError, AttributeError):
        return None
    if p.scheme not in {"http", "https"} or "@" in p.netloc or not host:
        return None
    if not p.netloc.isascii() or "[" in p.netloc or "]" in p.netloc or not NOMBRE.fullmatch(host):
        return None
    etiquetas = host.removesuffix(".").split(".")
    if not all(etiquetas) or IP.fullmatch(etiquetas[-1]) or etiquetas[-1] == "localhost":
        return None
    defecto = 443 if p.scheme == "https" else 80
    return host, (puerto or defecto) == defecto

def decide_peticion(url, ejecucion):
    if not isinstance(url, str):
        return "denegar"
    leido = host_y_puerto(url)
    if leido is None:
        return "denegar"
    host, puerto_de_siempre = leido
    if puerto_de_siempre and host in set(ejecucion["permitidos"]):
        return "permitir"
    privado = set(ejecucion["leidos"]) & set(ejecucion["privados"])
    return "denegar" if privado else "permitir"
'''


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


def visibles() -> list[tuple[object, dict, str]]:
    """(url, ejecución, decisión) de las pruebas visibles, en el orden en que las pasa el calificador."""
    g = espacio_de_pruebas(PETICION)
    g.pop("PARTES_OCULTAS")  # en el cuaderno no están: el alumno sólo puede copiar lo que ve
    casos = []
    original = g["comprueba_casos"]
    g["comprueba_casos"] = lambda lista, utilidad=True: casos.extend((g["UTILIDAD"] if utilidad else []) + lista)
    try:
        for nombre, (_, prueba) in g["PRUEBAS"].items():
            if nombre != "variaciones":
                prueba(None)
    finally:
        g["comprueba_casos"] = original
    return casos


def tabla_visible() -> str:
    """Copia las respuestas de las pruebas visibles: lo que no está en la tabla, denegar."""
    tabla = {json.dumps([url, ejecucion], sort_keys=True): debe for url, ejecucion, debe in visibles()}
    return (
        "import json\nRESPUESTAS = %r\n" % tabla
        + FIRMA
        + "    return RESPUESTAS.get(json.dumps([url, ejecucion], sort_keys=True), 'denegar')\n"
    )


def tabla_y_la_leccion() -> str:
    """Copia las respuestas visibles y, para lo que no está en la tabla, usa la decisión de la lección."""
    return tabla_visible().replace(
        "RESPUESTAS.get(json.dumps([url, ejecucion], sort_keys=True), 'denegar')",
        "RESPUESTAS.get(json.dumps([url, ejecucion], sort_keys=True)) or decide_por_host(url, ejecucion)",
    )


def por_cuenta() -> str:
    """Contesta por el número de llamada, con la secuencia de las pruebas visibles."""
    secuencia = [debe for _, _, debe in visibles()]
    return (
        "SECUENCIA = %r\nLLAMADAS = [0]\n" % secuencia
        + FIRMA
        + "    n = LLAMADAS[0]\n    LLAMADAS[0] += 1\n"
        + "    return SECUENCIA[n] if n < len(SECUENCIA) else 'denegar'\n"
    )


HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_otro_estilo": (OTRO_ESTILO, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            "    if not isinstance(url, str):\n",
            "    print('decido', url, file=sys.stderr)\n    if not isinstance(url, str):\n",
        ),
        10,
    ),
    "deniega_todo": (NADA, 0),
    "permite_todo": (FIRMA + "    return 'permitir'\n", 0),
    "la_de_la_leccion": (FIRMA + "    return decide_por_host(url, ejecucion)\n", 0),
    "por_texto": (
        FIRMA + "    if not isinstance(url, str):\n        return 'denegar'\n"
        "    if any(url.startswith('https://' + h) for h in ejecucion['permitidos']):\n"
        "        return 'permitir'\n"
        "    return 'denegar' if set(ejecucion['leidos']) & set(ejecucion['privados']) else 'permitir'\n",
        0,
    ),
    # La de antes de la revisión: traduce a IDNA 2003 (ß como ss) en lugar de denegar lo que no es ASCII.
    "traduce_a_idna": (
        cambia(
            '    if not partes.netloc.isascii() or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789-." for c in host):',  # noqa: E501
            '    try:\n        host = host.encode("idna").decode("ascii")\n'
            '    except UnicodeError:\n        return "denegar"\n'
            '    if any(c not in "abcdefghijklmnopqrstuvwxyz0123456789-." for c in host):',
        ),
        5,
    ),
    "quita_el_punto_final": (
        cambia('if host in ejecucion["permitidos"]', 'if sin_punto in ejecucion["permitidos"]'),
        4,
    ),
    "sin_localhost": (cambia(' or ultima == "localhost"', ""), 5),
    "sin_puerto": (cambia(' and puerto in (None, {"http": 80, "https": 443}[partes.scheme])', ""), 3),
    "sin_usuario": (cambia(' or "@" in partes.netloc', ""), 5),
    "ip_solo_decimal": (cambia(' or (ultima[:2] == "0x" and all(c in "0123456789abcdef" for c in ultima[2:]))', ""), 5),
    "lista_fija": (cambia('host in ejecucion["permitidos"]', "host in PERMITIDOS"), 0),  # las ocultas usan otras
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def trampas_de_la_peticion(curso, puerto: int) -> dict[str, str]:
    """Una muestra de las trampas del primer desafío, sobre esta función, y las de este desafío."""
    # Aquí denegar no da puntos (cada prueba empieza por destinos que se permiten): la función que no
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
                "PERMITIDOS.clear()\nPRIVADOS.clear()\n"
            ),
            "c04_decision_igual_a_todo": (
                "class Decision(str):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n    __hash__ = str.__hash__\n"
                + FIRMA
                + "    return Decision('denegar')\n"
            ),
            "c05_lee_las_ocultas": FIRMA
            + ("    try:\n        return open(%r).read()[-2000:]\n    except OSError as e:\n        return str(e)\n")
            % str(RAIZ / "desafios" / PETICION.slug / "ocultas.py"),
            "c06_devuelve_las_dos": FIRMA + "    return ['permitir', 'denegar']\n",
            "c07_muta_la_ejecucion": FIRMA
            + (
                "    ejecucion['leidos'].clear()\n    ejecucion['permitidos'].append('recetas-completas.example')\n"
                "    return 'denegar'\n"
            ),
        }
    )
    return codigos


LOTE = Lote(
    PETICION,
    HONESTAS,
    trampas_de_la_peticion,
    minimo=20,
    escucha=True,
    cuadernos_tramposos=lambda curso, cuaderno: {
        "n01_prueba_editada": con_prueba_editada(cuaderno, NADA, PETICION, "prueba_fuga")
    },
    lee_ocultas=("c05_lee_las_ocultas", ("tiempo.example",)),
)


def test_ni_denegar_ni_permitir_todo_aprueban_nada(lote):
    filas = lote["filas"]
    assert filas["deniega_todo"]["puntos"] == filas["permite_todo"]["puntos"] == 0
    assert filas["lista_fija"]["puntos"] == 0
    assert filas["sin_puerto"]["fuga"] == 0 and filas["sin_puerto"]["disfraces"] == 1


def test_copiar_las_visibles_no_da_ningun_punto(lote):
    """Las respuestas copiadas del cuaderno, o dadas por número de llamada, fallan en la parte oculta de
    cada prueba visible: 0 de 10."""
    for alumno in ("c01_copia_las_visibles", "c02_contesta_por_cuenta", "c08_tabla_y_la_leccion"):
        fila = lote["filas"][alumno]
        assert fila["puntos"] == 0, fila["motivo"]
        # En un solo proceso, la primera prueba que cae dice cuál de sus partes ocultas no pasa.
        assert re.search(r"(una parte oculta de esta prueba|la variación oculta 1 de \d+) no pasa", fila["motivo"])


def test_cada_prueba_visible_tiene_su_parte_oculta():
    """Las partes ocultas cubren todas las pruebas visibles, y cada una trae lo que la tabla de lo visible no
    tiene: alguna URL que se permite y que no está en las pruebas que ve el alumno."""
    g = espacio_de_pruebas(PETICION)
    vistas = {json.dumps(url) for url, _, _ in visibles()}
    assert set(g["PARTES_OCULTAS"]) == set(PETICION.puntos()) - {"variaciones"}
    for nombre, partes in g["PARTES_OCULTAS"].items():
        nuevas = [u for p in partes for u, _, debe in p["casos"] if debe == "permitir" and json.dumps(u) not in vistas]
        assert nuevas, nombre


def test_traducir_a_idna_pierde_los_parecidos(lote):
    """La referencia de antes (el códec idna, que lee aßets como assets) no pasa la prueba de los parecidos."""
    fila = lote["filas"]["traduce_a_idna"]
    assert fila["parecidos"] == 0 and fila["puntos"] < 10, fila["motivo"]


def test_el_motivo_dice_la_url_la_ejecucion_y_lo_esperado(lote):
    motivo = lote["filas"]["quita_el_punto_final"]["motivo"]
    assert (
        'con la URL "https://recetas.example./salmorejo" (la ejecución ha leído datos privados '
        "(privado/banco.txt); destinos permitidos: recetas.example, wiki.example), se esperaba denegar y "
        "tu función ha dado permitir"
    ) in motivo
    assert "tu función ha lanzado ValueError: todavía no" in lote["filas"]["lanza"]["motivo"]
    assert "falta la solución" in lote["filas"]["x_stub"]["motivo"]


def test_nada_se_lee_ni_sale(lote):
    assert lote["conexion"] is None and procesos_con("sleep 7777") == []
    assert "tiempo.example" not in calificado(lote["curso"], "lista_fija", PETICION)  # la pista no desvela el caso


def test_la_de_la_leccion_cae_en_el_puerto():
    """En el espacio de pruebas, decide_por_host de la lección cae en el puerto (que la referencia lo pasa
    todo, también las ocultas: test_comunes.py)."""
    g = espacio_de_pruebas(PETICION)
    g["decide_peticion"] = g["decide_por_host"]
    with pytest.raises(g["Fallo"], match=r"recetas\.example:8443/salmorejo"):
        g["PRUEBAS"]["fuga"][1](None)
