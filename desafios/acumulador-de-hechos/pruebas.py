"""Las pruebas del desafío «Anotar una llamada en los hechos de la ejecución».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué ha
  pasado en cada llamada. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu anota_llamada recibe copias JSON
  de la ejecución, la llamada, la observación, el registro y la aprobación, y de la
  ejecución que deja sólo vuelven tools y operaciones. El modelo, el bucle, anota_paso,
  las reglas y el punto de control corren en otro proceso.

Lo esperado se declara: los hechos de cada caso y la decisión del punto de control.
Se cargan en el mismo espacio de nombres que los módulos del curso y la primera celda
de la lección (PAGOS, SECRETO, pago, modelo_de...). Sólo biblioteca estándar.
"""

import json

REGISTROS_DE_LA_LECCION = registros_de(HERRAMIENTAS_DE_OPERACIONES)
OK = "ok"  # lo que devuelve una llamada completada, en los casos sin modelo
PAGOS_A_REVISAR = ("require_approval", "run-tool-chain-repeated-low-value-actions", "payments_reviewers")
NADA_COINCIDE = ("allow", None, None)
PROFUNDIDAD = 4  # tools -> herramienta -> argValues -> campo -> lista de valores


def _texto(valor):
    texto = json.dumps(valor, ensure_ascii=False, sort_keys=True, default=repr)
    return texto if len(texto) < 200 else texto[:200] + "…"


def _igual(a, b):
    """Dos hechos iguales: los números por su valor (4620 y 4620.0), lo demás como JSON."""
    numeros = [isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)]
    if all(numeros):
        return a == b
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def diferencias(esperado, visto, ruta=""):
    """Las rutas en las que los hechos vistos no son los esperados, una línea cada una."""
    if isinstance(esperado, dict) and isinstance(visto, dict):
        lineas = []
        for clave in list(esperado) + [k for k in visto if k not in esperado]:
            donde = ruta + "." + str(clave) if ruta else str(clave)
            if clave not in visto:
                lineas.append("%s: se esperaba %s y no está" % (donde, _texto(esperado[clave])))
            elif clave not in esperado:
                lineas.append("%s: no debía estar y es %s" % (donde, _texto(visto[clave])))
            else:
                lineas += diferencias(esperado[clave], visto[clave], donde)
        return lineas
    if _igual(esperado, visto):
        return []
    if isinstance(esperado, list) and isinstance(visto, list):
        sobran = [v for v in visto if v not in esperado]
        faltan = [v for v in esperado if v not in visto]
        repetidos = sorted({_texto(v) for v in visto if visto.count(v) > 1})
        partes = ["se esperaban %d valores y hay %d" % (len(esperado), len(visto))]
        partes += ["sobran %s" % _texto(sobran)] if sobran else []
        partes += ["faltan %s" % _texto(faltan)] if faltan else []
        partes += ["repetidos %s" % ", ".join(repetidos)] if repetidos else []
        partes += [] if sobran or faltan or repetidos else ["en otro orden: %s" % _texto(visto)]
        return ["%s: %s" % (ruta, "; ".join(partes))]
    return ["%s: se esperaba %s y es %s" % (ruta or "tools", _texto(esperado), _texto(visto))]


def _profundidad(valor):
    """Cuántos niveles de listas y diccionarios anidados tiene un valor (sin recursión)."""
    hondo, pendientes = 0, [(valor, 0)]
    while pendientes:
        valor, nivel = pendientes.pop()
        hondo = max(hondo, nivel)
        if isinstance(valor, dict):
            pendientes += [(v, nivel + 1) for v in valor.values()]
        elif isinstance(valor, list):
            pendientes += [(v, nivel + 1) for v in valor]
    return hondo


def _calls(tools, clave):
    hechos = tools.get(clave) if isinstance(tools, dict) else None
    return hechos.get("calls", 0) if isinstance(hechos, dict) else 0


def _quien(ll):
    return "la llamada %s (%s %s)" % (ll.get("id"), ll.get("name"), _texto(ll.get("input")))


def con_tu_anota_llamada(banco, caso):
    """anota_llamada tal como la llaman anota_paso y las pruebas: la tuya, comprobada llamada a llamada.

    De la ejecución que deja tu función sólo se toman tools y operaciones; lo demás
    (estado, decisiones, puertas) es del flujo de trabajo.
    """
    vistas = []

    def anota(ejecucion, ll, obs, registro, aprobacion=None):
        no_cuenta = caso["no_cuenta"](len(vistas), ll)
        vistas.append(ll)
        quien = _quien(ll)
        clave = clave_de_hechos(ll["name"], registro or {})
        antes, operaciones_antes = copia_json(ejecucion["tools"]), copia_json(ejecucion["operaciones"])
        try:
            devuelto, despues = banco.llama_con_argumentos("anota_llamada", [ejecucion, ll, obs, registro, aprobacion])
        except Exception as e:
            raise Fallo("con %s, tu anota_llamada ha lanzado %s: %s" % (quien, type(e).__name__, e)) from None
        nueva = despues[0]
        exige(
            isinstance(nueva, dict)
            and isinstance(nueva.get("tools"), dict)
            and isinstance(nueva.get("operaciones"), list),
            "con %s, la ejecución ha quedado sin tools (un diccionario) u operaciones (una lista)",
            quien,
        )
        exige(
            _profundidad(nueva["tools"]) <= PROFUNDIDAD and _profundidad(nueva["operaciones"]) <= 1,
            "con %s, la ejecución ha quedado con hechos más anidados que los de hechos_vacios()",
            quien,
        )
        ejecucion["tools"], ejecucion["operaciones"] = nueva["tools"], nueva["operaciones"]
        exige(
            isinstance(devuelto, bool),
            "con %s, anota_llamada debía devolver True o False y ha devuelto %s",
            quien,
            _texto(devuelto),
        )
        if no_cuenta is None:
            exige(devuelto, "%s debía contar y anota_llamada ha devuelto False", quien)
            exige(
                _calls(ejecucion["tools"], clave) == _calls(antes, clave) + 1,
                "%s debía contar: %s.calls debía pasar de %s a %s y es %s",
                quien,
                clave,
                _calls(antes, clave),
                _calls(antes, clave) + 1,
                _calls(ejecucion["tools"], clave),
            )
        else:
            exige(not devuelto, "%s no debía contar (%s) y anota_llamada ha devuelto True", quien, no_cuenta)
            cambios = diferencias(antes, ejecucion["tools"])
            exige(
                not cambios,
                "%s no debía contar (%s), pero los hechos han cambiado: %s",
                quien,
                no_cuenta,
                "; ".join(cambios[:3]),
            )
            exige(
                _igual(operaciones_antes, ejecucion["operaciones"]),
                '%s no debía contar (%s), pero ejecucion["operaciones"] ha cambiado',
                quien,
                no_cuenta,
            )
        return devuelto

    return anota


def decision_vista(registro):
    return registro["decision"], registro["ruleId"], registro.get("approverGroup")


def repite(banco, caso):
    """Repite un caso con tu anota_llamada y compara los hechos y la decisión con lo declarado.

    Un caso trae un guion de la lección (que corre por agente_por_pasos) o una lista de
    llamadas ya hechas (ll, obs, registro, aprobacion), y declara cuáles no cuentan y por qué.
    """
    ejecucion = nueva_ejecucion("inquilino-pruebas", "run-" + caso["id"])
    anota = con_tu_anota_llamada(banco, caso)
    with con_globales(anota_llamada=anota):  # anota_paso la busca al llamarla: encuentra la comprobada
        if "guion" in caso:
            inicio = caso["guion"][0]
            agente_por_pasos(
                modelo_de(caso["guion"]),
                inicio,
                dict(ENTORNO_DE_OPERACIONES),
                ejecucion,
                REGISTROS_DE_LA_LECCION,
                None,
                caso.get("puerta"),
            )
        else:
            for ll, obs, registro, aprobacion, _ in caso["llamadas"]:
                anota(ejecucion, ll, obs, registro, aprobacion)
    cambios = diferencias(caso["hechos"], ejecucion["tools"])
    exige(
        not cambios,
        "en «%s», al final los hechos no son los esperados:\n  %s",
        caso["nombre"],
        "\n  ".join(cambios[:8]),
    )
    doc = politica(reglas_de_cadenas_peligrosas(caso.get("configuracion", CONFIGURACION)))
    registro = punto_de_control(doc, ejecucion)
    exige(
        decision_vista(registro) == caso["decision"],
        "en «%s», el punto de control debía decidir %s y ha decidido %s",
        caso["nombre"],
        " ".join(str(x) for x in caso["decision"] if x),
        muestra_decision(registro),
    )


# --- Cómo se escriben los casos ----------------------------------------------------


def hecha(ll, obs=OK, registro="lección", aprobacion=None, no_cuenta=None):
    """Una llamada ya hecha: con su observación (OK, una observación, o None si no se ejecutó)."""
    if obs == OK:
        obs = resultado(ll["id"], "ok")
    if registro == "lección":
        registro = REGISTROS_DE_LA_LECCION.get(ll["name"])
    return (ll, obs, registro, aprobacion, no_cuenta)


def caso_de_llamadas(id, nombre, llamadas, hechos, decision, configuracion=None):
    caso = {
        "id": id,
        "nombre": nombre,
        "llamadas": llamadas,
        "hechos": hechos,
        "decision": decision,
        "no_cuenta": lambda n, ll: llamadas[n][4],
    }
    if configuracion is not None:
        caso["configuracion"] = configuracion
    return caso


def caso_de_guion(id, nombre, guion, no_cuentan, hechos, decision, puerta=None):
    return {
        "id": id,
        "nombre": nombre,
        "guion": guion,
        "puerta": puerta,
        "hechos": hechos,
        "decision": decision,
        "no_cuenta": lambda n, ll: no_cuentan.get(ll["id"]),
    }


def hechos(calls, valores=None, sumas=None, maximos=None):
    return {"calls": calls, "argValues": valores or {}, "numericSums": sumas or {}, "numericMaximums": maximos or {}}


def pagado(id, beneficiario, importe, clave, **mas):
    """Un pago con concepto de texto libre, como los de la lección."""
    return llamada(
        id,
        "payment_submit",
        beneficiary_id=beneficiario,
        amount=importe,
        concepto="Factura de %s" % clave,
        clave_operacion=clave,
        **mas,
    )


def exportado(id, destino="analitica-interna", registros=620):
    return llamada(id, "customer_export", segmento="activos", record_count=registros, destino=destino)


def aprobada(ll, puerta="filtro-de-salida", decision="aprobar", llamada=None):
    return {"puerta": puerta, "llamada": llamada or ll["id"], "decision": decision}


# --- Los casos visibles ---------------------------------------------------------------

CASO_PAGOS = caso_de_guion(
    "pagos",
    "los pagos de la lección",
    PAGOS,
    {"p06-bis": "repite la operación pago-06, con la misma clave"},
    {
        "payment_submit": hechos(
            12, {"beneficiary_id": ["bene-2201", "bene-2207", "bene-2213"]}, {"amount": 4620}, {"amount": 480}
        )
    },
    PAGOS_A_REVISAR,
)

S1 = llamada("s1", "secret_read", secret_id="clave-api-pagos")
CASO_REINTENTOS = caso_de_llamadas(
    "reintentos",
    "los reintentos",
    [
        hecha(pago(1)),
        hecha(pago(1, id="p01-bis"), no_cuenta="repite la operación pago-01, con otro id de llamada"),
        hecha(pago(2)),
        hecha(pago(2), no_cuenta="la misma llamada p02, entregada otra vez"),
        hecha(pagado("p13", "bene-2201", 480, "pago-13")),  # igual que el pago 1, pero otra operación: cuenta
        hecha(S1),
        hecha(S1, no_cuenta="la misma llamada s1, entregada otra vez (sin clave declarada, la operación es el id)"),
        hecha(llamada("s2", "secret_read", secret_id="clave-api-pagos")),  # otra llamada, otra operación
    ],
    {
        "payment_submit": hechos(3, {"beneficiary_id": ["bene-2201", "bene-2207"]}, {"amount": 1310}, {"amount": 480}),
        "secret_read": hechos(2),
    },
    NADA_COINCIDE,
)

CASO_COMPLETADAS = caso_de_llamadas(
    "completadas",
    "sólo las completadas",
    [
        hecha(pago(1), obs=error("p01", "el banco no responde"), no_cuenta="ha fallado (is_error)"),
        hecha(pago(2), obs=None, no_cuenta="no tiene observación: no se ha ejecutado"),
        hecha(llamada("l1", "leer", ruta="lote.txt"), no_cuenta="leer no tiene registro de hechos"),
        hecha(pago(1, id="p01-bis")),  # el reintento del pago que falló sí cuenta: el fallo no gastó la operación
        hecha(pago(3)),
        hecha(
            llamada("e1", "external_send", destino="https://hooks.example.net/ops", mensaje="hola"),
            obs=error("e1", "destino no disponible"),
            no_cuenta="ha fallado (is_error)",
        ),
    ],
    {"payment_submit": hechos(2, {"beneficiary_id": ["bene-2201", "bene-2213"]}, {"amount": 890}, {"amount": 480})},
    NADA_COINCIDE,
)

SOPORTE = {"run_fact_arg_keys": ["ticket"], "run_fact_numeric_keys": ["minutos"]}
CASO_DECLARADOS = caso_de_llamadas(
    "declarados",
    "sólo cruza lo declarado",
    [
        hecha(pagado("d1", "bene-2201", 300, "pago-d1", cuenta_destino="ES76-2100-0418", comision=15)),
        hecha(pagado("d2", "Pago a Juan García, cuenta ES76 2100", 250, "pago-d2")),
        hecha(llamada("d3", "customer_enumeration", segmento="activos")),
        hecha(llamada("d4", "customer_enumeration", segmento="activos; y los inactivos también")),
        hecha(
            llamada("d5", "external_send", destino="https://hooks.example.net/ops", mensaje="sk-live-51Hx-SINTETICA")
        ),
        hecha(llamada("d6", "abre_ticket", asunto="no funciona"), registro=SOPORTE),  # declara campos que no trae
    ],
    {
        "payment_submit": hechos(2, {"beneficiary_id": ["bene-2201"]}, {"amount": 550}, {"amount": 300}),
        "customer_enumeration": hechos(2, {"segmento": ["activos"]}),
        "external_send": hechos(1),
        "abre_ticket": hechos(1),
    },
    NADA_COINCIDE,
)

CASO_NUMEROS = caso_de_llamadas(
    "numeros",
    "sólo números finitos",
    [
        hecha(pagado("n1", "bene-2201", 480, "pago-n1")),
        hecha(pagado("n2", "bene-2207", "480", "pago-n2")),
        hecha(pagado("n3", "bene-2213", float("inf"), "pago-n3")),
        hecha(pagado("n4", "bene-2219", float("nan"), "pago-n4")),
        hecha(pagado("n5", "bene-2225", True, "pago-n5")),
        hecha(pagado("n6", 2231, 120.5, "pago-n6")),  # un beneficiario que es un número no es un identificador
        hecha(pagado("n7", "bene-2237", None, "pago-n7")),
        hecha(pagado("n8", "bene-2243", -3000, "pago-n8")),  # un negativo restaría de la suma: no cruza
        hecha(pagado("n9", "bene-2249", 0, "pago-n9")),  # el cero sí
        hecha(
            llamada("n10", "abre_ticket", ticket="tk-7", minutos=-15), registro=SOPORTE
        ),  # sólo un negativo: sin clave
    ],
    {
        "payment_submit": hechos(
            9,
            {
                "beneficiary_id": [
                    "bene-2201",
                    "bene-2207",
                    "bene-2213",
                    "bene-2219",
                    "bene-2225",
                    "bene-2237",
                    "bene-2243",
                    "bene-2249",
                ]
            },
            {"amount": 600.5},
            {"amount": 480},
        ),
        "abre_ticket": hechos(1, {"ticket": ["tk-7"]}),
    },
    NADA_COINCIDE,
)

BENEFICIARIOS_DE_TOPES = ["bene-3001"] * 5 + ["bene-%d" % n for n in range(3002, 3037)]  # 40 pagos, 36 distintos
CASO_TOPES = caso_de_llamadas(
    "topes",
    "como mucho 32 valores, sin repetir",
    [hecha(pagado("t%02d" % n, bene, 100 + n, "pago-t%02d" % n)) for n, bene in enumerate(BENEFICIARIOS_DE_TOPES, 1)],
    {
        "payment_submit": hechos(
            40, {"beneficiary_id": ["bene-%d" % n for n in range(3001, 3033)]}, {"amount": 4820}, {"amount": 140}
        )
    },
    PAGOS_A_REVISAR,
)

E1, E2, E3, E4, E5 = (exportado("e%d" % n) for n in range(1, 6))
CASO_PUERTAS = caso_de_llamadas(
    "puertas",
    "la salida con puerta",
    [
        hecha(E1, no_cuenta="su puerta no ha decidido"),
        hecha(E2, aprobacion=aprobada(E2, decision="rechazar"), no_cuenta="su puerta la ha rechazado"),
        hecha(E3, aprobacion=aprobada(E3, puerta="otra-puerta"), no_cuenta="la ha aprobado otra puerta"),
        hecha(E4, aprobacion=aprobada(E4, llamada="e1"), no_cuenta="su puerta ha aprobado otra llamada, e1"),
        hecha(E5, aprobacion="aprobar", no_cuenta="la aprobación no es una decisión de su puerta"),
        hecha(
            exportado("e6", registros=600),
            obs=error("e6", "disco lleno"),
            aprobacion=aprobada(exportado("e6")),
            no_cuenta="ha fallado (is_error), aunque su puerta la apruebe",
        ),
        hecha(llamada("c1", "customer_enumeration", segmento="activos")),
        hecha(E5, aprobacion=aprobada(E5)),
    ],
    {
        "customer_export": hechos(
            1, {"segmento": ["activos"], "destino": ["analitica-interna"]}, {"record_count": 620}, {"record_count": 620}
        ),
        "customer_enumeration": hechos(1, {"segmento": ["activos"]}),
    },
    ("require_approval", "run-tool-chain-enumeration-then-export", "security_reviewers"),
)

CASO_SECRETO = caso_de_guion(
    "secreto",
    "el secreto y el envío de la lección",
    SECRETO,
    {},
    {"secret_read": hechos(1), "external_send": hechos(1)},
    ("block", "run-tool-chain-secret-then-external", None),
)
AUDITORIA = {}  # un registro sin ninguna lista: también cuenta calls
CASO_REGISTRO_VACIO = caso_de_llamadas(
    "registro-vacio",
    "un registro sin campos",
    [
        hecha(llamada("a1", "audita", nota="revisión trimestral"), registro=AUDITORIA),
        hecha(llamada("a2", "audita", nota="revisión trimestral"), registro=AUDITORIA),
    ],
    {"audita": hechos(2)},
    NADA_COINCIDE,
)


def con_su_parte_oculta(nombre, banco, pista):
    """En el calificador, los casos ocultos de esta prueba (PARTES_OCULTAS, en ocultas.py).

    Son de la misma clase que el visible, con otros valores, otros ids y otro orden; en tu cuaderno
    no hay ninguno. Si uno no pasa, se dice cuál y la pista, nunca el detalle.
    """
    casos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, caso in enumerate(casos, 1):
        with oculta(n, len(casos), pista):
            repite(banco, caso)


# --- Las pruebas ----------------------------------------------------------------------


def prueba_pagos(banco):
    """Los pagos de la lección: 12 llamadas, 3 beneficiarios, 4620 y 480, y la aprobación."""
    repite(banco, CASO_PAGOS)
    con_su_parte_oculta(
        "pagos", banco, "¿Cuentas cada operación una vez y sumas y guardas el máximo de cada importe que cruza?"
    )


def prueba_reintentos(banco):
    """Una operación entregada dos veces cuenta una vez; otra operación igual, otra vez."""
    repite(banco, CASO_REINTENTOS)
    con_su_parte_oculta(
        "reintentos",
        banco,
        "¿Reconoces la operación por su resumen (resumen_de_operacion), y no por el id ni por el importe?",
    )


def prueba_completadas(banco):
    """Sólo cuentan las llamadas completadas de herramientas con registro."""
    repite(banco, CASO_COMPLETADAS)
    con_su_parte_oculta(
        "completadas", banco, "¿Descartas, antes de nada, lo que no tiene registro, no tiene observación o es un error?"
    )


def prueba_declarados(banco):
    """Sólo cruzan los campos declarados y con forma de identificador: ni otros campos ni texto libre."""
    repite(banco, CASO_DECLARADOS)
    con_su_parte_oculta(
        "declarados", banco, "¿Recorres los campos del registro, y no los de la entrada, con es_identificador?"
    )


def prueba_numeros(banco):
    """Sólo números finitos y no negativos: ni "480", ni infinito, ni nan, ni True, ni -3000."""
    repite(banco, CASO_NUMEROS)
    con_su_parte_oculta("numeros", banco, "¿Cruzan sólo los números finitos y no negativos (es_numero_finito y >= 0)?")


def prueba_topes(banco):
    """Como mucho 32 valores por campo, sin repetir, y las sumas con todos."""
    repite(banco, CASO_TOPES)
    con_su_parte_oculta("topes", banco, "¿Dejas de añadir valores al llegar a LIMITE_DE_VALORES, sin dejar de sumar?")


def prueba_puertas(banco):
    """Una salida con puerta sólo cuenta cuando su puerta aprueba esa llamada."""
    repite(banco, CASO_PUERTAS)
    con_su_parte_oculta(
        "puertas", banco, "¿Usas aprueba_su_puerta con la puerta que declara el registro, sea cual sea su nombre?"
    )


def prueba_registrada(banco):
    """Una herramienta registrada sin campos declarados cuenta sus llamadas."""
    repite(banco, CASO_SECRETO)
    repite(banco, CASO_REGISTRO_VACIO)
    con_su_parte_oculta(
        "registrada",
        banco,
        "¿Suma calls una herramienta registrada aunque no declare campos, con la clave de clave_de_hechos?",
    )


def prueba_variaciones(banco, variaciones):
    """Otra configuración, nueve pagos pequeños y uno grande, más de 32 beneficiarios."""
    pista = (
        "¿Sale todo del registro que recibes (campos, clave de operación, run_fact_key), sin nombres "
        "de herramienta ni números fijos?"
    )
    for n, caso in enumerate(variaciones, 1):
        with oculta(n, len(variaciones), pista):
            repite(banco, caso)


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "pagos": (1, prueba_pagos),
    "reintentos": (1, prueba_reintentos),
    "completadas": (1, prueba_completadas),
    "declarados": (1, prueba_declarados),
    "numeros": (1, prueba_numeros),
    "topes": (1, prueba_topes),
    "puertas": (1, prueba_puertas),
    "registrada": (1, prueba_registrada),
    "variaciones": (2, prueba_variaciones),
}
