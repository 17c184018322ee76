"""cadenas.py: el acumulador, la proyección, las tres plantillas, el evaluador y el punto de control."""

import json
import math

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.preguntas import preguntas_de
from tests.ayudas import carga_modulos

DATOS = RAIZ / "tests" / "cadenas"
IMPORTES = [480, 350, 410, 295, 480, 375, 320, 460, 390, 345, 430, 285]
BENEFICIARIOS = ["bene-2201", "bene-2207", "bene-2213"]


@pytest.fixture
def c():
    """Un espacio como el de la lección: los tres módulos, cadenas.py y sus herramientas."""
    espacio = carga_modulos()
    exec((RAIZ / "lecciones" / "cadenas-peligrosas" / "cadenas.py").read_text(encoding="utf-8"), espacio)
    espacio["HERRAMIENTAS"].update(espacio["HERRAMIENTAS_DE_OPERACIONES"])
    espacio["REGISTROS"] = espacio["registros_de"](espacio["HERRAMIENTAS"])
    return espacio


def pago(c, n, id=None, **cambios):
    entrada = dict(
        beneficiary_id=BENEFICIARIOS[(n - 1) % 3],
        amount=IMPORTES[(n - 1) % 12],
        concepto="Factura F-%d" % (1000 + n),
        clave_operacion="pago-%02d" % n,
    )
    entrada.update(cambios)
    return c["llamada"](id or "p%02d" % n, "payment_submit", **entrada)


def anota(c, ejecucion, ll, obs=None, aprobacion=None):
    """Anota una llamada completada (o con la observación dada) en la ejecución."""
    obs = obs if obs is not None else c["resultado"](ll["id"], "ok")
    return c["anota_llamada"](ejecucion, ll, obs, c["REGISTROS"].get(ll["name"]), aprobacion)


def ejecucion_con(c, llamadas, id="run-1"):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", id)
    for ll in llamadas:
        anota(c, ejecucion, ll)
    return ejecucion


def politica(c, configuracion=None):
    return c["politica"](c["reglas_de_cadenas_peligrosas"](configuracion or c["CONFIGURACION"]))


# --- Lo que la fuente fija ---------------------------------------------------------


# La única diferencia a propósito con la política de la fuente: el motivo (reason), que lee quien revisa
# una decisión, va en español, la lengua del curso. Identificadores, códigos, nombres y descripciones, como allí.
MOTIVOS_EN_ESPANOL = {
    "The run retrieved a secret and reached an external destination before this checkpoint.": "La ejecución ha leído un secreto y ha llegado a un destino externo antes de este punto de control.",  # noqa: E501
    "The run enumerated customers and exported records past the configured volume.": "La ejecución ha enumerado clientes y ha exportado registros hasta el volumen configurado o más.",  # noqa: E501
    "Repeated payments below the per-call bound crossed the aggregate threshold.": "Pagos repetidos por debajo del tope por llamada han cruzado el umbral agregado.",  # noqa: E501
}


def test_la_politica_generada_es_la_de_la_fuente_campo_a_campo(c):
    fuente = (DATOS / "politica_de_la_fuente.json").read_text(encoding="utf-8")
    for ingles, espanol in MOTIVOS_EN_ESPANOL.items():
        assert json.dumps(ingles) in fuente
        fuente = fuente.replace(json.dumps(ingles), json.dumps(espanol, ensure_ascii=False))
    generada = politica(c)
    assert generada == json.loads(fuente)
    # También en el orden de los campos: el mismo texto JSON.
    assert json.dumps(generada, indent=2, ensure_ascii=False) == fuente.strip()


def test_los_hechos_de_la_fuente_salen_del_acumulador(c):
    llamadas = [
        c["llamada"]("s1", "secret_read", secret_id="clave-api-pagos"),
        c["llamada"]("s2", "external_send", destino="https://hooks.example.net/ops", mensaje="hola"),
    ]
    llamadas += [pago(c, n) for n in range(1, 13)]
    ejecucion = ejecucion_con(c, llamadas)
    assert {"tools": ejecucion["tools"]} == json.loads((DATOS / "hechos_de_la_fuente.json").read_text())


def test_doce_llamadas_total_4620_maximo_480(c):
    assert (len(IMPORTES), sum(IMPORTES), max(IMPORTES)) == (12, 4620, 480)
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 13)])
    registro = c["punto_de_control"](politica(c), ejecucion)
    assert registro["ruleId"] == "run-tool-chain-repeated-low-value-actions"
    assert registro["reasonCodes"] == ["run_chain_repeated_low_value"]
    assert registro["evaluatedFields"] == {
        "context.run.tools.payment_submit.calls": 12,
        "context.run.tools.payment_submit.numericSums.amount": 4620,
        "context.run.tools.payment_submit.numericMaximums.amount": 480,
    }


# --- El acumulador ---------------------------------------------------------------------


def test_un_reintento_con_la_misma_clave_cuenta_una_vez(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    assert anota(c, ejecucion, pago(c, 6)) is True
    assert anota(c, ejecucion, pago(c, 6, id="p06-bis")) is False  # otro id, la misma clave
    assert anota(c, ejecucion, pago(c, 6)) is False  # la misma llamada entregada dos veces
    hechos = ejecucion["tools"]["payment_submit"]
    assert (hechos["calls"], hechos["numericSums"]["amount"]) == (1, 375)
    assert anota(c, ejecucion, pago(c, 7)) is True
    assert ejecucion["tools"]["payment_submit"]["calls"] == 2


def test_las_operaciones_recordadas_tienen_tope_y_no_se_deja_de_contar(c):
    c["LIMITE_DE_OPERACIONES"] = 2
    ejecucion = ejecucion_con(c, [pago(c, 1), pago(c, 2), pago(c, 3), pago(c, 3, id="p03-bis")])
    assert len(ejecucion["operaciones"]) == 2
    assert ejecucion["tools"]["payment_submit"]["calls"] == 4, "pasado el tope, cuenta de más, nunca de menos"


def test_sin_clave_declarada_la_operacion_es_el_id_de_la_llamada(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    leer = c["llamada"]("s1", "secret_read", secret_id="clave-api-pagos")
    assert anota(c, ejecucion, leer) and not anota(c, ejecucion, leer)
    assert anota(c, ejecucion, c["llamada"]("s2", "secret_read", secret_id="clave-api-pagos"))
    assert ejecucion["tools"]["secret_read"]["calls"] == 2


def test_solo_cuentan_las_llamadas_completadas(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    fallida = pago(c, 1)
    assert anota(c, ejecucion, fallida, c["error"]("p01", "no se ha ejecutado: permiso denegado")) is False
    assert c["anota_llamada"](ejecucion, fallida, None, c["REGISTROS"]["payment_submit"]) is False
    assert ejecucion["tools"] == {}
    # Y un reintento que sí se completa cuenta: el fallo no se recordó como operación.
    assert anota(c, ejecucion, fallida) is True


def test_lo_que_falla_dentro_de_ejecutar_no_cuenta(c):
    ejecucion, entorno = c["nueva_ejecucion"]("inquilino-demo", "run-1"), dict(c["ENTORNO_DE_OPERACIONES"])
    ll = c["llamada"]("s1", "secret_read", secret_id="no-existe")
    obs = c["ejecutar"](ll, entorno)
    assert obs["is_error"]
    assert anota(c, ejecucion, ll, obs) is False


def test_solo_cruzan_los_campos_declarados(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    observacion = c["proyecta"](pago(c, 1), c["resultado"]("p01", "ok"), c["REGISTROS"]["payment_submit"], ejecucion)
    assert observacion["valores"] == {"beneficiary_id": "bene-2201"}
    assert observacion["numeros"] == {"amount": 480}
    texto = json.dumps(observacion)
    assert "Factura" not in texto and "pago-01" not in texto, "ni texto libre ni la clave en claro"
    assert set(observacion) == {"inquilino", "ejecucion", "herramienta", "operacion", "valores", "numeros"}


def test_una_herramienta_sin_registro_no_deja_hechos(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    assert anota(c, ejecucion, c["llamada"]("t1", "leer", ruta="lista.txt")) is False
    assert ejecucion["tools"] == {}


def test_una_herramienta_registrada_siempre_cuenta_calls(c):
    ejecucion = ejecucion_con(c, [c["llamada"]("s1", "secret_read", secret_id="clave-api-pagos")])
    vacios = {"argValues": {}, "numericSums": {}, "numericMaximums": {}}
    assert ejecucion["tools"] == {"secret_read": dict(calls=1, **vacios)}


def test_como_mucho_32_valores_sin_repetir(c):
    llamadas = [pago(c, n, beneficiary_id="bene-%d" % (n % 40)) for n in range(1, 61)]
    valores = ejecucion_con(c, llamadas)["tools"]["payment_submit"]["argValues"]["beneficiary_id"]
    assert len(valores) == c["LIMITE_DE_VALORES"] == 32
    assert len(set(valores)) == len(valores)
    assert valores[:3] == ["bene-1", "bene-2", "bene-3"], "en el orden en que llegaron"


@pytest.mark.parametrize("valor", ["480", True, math.inf, -math.inf, math.nan, None])
def test_solo_cruzan_numeros_finitos(c, valor):
    hechos = ejecucion_con(c, [pago(c, 1, amount=valor)])["tools"]["payment_submit"]
    assert hechos["calls"] == 1
    assert hechos["numericSums"] == {} and hechos["numericMaximums"] == {}


def test_los_numeros_finitos_suman_y_guardan_el_maximo(c):
    hechos = ejecucion_con(c, [pago(c, 1, amount=10.5), pago(c, 2, amount=-3), pago(c, 3, amount=7)])
    hechos = hechos["tools"]["payment_submit"]
    assert hechos["numericSums"]["amount"] == 14.5 and hechos["numericMaximums"]["amount"] == 10.5


@pytest.mark.parametrize("valor", ["Factura de marzo para bene-2201", "", "a" * 65, 2201, ["bene-2201"]])
def test_solo_cruzan_valores_con_forma_de_identificador(c, valor):
    hechos = ejecucion_con(c, [pago(c, 1, beneficiary_id=valor)])["tools"]["payment_submit"]
    assert hechos["argValues"] == {} and hechos["calls"] == 1


def exportacion(c, id="c2", destino="analitica-interna"):
    return c["llamada"](id, "customer_export", segmento="activos", record_count=620, destino=destino)


def aprobacion(puerta="filtro-de-salida", llamada="c2", decision="aprobar"):
    return {"puerta": puerta, "llamada": llamada, "decision": decision}


@pytest.mark.parametrize(
    "decision",
    [
        None,
        aprobacion(decision="rechazar"),
        aprobacion(puerta="otra-puerta"),
        aprobacion(llamada="c9"),
        {"decision": "aprobar"},
    ],
)
def test_una_salida_con_puerta_solo_cuenta_si_su_puerta_la_aprueba(c, decision):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    assert anota(c, ejecucion, exportacion(c), aprobacion=decision) is False
    assert ejecucion["tools"] == {}


def test_una_salida_aprobada_por_su_puerta_cuenta(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    assert anota(c, ejecucion, exportacion(c), aprobacion=aprobacion()) is True
    hechos = ejecucion["tools"]["customer_export"]
    assert hechos["numericSums"] == {"record_count": 620}
    assert hechos["argValues"] == {"segmento": ["activos"], "destino": ["analitica-interna"]}


def test_observaciones_de_otro_inquilino_u_otra_ejecucion_se_rechazan(c):
    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")
    registro = c["REGISTROS"]["payment_submit"]
    for otra in (c["nueva_ejecucion"]("otro-inquilino", "run-1"), c["nueva_ejecucion"]("inquilino-demo", "run-2")):
        observacion = c["proyecta"](pago(c, 1), c["resultado"]("p01", "ok"), registro, otra)
        assert c["acumula"](ejecucion, observacion) is False
    assert ejecucion["tools"] == {}


def test_un_registro_con_mas_de_32_campos_se_rechaza(c):
    campos = ["campo%d" % i for i in range(33)]
    with pytest.raises(ValueError, match="más de 32"):
        c["registros_de"]({"x": {"metadata": {"run_fact_arg_keys": campos, "run_fact_numeric_keys": []}}})
    assert c["registros_de"]({"x": {"metadata": {"run_fact_arg_keys": campos[:32]}}})


def test_la_clave_de_hechos_es_la_declarada_o_el_nombre_saneado(c):
    assert c["clave_de_hechos"]("payments.Submit-v2", {}) == "payments_submit_v2"
    assert c["clave_de_hechos"]("payments.submit", {"run_fact_key": "payment_submit"}) == "payment_submit"


# --- Las plantillas y el evaluador ------------------------------------------------------


def test_las_plantillas_siguen_la_configuracion(c):
    config = json.loads(json.dumps(c["CONFIGURACION"]))
    config["secreto_y_envio"].update(
        herramienta_de_secreto="vault_get", resultado="require_approval", grupo_aprobador="sec"
    )
    config["acciones_repetidas"].update(
        herramienta="refund", campo_de_importe="eur", llamadas_minimas=3, resultado="warn"
    )
    r1, r2, r3 = c["reglas_de_cadenas_peligrosas"](config)
    assert r1["then"]["decision"] == "require_approval" and r1["then"]["approverGroup"] == "sec"
    assert r1["evidence"]["evaluatedFields"][0] == "context.run.tools.vault_get.calls"
    assert r3["then"] == {
        "decision": "warn",
        "reason": r3["then"]["reason"],
        "reasonCodes": ["run_chain_repeated_low_value"],
    }, "sin grupo si no se aprueba"
    assert r3["when"]["expression"]["and"][0] == {">=": [{"var": "context.run.tools.refund.calls"}, 3]}
    assert r3["evidence"]["evaluatedFields"][2] == "context.run.tools.refund.numericMaximums.eur"
    assert [r["ruleId"] for r in (r1, r2, r3)] == [
        "run-tool-chain-secret-then-external",
        "run-tool-chain-enumeration-then-export",
        "run-tool-chain-repeated-low-value-actions",
    ]


def test_el_evaluador(c):
    evalua, datos = c["evalua"], {"context": {"run": {"tools": {"a": {"calls": 2}}}}}
    var = {"var": "context.run.tools.a.calls"}
    assert evalua({">": [var, 1]}, datos) is True
    assert evalua({"and": [{">": [var, 1]}, {"<=": [var, 1]}]}, datos) is False
    assert evalua({"or": [{">": [var, 5]}, {"==": [var, 2]}]}, datos) is True
    assert evalua({"!": [{">": [var, 5]}]}, datos) is True
    falta = {"var": "context.run.tools.b.numericMaximums.amount"}
    assert evalua({"<=": [falta, 500]}, datos) is False, "un hecho que falta no cumple nada"
    assert evalua({">": [falta, 0]}, datos) is False
    with pytest.raises(ValueError, match="operador desconocido"):
        evalua({"in": [var, [1, 2]]}, datos)


@pytest.mark.parametrize(
    "pagos, coincide",
    [
        (list(range(1, 13)), True),  # doce pequeños: 4620, máximo 480
        (list(range(1, 10)), False),  # nueve: no llegan a diez llamadas
        (list(range(1, 11)), False),  # diez, pero 3905 no llega a 4000
    ],
)
def test_la_regla_de_acciones_repetidas(c, pagos, coincide):
    ejecucion = ejecucion_con(c, [pago(c, n) for n in pagos])
    assert (c["punto_de_control"](politica(c), ejecucion)["decision"] == "require_approval") is coincide


def test_un_pago_grande_no_es_una_cadena_de_pagos_pequenos(c):
    grande = pago(c, 99, amount=1500)
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 10)] + [grande])
    hechos = ejecucion["tools"]["payment_submit"]
    assert (hechos["calls"], hechos["numericSums"]["amount"], hechos["numericMaximums"]["amount"]) == (10, 5060, 1500)
    assert c["punto_de_control"](politica(c), ejecucion)["decision"] == "allow"


# --- El punto de control -----------------------------------------------------------------


def secreto_y_envio(c):
    return [
        c["llamada"]("s1", "secret_read", secret_id="clave-api-pagos"),
        c["llamada"]("s2", "external_send", destino="https://hooks.example.net/ops", mensaje="x"),
    ]


def test_block_termina_la_ejecucion_en_cualquier_orden(c):
    for llamadas in (secreto_y_envio(c), secreto_y_envio(c)[::-1]):
        ejecucion = ejecucion_con(c, llamadas)
        registro = c["punto_de_control"](politica(c), ejecucion)
        assert (registro["decision"], ejecucion["estado"]) == ("block", "bloqueada")
        assert registro["reasonCodes"] == ["run_chain_secret_then_external"]


def test_una_cadena_partida_en_dos_ejecuciones_escapa(c):
    leer, enviar = secreto_y_envio(c)
    for llamadas, id in (([leer], "run-a"), ([enviar], "run-b")):
        ejecucion = ejecucion_con(c, llamadas, id)
        assert c["punto_de_control"](politica(c), ejecucion)["decision"] == "allow"
        assert ejecucion["estado"] == "en_curso"


def test_la_evidencia_de_una_decision(c):
    ejecucion = ejecucion_con(c, secreto_y_envio(c), "run-7")
    registro = c["punto_de_control"](politica(c), ejecucion)
    assert registro == {
        "ejecucion": "run-7",
        "policyId": "pol_run_tool_chain_checkpoints",
        "policyVersion": "1.0.0",
        "ruleId": "run-tool-chain-secret-then-external",
        "decision": "block",
        "reason": "La ejecución ha leído un secreto y ha llegado a un destino externo antes de este punto de control.",
        "reasonCodes": ["run_chain_secret_then_external"],
        "mode": "deterministic",
        "evaluatedFields": {"context.run.tools.secret_read.calls": 1, "context.run.tools.external_send.calls": 1},
    }
    assert ejecucion["decisiones"] == [registro]


def test_la_aprobacion_pausa_hasta_una_decision_autorizada(c):
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 13)])
    c["punto_de_control"](politica(c), ejecucion)
    assert ejecucion["estado"] == "en_pausa"
    ajeno = {"aprobador": "luis", "grupos": ["security_reviewers"], "decision": "aprobar"}
    assert c["resuelve"](ejecucion, ajeno) == "en_pausa"
    del_grupo = {"aprobador": "ana", "grupos": ["payments_reviewers"], "decision": "aprobar"}
    assert c["resuelve"](ejecucion, del_grupo) == "en_curso"
    respuestas = ejecucion["decisiones"][-1]["respuestas"]
    assert [(r["aprobador"], r["autorizada"]) for r in respuestas] == [("luis", False), ("ana", True)]


def test_un_rechazo_autorizado_termina_la_ejecucion(c):
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 13)])
    c["punto_de_control"](politica(c), ejecucion)
    rechazo = {"aprobador": "ana", "grupos": ["payments_reviewers"], "decision": "rechazar"}
    assert c["resuelve"](ejecucion, rechazo) == "rechazada"


def test_warn_deja_seguir_con_un_aviso(c):
    config = json.loads(json.dumps(c["CONFIGURACION"]))
    config["acciones_repetidas"]["resultado"] = "warn"
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 13)])
    registro = c["punto_de_control"](politica(c, config), ejecucion)
    assert (registro["decision"], ejecucion["estado"], ejecucion["avisos"]) == ("warn", "en_curso", [registro])


def test_un_motor_inalcanzable_cierra_en_fallo(c):
    def motor_caido(expresion, contexto):
        raise ConnectionError("sin respuesta")

    ejecucion = c["nueva_ejecucion"]("inquilino-demo", "run-1")  # sin hechos: se habría permitido
    registro = c["punto_de_control"](politica(c), ejecucion, motor_caido)
    assert (registro["decision"], ejecucion["estado"]) == ("block", "bloqueada")


def test_si_coinciden_varias_manda_la_mas_grave(c):
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 13)] + secreto_y_envio(c))
    assert c["punto_de_control"](politica(c), ejecucion)["decision"] == "block"


# --- Por el bucle, con el modelo guionizado --------------------------------------------


def test_los_pagos_por_el_bucle_con_un_reintento(c):
    inicio = [("usuario", "Paga las doce facturas.")]
    respuestas = [
        [pago(c, n) for n in (1, 2, 3, 4, 5, 6)],
        [pago(c, 6, id="p06-bis")] + [pago(c, n) for n in range(7, 13)],
        [c["texto"]("Hecho.")],
    ]
    modelo = c["ModeloGuionizado"](
        c["guion_de"](inicio, respuestas, c["lo_que_vera"](respuestas, c["ENTORNO_DE_OPERACIONES"]))
    )
    ejecucion, entorno = c["nueva_ejecucion"]("inquilino-demo", "run-1"), dict(c["ENTORNO_DE_OPERACIONES"])
    motivo, final, M = c["agente_por_pasos"](modelo, inicio, entorno, ejecucion, c["REGISTROS"], politica(c))
    esperado = json.loads((DATOS / "hechos_de_la_fuente.json").read_text())["tools"]["payment_submit"]
    assert ejecucion["tools"]["payment_submit"] == esperado
    assert ejecucion["estado"] == "en_pausa" and modelo.turno == 2, "el control tras el paso 2 pausa"
    assert len(entorno["lote.txt"].splitlines()) == 12


def test_las_claves_de_las_preguntas_salen_del_codigo(c):
    preguntas = {p["id"]: p for p in preguntas_de(leer_curso().leccion("cadenas-peligrosas"))}
    assert len(preguntas) == 5
    correcta = next(o["texto"] for o in preguntas["pago-grande"]["opcion"] if o["correcta"])
    assert "1500" in correcta
    ejecucion = ejecucion_con(c, [pago(c, n) for n in range(1, 10)] + [pago(c, 99, amount=1500)])
    assert sum(IMPORTES[:9]) == 3560 and ejecucion["tools"]["payment_submit"]["numericMaximums"]["amount"] == 1500
    cruzan = {o["texto"] for o in preguntas["que-cruza"]["opcion"] if o["correcta"]}
    observacion = c["proyecta"](pago(c, 1), c["resultado"]("p01", "ok"), c["REGISTROS"]["payment_submit"], ejecucion)
    assert cruzan == {"bene-2201, en argValues.beneficiary_id", "480, en numericSums.amount y numericMaximums.amount"}
    assert observacion["valores"] == {"beneficiary_id": "bene-2201"} and observacion["numeros"] == {"amount": 480}


# --- El filtro de salida decide antes de la exportación --------------------------------------------


def filtro_interno(ll):
    """El filtro de la lección: aprueba las exportaciones a analitica-interna y rechaza las demás."""
    decision = "aprobar" if ll["input"]["destino"] == "analitica-interna" else "rechazar"
    return {"puerta": "filtro-de-salida", "llamada": ll["id"], "decision": decision}


def enumera_y_exporta(c, destino, puerta, doc=True, registros=620):
    """La cadena que se prueba: enumerar y exportar a destino, con controles tras cada paso."""
    inicio = [("usuario", "Prepara un fichero con los clientes activos.")]
    respuestas = [
        [c["llamada"]("c1", "customer_enumeration", segmento="activos")],
        [c["llamada"]("c3", "customer_export", segmento="activos", record_count=registros, destino=destino)],
        [c["texto"]("Hecho.")],
    ]
    # Lo que verá el modelo, con el mismo filtro (sin filtro, el rechazo de no tener a quién preguntar).
    vistos = c["lo_que_vera"](respuestas, c["ENTORNO_DE_OPERACIONES"], puerta or (lambda ll: None))
    modelo = c["ModeloGuionizado"](c["guion_de"](inicio, respuestas, vistos))
    ejecucion, entorno = c["nueva_ejecucion"]("inquilino-demo", "run-fuera"), dict(c["ENTORNO_DE_OPERACIONES"])
    motivo, final, M = c["agente_por_pasos"](
        modelo, inicio, entorno, ejecucion, c["REGISTROS"], politica(c) if doc else None, puerta
    )
    return ejecucion, entorno, M


def observacion_de(M, id):
    return next(
        b
        for rol, contenido in M
        if rol == "usuario" and isinstance(contenido, list)
        for b in contenido
        if b.get("tool_use_id") == id
    )


def test_una_exportacion_rechazada_no_entrega_nada_y_queda_en_los_controles(c):
    ejecucion, entorno, M = enumera_y_exporta(c, "cubo-de-un-tercero", filtro_interno)
    assert "exportaciones/cubo-de-un-tercero" not in entorno, "0 registros entregados al tercero"
    obs = observacion_de(M, "c3")
    assert obs["is_error"] and obs["content"].startswith(c["NO_EJECUTADA"]) and "filtro-de-salida" in obs["content"]
    assert "customer_export" not in ejecucion["tools"], "lo que no se ha completado no deja hecho"
    assert [p["decision"] for p in ejecucion["puertas"]] == ["rechazar"]
    ultimo = ejecucion["decisiones"][-1]
    assert [p["llamada"] for p in ultimo["outputGateRejections"]] == ["c3"]
    assert "salidas rechazadas: c3 (filtro-de-salida)" in c["muestra_decision"](ultimo)


@pytest.mark.parametrize(
    "destino, orden",
    [
        ("cubo-de-un-tercero", ["filtro"]),
        ("analitica-interna-bis", ["filtro"]),
        ("ANALITICA-INTERNA", ["filtro"]),
        ("analitica-interna", ["filtro", "herramienta"]),
    ],
)
def test_el_filtro_decide_antes_de_que_corra_la_herramienta(c, destino, orden):
    visto = []
    exporta = c["HERRAMIENTAS"]["customer_export"]["funcion"]

    def herramienta(entorno, **argumentos):
        visto.append("herramienta")
        return exporta(entorno, **argumentos)

    c["HERRAMIENTAS"]["customer_export"] = dict(c["HERRAMIENTAS"]["customer_export"], funcion=herramienta)
    enumera_y_exporta(c, destino, lambda ll: visto.append("filtro") or filtro_interno(ll))
    assert visto[-len(orden) :] == orden and visto.count("filtro") == 2  # una vez en lo_que_vera y otra de verdad


def test_la_exportacion_aprobada_se_hace_y_cuenta(c):
    ejecucion, entorno, M = enumera_y_exporta(c, "analitica-interna", filtro_interno)
    assert len(entorno["exportaciones/analitica-interna"].splitlines()) == 621
    assert ejecucion["tools"]["customer_export"]["numericSums"] == {"record_count": 620}
    assert ejecucion["estado"] == "en_pausa" and "outputGateRejections" not in ejecucion["decisiones"][-1]


@pytest.mark.parametrize(
    "puerta",
    [
        None,  # sin filtro al que preguntar
        lambda ll: 1 / 0,  # un filtro que falla
        lambda ll: "aprobar",  # un filtro que no devuelve una decisión
        lambda ll: {"puerta": "otra-puerta", "llamada": ll["id"], "decision": "aprobar"},
        lambda ll: {"puerta": "filtro-de-salida", "llamada": "c1", "decision": "aprobar"},  # otra llamada
    ],
)
def test_sin_una_aprobacion_de_su_filtro_la_exportacion_no_se_ejecuta(c, puerta):
    ejecucion, entorno, M = enumera_y_exporta(c, "analitica-interna", puerta)
    assert "exportaciones/analitica-interna" not in entorno
    assert observacion_de(M, "c3")["is_error"]
    assert "customer_export" not in ejecucion["tools"]
    c3 = M[3][1][0]
    assert len(ejecucion["puertas"]) == 1
    assert not c["aprueba_su_puerta"](ejecucion["puertas"][0], "filtro-de-salida", c3)


def test_un_paso_con_puertas_deja_el_ejecutar_de_harness_al_terminar(c):
    de_harness = c["ejecutar"]
    enumera_y_exporta(c, "cubo-de-un-tercero", filtro_interno)
    assert c["ejecutar"] is de_harness
    ll = c["llamada"]("x", "customer_export", segmento="activos", record_count=3, destino="cubo-de-un-tercero")
    entorno = dict(c["ENTORNO_DE_OPERACIONES"])
    assert not c["ejecutar"](ll, entorno).get("is_error"), "fuera de agente_por_pasos, ejecutar es el de siempre"


def test_lo_que_no_encaja_en_el_esquema_no_se_le_pregunta_al_filtro(c):
    preguntas = []
    ejecutar = c["ejecutar_con_puertas"](
        c["ejecutar"],
        c["nueva_ejecucion"]("i", "r"),
        c["REGISTROS"],
        lambda ll: preguntas.append(ll) or filtro_interno(ll),
    )
    for ll in (
        {"type": "tool_use", "id": "x", "name": ["customer_export"], "input": {}},
        c["llamada"]("y", "customer_export", segmento="activos", destino="cubo-de-un-tercero"),
        "customer_export",
    ):
        assert ejecutar(ll, {})["is_error"]
    assert preguntas == []


# --- El evaluador y el ! de JsonLogic ------------------------------------------------------------------


@pytest.mark.parametrize(
    "expresion, esperado",
    [
        ({"!": {"var": "context.run.tools.b.calls"}}, True),  # un hecho que falta es null: !null es cierto
        ({"!": [{"var": "context.run.tools.b.calls"}]}, True),
        ({"!": {"var": "context.run.tools.a.calls"}}, False),
        ({"!": {">": [{"var": "context.run.tools.a.calls"}, 5]}}, True),
        ({"!": {"<=": [{"var": "context.run.tools.b.numericMaximums.amount"}, 500]}}, True),
        ({">": [{"var": ["context.run.tools.a.calls"]}, 1]}, True),
        ({"!": True}, False),
    ],
)
def test_el_no_de_jsonlogic_con_un_argumento_suelto(c, expresion, esperado):
    assert c["evalua"](expresion, {"context": {"run": {"tools": {"a": {"calls": 2}}}}}) is esperado


@pytest.mark.parametrize(
    "expresion",
    [
        {"!": [True, False]},
        {">": [1]},
        {"<": [1, 2, 3]},
        {">": [1, 2], "<": [1, 2]},
        {"var": ["context.run.tools.a.calls", 0]},
        {"var": 7},
    ],
)
def test_una_expresion_mal_formada_lanza_y_el_control_se_cierra(c, expresion):
    with pytest.raises(ValueError):
        c["evalua"](expresion, {"context": {"run": {"tools": {}}}})
    doc = dict(politica(c), rules=[dict(politica(c)["rules"][0], when={"expression": expresion})])
    assert c["punto_de_control"](doc, c["nueva_ejecucion"]("i", "r"))["decision"] == "block"


# --- Varias llamadas en un paso con el mismo id ---------------------------------------------------


def paso_a_paso(c, pasos, puerta=None, doc=True):
    """Una ejecución con estos pasos (listas de llamadas) por agente_por_pasos, con un punto de control."""
    inicio = [("sistema", "Agente."), ("usuario", "Trabaja.")]
    respuestas = [list(p) for p in pasos] + [[c["texto"]("Hecho.")]]
    vistos = c["lo_que_vera"](respuestas, c["ENTORNO_DE_OPERACIONES"], puerta or (lambda ll: None))
    modelo = c["ModeloGuionizado"](c["guion_de"](inicio, respuestas, vistos))
    ejecucion, entorno = c["nueva_ejecucion"]("inquilino-demo", "run-ids"), dict(c["ENTORNO_DE_OPERACIONES"])
    c["agente_por_pasos"](modelo, inicio, entorno, ejecucion, c["REGISTROS"], politica(c) if doc else None, puerta)
    return ejecucion, entorno


def exporta(c, id, destino, registros=620):
    return c["llamada"](id, "customer_export", segmento="activos", record_count=registros, destino=destino)


def test_un_rechazo_con_el_mismo_id_no_borra_la_exportacion_que_si_se_hizo(c):
    """[c3 interna, aprobada y hecha; c3 a un tercero, rechazada]: por id, la observación del rechazo
    tapaba la exportación hecha, no quedaba hecho y la regla 2 daba allow con 620 registros fuera."""
    enumera = c["llamada"]("c1", "customer_enumeration", segmento="activos")
    ejecucion, entorno = paso_a_paso(
        c,
        [[enumera], [exporta(c, "c3", "analitica-interna"), exporta(c, "c3", "cubo-de-un-tercero", 1)]],
        filtro_interno,
    )
    assert len(entorno["exportaciones/analitica-interna"].splitlines()) == 621
    assert "exportaciones/cubo-de-un-tercero" not in entorno
    hechos = ejecucion["tools"]["customer_export"]
    assert hechos["numericSums"] == {"record_count": 620} and hechos["argValues"]["destino"] == ["analitica-interna"]
    assert ejecucion["decisiones"][-1]["decision"] == "require_approval"


def test_un_id_repetido_no_se_ejecuta_ni_en_el_mismo_paso_ni_en_otro(c):
    """Dos exportaciones de 400 con el mismo id: las dos se hacían y los hechos contaban una (400 < 500),
    así que la regla 2 no veía 800 registros fuera. Ahora la segunda no se ejecuta."""
    enumera = c["llamada"]("c1", "customer_enumeration", segmento="activos")
    for pasos in (
        [[enumera], [exporta(c, "c3", "analitica-interna", 400), exporta(c, "c3", "analitica-2", 400)]],
        [[enumera], [exporta(c, "c3", "analitica-interna", 400)], [exporta(c, "c3", "analitica-2", 400)]],
    ):
        ejecutadas = []
        herramienta = c["HERRAMIENTAS"]["customer_export"]

        def anota(entorno, _vistas=ejecutadas, **argumentos):
            _vistas.append(argumentos)
            return "ok"

        c["HERRAMIENTAS"]["customer_export"] = dict(herramienta, funcion=anota)
        try:
            ejecucion, entorno = paso_a_paso(
                c, pasos, lambda ll: {"puerta": "filtro-de-salida", "llamada": ll["id"], "decision": "aprobar"}
            )
        finally:
            c["HERRAMIENTAS"]["customer_export"] = herramienta
        # Una vez en lo_que_vera (sobre una copia) y otra de verdad; la del id repetido, ninguna.
        assert [a["destino"] for a in ejecutadas] == ["analitica-interna"] * 2
        assert ejecucion["tools"]["customer_export"]["numericSums"] == {"record_count": 400}


def test_un_id_repetido_vuelve_como_no_ejecutado(c):
    ejecucion = c["nueva_ejecucion"]("i", "r")
    ejecutar = c["ejecutar_con_puertas"](c["ejecutar"], ejecucion, c["REGISTROS"], None)
    entorno = dict(c["ENTORNO_DE_OPERACIONES"])
    assert not ejecutar(pago(c, 1), entorno).get("is_error")
    otra = ejecutar(pago(c, 2, id="p01"), entorno)
    assert otra["is_error"] and otra["content"] == c["NO_EJECUTADA"] + (
        "el id «p01» ya se ha usado en esta ejecución: cada llamada lleva uno nuevo"
    )
    assert len(entorno["lote.txt"].splitlines()) == 1


def test_una_llamada_mal_formada_con_el_mismo_id_no_esconde_un_pago(c):
    """Cada pago con una llamada rota detrás con su mismo id: por id, ningún pago dejaba hecho y la regla 3 callaba."""
    roto = lambda n: c["llamada"]("p%02d" % n, "payment_submit", amount="mucho")  # noqa: E731
    ejecucion, entorno = paso_a_paso(c, [[pago(c, n), roto(n)] for n in range(1, 13)])
    # Tras el pago 11 la suma pasa de 4000: el control pide aprobación y el pago 12 no llega a hacerse.
    assert len(entorno["lote.txt"].splitlines()) == 11
    hechos = ejecucion["tools"]["payment_submit"]
    assert hechos["calls"] == 11 and hechos["numericSums"] == {"amount": sum(IMPORTES[:11])}
    assert ejecucion["decisiones"][-1]["ruleId"] == "run-tool-chain-repeated-low-value-actions"
    assert ejecucion["estado"] == "en_pausa"


# --- Reglas mal escritas: el punto de control se cierra -------------------------------------------


def ejecucion_de_pagos(c):
    return ejecucion_con(c, [pago(c, n) for n in range(1, 13)])


@pytest.mark.parametrize(
    "cambia",
    [
        lambda r: r["when"]["expression"]["and"][1][">="].__setitem__(1, "4000"),  # umbral escrito como texto
        lambda r: r["when"]["expression"]["and"][1][">="].__setitem__(1, None),
        lambda r: r["when"]["expression"]["and"][1][">="].__setitem__(1, True),
        lambda r: r["when"]["expression"]["and"][1][">="].__setitem__(1, float("nan")),
        lambda r: r["when"]["expression"]["and"][1][">="].__setitem__(1, [4000]),
        lambda r: r["when"].__setitem__("expression", {"or": []}),
        lambda r: r["when"].__setitem__("expression", {"and": []}),
        lambda r: r["when"].__setitem__("expression", None),
        lambda r: r["when"].__setitem__("expression", {"var": "context.run.tools.payment_submit.calls"}),
        lambda r: r["when"].__setitem__("expression", "siempre"),
        lambda r: r["when"].pop("expression"),
        lambda r: r["then"].__setitem__("decision", "Block"),
        lambda r: r["then"].pop("decision"),
        lambda r: r.pop("evidence"),
    ],
)
def test_una_regla_mal_escrita_cierra_el_punto_de_control(c, cambia):
    """Con la regla 3 estropeada, main daba allow (o lanzaba): 4620 en doce pagos sin que nadie lo mirase."""
    doc = politica(c)
    cambia(doc["rules"][2])
    ejecucion = ejecucion_de_pagos(c)
    registro = c["punto_de_control"](doc, ejecucion)
    assert registro["decision"] == "block" and registro["reasonCodes"] == ["motor_de_politicas_inalcanzable"]
    assert ejecucion["estado"] == "bloqueada"


def test_un_documento_sin_datos_tambien_se_cierra(c):
    registro = c["punto_de_control"]({"rules": "ninguna"}, ejecucion_de_pagos(c))
    assert registro["decision"] == "block" and registro["policyId"] is None


@pytest.mark.parametrize(
    "expresion, esperado",
    [
        ({"<=": [{"var": "context.run.tools.nadie.calls"}, 500]}, False),  # un hecho que falta sigue dando falso
        ({"!": {"var": "context.run.tools.nadie.calls"}}, True),
        ({"or": [{">": [{"var": "context.run.tools.payment_submit.calls"}, 11]}]}, True),
    ],
)
def test_lo_bien_escrito_se_sigue_evaluando(c, expresion, esperado):
    assert c["evalua"](expresion, c["contexto_de"](ejecucion_de_pagos(c))) is esperado


# --- La respuesta de quien aprueba ------------------------------------------------------------------


def en_pausa(c):
    ejecucion = ejecucion_de_pagos(c)
    assert c["punto_de_control"](politica(c), ejecucion)["decision"] == "require_approval"
    return ejecucion


@pytest.mark.parametrize(
    "respuesta",
    [
        {"aprobador": "eve", "grupos": "payments_reviewers_lectura", "decision": "aprobar"},  # un texto, no una lista
        {"aprobador": "eve", "grupos": "xpayments_reviewersx", "decision": "aprobar"},
        {"aprobador": "eve", "grupos": {"payments_reviewers": False}, "decision": "aprobar"},
        {"aprobador": "eve", "grupos": None, "decision": "aprobar"},
        {"aprobador": "eve", "decision": "aprobar"},
        {"aprobador": "eve", "grupos": ["PAYMENTS_REVIEWERS"], "decision": "aprobar"},
        "aprobar",
    ],
)
def test_una_respuesta_sin_la_lista_del_grupo_no_autoriza(c, respuesta):
    ejecucion = en_pausa(c)
    assert c["resuelve"](ejecucion, respuesta) == "en_pausa"
    assert ejecucion["decisiones"][-1]["respuestas"][-1]["autorizada"] is False


def test_sin_grupo_aprobador_nadie_autoriza(c):
    configuracion = dict(c["CONFIGURACION"], acciones_repetidas=dict(c["CONFIGURACION"]["acciones_repetidas"]))
    del configuracion["acciones_repetidas"]["grupo_aprobador"]
    ejecucion = ejecucion_de_pagos(c)
    c["punto_de_control"](politica(c, configuracion), ejecucion)
    assert c["resuelve"](ejecucion, {"aprobador": "eve", "grupos": [None], "decision": "aprobar"}) == "en_pausa"


def test_quien_es_del_grupo_sigue_aprobando(c):
    ejecucion = en_pausa(c)
    assert (
        c["resuelve"](ejecucion, {"aprobador": "ana", "grupos": ["x", "payments_reviewers"], "decision": "aprobar"})
        == "en_curso"
    )


# --- El lote sólo recibe lo que los hechos ven -----------------------------------------------------


@pytest.mark.parametrize(
    "cambios",
    [
        {"beneficiary_id": "bene-2201\npago-x bene-9999 100000"},  # un pago de más, escondido en el beneficiario
        {"clave_operacion": "pago-01 bene-9999 100000\npago-02"},
        {"beneficiary_id": "bene 2201"},
        {"amount": float("inf")},
        {"amount": float("nan")},
    ],
)
def test_un_pago_que_colaria_otra_linea_en_el_lote_no_se_prepara(c, cambios):
    entorno = dict(c["ENTORNO_DE_OPERACIONES"])
    obs = c["ejecutar"](pago(c, 1, **cambios), entorno)
    assert obs["is_error"] and entorno["lote.txt"] == ""
    assert "bene-9999" not in c["libera_lote"](entorno) and entorno["liberados.txt"] == ""


@pytest.mark.parametrize("registros", [-5, -1, -620])
def test_una_exportacion_con_un_numero_negativo_no_saca_nada(c, registros):
    """filas[:registros + 1] con -5 exportaba 616 registros, y los hechos sumaban -5 (la regla 2 no los veía)."""
    ejecucion, entorno, M = enumera_y_exporta(c, "analitica-interna", filtro_interno, registros=registros)
    assert "exportaciones/analitica-interna" not in entorno
    assert observacion_de(M, "c3")["is_error"] and "customer_export" not in ejecucion["tools"]


@pytest.mark.parametrize(
    "cambio",
    [
        {"run_fact_numeric_keys": "record_count"},  # un texto: se recorría letra a letra y no cruzaba nada
        {"run_fact_arg_keys": [["segmento"]]},
        {"run_fact_arg_keys": None},
        {"puerta_de_salida": True},
        {"puerta_de_salida": ""},
        {"operacion": 7},
    ],
)
def test_un_registro_de_hechos_mal_escrito_falla_al_cargarlo(c, cambio):
    herramientas = dict(c["HERRAMIENTAS_DE_OPERACIONES"])
    herramientas["customer_export"] = dict(
        herramientas["customer_export"], metadata=dict(herramientas["customer_export"]["metadata"], **cambio)
    )
    with pytest.raises(ValueError, match="customer_export"):
        c["registros_de"](herramientas)
