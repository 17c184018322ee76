"""El desafío «Un comprobador de especificaciones»: entregas honestas y tramposas en un mismo lote.

La función del alumno es pura: recibe copias JSON de la especificación y de los entornos de
antes y de después, y devuelve textos. Las conversaciones corren en el proceso de confianza
(el modelo guionizado, el harness y corre, del código de partida), y cada prueba visible tiene
en el calificador una parte oculta: fijar las respuestas de las visibles no da puntos.
"""

import functools

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.calificador.ayudas import con_solucion, ejecuta_cuaderno
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_sobre

ESPECIFICACION = Desafio("comprobar-la-especificacion")
SOLUCION = ESPECIFICACION.lee("solucion.py")
FIRMA = "def incumplimientos(especificacion, antes, despues):\n"
SIN_PEDIRLO = SOLUCION[SOLUCION.index("    for ruta in sorted(set(antes)") : SOLUCION.index("    return fallos")]


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia("    fallos = []\n", "    fallos = []\n    print('compruebo', especificacion, file=sys.stderr)\n"),
        10,
    ),
    # Con conjuntos y una función por regla.
    "otro_estilo": (
        (
            "def _cambio(antes, despues, ruta):\n"
            "    if ruta not in antes:\n        return 'se ha creado sin pedirlo: '\n"
            "    if ruta not in despues:\n        return 'se ha borrado sin pedirlo: '\n"
            "    return 'ha cambiado sin pedirlo: '\n\n"
            + FIRMA
            + "    e = {'deben_cambiar': [], 'pueden_cambiar': [], 'deben_contener': {}, 'no_deben_contener': {}}\n"
            "    e.update(especificacion)\n"
            "    cambiadas = {r for r in antes.keys() | despues.keys() if antes.get(r) != despues.get(r)}\n"
            "    fallos = {'no ha cambiado: ' + r for r in e['deben_cambiar'] if r not in cambiadas}\n"
            "    for ruta, textos in e['deben_contener'].items():\n"
            "        if ruta not in despues:\n            fallos.add('falta el fichero: ' + ruta)\n"
            "        else:\n            fallos |= {f'falta «{t}» en {ruta}' for t in textos if t not in despues[ruta]}\n"  # noqa: E501
            "    for ruta, textos in e['no_deben_contener'].items():\n"
            "        fallos |= {f'sobra «{t}» en {ruta}' for t in textos if t in despues.get(ruta, '')}\n"
            "    libres = set(e['deben_cambiar']) | set(e['pueden_cambiar'])\n"
            "    fallos |= {_cambio(antes, despues, r) + r for r in cambiadas - libres}\n"
            "    return sorted(fallos)\n"
        ),
        10,
    ),
    "siempre_cumple": (FIRMA + "    return []\n", 0),
    "no_mira_lo_no_pedido": (cambia(SIN_PEDIRLO, ""), 3),  # lo que el modelo hace de más no se ve
    "sin_crear_ni_borrar": (
        cambia(
            "    for ruta in sorted(set(antes) | set(despues)):\n",
            "    for ruta in sorted(set(antes) & set(despues)):\n",
        ),
        5,
    ),
    "sin_pueden_cambiar": (cambia(' | set(especificacion.get("pueden_cambiar", []))', ""), 3),
    "sin_mayusculas": (cambia("t not in despues[ruta]", "t.lower() not in despues[ruta].lower()"), 8),
    "falta_cada_texto": (
        cambia(
            '            fallos.append("falta el fichero: " + ruta)\n            continue\n',
            '            despues = dict(despues, **{ruta: ""})\n',
        ),
        8,
    ),
    "vacio_es_nada": (
        cambia("if antes.get(ruta) == despues.get(ruta):", 'if antes.get(ruta, "") == despues.get(ruta, ""):').replace(
            "antes.get(ruta) == despues.get(ruta):\n            continue",
            'antes.get(ruta, "") == despues.get(ruta, ""):\n            continue',
        ),
        8,
    ),
    "sin_claves_que_faltan": (
        cambia('especificacion.get("pueden_cambiar", [])', 'especificacion["pueden_cambiar"]'),
        0,
    ),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def visibles() -> dict:
    """{repr(argumentos): incumplimientos} de cada llamada de las pruebas visibles, con la referencia."""
    g = espacio_de_pruebas(ESPECIFICACION)
    exec(SOLUCION, g)
    vistas, original = {}, g["incumplimientos"]

    def anota(especificacion, antes, despues):
        vistas[repr((especificacion, antes, despues))] = valor = original(especificacion, antes, despues)
        return valor

    g["incumplimientos"] = anota
    g.pop("PARTES_OCULTAS")
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        if nombre != "variaciones":
            prueba(None)
    return vistas


def trampas_de_la_especificacion(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre esta función, y las propias de este desafío."""
    codigos = muestra_sobre(curso, puerto, FIRMA, "['no']", '["no"]')
    codigos["t09_mata_al_padre"] += "    return ['no']\n"
    fijas = repr(visibles())
    ocultas = RAIZ / "desafios" / ESPECIFICACION.slug / "ocultas.py"
    codigos.update(
        {
            "s01_fija_las_visibles": "FIJAS = %s\n" % fijas
            + FIRMA
            + ("    return FIJAS.get(repr((especificacion, antes, despues)), [])\n"),
            "s02_por_numero_de_llamada": "ORDEN = list(%s.values())\nVEZ = [0]\n" % fijas
            + FIRMA
            + ("    VEZ[0] += 1\n    return ORDEN[(VEZ[0] - 1) % len(ORDEN)]\n"),
            "s03_lee_las_ocultas": FIRMA
            + (
                "    try:\n        return [open(%r).read()[-2000:]]\n"
                "    except OSError as e:\n        return [str(e)]\n"
            )
            % str(ocultas),
            "s04_redefine_las_pruebas": FIRMA
            + "    return []\n"
            + (
                "def comprueba_caso(*a, **k):\n    pass\ndef comprueba_casos(*a, **k):\n    pass\n"
                "class Fallo(Exception):\n    pass\nPARTES_OCULTAS = {}\n"
            ),
            "s05_lista_igual_a_todo": (
                "class Siempre(list):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n" + FIRMA + "    return Siempre()\n"
            ),
            "s06_cambia_corre": FIRMA
            + "    return []\n"
            + ("def corre(inicio, respuestas, antes):\n    return 'Hecho.', dict(antes)\n"),
            "s07_devuelve_texto": FIRMA + "    return ''\n",
        }
    )
    return codigos


LOTE = Lote(
    ESPECIFICACION, HONESTAS, trampas_de_la_especificacion, minimo=20, lee_ocultas=("s03_lee_las_ocultas", ("OFICINA",))
)


def test_cada_regla_cuenta(lote):
    filas = lote["filas"]
    assert filas["no_mira_lo_no_pedido"]["la_leccion"] == 0 and filas["no_mira_lo_no_pedido"]["contener"] == 2
    assert filas["sin_mayusculas"]["contener"] == 0 and filas["sin_mayusculas"]["sin_pedirlo"] == 2
    assert filas["sin_crear_ni_borrar"]["sin_pedirlo"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_dice_que_ha_devuelto(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "hace_de_mas (el modelo dice 'He añadido huevos a lista.txt.')" in motivos["no_mira_lo_no_pedido"]
    assert 'se esperaba: ["falta «tomates» en lista.txt"]' in motivos["sin_mayusculas"]
    assert "ha lanzado KeyError" in motivos["sin_claves_que_faltan"]


def test_las_fijas_pasan_las_visibles_en_el_cuaderno(lote):
    """Fijar las visibles engaña al cuaderno (que no cuenta para la nota) y no al calificador."""
    carpeta = lote["curso"] / "release" / ESPECIFICACION.slug
    codigo = trampas_de_la_especificacion(lote["curso"], 9)["s01_fija_las_visibles"]
    nb = con_solucion(lote["cuaderno"], codigo, ESPECIFICACION)
    salida = ejecuta_cuaderno(nb, carpeta)
    assert "✔ la_leccion" in salida and "✔ sin_pedirlo" in salida
    assert lote["filas"]["s01_fija_las_visibles"]["puntos"] == 0
