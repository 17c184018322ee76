"""El desafío «Escribe la puerta corregida»: entregas honestas y tramposas en un mismo lote.

El encierro y el canal son los del primer desafío (test_trampas.py los prueba a fondo);
aquí va una muestra de las mismas trampas sobre una puerta que no hace nada útil, más las
propias de este desafío: redefinir el laboratorio, envenenarlo, leer las variaciones
ocultas, devolver un motivo que se dice igual a todo o llamar a la puerta de la lección.
"""

import functools
from pathlib import Path

from cursos import RAIZ, laboratorio
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.calificador.ayudas import calificado, con_prueba_editada, genera
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
    "deniega_todo": (FIRMA + "    return 'permission_denied'\n", 0),
    "deniega_con_esquema": (FIRMA + "    return 'schema_invalid'\n", 0),
    "admite_todo": (FIRMA + "    return None\n", 2),  # sólo la lectura legítima
    "la_de_la_leccion": (FIRMA + "    return puerta_corregida(ll, sesion, admitidas)\n", 0),
    "fija": (
        cambia('sesion["tenant"]', '"lab"')
        .replace('sesion["permisos"]', '["guide"]')
        .replace('sesion["presupuesto"]', "2"),
        0,
    ),  # cada visible tiene su parte oculta en otro mundo
    "tenant_y_presupuesto_fijos": (cambia('sesion["tenant"]', '"lab"').replace('sesion["presupuesto"]', "2"), 0),
    "sin_revocacion": (cambia(REVOCADA, ""), 7),
    "sin_campos_de_mas": (cambia("set(argumentos) != set(esquema) \\\n            or ", ""), 7),
    "presupuesto_antes": (cambia(REVOCADA, "").replace(AGOTADO, AGOTADO + REVOCADA), 8),
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


def test_las_variaciones_ocultas_cuadran_con_la_puerta_de_referencia():
    """La puerta de la lección pasa todas las pruebas, también las ocultas, en el espacio de pruebas."""
    g = espacio_de_pruebas(PUERTA)
    g["puerta"] = laboratorio.carga()["puerta_corregida"]
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
    assert g["SESION"]["tenant"] == "lab" and "taller" not in g["DOCUMENTOS"]  # el mundo vuelve a ser el de antes


def test_la_referencia_no_lanza_con_una_herramienta_sin_esquema():
    """Una herramienta que la sesión permite y no está en ESQUEMAS: schema_invalid, como la lección (P12)."""
    g = espacio_de_pruebas(PUERTA)
    exec(SOLUCION, g)
    sesion = dict(g["SESION"], herramientas=["read_document", "archive_document"])
    for entrada in ({}, {"tenant": "lab", "document_id": "guide"}):
        ll = {"type": "tool_use", "id": "x", "name": "archive_document", "input": entrada}
        assert g["puerta"](ll, sesion, 0) == "schema_invalid"
