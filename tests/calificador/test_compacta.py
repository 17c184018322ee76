"""El desafío «compacta(M, presupuesto)»: entregas honestas y tramposas en un mismo lote.

compacta es una función pura sobre mensajes JSON: por el canal van copias de M y del
presupuesto, y vuelven lo que devuelve y cómo han quedado sus argumentos. Lo esperado no
sale de una compacta de referencia: las pruebas comprueban la regla del enunciado con tamaño
y retira del lado de confianza. La muestra de trampas es la de los otros desafíos.
"""

import functools

from cursos import RAIZ
from cursos.desafio import Desafio
from tests.ayudas import trampas_que_repiten
from tests.calificador.ayudas import calificado, con_prueba_editada
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_sobre

COMPACTA = Desafio("compacta")
SOLUCION = COMPACTA.lee("solucion.py")
FIRMA = "def compacta(M, presupuesto):\n"
NADA = FIRMA + "    return M\n"


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


# Otro estilo: calcula primero qué se puede retirar y cuánto ahorra cada una, y retira hasta que cabe.
CON_AHORROS = FIRMA + (
    "    import copy\n"
    "    nueva = copy.deepcopy([list(m) for m in M])\n"
    "    roles = [rol for rol, _ in nueva]\n"
    "    ultimo = len(roles) - 1 - roles[::-1].index('asistente') if 'asistente' in roles else 0\n"
    "    sitios = [(n, i) for n in range(ultimo) if isinstance(nueva[n][1], list)\n"
    "              for i, b in enumerate(nueva[n][1]) if b.get('type') == 'tool_result']\n"
    "    sobra = tamaño(nueva) - presupuesto\n"
    "    for n, i in sitios:\n"
    "        if sobra <= 0:\n"
    "            break\n"
    "        b = nueva[n][1][i]\n"
    "        ahorro = tamaño(b) - tamaño(retira(b))\n"
    "        if ahorro > 0:\n"
    "            nueva[n][1][i] = retira(b)\n"
    "            sobra -= ahorro\n"
    "    return [tuple(m) for m in nueva]\n"
)
# Y otro, recursivo: retira la retirable más vieja y vuelve a empezar.
RECURSIVA = (
    "def _primera(M):\n"
    "    roles = [rol for rol, _ in M]\n"
    "    ultimo = max([n for n, r in enumerate(roles) if r == 'asistente'], default=0)\n"
    "    for n in range(ultimo):\n"
    "        for i, b in enumerate(M[n][1] if isinstance(M[n][1], list) else []):\n"
    "            if b.get('type') == 'tool_result' and tamaño(retira(b)) < tamaño(b):\n"
    "                return n, i\n"
    "    return None\n" + FIRMA + "    if tamaño(M) <= presupuesto or _primera(M) is None:\n"
    "        return [(r, list(c) if isinstance(c, list) else c) for r, c in M]\n"
    "    n, i = _primera(M)\n"
    "    bloques = list(M[n][1])\n"
    "    bloques[i] = retira(bloques[i])\n"
    "    return compacta(M[:n] + [(M[n][0], bloques)] + M[n + 1:], presupuesto)\n"
)
# Cambia M en su sitio: todo lo demás está bien.
EN_SU_SITIO = FIRMA + (
    "    asistente = [n for n, (rol, _) in enumerate(M) if rol == 'asistente']\n"
    "    ultimo = asistente[-1] if asistente else 0\n"
    "    for n in range(ultimo):\n"
    "        bloques = M[n][1]\n"
    "        for i, b in enumerate(bloques if isinstance(bloques, list) else []):\n"
    "            if tamaño(M) <= presupuesto:\n"
    "                return M\n"
    "            if b.get('type') == 'tool_result' and tamaño(retira(b)) < tamaño(b):\n"
    "                bloques[i] = retira(b)\n"
    "    return M\n"
)
# Ventana deslizante: quita los turnos viejos enteros (sin romper pares, pero el modelo pierde lo que hizo).
DESLIZANTE = FIRMA + (
    "    inicio, resto = list(M[:2]), list(M[2:])\n"
    "    while resto and tamaño(inicio + resto) > presupuesto and len(resto) > 2:\n"
    "        resto = resto[2:]\n"
    "    return inicio + resto\n"
)
# Borra los mensajes de observaciones viejos: rompe los pares.
BORRA = FIRMA + (
    "    ultimo = max(n for n, (rol, _) in enumerate(M) if rol == 'asistente')\n"
    "    return [m for n, m in enumerate(M) if n >= ultimo or not (isinstance(m[1], list)\n"
    "            and any(b.get('type') == 'tool_result' for b in m[1]))]\n"
)
HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            "    for n in range(ultimo):\n",
            "    print('compacto', len(M), file=sys.stderr)\n    for n in range(ultimo):\n",
        ),
        10,
    ),
    "con_ahorros": (CON_AHORROS, 10),
    "recursiva": (RECURSIVA, 10),
    "no_compacta": (NADA, 0),
    "la_de_la_leccion": (FIRMA + "    return compacta_todo(M)\n", 4),
    "lo_retira_todo": (
        FIRMA + "    return [(r, [retira(b) if b.get('type') == 'tool_result' else b for b in c]\n"
        "             if isinstance(c, list) else c) for r, c in M]\n",
        3,
    ),
    "sin_mirar_el_ahorro": (cambia(" and tamaño(retira(bloque)) < tamaño(bloque)", ""), 4),
    "las_nuevas_primero": (cambia("for n in range(ultimo):", "for n in reversed(range(ultimo)):"), 5),
    "una_de_mas": (cambia("if tamaño(nueva) <= presupuesto:", "if tamaño(nueva) < presupuesto - 40:"), 4),
    "en_su_sitio": (EN_SU_SITIO, 6),
    "ventana_deslizante": (DESLIZANTE, 0),
    "borra_observaciones": (BORRA, 0),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def trampas_de_compacta(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre una compacta que no compacta, y las de este desafío."""
    codigos = muestra_sobre(curso, puerto, FIRMA, "M")
    ocultas = RAIZ / "desafios" / COMPACTA.slug / "ocultas.py"
    codigos.update(
        {
            "m01_redefine_las_pruebas": NADA
            + (
                "def problema_de_pares(M):\n    return None\n"
                "def tamaño(v):\n    return 0\n"
                "def retira(b):\n    return b\n"
            ),
            "m02_lista_igual_a_todo": (
                "class Siempre(list):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n" + FIRMA + "    return Siempre(M)\n"
            ),
            "m03_lee_las_ocultas": FIRMA
            + (
                "    try:\n        raise ValueError(open(%r).read()[-2000:])\n"
                "    except OSError as e:\n        raise ValueError(str(e))\n"
            )
            % str(ocultas),
            # Las respuestas de las pruebas visibles, apuntadas de antemano; lo demás, sin compactar.
            "m04_por_numero_de_llamada": (
                "_veces = [0]\n" + FIRMA + "    _veces[0] += 1\n    return compacta_todo(M) if _veces[0] % 2 else M\n"
            ),
            "m05_devuelve_texto": FIRMA + "    return str(M)\n",
            "m06_vacia": FIRMA + "    return []\n",
            "m07_retira_a_mano": FIRMA
            + (
                "    return [(r, [dict(b, content='') if b.get('type') == 'tool_result' else b for b in c]\n"
                "             if isinstance(c, list) else c) for r, c in M]\n"
            ),
            "m08_enorme": FIRMA + "    return [['usuario', 'x' * (2 << 20)]]\n",
        }
    )
    return codigos


# Fijar las respuestas de las pruebas visibles: pasa lo visible y lo pierde en las variaciones ocultas.
FIJA = (
    SOLUCION.replace("def compacta(", "def _buena(")
    + "\n"
    + FIRMA
    + "    if tamaño(M) in (tamaño(GUION[k]['espera']) for k in range(len(GUION))):\n"
    "        return _buena(M, presupuesto)\n"
    "    return compacta_todo(M)\n"
)


def trampas_del_lote(curso, puerto: int) -> dict[str, str]:
    """Las de arriba y las dos que repiten lo visible (por cuántas llamadas van, o de una tabla)."""
    return dict(trampas_de_compacta(curso, puerto), **trampas_que_repiten(COMPACTA.slug, "M"))


LOTE = Lote(
    COMPACTA,
    dict(HONESTAS, fija_las_visibles=(FIJA, None)),
    trampas_del_lote,
    minimo=22,
    cuadernos_tramposos=lambda curso, cuaderno: {
        "n01_prueba_editada": con_prueba_editada(cuaderno, NADA, COMPACTA, "prueba_cabe")
    },
    lee_ocultas=("m03_lee_las_ocultas", ("taller",)),
)


def test_fijar_lo_visible_no_llega_a_la_nota_entera(lote):
    fila = lote["filas"]["fija_las_visibles"]
    assert fila["variaciones"] == 0 and fila["puntos"] < 10, fila


def test_el_motivo_cuenta_la_conversacion(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "aún se podía retirar t1 (listar" in motivos["no_compacta"]
    assert "que retirada no ocupa menos" in motivos["sin_mirar_el_ahorro"]
    assert "había que retirar de la más vieja a la más nueva" in motivos["las_nuevas_primero"]
    assert "bastaban" in motivos["una_de_mas"]
    assert "ha cambiado la M que recibe" in motivos["en_su_sitio"]
    assert "rompe un par" in motivos["borra_observaciones"] or "mensajes de M" in motivos["borra_observaciones"]
    assert "variación oculta 1 de 4 no pasa" in calificado(lote["curso"], "la_de_la_leccion", COMPACTA)
    assert "falta la solución" in motivos["x_stub"]


def test_repetir_lo_visible_no_da_ningun_punto(lote):
    """Cada prueba visible tiene partes ocultas (PARTES_OCULTAS, decisión 015); repetir lo visible saca 0."""
    for alumno in ("r01_repite_por_numero_de_llamada", "r02_repite_de_una_tabla_copiada"):
        fila = lote["filas"][alumno]
        assert fila["puntos"] == 0, fila["motivo"]
    # FIJA acierta lo visible con la buena y lo demás con compacta_todo: ya no gana más que compacta_todo (antes, 7)
    assert lote["filas"]["fija_las_visibles"]["puntos"] <= lote["filas"]["la_de_la_leccion"]["puntos"]
