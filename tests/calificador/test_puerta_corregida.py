"""El desafío «Una puerta con permisos por acción»: entregas honestas y tramposas en un mismo lote.

El encierro y el canal son los del primer desafío (test_trampas.py los prueba a fondo);
aquí va una muestra de las mismas trampas sobre una puerta que no hace nada útil, más las
propias de este desafío: redefinir el laboratorio, envenenarlo, leer las variaciones
ocultas, devolver un motivo que se dice igual a todo o llamar a la puerta de la lección. Y la
puerta de la lección, copiada con otro nombre, ya no aprueba: sus permisos no tienen acción, y el
desafío pide permisos por acción para que copiar la lección no sea resolverlo.
"""

import functools
from pathlib import Path

from cursos import RAIZ, evidencia
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.ayudas import puntos_en_el_banco
from tests.calificador.ayudas import calificado, con_prueba_editada, genera
from tests.calificador.copias import copia_renombrada
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_sobre, procesos_con

PUERTA = Desafio("puerta-corregida")
SOLUCION = PUERTA.lee("solucion.py")
FIRMA = "def puerta(ll, sesion, admitidas):\n"
NADA = FIRMA + "    return 'no'\n"
MARCA = "MARCA-PUERTA-5150"
REVOCADA = '    if not sesion["activa"]:\n        return "session_revoked"\n'
AGOTADO = '        return "budget_exhausted"\n'

cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


PERMISO = 'sesion["permisos"].get(nombre, [])'
HERRAMIENTA = '    if nombre not in sesion["herramientas"]:\n        return "tool_not_allowed"\n'

# Otras puertas honestas, escritas de otra forma que la referencia: también sacan 10.
CON_TABLA = """
def puerta(ll, sesion, admitidas):
    nombre, argumentos = ll.get("name"), ll.get("input")
    bien_formada = isinstance(nombre, str) and isinstance(argumentos, dict)
    comprobaciones = [
        ("session_revoked", lambda: sesion["activa"]),
        ("schema_invalid", lambda: bien_formada),
        ("tool_not_allowed", lambda: nombre in sesion["herramientas"]),
        ("schema_invalid", lambda: not esquema_incorrecto(nombre, argumentos)),
        ("tenant_mismatch", lambda: argumentos["tenant"] == sesion["tenant"]),
        ("permission_denied", lambda: argumentos["document_id"] in sesion["permisos"].get(nombre, ())),
        ("budget_exhausted", lambda: admitidas < sesion["presupuesto"]),
    ]
    for motivo, pasa in comprobaciones:
        if not pasa():
            return motivo
    return None
"""
CON_PARES = """
def pares(permisos):
    return {(accion, documento) for accion, documentos in permisos.items() for documento in documentos}


def argumentos_validos(nombre, argumentos):
    esquema = ESQUEMAS.get(nombre, {})
    if not esquema or sorted(argumentos) != sorted(esquema):
        return False
    return all(type(argumentos[campo]) is tipo for campo, tipo in esquema.items())


def puerta(ll, sesion, admitidas):
    if sesion["activa"] is not True:
        return "session_revoked"
    if type(ll.get("name")) is not str or type(ll.get("input")) is not dict:
        return "schema_invalid"
    nombre, argumentos = ll["name"], ll["input"]
    if nombre not in set(sesion["herramientas"]):
        return "tool_not_allowed"
    if not argumentos_validos(nombre, argumentos):
        return "schema_invalid"
    if argumentos["tenant"] != sesion["tenant"]:
        return "tenant_mismatch"
    if (nombre, argumentos["document_id"]) not in pares(sesion["permisos"]):
        return "permission_denied"
    return "budget_exhausted" if admitidas >= sesion["presupuesto"] else None
"""
# La puerta de la lección copiada de laboratorio_puerta.py con otro nombre: sus permisos son una lista.
COPIA = (
    (RAIZ / "lecciones" / PUERTA.leccion / "laboratorio_puerta.py")
    .read_text(encoding="utf-8")
    .split("def puerta_corregida(ll, sesion, admitidas):\n")[1]
    .split("\n\n\nPUERTAS = ")[0]
)

HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            '    if not sesion["activa"]:\n',
            "    print('decido', ll.get('id'), file=sys.stderr)\n    if not sesion[\"activa\"]:\n",
        ),
        10,
    ),
    "bien_con_tabla": (CON_TABLA, 10),
    "bien_con_pares": (CON_PARES, 10),
    "deniega_todo": (FIRMA + "    return 'permission_denied'\n", 0),
    "deniega_con_esquema": (FIRMA + "    return 'schema_invalid'\n", 0),
    "admite_todo": (FIRMA + "    return None\n", 2),  # sólo el trabajo legítimo
    "la_de_la_leccion": (FIRMA + "    return puerta_corregida(ll, sesion, admitidas)\n", 0),
    "copia_de_la_leccion": (FIRMA + COPIA, 0),  # con los permisos por acción deniega lo legítimo
    "permisos_sin_accion": (cambia(PERMISO, 'sum(sesion["permisos"].values(), [])'), 7),
    # Los permisos no dan la herramienta: falla la herramienta, y los permisos (su motivo llega antes).
    "permisos_en_vez_de_herramientas": (cambia(HERRAMIENTA, HERRAMIENTA.replace("herramientas", "permisos")), 6),
    "fija": (
        cambia('sesion["tenant"]', '"lab"')
        .replace(PERMISO, '{"read_document": ["guide"], "write_document": ["borrador"]}.get(nombre, [])')
        .replace('sesion["presupuesto"]', "2"),
        0,
    ),  # cada visible tiene su parte oculta en otro mundo
    "tenant_y_presupuesto_fijos": (cambia('sesion["tenant"]', '"lab"').replace('sesion["presupuesto"]', "2"), 0),
    "sin_revocacion": (cambia(REVOCADA, ""), 8),
    "sin_campos_de_mas": (cambia("set(argumentos) != set(esquema) \\\n            or ", ""), 8),
    "presupuesto_antes": (cambia(REVOCADA, "").replace(AGOTADO, AGOTADO + REVOCADA), 9),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def trampas_de_la_puerta(curso, puerto: int) -> dict[str, str]:
    """Una muestra de las trampas del primer desafío, sobre la puerta, y las de este desafío."""
    # Aquí devolver None es admitir (y la lectura legítima vale 2 puntos): la puerta que no hace nada deniega,
    # y lo que una trampa cuela por el canal, como mucho, hace de lo que su puerta podría devolver.
    codigos = muestra_sobre(curso, puerto, FIRMA, "'no'", '"no"')
    codigos["t09_mata_al_padre"] += "    return 'no'\n"
    fuente = curso / "source" / PUERTA.slug / "laboratorio_puerta.py"
    admite = "def puerta_corregida(ll, sesion, admitidas):\\n    return None\\n"
    codigos.update(
        {
            "p01_redefine_el_laboratorio": NADA
            + (
                "def ejecuta_escenario(escenario, modo, puerta=None):\n"
                "    return {'observado': esperado(escenario, modo), 'observaciones': [], 'propuestas': []}\n"
                "def esperado(*a):\n    return {}\nESCENARIOS.clear()\nDOCUMENTOS.clear()\n"
            ),
            "p02_motivo_igual_a_todo": (
                "class Motivo(str):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n    __hash__ = str.__hash__\n"
                + FIRMA
                + "    return Motivo('permission_denied')\n"
            ),
            "p03_envenena_el_laboratorio": NADA
            + (
                "for ruta in ['laboratorio_puerta.py', %r]:\n    try:\n        with open(ruta, 'a') as f:\n"
                "            f.write(%r)\n    except OSError:\n        pass\n"
            )
            % (str(fuente), admite),
            "p04_lee_las_ocultas": FIRMA
            + ("    try:\n        return open(%r).read()[-2000:]\n    except OSError as e:\n        return str(e)\n")
            % str(RAIZ / "desafios" / PUERTA.slug / "ocultas.py"),
            "p05_muta_la_sesion": FIRMA
            + (
                "    sesion['activa'] = True\n    sesion['permisos'].append('payroll')\n"
                "    sesion['presupuesto'] = 99\n    ll['input'] = {}\n    return 'no'\n"
            ),
            "p06_resultado_no_json": FIRMA + "    return {'motivo': None, 'admitida': True}\n",
            "p07_puerta_corregida_propia": NADA
            + (
                "def puerta_corregida(ll, sesion, admitidas):\n    return None\n"
                "PUERTAS['corregido'] = puerta_corregida\n"
            ),
        }
    )
    return codigos


LOTE = Lote(
    PUERTA,
    dict(HONESTAS, aa_honesta=(SOLUCION + "\n# " + MARCA + "\n", 10)),
    trampas_de_la_puerta,
    minimo=20,
    escucha=True,
    cuadernos_tramposos=lambda curso, cuaderno: {
        "n01_prueba_editada": con_prueba_editada(cuaderno, NADA, PUERTA, "prueba_tenant")
    },
    lee_ocultas=("p04_lee_las_ocultas", ("SYNTHETIC_PRIVATE_TALLER",)),
)


def test_ni_denegar_ni_admitir_todo_ni_lo_fijo_llegan_a_la_nota_entera(lote):
    filas = lote["filas"]
    assert filas["deniega_todo"]["puntos"] == 0 and filas["admite_todo"]["puntos"] == 2
    # Lo fijo no pasa ni la lectura legítima: cada prueba visible se repite en otro mundo (partes ocultas).
    assert filas["tenant_y_presupuesto_fijos"]["variaciones"] == 0 and filas["fija"]["lectura"] == 0
    assert filas["aa_honesta"]["puntos"] == filas["zz_honesta_despues"]["puntos"] == 10


def test_el_motivo_cuenta_el_escenario(lote):
    """Qué escenario, qué se esperaba, qué ha pasado y qué decidió la puerta."""
    motivo = lote["filas"]["admite_todo"]["motivo"]
    assert "«Lectura de otro tenant» (otro-tenant)" in motivo
    assert "denegaciones: se esperaba ['tenant_mismatch'] y ha habido []" in motivo
    assert "datos privados en una observación: se esperaba [] y ha habido ['branch/payroll']" in motivo
    assert "p1 read_document branch/payroll → admitida" in motivo
    assert "tu puerta ha lanzado NotImplementedError" in lote["filas"]["la_de_la_leccion"]["motivo"]
    assert "falta la solución" in lote["filas"]["x_stub"]["motivo"]


def test_nada_compartido_cambia_ni_se_lee(lote, tmp_path_factory):
    laboratorio_puerta = Path("source") / PUERTA.slug / "laboratorio_puerta.py"
    plantilla, _ = genera(tmp_path_factory, PUERTA)  # el curso del que sale el del lote, sin calificar
    assert (lote["curso"] / laboratorio_puerta).read_bytes() == (plantilla / laboratorio_puerta).read_bytes()
    assert lote["conexion"] is None and procesos_con("sleep 7777") == []
    assert "variación oculta 1 de 3 no pasa" in calificado(lote["curso"], "tenant_y_presupuesto_fijos", PUERTA)
    assert "taller" not in calificado(lote["curso"], "tenant_y_presupuesto_fijos", PUERTA)


def _todas_las_pruebas(g):
    """{prueba: pasa} en el espacio de pruebas g, con las partes ocultas y las variaciones."""
    pasan = {}
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        try:
            prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
            pasan[nombre] = True
        except Exception:
            pasan[nombre] = False
    return pasan


def test_las_variaciones_ocultas_cuadran_con_la_puerta_de_referencia():
    """La referencia pasa todas las pruebas, también las ocultas, en el espacio de pruebas; y el mundo
    del laboratorio vuelve a ser el de antes."""
    g = espacio_de_pruebas(PUERTA)
    exec(SOLUCION, g)
    assert all(_todas_las_pruebas(g).values())
    assert g["SESION"]["tenant"] == "lab" and "taller" not in g["DOCUMENTOS"]
    assert "borrador" not in g["DOCUMENTOS"]["lab"]  # el borrador es del mundo del desafío, no del laboratorio


def test_la_puerta_de_la_leccion_ya_no_aprueba():
    """La puerta_corregida de laboratorio_puerta.py (que se sirve con la lección) sacaba 10.
    Con los permisos por acción no pasa ni el trabajo legítimo: ninguna prueba."""
    g = espacio_de_pruebas(PUERTA)
    g["puerta"] = evidencia.carga()["puerta_corregida"]
    assert not any(_todas_las_pruebas(g).values())


def test_copiar_la_leccion_con_otro_nombre_no_saca_puntos():
    """La copia renombrada (copias.py), el módulo servido entero con «puerta = puerta_corregida» y la
    función copiada con otro nombre detrás de la celda de partida: 0 de 10 en el banco."""
    modulo = (RAIZ / "lecciones" / PUERTA.leccion / "laboratorio_puerta.py").read_text(encoding="utf-8")
    copias = {
        "copia_renombrada": copia_renombrada(PUERTA),
        "modulo_y_alias": modulo + "\npuerta = puerta_corregida\n",
        "funcion_copiada": FIRMA + COPIA,
    }
    puntos = {n: puntos_en_el_banco(PUERTA.slug, PUERTA.esqueleto() + "\n\n\n" + c)[0] for n, c in copias.items()}
    assert puntos == dict.fromkeys(copias, 0)
    # Y la misma copia con el permiso por acción, lo que pide el enunciado, sí saca la nota entera.
    arreglada = COPIA.replace('not in sesion["permisos"]', 'not in sesion["permisos"].get(nombre, [])')
    assert (
        arreglada != COPIA
        and puntos_en_el_banco(PUERTA.slug, PUERTA.esqueleto() + "\n\n\n" + FIRMA + arreglada)[0] == 10
    )


def test_decide_con_cuenta_lo_que_decide_la_puerta():
    """La ayuda del código de partida: lo que decide la puerta con la sesión del desafío (y sus cambios)."""
    g = espacio_de_pruebas(PUERTA)
    exec(SOLUCION, g)
    texto = "\n".join(
        [
            g["_llamada"]("read_document", tenant="lab", document_id="guide"),
            g["_llamada"]("write_document", tenant="lab", document_id="guide", content="x"),
            g["_llamada"]("write_document", tenant="lab", document_id="borrador", content="x"),
        ]
    )
    assert g["decide_con"](g["puerta"], texto) == [
        ("p1", "read_document", "lab/guide", "admitida"),
        ("p2", "write_document", "lab/guide", "permission_denied"),
        ("p3", "write_document", "lab/borrador", "admitida"),
    ]
    solo_leer = g["decide_con"](g["puerta"], texto, herramientas=["read_document"])
    assert [d[-1] for d in solo_leer] == ["admitida", "tool_not_allowed", "tool_not_allowed"]


def test_la_referencia_no_lanza_con_una_herramienta_sin_esquema():
    """Una herramienta que la sesión permite y no está en ESQUEMAS: schema_invalid, como la lección."""
    g = espacio_de_pruebas(PUERTA)
    exec(SOLUCION, g)
    sesion = dict(g["SESION_DEL_DESAFIO"], herramientas=["read_document", "archive_document"])
    for entrada in ({}, {"tenant": "lab", "document_id": "guide"}):
        ll = {"type": "tool_use", "id": "x", "name": "archive_document", "input": entrada}
        assert g["puerta"](ll, sesion, 0) == "schema_invalid"
