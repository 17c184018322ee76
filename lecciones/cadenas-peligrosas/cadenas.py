"""Cadenas peligrosas: hechos de la ejecución, reglas y puntos de control.

El permiso por llamada no tiene memoria: decide sobre una llamada sin saber qué
ha hecho ya la ejecución. Este fichero añade lo que falta para ver la cadena:

1. Herramientas de operaciones (secretos, envíos, clientes, pagos) que declaran
   en su registro qué campos cruzan a los hechos de la ejecución.
2. El acumulador: por herramienta, calls, argValues, numericSums y
   numericMaximums. Sólo lo actualizan las llamadas completadas.
3. Tres plantillas de reglas que se generan desde la configuración, y un
   evaluador pequeño de expresiones JSON-logic sobre context.run.tools.
4. El punto de control: block, require_approval, warn o allow, con su evidencia.

Se carga después de guionizado.py, entorno.py y harness.py, en el mismo espacio
de nombres (exec(open("cadenas.py").read())): usa leer de entorno.py y bucle,
ejecutar, error, problema_de_llamada y llamadas_de de harness.py. Sólo biblioteca estándar.
"""

import hashlib
import json
import math
import re

# --- Las herramientas de operaciones y su registro ------------------------------

# Todo lo que guarda una ejecución tiene tope, para que una herramienta que devuelve mucho no haga crecer
# sin fin el estado del flujo. Las cifras son de este laboratorio: un sistema real elige las suyas.
LIMITE_DE_CLAVES = 32  # campos por lista declarada en el registro de una herramienta
LIMITE_DE_VALORES = 32  # valores distintos que se guardan de cada campo identificador
LIMITE_DE_OPERACIONES = 1000  # operaciones distintas que recuerda una ejecución


def _clientes(n):
    """Un CSV de clientes sintéticos: cli-0001, cli-0002..."""
    filas = ["id,nombre,email"]
    filas += ["cli-%04d,Cliente %d,cliente%d@example.com" % (i, i, i) for i in range(1, n + 1)]
    return "\n".join(filas)


ENTORNO_DE_OPERACIONES = {
    "secretos/clave-api-pagos": "sk-live-51Hx-SINTETICA",
    "clientes/activos.csv": _clientes(620),
    "lote.txt": "",  # los pagos preparados, que sólo salen cuando se libera el lote
    "enviados.txt": "",  # lo que ha salido hacia destinos externos
}


def secret_read(entorno, secret_id):
    """Devuelve un secreto guardado."""
    return leer(entorno, "secretos/" + secret_id)


def external_send(entorno, destino, mensaje):
    """Envía un mensaje a un destino externo (aquí: lo apunta en enviados.txt)."""
    entorno["enviados.txt"] += "%s <- %s\n" % (destino, mensaje)
    return "enviado a " + destino


def customer_enumeration(entorno, segmento):
    """Cuenta los clientes de un segmento y enseña los primeros."""
    filas = leer(entorno, "clientes/%s.csv" % segmento).splitlines()[1:]
    ids = [fila.split(",")[0] for fila in filas]
    return "%d clientes en %s: %s ... %s" % (len(ids), segmento, ", ".join(ids[:3]), ids[-1])


def customer_export(entorno, segmento, record_count, destino):
    """Exporta los primeros record_count clientes de un segmento a un destino."""
    # Con un negativo, filas[:record_count + 1] cortaría por el final: -5 exportaría 616 registros
    # y los hechos sumarían -5. Lo que se exporta tiene que ser lo que se anota.
    if isinstance(record_count, bool) or not isinstance(record_count, int) or record_count < 0:
        raise ValueError("record_count tiene que ser un entero mayor o igual que 0")
    filas = leer(entorno, "clientes/%s.csv" % segmento).splitlines()
    entorno["exportaciones/" + destino] = "\n".join(filas[: record_count + 1])
    return "exportados %d registros de %s a %s" % (min(record_count, len(filas) - 1), segmento, destino)


def payment_submit(entorno, beneficiary_id, amount, concepto, clave_operacion):
    """Prepara un pago en el lote. Con la misma clave de operación no paga dos veces."""
    # El lote es una línea por pago, separada por espacios: un beneficiario con un salto de línea
    # dentro colaría otro pago, que los hechos no verían. Sólo se escriben identificadores.
    if not es_identificador(beneficiary_id) or not es_identificador(clave_operacion):
        raise ValueError("beneficiary_id y clave_operacion son identificadores, sin espacios ni saltos de línea")
    if not es_numero_finito(amount):
        raise ValueError("amount tiene que ser un número finito")
    if amount <= 0:  # un pago negativo restaría de la suma que mira la regla 3
        raise ValueError("amount tiene que ser mayor que 0")
    if clave_operacion in [linea.split()[0] for linea in entorno["lote.txt"].splitlines()]:
        return "el pago %s ya estaba en el lote" % clave_operacion
    entorno["lote.txt"] += "%s %s %s\n" % (clave_operacion, beneficiary_id, amount)
    return "pago %s en el lote: %s a %s" % (clave_operacion, amount, beneficiary_id)


def libera_lote(entorno):
    """El paso final y consecuente del flujo: los pagos del lote salen de verdad."""
    pagos = entorno["lote.txt"].splitlines()
    entorno["liberados.txt"] = entorno.get("liberados.txt", "") + entorno["lote.txt"]
    entorno["lote.txt"] = ""
    return "lote liberado: %d pagos, total %g" % (len(pagos), sum(float(p.split()[2]) for p in pagos))


def _esquema(propiedades):
    """Esquema de argumentos: todos obligatorios y ninguno más."""
    return {"type": "object", "properties": propiedades, "required": list(propiedades), "additionalProperties": False}


def _tipo(tipo, descripcion):
    return {"type": tipo, "description": descripcion}


# Cada herramienta lleva, además de lo de siempre, su registro de hechos en
# "metadata": qué campos de la entrada cruzan al acumulador. Lo que no se
# declara (el concepto de un pago, el texto de un mensaje) no cruza nunca.
HERRAMIENTAS_DE_OPERACIONES = {
    "secret_read": {
        "description": "Lee un secreto guardado, por ejemplo una clave de API.",
        "input_schema": _esquema({"secret_id": _tipo("string", "Nombre del secreto")}),
        "funcion": secret_read,
        # Declarada sin campos: sólo cuenta calls, y eso basta para saber que ocurrió.
        "metadata": {"run_fact_arg_keys": [], "run_fact_numeric_keys": []},
    },
    "external_send": {
        "description": "Envía un mensaje a un webhook externo.",
        "input_schema": _esquema(
            {"destino": _tipo("string", "URL del webhook"), "mensaje": _tipo("string", "Texto del aviso")}
        ),
        "funcion": external_send,
        "metadata": {"run_fact_arg_keys": [], "run_fact_numeric_keys": []},
    },
    "customer_enumeration": {
        "description": "Cuenta y enumera los clientes de un segmento.",
        "input_schema": _esquema({"segmento": _tipo("string", "Segmento, por ejemplo activos")}),
        "funcion": customer_enumeration,
        "metadata": {"run_fact_arg_keys": ["segmento"], "run_fact_numeric_keys": []},
    },
    "customer_export": {
        "description": "Exporta registros de clientes de un segmento a un destino.",
        "input_schema": _esquema(
            {
                "segmento": _tipo("string", "Segmento"),
                "record_count": _tipo("integer", "Cuántos registros exportar"),
                "destino": _tipo("string", "Destino de la exportación"),
            }
        ),
        "funcion": customer_export,
        # Su salida tiene puerta propia: el hecho sólo cuenta si esa puerta aprueba.
        "metadata": {
            "run_fact_arg_keys": ["segmento", "destino"],
            "run_fact_numeric_keys": ["record_count"],
            "puerta_de_salida": "filtro-de-salida",
        },
    },
    "payment_submit": {
        "description": "Prepara un pago en el lote. Los de 500 o más necesitan aprobación.",
        "input_schema": _esquema(
            {
                "beneficiary_id": _tipo("string", "Beneficiario, por ejemplo bene-2201"),
                "amount": _tipo("number", "Importe"),
                "concepto": _tipo("string", "Texto libre del pago"),
                "clave_operacion": _tipo("string", "La misma en los reintentos"),
            }
        ),
        "funcion": payment_submit,
        # clave_operacion identifica la operación: un reintento con la misma clave cuenta una vez.
        "metadata": {
            "run_fact_arg_keys": ["beneficiary_id"],
            "run_fact_numeric_keys": ["amount"],
            "operacion": "clave_operacion",
        },
    },
}


def registros_de(herramientas):
    """{nombre: registro de hechos} de las herramientas que lo declaran, comprobado."""
    registros = {}
    for nombre, h in herramientas.items():
        if "metadata" in h:
            registro = h["metadata"]
            if not isinstance(registro, dict):
                raise ValueError("el registro de hechos de %s tiene que ser un objeto" % nombre)
            for lista in ("run_fact_arg_keys", "run_fact_numeric_keys"):
                campos = registro.get(lista, [])
                # Un texto en vez de una lista se recorrería letra a letra: ningún campo cruzaría y
                # las reglas que lo leen quedarían apagadas sin avisar. Mejor que falle al cargar.
                if not isinstance(campos, list) or not all(isinstance(c, str) for c in campos):
                    raise ValueError("%s: %s tiene que ser una lista de nombres de campo" % (nombre, lista))
                if len(campos) > LIMITE_DE_CLAVES:
                    raise ValueError("%s declara más de %d campos en %s" % (nombre, LIMITE_DE_CLAVES, lista))
            for clave in ("run_fact_key", "operacion", "puerta_de_salida"):
                if clave in registro and not (isinstance(registro[clave], str) and registro[clave]):
                    raise ValueError("%s: %s tiene que ser un texto" % (nombre, clave))
            registros[nombre] = registro
    return registros


# --- La proyección: lo único que cruza de una llamada a los hechos -------------

ES_IDENTIFICADOR = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")


def es_identificador(valor):
    """¿Tiene forma de identificador (bene-2201, activos), y no de texto libre?"""
    return isinstance(valor, str) and ES_IDENTIFICADOR.fullmatch(valor) is not None


def es_numero_finito(valor):
    """¿Es un número de verdad y finito? Ni True, ni "480", ni infinito."""
    return isinstance(valor, (int, float)) and not isinstance(valor, bool) and math.isfinite(valor)


def clave_de_hechos(nombre, registro):
    """La clave de la herramienta en context.run.tools: la declarada o su nombre saneado."""
    return registro.get("run_fact_key") or re.sub(r"[^a-z0-9_]", "_", nombre.lower())


def resumen_de_operacion(clave, ll, registro):
    """Un resumen opaco de la operación: el mismo en cada reintento, sin enseñar la entrada.

    La operación es el valor del argumento que declara el registro o, si no hay,
    el id de la llamada. Una clave declarada sólo vale si la herramienta también
    la respeta: payment_submit no paga dos veces con la misma clave_operacion.
    """
    argumento = registro.get("operacion")
    operacion = ll["input"].get(argumento) if argumento else None
    if operacion is None:
        operacion = ll["id"]
    return hashlib.sha256(("%s|%s" % (clave, operacion)).encode("utf-8")).hexdigest()[:16]


def aprueba_su_puerta(aprobacion, puerta, ll):
    """¿Aprueba esta decisión la puerta de salida de esta herramienta, para esta llamada?"""
    return (
        isinstance(aprobacion, dict)
        and aprobacion.get("puerta") == puerta
        and aprobacion.get("llamada") == ll["id"]
        and aprobacion.get("decision") == "aprobar"
    )


def proyecta(ll, obs, registro, ejecucion, aprobacion=None):
    """La observación de hechos de una llamada, o None si no aporta nada.

    Sólo aportan las llamadas completadas de herramientas con registro, y si la
    salida tiene puerta, sólo cuando su propia puerta la ha aprobado. Cruzan los
    campos declarados, y sólo con valores de identificador o números finitos.
    """
    if registro is None or obs is None or obs.get("is_error"):
        return None
    puerta = registro.get("puerta_de_salida")
    if puerta and not aprueba_su_puerta(aprobacion, puerta, ll):
        return None
    entrada, clave = ll["input"], clave_de_hechos(ll["name"], registro)
    return {
        "inquilino": ejecucion["inquilino"],
        "ejecucion": ejecucion["id"],
        "herramienta": clave,
        "operacion": resumen_de_operacion(clave, ll, registro),
        "valores": {c: entrada[c] for c in registro.get("run_fact_arg_keys", []) if es_identificador(entrada.get(c))},
        "numeros": {
            c: entrada[c] for c in registro.get("run_fact_numeric_keys", []) if es_numero_finito(entrada.get(c))
        },
    }


# --- El acumulador de la ejecución ---------------------------------------------


def nueva_ejecucion(inquilino, id):
    """Una ejecución vacía: sus hechos (tools), sus decisiones y su estado."""
    return {
        "inquilino": inquilino,
        "id": id,
        "estado": "en_curso",
        "tools": {},
        "operaciones": [],
        "puertas": [],
        "decisiones": [],
        "avisos": [],
    }


def hechos_vacios():
    return {"calls": 0, "argValues": {}, "numericSums": {}, "numericMaximums": {}}


def acumula(ejecucion, observacion):
    """Suma una observación de hechos a la ejecución. Devuelve si la ha contado."""
    if (observacion["inquilino"], observacion["ejecucion"]) != (ejecucion["inquilino"], ejecucion["id"]):
        return False  # de otro inquilino o de otra ejecución: no es nuestra
    if observacion["operacion"] in ejecucion["operaciones"]:
        return False  # un reintento de una operación ya contada
    # Con la lista llena se sigue contando: mejor contar dos veces un reintento
    # que dejar de ver operaciones nuevas.
    if len(ejecucion["operaciones"]) < LIMITE_DE_OPERACIONES:
        ejecucion["operaciones"].append(observacion["operacion"])
    hechos = ejecucion["tools"].setdefault(observacion["herramienta"], hechos_vacios())
    hechos["calls"] += 1
    for campo, valor in observacion["valores"].items():
        vistos = hechos["argValues"].setdefault(campo, [])
        if valor not in vistos and len(vistos) < LIMITE_DE_VALORES:
            vistos.append(valor)
    for campo, numero in observacion["numeros"].items():
        hechos["numericSums"][campo] = hechos["numericSums"].get(campo, 0) + numero
        hechos["numericMaximums"][campo] = max(hechos["numericMaximums"].get(campo, numero), numero)
    return True


def anota_llamada(ejecucion, ll, obs, registro, aprobacion=None):
    """Proyecta una llamada y acumula lo que aporte. Devuelve si ha contado."""
    observacion = proyecta(ll, obs, registro, ejecucion, aprobacion)
    return observacion is not None and acumula(ejecucion, observacion)


def anota_paso(ejecucion, nuevos, registros):
    """Tras un paso del agente: anota cada llamada del paso con su observación.

    nuevos son los mensajes que el paso ha añadido a M. Cada llamada va con la observación
    que ocupa su mismo lugar en el mensaje siguiente (bucle contesta en orden), y no con la
    que trae su mismo id: el modelo elige los ids, y dos llamadas de un paso pueden repetirlo
    para que la observación de un fallo tape la de un pago hecho. La decisión de la puerta de
    salida de cada llamada se tomó antes de ejecutarla, y llega en el mismo orden.
    """
    decididas = ejecucion.pop("decididas_en_el_paso", [])  # una por llamada ejecutada, en orden
    for n, (rol, contenido) in enumerate(nuevos):
        if rol != "asistente" or not isinstance(contenido, list):
            continue
        llamadas = llamadas_de(contenido)
        siguiente = nuevos[n + 1] if n + 1 < len(nuevos) else (None, None)
        observaciones = siguiente[1] if siguiente[0] == "usuario" and isinstance(siguiente[1], list) else []
        if len(observaciones) != len(llamadas):  # sin una observación por llamada, no sé cuál es de cuál
            observaciones = [None] * len(llamadas)
        for ll, obs in zip(llamadas, observaciones, strict=True):
            aprobacion = decididas.pop(0) if decididas else None
            registro = registros.get(ll["name"]) if isinstance(ll.get("name"), str) else None
            anota_llamada(ejecucion, ll, obs, registro, aprobacion)


# --- La puerta de salida: decide antes de que la herramienta actúe --------------


def pregunta_a_su_puerta(ll, nombre_de_la_puerta, puerta):
    """La decisión de la puerta sobre la llamada. Sin puerta, o si la puerta falla, se rechaza."""
    rechazo = {"puerta": nombre_de_la_puerta, "llamada": ll["id"], "decision": "rechazar"}
    if puerta is None:
        return dict(rechazo, motivo="no hay ninguna puerta a la que preguntar")
    try:
        aprobacion = puerta(ll)
    except Exception as fallo:  # una puerta que falla no aprueba nada
        return dict(rechazo, motivo="la puerta ha fallado: %s" % type(fallo).__name__)
    return aprobacion if isinstance(aprobacion, dict) else dict(rechazo, motivo="la puerta no ha decidido")


def id_ya_usado(ejecucion, id):
    """Por qué no se ejecuta una llamada con este id, o None (y lo apunta como usado).

    Sin clave de operación declarada, el acumulador reconoce un reintento por el id. Eso sólo
    vale si el id identifica de verdad una operación: con dos llamadas hechas con el mismo id
    (dos exportaciones de 400), los hechos contarían una. Por eso la segunda no se ejecuta.
    """
    usados = ejecucion.setdefault("ids_usados", [])
    if id in usados:
        return "el id «%s» ya se ha usado en esta ejecución: cada llamada lleva uno nuevo" % id
    if len(usados) >= LIMITE_DE_OPERACIONES:  # sin sitio para recordarlo, no se puede saber si se repite
        return "la ejecución ha llegado a su tope de %d llamadas" % LIMITE_DE_OPERACIONES
    usados.append(id)
    return None


def ejecutar_con_puertas(ejecutar_de_siempre, ejecucion, registros, puerta):
    """ejecutar con las puertas de salida delante: una salida con puerta sólo se ejecuta si la aprueba.

    Como en «Permisos y confianza», la decisión va antes del efecto: una exportación
    rechazada no llega a ejecutarse, así que no entrega nada. El rechazo queda en
    ejecucion["puertas"], y los puntos de control lo enseñan en su registro.
    """

    def ejecutar_aqui(ll, entorno):
        # Una decisión (o None) por cada llamada, en el orden en que se ejecutan: anota_paso las
        # empareja por posición, porque dos llamadas de un paso pueden traer el mismo id.
        decididas = ejecucion.setdefault("decididas_en_el_paso", [])
        decididas.append(None)
        if problema_de_llamada(ll):
            return ejecutar_de_siempre(ll, entorno)
        repetido = id_ya_usado(ejecucion, ll["id"])
        if repetido:
            return error(ll["id"], NO_EJECUTADA + repetido)
        registro = registros.get(ll["name"]) or {}
        nombre_de_la_puerta = registro.get("puerta_de_salida")
        if nombre_de_la_puerta:
            aprobacion = pregunta_a_su_puerta(ll, nombre_de_la_puerta, puerta)
            ejecucion["puertas"].append(aprobacion)
            decididas[-1] = aprobacion
            if not aprueba_su_puerta(aprobacion, nombre_de_la_puerta, ll):
                return error(
                    ll["id"],
                    NO_EJECUTADA + "la puerta «%s» ha rechazado esta salida" % nombre_de_la_puerta,
                )
        return ejecutar_de_siempre(ll, entorno)

    return ejecutar_aqui


def un_paso(modelo, M, entorno, ejecucion, registros, puerta):
    """Un paso del bucle de siempre, con las puertas de salida dentro de ejecutar.

    bucle busca ejecutar al llamarla: mientras dura el paso, encuentra la que
    pregunta a las puertas, y al terminar vuelve la de harness.py.
    """
    global ejecutar
    de_siempre = ejecutar
    ejecutar = ejecutar_con_puertas(de_siempre, ejecucion, registros, puerta)
    try:
        return bucle(modelo, M, entorno, 1)
    finally:
        ejecutar = de_siempre


def salidas_rechazadas(ejecucion):
    """Las decisiones de puerta de la ejecución que no han aprobado su salida."""
    return [p for p in ejecucion["puertas"] if p.get("decision") != "aprobar"]


# --- Reglas: las tres plantillas y el documento de política ---------------------

PREFIJO = "context.run.tools."


def _var(herramienta, hecho):
    return {"var": PREFIJO + herramienta + "." + hecho}


def _regla(id, nombre, descripcion, condiciones, resultado, motivo, codigo, grupo=None):
    """Una regla de política ordinaria: cuándo, qué decide y qué campos evalúa.

    Los identificadores, los códigos de motivo, el nombre y la descripción son los del documento
    de política original, en inglés, como los nombres de las herramientas. El motivo (reason) es
    lo que lee la persona que revisa o audita una decisión, y va en español.
    """
    entonces = {"decision": resultado, "reason": motivo, "reasonCodes": [codigo]}
    if resultado == "require_approval":
        entonces["approverGroup"] = grupo
    return {
        "ruleId": id,
        "name": nombre,
        "description": descripcion,
        "when": {"expression": {"and": condiciones}},
        "then": entonces,
        "execution": {"mode": "deterministic"},
        "evidence": {"evaluatedFields": [_campo(c) for c in condiciones], "artifactRefs": []},
    }


def _campo(condicion):
    """La ruta del hecho que compara una condición: {">": [{"var": ruta}, 0]} -> ruta."""
    [(_, (variable, _))] = condicion.items()
    return variable["var"]


def regla_secreto_y_envio(c):
    """Un secreto leído y un envío externo en la misma ejecución, en cualquier orden."""
    return _regla(
        "run-tool-chain-secret-then-external",
        "Secret retrieval and external send co-occur",
        "Detects configured secret retrieval and external-send calls that co-occur before a checkpoint. "
        "Version 1 does not establish call order.",
        [{">": [_var(c["herramienta_de_secreto"], "calls"), 0]}, {">": [_var(c["herramienta_de_envio"], "calls"), 0]}],
        c["resultado"],
        "La ejecución ha leído un secreto y ha llegado a un destino externo antes de este punto de control.",
        "run_chain_secret_then_external",
        c.get("grupo_aprobador"),
    )


def regla_enumeracion_y_exportacion(c):
    """Clientes enumerados y una exportación que llega al volumen configurado."""
    return _regla(
        "run-tool-chain-enumeration-then-export",
        "Customer enumeration and large export co-occur",
        "Detects configured customer enumeration and large export facts that co-occur before a checkpoint. "
        "Version 1 does not establish call order.",
        [
            {">": [_var(c["herramienta_de_enumeracion"], "calls"), 0]},
            {">=": [_var(c["herramienta_de_exportacion"], "numericSums." + c["campo_de_registros"]), c["volumen"]]},
        ],
        c["resultado"],
        "La ejecución ha enumerado clientes y ha exportado registros hasta el volumen configurado o más.",
        "run_chain_enumeration_then_export",
        c.get("grupo_aprobador"),
    )


def regla_acciones_repetidas(c):
    """Muchas llamadas pequeñas que suman mucho: la firma de partir un importe."""
    h, campo = c["herramienta"], c["campo_de_importe"]
    return _regla(
        "run-tool-chain-repeated-low-value-actions",
        "Repeated low-value actions exceed aggregate threshold",
        "Detects configured repeated actions whose every declared amount is at or below the configured "
        "per-call bound and whose aggregate crosses the configured threshold.",
        [
            {">=": [_var(h, "calls"), c["llamadas_minimas"]]},
            {">=": [_var(h, "numericSums." + campo), c["total_minimo"]]},
            # El máximo evita que unas pocas llamadas grandes pasen por «repetidas y pequeñas». Pero es el de
            # toda la ejecución: un solo pago grande (aprobado por llamada) apaga la regla para lo que venga.
            {"<=": [_var(h, "numericMaximums." + campo), c["maximo_por_llamada"]]},
        ],
        c["resultado"],
        "Pagos repetidos por debajo del tope por llamada han cruzado el umbral agregado.",
        "run_chain_repeated_low_value",
        c.get("grupo_aprobador"),
    )


def reglas_de_cadenas_peligrosas(configuracion):
    """Las tres reglas deterministas, generadas desde la configuración del inquilino."""
    return [
        regla_secreto_y_envio(configuracion["secreto_y_envio"]),
        regla_enumeracion_y_exportacion(configuracion["enumeracion_y_exportacion"]),
        regla_acciones_repetidas(configuracion["acciones_repetidas"]),
    ]


CONFIGURACION = {  # lo que decide el inquilino: herramientas, campos, umbrales y resultados
    "secreto_y_envio": {
        "herramienta_de_secreto": "secret_read",
        "herramienta_de_envio": "external_send",
        "resultado": "block",
    },
    "enumeracion_y_exportacion": {
        "herramienta_de_enumeracion": "customer_enumeration",
        "herramienta_de_exportacion": "customer_export",
        "campo_de_registros": "record_count",
        "volumen": 500,
        "resultado": "require_approval",
        "grupo_aprobador": "security_reviewers",
    },
    "acciones_repetidas": {
        "herramienta": "payment_submit",
        "campo_de_importe": "amount",
        "llamadas_minimas": 10,
        "total_minimo": 4000,
        "maximo_por_llamada": 500,
        "resultado": "require_approval",
        "grupo_aprobador": "payments_reviewers",
    },
}

DATOS_DE_LA_POLITICA = {
    "schemaVersion": "1.0.0",
    "policyId": "pol_run_tool_chain_checkpoints",
    "workspaceId": "workspace-regulated-operations",
    "name": "Run tool-chain checkpoints",
    "description": "Evaluates accumulated run facts at workflow checkpoints for dangerous tool-call "
    "co-occurrences and aggregates.",
    "status": "draft",
    "version": "1.0.0",
    "policyKind": "guardrail",
    "scope": {"workflowIds": [], "agentIds": [], "stepIds": [], "environments": ["prod"]},
    "defaultDecision": "allow",
}


def politica(reglas, datos=DATOS_DE_LA_POLITICA):
    """El documento de política: los datos de la versión y sus reglas."""
    return dict(json.loads(json.dumps(datos)), rules=reglas)  # una copia: nadie cambia los datos


# --- El evaluador: JSON-logic sobre los hechos ----------------------------------

COMPARACIONES = {
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def valor_de(ruta, datos):
    """El valor en una ruta con puntos (context.run.tools.x.calls), o None si falta."""
    for parte in ruta.split("."):
        if not isinstance(datos, dict) or parte not in datos:
            return None
        datos = datos[parte]
    return datos


def evalua(expresion, datos):
    """Evalúa una expresión JSON-logic: var, and, or, ! y comparaciones.

    Es un subconjunto estricto, no JsonLogic estándar: en una comparación, un hecho
    que falta (una herramienta que no se ha llamado) o un valor que no es un número
    da falso, mientras que en JsonLogic null se compara como 0 ({"<=": [null, 500]}
    es cierto allí y falso aquí). Ojo: ! invierte ese falso, así que {"!": {"<=": ...}}
    sobre un hecho que falta da cierto. Lo que está mal escrito lanza: un operador
    desconocido, un número de argumentos que no es el suyo, un and o un or vacíos, o
    un umbral que no es un número ({">=": [..., "500"]} no coincidiría nunca y apagaría
    la regla sin avisar). El punto de control lo trata como un motor que falla, y se cierra.
    """
    if not isinstance(expresion, dict):
        return expresion  # un literal: 0, 500...
    if len(expresion) != 1:
        raise ValueError("una expresión lleva un solo operador y lleva %d" % len(expresion))
    [(operador, argumentos)] = expresion.items()
    if operador == "var":
        if isinstance(argumentos, list) and len(argumentos) == 1:
            argumentos = argumentos[0]  # {"var": [ruta]} es lo mismo que {"var": ruta}
        if not isinstance(argumentos, str):
            raise ValueError("var espera una ruta de texto (sin valor por defecto)")
        return valor_de(argumentos, datos)
    if not isinstance(argumentos, list):
        argumentos = [argumentos]  # JsonLogic admite {"!": x} como {"!": [x]}
    valores = [evalua(a, datos) for a in argumentos]
    if operador in ("and", "or"):
        if not valores:  # un and vacío sería cierto y un or vacío, falso: una regla así está mal escrita
            raise ValueError("%s necesita al menos un argumento" % operador)
        return all(valores) if operador == "and" else any(valores)
    if operador == "!":
        _cuantos(operador, valores, 1)
        return not valores[0]
    if operador in COMPARACIONES:
        _cuantos(operador, valores, 2)
        for literal in argumentos:  # un umbral de la regla que no es un número: la regla está mal escrita
            if not isinstance(literal, dict) and not es_numero_finito(literal):
                raise ValueError("%s compara números, y %r no lo es" % (operador, literal))
        a, b = valores
        return es_numero_finito(a) and es_numero_finito(b) and COMPARACIONES[operador](a, b)
    raise ValueError("operador desconocido: %s" % operador)


def _cuantos(operador, valores, n):
    if len(valores) != n:
        raise ValueError("%s espera %d argumento(s) y tiene %d" % (operador, n, len(valores)))


# --- El punto de control ----------------------------------------------------------

GRAVEDAD = {"allow": 0, "warn": 1, "require_approval": 2, "block": 3}


def contexto_de(ejecucion):
    """Lo que ven las reglas: context.run.tools, y nada más de la ejecución."""
    return {"context": {"run": {"tools": ejecucion["tools"]}}}


def decision_de(doc, ejecucion, regla, contexto):
    """El registro de una decisión: política, regla, motivo y los valores que evaluó."""
    registro = {"ejecucion": ejecucion["id"], "policyId": doc["policyId"], "policyVersion": doc["version"]}
    if regla is None:
        return dict(registro, ruleId=None, decision=doc["defaultDecision"])
    return dict(
        registro,
        ruleId=regla["ruleId"],
        **regla["then"],
        mode=regla["execution"]["mode"],
        evaluatedFields=evaluados(regla, contexto),
    )


def evaluados(regla, contexto):
    """Los campos que evalúa la regla, con su valor de ahora: una copia, que no cambia con los hechos."""
    return json.loads(json.dumps({c: valor_de(c, contexto) for c in regla["evidence"]["evaluatedFields"]}))


def ya_aprobada(ejecucion, doc, regla, contexto):
    """¿Alguien autorizado ha aprobado ya esta regla, con esta política y con estos mismos valores?

    Una aprobación vale para lo que se le enseñó: la regla y los valores que evaluó. Si un punto de
    control posterior ve los mismos valores, es la misma petición y no se vuelve a preguntar; si
    alguno ha cambiado (otro pago, otra exportación), es una petición nueva.
    """
    if regla["then"]["decision"] != "require_approval":
        return False
    mismos = {"ruleId": regla["ruleId"], "policyId": doc["policyId"], "policyVersion": doc["version"]}
    valores = evaluados(regla, contexto)
    for anterior in ejecucion["decisiones"]:
        if all(anterior.get(k) == v for k, v in mismos.items()) and anterior.get("evaluatedFields") == valores:
            if any(r["autorizada"] and r.get("decision") == "aprobar" for r in anterior.get("respuestas", [])):
                return True
    return False


def decision_sin_motor(doc, ejecucion, fallo):
    """Sin motor no hay evaluación, y sin evaluación se bloquea: cierre en fallo."""
    doc = doc if isinstance(doc, dict) else {}  # también un documento mal formado se cierra, sin lanzar
    return {
        "ejecucion": ejecucion["id"],
        "policyId": doc.get("policyId"),
        "policyVersion": doc.get("version"),
        "ruleId": None,
        "decision": "block",
        "reason": "El motor de políticas no ha decidido (%s: %s): se cierra en fallo." % (type(fallo).__name__, fallo),
        "reasonCodes": ["motor_de_politicas_inalcanzable"],
    }


def coincide(motor, regla, contexto):
    """¿Coincide la regla? El motor tiene que contestar true o false: otra cosa es una regla mal escrita."""
    resultado = motor(regla["when"]["expression"], contexto)
    if not isinstance(resultado, bool):
        raise ValueError("la regla %s no da true ni false, sino %r" % (regla.get("ruleId"), resultado))
    return resultado


def punto_de_control(doc, ejecucion, motor=evalua):
    """Evalúa la política sobre los hechos, guarda la decisión y la aplica.

    Si coinciden varias reglas, manda la más grave. block termina la ejecución,
    require_approval la pausa hasta una decisión autorizada (resuelve) y warn la
    deja seguir con un aviso. Una regla ya aprobada con los mismos valores no vuelve
    a pausar: queda en el registro, en approvedEarlier.
    """
    contexto = contexto_de(ejecucion)
    try:  # un motor caído, o una regla que no se puede evaluar ni aplicar, no deja pasar nada
        coinciden = [r for r in doc["rules"] if coincide(motor, r, contexto)]
        aprobadas = [r for r in coinciden if ya_aprobada(ejecucion, doc, r, contexto)]
        pendientes = [r for r in coinciden if r not in aprobadas]
        regla = max(pendientes, key=lambda r: GRAVEDAD[r["then"]["decision"]], default=None)
        registro = decision_de(doc, ejecucion, regla, contexto)
        if aprobadas:
            registro["approvedEarlier"] = [r["ruleId"] for r in aprobadas]
    except Exception as fallo:
        registro = decision_sin_motor(doc, ejecucion, fallo)
    rechazadas = salidas_rechazadas(ejecucion)
    if rechazadas:  # ninguna regla de la versión 1 lee las puertas, pero quien revisa tiene que verlo
        registro["outputGateRejections"] = [dict(p) for p in rechazadas]
    ejecucion["decisiones"].append(registro)
    if registro["decision"] == "block":
        ejecucion["estado"] = "bloqueada"
    elif registro["decision"] == "require_approval":
        ejecucion["estado"] = "en_pausa"
    elif registro["decision"] == "warn":
        ejecucion["avisos"].append(registro)
    return registro


def resuelve(ejecucion, respuesta):
    """Una decisión humana sobre la aprobación pendiente. Devuelve el estado.

    respuesta: {"aprobador", "grupos", "decision": "aprobar" | "rechazar"}.
    Sólo cuenta si quien responde es del grupo aprobador de la regla; si no, la
    ejecución sigue en pausa. La respuesta queda en la decisión, como evidencia.
    """
    if ejecucion["estado"] != "en_pausa":
        return ejecucion["estado"]
    pendiente = ejecucion["decisiones"][-1]
    grupo = pendiente.get("approverGroup")
    grupos = respuesta.get("grupos") if isinstance(respuesta, dict) else None
    # Los grupos son una lista de nombres: con un texto, «in» buscaría un trozo, y
    # "payments_reviewers_lectura" contendría "payments_reviewers".
    autorizada = isinstance(grupo, str) and isinstance(grupos, (list, tuple)) and grupo in grupos
    pendiente.setdefault("respuestas", []).append(
        dict(respuesta if isinstance(respuesta, dict) else {}, autorizada=autorizada)
    )
    if autorizada:
        ejecucion["estado"] = "en_curso" if respuesta["decision"] == "aprobar" else "rechazada"
    return ejecucion["estado"]


# --- El agente, paso a paso, con el bucle de siempre -----------------------------


def agente_por_pasos(modelo, inicio, entorno, ejecucion, registros, doc=None, puerta=None, max_pasos=20):
    """Los pasos del agente, uno a uno, por el bucle de harness.py.

    Las herramientas con puerta de salida le preguntan a puerta(ll) antes de
    ejecutarse. Tras cada paso anota sus hechos. Con doc, hay un punto de control tras cada
    paso que ha hecho llamadas, y el agente se para en cuanto la ejecución deja
    de estar en curso. Para seguir tras una aprobación, vuelve a llamarla con M.
    Devuelve (motivo, final, M), como bucle.
    """
    M, motivo, final = list(inicio), "max_turnos", None
    for _ in range(max_pasos):
        if ejecucion["estado"] != "en_curso":
            break
        antes = len(M)
        motivo, final, M = un_paso(modelo, M, entorno, ejecucion, registros, puerta)
        anota_paso(ejecucion, M[antes:], registros)
        if motivo == "fin":  # el agente ha terminado; el flujo puede tener más pasos
            break
        if doc is not None:
            punto_de_control(doc, ejecucion)
    return motivo, final, M


def lo_que_vera(respuestas, entorno, puerta=None):
    """Las observaciones que recibe el modelo en cada turno, ejecutando sobre una copia.

    Con puerta, las salidas con puerta le preguntan antes, como en agente_por_pasos.
    """
    copia, ejecuta = json.loads(json.dumps(entorno)), ejecutar
    if puerta is not None:
        ejecuta = ejecutar_con_puertas(ejecuta, nueva_ejecucion("", "copia"), registros_de(HERRAMIENTAS), puerta)
    return [[ejecuta(b, copia) for b in r if b["type"] == "tool_use"] or None for r in respuestas]


# --- Para enseñar -------------------------------------------------------------------


def muestra_hechos(tools):
    """Una línea por herramienta con sus hechos, en orden."""
    lineas = []
    for clave, h in tools.items():
        partes = ["calls=%d" % h["calls"]]
        partes += ["%s=%s" % (c, ",".join(v)) for c, v in h["argValues"].items()]
        partes += ["%s: suma %s, máx %s" % (c, h["numericSums"][c], h["numericMaximums"][c]) for c in h["numericSums"]]
        lineas.append("%-20s %s" % (clave, "  ".join(partes)))
    return lineas or ["(sin hechos)"]


def muestra_decision(registro):
    """La decisión en una línea: qué se decide, por qué regla y con qué valores."""
    if registro["ruleId"] is None and registro["decision"] == "allow":
        if registro.get("approvedEarlier"):
            aprobadas = ", ".join(registro["approvedEarlier"])
            return "allow (ya aprobada con estos valores: %s)" % aprobadas + _rechazos(registro)
        return "allow (ninguna regla coincide)" + _rechazos(registro)
    partes = [registro["decision"], registro["ruleId"] or "(sin regla)", " ".join(registro["reasonCodes"])]
    partes += ["%s=%s" % (c[len(PREFIJO) :], v) for c, v in registro.get("evaluatedFields", {}).items()]
    return " ".join(partes) + _rechazos(registro)


def _rechazos(registro):
    """« · salidas rechazadas: c3 (filtro-de-salida)», si el registro trae alguna."""
    rechazadas = registro.get("outputGateRejections", [])
    if not rechazadas:
        return ""
    return " · salidas rechazadas: " + ", ".join("%s (%s)" % (p.get("llamada"), p.get("puerta")) for p in rechazadas)
