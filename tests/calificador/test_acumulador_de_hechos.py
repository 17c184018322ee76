"""El desafío «Acumulador de hechos»: entregas honestas y tramposas en un mismo lote.

Aquí la función del alumno cambia lo que recibe: anota_llamada deja sus hechos en la
ejecución. Por el canal vuelven lo que devuelve y cómo han quedado sus argumentos (copias
JSON), y el proceso de confianza toma de ellos sólo tools y operaciones; el modelo, el bucle,
anota_paso, las reglas y el punto de control corren en su lado. La muestra de trampas es la
de los otros desafíos, sobre un anota_llamada que no anota nada.
"""

import functools

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.ayudas import MODULOS
from tests.calificador.ayudas import calificado, con_prueba_editada
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_sobre

CADENAS = Desafio("acumulador-de-hechos")
SOLUCION = CADENAS.lee("solucion.py")
FIRMA = "def anota_llamada(ejecucion, ll, obs, registro, aprobacion=None):\n"
NADA = FIRMA + "    return False\n"
QUITADAS = ("proyecta", "acumula", "anota_llamada")


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


# Todo lo que trae la llamada, tal cual: sin registro, sin puerta, sin reintentos, sin topes ni filtros.
CRUDA = FIRMA + (
    "    hechos = ejecucion['tools'].setdefault(ll['name'], hechos_vacios())\n"
    "    hechos['calls'] += 1\n"
    "    for campo, valor in ll['input'].items():\n"
    "        if isinstance(valor, (int, float)):\n"
    "            hechos['numericSums'][campo] = hechos['numericSums'].get(campo, 0) + valor\n"
    "            hechos['numericMaximums'][campo] = max(hechos['numericMaximums'].get(campo, valor), valor)\n"
    "        else:\n"
    "            hechos['argValues'].setdefault(campo, []).append(valor)\n"
    "    return True\n"
)
# La de la lección, escrita por el alumno en dos partes: proyecta y acumula.
EN_DOS = (
    FIRMA + "    observacion = proyecta(ll, obs, registro, ejecucion, aprobacion)\n"
    "    return observacion is not None and acumula(ejecucion, observacion)\n"
)
LECCION = (RAIZ / "lecciones" / "cadenas-peligrosas" / "cadenas.py").read_text(encoding="utf-8")
PROYECTA_Y_ACUMULA = (
    "\n"
    + LECCION[LECCION.index("def proyecta(") : LECCION.index("# --- El acumulador")]
    + LECCION[LECCION.index("def acumula(") : LECCION.index("def anota_llamada(")]
    + EN_DOS
)
CONTADO = '    hechos["calls"] += 1\n'
COMPLETADA = (
    '    if registro is None or obs is None or obs.get("is_error"):\n'
    "        return False  # sólo cuentan las llamadas completadas de herramientas con registro\n"
)
OPERACION = (
    '    if operacion in ejecucion["operaciones"]:\n'
    "        return False  # un reintento de una operación ya contada\n"
    '    if len(ejecucion["operaciones"]) < LIMITE_DE_OPERACIONES:\n'
    '        ejecucion["operaciones"].append(operacion)\n'
)
# Guarda la operación antes de mirar si la llamada se completó: el fallo gasta la operación.
ANTES_DEL_ERROR = (
    "    if registro is None:\n        return False\n"
    '    operacion = resumen_de_operacion(clave_de_hechos(ll["name"], registro), ll, registro)\n'
    + OPERACION
    + '    if obs is None or obs.get("is_error"):\n        return False\n'
)
HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (RUIDO + cambia(CONTADO, CONTADO + "    print('anoto', ll['id'], file=sys.stderr)\n"), 10),
    # La de la lección, en dos partes: deja cruzar los negativos (decisión 2: la lección no regala el desafío).
    "en_dos_partes": (PROYECTA_Y_ACUMULA, 7),
    "no_anota_nada": (NADA, 0),
    "lo_anota_todo_crudo": (CRUDA, 0),
    "sin_reintentos": (
        cambia(
            '    if operacion in ejecucion["operaciones"]:\n        return False  '
            "# un reintento de una operación ya contada\n",
            "",
        ),
        6,
    ),
    "sin_puerta": (cambia("    if puerta and not aprueba_su_puerta(aprobacion, puerta, ll):\n", "    if False:\n"), 9),
    "sin_is_error": (cambia(' or obs.get("is_error")', ""), 8),
    "sin_tope": (cambia(" and len(vistos) < LIMITE_DE_VALORES", ""), 7),
    "numeros_sin_filtro": (
        cambia("if es_numero_finito(numero) and numero >= 0:", "if isinstance(numero, (int, float)):"),
        7,
    ),
    # La de la lección: deja cruzar los negativos, lo único que el desafío añade (decisión 2: no es un regalo).
    "con_negativos": (cambia(" and numero >= 0:", ":"), 7),
    "el_nombre_como_clave": (cambia('clave = clave_de_hechos(ll["name"], registro)', 'clave = ll["name"]'), 5),
    "operacion_antes_del_error": (cambia(OPERACION, "").replace(COMPLETADA, ANTES_DEL_ERROR), 8),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def trampas_del_acumulador(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre un anota_llamada que no anota, y las de este desafío."""
    codigos = muestra_sobre(curso, puerto, FIRMA, "False", "false")
    ocultas = RAIZ / "desafios" / CADENAS.slug / "ocultas.py"
    codigos.update(
        {
            "c01_redefine_el_flujo": NADA
            + (
                "def punto_de_control(*a, **k):\n    return {'decision': 'allow', 'ruleId': None}\n"
                "def diferencias(*a, **k):\n    return []\ndef exige(*a, **k):\n    pass\n"
                "def repite(*a, **k):\n    pass\ndef agente_por_pasos(*a, **k):\n    return 'fin', '', []\n"
                "CONFIGURACION.clear()\n"
            ),
            "c02_cambia_el_flujo": FIRMA
            + (
                "    ejecucion['estado'] = 'en_curso'\n    ejecucion['decisiones'] = [{'decision': 'allow'}]\n"
                "    ejecucion['puertas'].append({'decision': 'aprobar'})\n    return True\n"
            ),
            "c03_hechos_iguales_a_todo": (
                "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n"
                + FIRMA
                + "    ejecucion['tools'] = Siempre()\n    return True\n"
            ),
            "c04_lee_las_ocultas": FIRMA
            + (
                "    try:\n        raise ValueError(open(%r).read()[-2000:])\n"
                "    except OSError as e:\n        raise ValueError(str(e))\n"
            )
            % str(ocultas),
            "c05_devuelve_texto": FIRMA + "    return 'True'\n",
            "c06_la_de_la_leccion": EN_DOS,
            "c07_sale_al_anotar": "import os\n" + FIRMA + "    os._exit(0)\n",
            "c08_hechos_enormes": FIRMA + "    ejecucion['tools']['x'] = 'x' * (2 << 20)\n    return True\n",
            "c09_ejecucion_circular": FIRMA + "    ejecucion['tools']['x'] = ejecucion\n    return True\n",
            "c11_hechos_muy_anidados": FIRMA
            + (
                "    x = []\n    for _ in range(990):\n        x = [x]\n"
                "    ejecucion['tools']['payment_submit'] = {'calls': x, 'argValues': x}\n    return True\n"
            ),
            "c10_cuenta_sin_hechos": FIRMA + "    return registro is not None and obs is not None\n",
        }
    )
    return codigos


LOTE = Lote(
    CADENAS,
    HONESTAS,
    trampas_del_acumulador,
    minimo=20,
    cuadernos_tramposos=lambda curso, cuaderno: {
        "n01_prueba_editada": con_prueba_editada(cuaderno, NADA, CADENAS, "prueba_pagos")
    },
    lee_ocultas=("c04_lee_las_ocultas", ("pagos_salientes",)),
)


def test_utilidad_y_seguridad_juntas(lote):
    filas = lote["filas"]
    assert filas["no_anota_nada"]["puntos"] == filas["lo_anota_todo_crudo"]["puntos"] == 0
    assert filas["el_nombre_como_clave"]["variaciones"] == 0 and filas["sin_tope"]["variaciones"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_cuenta_la_llamada(lote):
    """Qué llamada, si debía contar y por qué, y los hechos esperados frente a los vistos."""
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert (
        "la llamada p06-bis (payment_submit" in motivos["sin_reintentos"]
        and "no debía contar (repite la operación pago-06, con la misma clave) y anota_llamada ha devuelto True"
        in motivos["sin_reintentos"]
    )
    assert "no debía contar (su puerta no ha decidido)" in motivos["sin_puerta"]
    assert "no debía contar (ha fallado (is_error))" in motivos["sin_is_error"]
    assert (
        "payment_submit.argValues.beneficiary_id: se esperaba" in motivos["sin_tope"]
        and "bene-3033" in motivos["sin_tope"]
    )
    assert "payment_submit.numericSums.amount: se esperaba 600.5 y es NaN" in motivos["numeros_sin_filtro"]
    assert "la llamada p01 (payment_submit" in motivos["no_anota_nada"] and "debía contar" in motivos["no_anota_nada"]
    assert "tu anota_llamada ha lanzado NotImplementedError" in motivos["c06_la_de_la_leccion"]
    # La clave de hechos falla primero en la parte oculta de «declarados», con otro nombre de herramienta.
    assert "declarados: resultado incorrecto: la variación oculta 1 de 1 no pasa" in motivos["el_nombre_como_clave"]


def test_la_pista_no_desvela_el_caso(lote):
    """La de leer ocultas.py está en test_lotes.py; aquí, que la respuesta a un fallo tampoco lo cuenta."""
    assert "pagos_salientes" not in calificado(lote["curso"], "el_nombre_como_clave", CADENAS)


def test_el_laboratorio_del_alumno_no_trae_el_acumulador():
    """En la copia de cadenas.py del desafío, las tres funciones sólo lanzan: no queda nada de la referencia."""
    cadenas = dict(CADENAS.modulos())["cadenas.py"]
    for nombre in QUITADAS:
        assert f'raise NotImplementedError("en el desafío, {nombre} la escribes tú")' in cadenas
    for trozo in (
        'hechos["calls"] += 1',
        "LIMITE_DE_VALORES:",
        'registro.get("run_fact_arg_keys", [])',
        "observacion = proyecta(",
    ):
        assert trozo in LECCION and trozo not in cadenas, trozo
    assert "def anota_paso(" in cadenas and "def resumen_de_operacion(" in cadenas


def pruebas_que_no_pasa(anota_llamada) -> set[str]:
    """Las pruebas del desafío (con sus partes ocultas y las variaciones) que no pasa este anota_llamada."""
    g = espacio_de_pruebas(CADENAS)
    g["anota_llamada"] = anota_llamada
    no_pasa = set()
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        try:
            prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
        except g["Fallo"]:
            no_pasa.add(nombre)
    assert g["anota_llamada"] is anota_llamada  # la prueba deja anota_llamada como estaba
    return no_pasa


def test_el_acumulador_de_la_leccion_solo_falla_en_los_negativos():
    """El anota_llamada de la lección pasa todo, también lo oculto, salvo lo que el desafío añade (decisión 2).

    Lo único nuevo es que un importe negativo no cruza: la lección no lo hace, así que ni su código
    ni cadenas.py entero sacan la nota entera. Con ese filtro añadido, la misma función pasa todo.
    """
    leccion = {"__name__": "leccion"}
    for nombre in MODULOS:  # los compartidos, del manifiesto
        exec((RAIZ / nombre).read_text(encoding="utf-8"), leccion)
    exec(LECCION, leccion)
    assert pruebas_que_no_pasa(leccion["anota_llamada"]) == {"numeros", "variaciones"}
    filtrada = dict(leccion, es_numero_finito=lambda v: leccion["es_numero_finito"](v) and v >= 0)
    exec(LECCION[LECCION.index("def proyecta(") :], filtrada)  # las mismas funciones, con el filtro de negativos
    assert pruebas_que_no_pasa(filtrada["anota_llamada"]) == set()
