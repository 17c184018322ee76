"""«Cadenas peligrosas»: lo que la lección y su laboratorio dicen de las aprobaciones, las reglas y los pagos.

- Una aprobación se ata a lo que aprobó (la regla, la versión de la política y los valores evaluados). Un
  punto de control posterior con los mismos valores no vuelve a pausar; si un valor cambia, es otra petición.
- La regla 2 necesita una enumeración; una exportación sin enumerar da allow, y la lección lo dice.
- El laboratorio no acepta pagos que no son positivos. Un -3000 restaría de la suma que mira la regla 3 y
  la apagaría, como un pago grande apaga la condición del máximo; customer_export ya rechazaba los negativos.
- La lección dice por qué el motivo (reason) va traducido y lo demás del documento de política no.
"""

import pytest

from cursos.manifiesto import leer_curso
from tests.ayudas import carga_modulos

CURSO = leer_curso()
REGLA_2 = "run-tool-chain-enumeration-then-export"
LECCION = " ".join(CURSO.leccion("cadenas-peligrosas").fuente.read_text(encoding="utf-8").split())


@pytest.fixture
def lab():
    espacio = carga_modulos()
    ruta = CURSO.modulo("cadenas.py")
    exec(compile(ruta.read_text(encoding="utf-8"), str(ruta), "exec"), espacio)
    espacio["HERRAMIENTAS"].update(espacio["HERRAMIENTAS_DE_OPERACIONES"])
    espacio["REGISTROS"] = espacio["registros_de"](espacio["HERRAMIENTAS"])
    return espacio


def completada(lab, ejecucion, nombre, id, **entrada):
    """Anota una llamada completada; la de una exportación, con su filtro de salida aprobándola."""
    ll = lab["llamada"](id, nombre, **entrada)
    aprobacion = {"puerta": "filtro-de-salida", "llamada": id, "decision": "aprobar"}
    assert lab["anota_llamada"](ejecucion, ll, lab["resultado"](id, "ok"), lab["REGISTROS"][nombre], aprobacion)


def exporta(lab, ejecucion, id, registros):
    completada(lab, ejecucion, "customer_export", id, segmento="activos", record_count=registros, destino="interna")


def en_pausa_por_la_regla_2(lab, doc):
    """Una ejecución que ha enumerado y exportado 620 registros: el punto de control la pausa."""
    ejecucion = lab["nueva_ejecucion"]("inquilino-demo", "run-1")
    completada(lab, ejecucion, "customer_enumeration", "c1", segmento="activos")
    exporta(lab, ejecucion, "c2", 620)
    assert lab["punto_de_control"](doc, ejecucion)["ruleId"] == REGLA_2
    assert ejecucion["estado"] == "en_pausa"
    return ejecucion


def politica(lab, **cambios):
    return dict(lab["politica"](lab["reglas_de_cadenas_peligrosas"](lab["CONFIGURACION"])), **cambios)


MARTA = {"aprobador": "marta", "grupos": ["security_reviewers"], "decision": "aprobar"}


# --- Una aprobación se ata a lo que aprobó -------------------------------------------------------------


def test_tras_aprobar_otro_control_con_los_mismos_valores_no_vuelve_a_pausar(lab):
    doc = politica(lab)
    ejecucion = en_pausa_por_la_regla_2(lab, doc)
    assert lab["resuelve"](ejecucion, MARTA) == "en_curso"
    completada(lab, ejecucion, "secret_read", "s1", secret_id="clave-api-pagos")  # un paso que la regla 2 no mira
    registro = lab["punto_de_control"](doc, ejecucion)
    assert (registro["decision"], registro["ruleId"], registro["approvedEarlier"]) == ("allow", None, [REGLA_2])
    assert ejecucion["estado"] == "en_curso"  # hoy en main: en_pausa otra vez, por la misma exportación
    assert lab["muestra_decision"](registro) == "allow (ya aprobada con estos valores: %s)" % REGLA_2


def test_si_un_valor_de_la_regla_cambia_es_otra_peticion(lab):
    doc = politica(lab)
    ejecucion = en_pausa_por_la_regla_2(lab, doc)
    lab["resuelve"](ejecucion, MARTA)
    exporta(lab, ejecucion, "c3", 100)
    registro = lab["punto_de_control"](doc, ejecucion)
    assert registro["decision"] == "require_approval" and "approvedEarlier" not in registro
    assert registro["evaluatedFields"]["context.run.tools.customer_export.numericSums.record_count"] == 720
    assert ejecucion["estado"] == "en_pausa"


def test_la_aprobacion_no_vale_para_otra_version_de_la_politica_ni_si_no_estaba_autorizada(lab):
    doc = politica(lab)
    ejecucion = en_pausa_por_la_regla_2(lab, doc)
    lab["resuelve"](ejecucion, MARTA)
    assert lab["punto_de_control"](politica(lab, version="1.1.0"), ejecucion)["decision"] == "require_approval"

    otra = en_pausa_por_la_regla_2(lab, doc)
    assert lab["resuelve"](otra, dict(MARTA, aprobador="luis", grupos=["payments_reviewers"])) == "en_pausa"
    assert lab["punto_de_control"](doc, otra)["decision"] == "require_approval"


def test_los_valores_evaluados_son_una_copia_que_no_cambia_con_los_hechos(lab):
    doc = politica(lab)
    ejecucion = en_pausa_por_la_regla_2(lab, doc)
    pendiente = ejecucion["decisiones"][-1]
    exporta(lab, ejecucion, "c3", 100)
    assert pendiente["evaluatedFields"]["context.run.tools.customer_export.numericSums.record_count"] == 620


def test_la_leccion_dice_a_que_se_ata_la_aprobacion_y_su_limite():
    assert "La aprobación de `marta` queda atada a lo que vio" in LECCION
    assert "**Una aprobación vale para los valores que vio, y para nada más.**" in LECCION


# --- La regla 2 necesita una enumeración ---------------------------------------------------------------


def test_exportar_sin_enumerar_da_allow_y_la_leccion_lo_pone_entre_los_limites(lab):
    ejecucion = lab["nueva_ejecucion"]("inquilino-demo", "run-sin-enumerar")
    exporta(lab, ejecucion, "c2", 620)
    assert lab["punto_de_control"](politica(lab), ejecucion)["decision"] == "allow"
    assert "**La regla 2 necesita una enumeración.**" in LECCION
    assert "exporta los 620 registros sin enumerar, y el punto de control da `allow`" in LECCION


# --- El laboratorio sólo acepta pagos positivos --------------------------------------------------------


@pytest.mark.parametrize("importe", [-3000, -0.5, 0])
def test_un_pago_que_no_es_positivo_no_entra_en_el_lote(lab, importe):
    entorno = {"lote.txt": ""}
    with pytest.raises(ValueError, match="mayor que 0"):
        lab["payment_submit"](entorno, "bene-1", importe, "marzo", "op-1")
    assert entorno["lote.txt"] == ""


def test_un_pago_positivo_entra(lab):
    entorno = {"lote.txt": ""}
    assert lab["payment_submit"](entorno, "bene-1", 480, "marzo", "op-1") == "pago op-1 en el lote: 480 a bene-1"
    assert entorno["lote.txt"] == "op-1 bene-1 480\n"


def test_el_importe_negativo_va_junto_al_pago_grande_que_apaga_la_regla_3():
    limite = LECCION[LECCION.index("**Un pago grande apaga la regla 3.**") :][:800]
    assert "Un importe negativo haría lo mismo con la suma" in limite


# --- El motivo va traducido, y la lección dice por qué -------------------------------------------------


def test_la_leccion_dice_que_el_motivo_va_traducido_y_por_que(lab):
    regla = lab["reglas_de_cadenas_peligrosas"](lab["CONFIGURACION"])[1]
    assert regla["description"].startswith("Detects") and regla["then"]["reason"].startswith("La ejecución")
    assert "el motivo (`reason`) lo he traducido, porque es la frase que lee en español quien revisa" in LECCION
