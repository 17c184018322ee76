"""Las pruebas del desafío «Escribe la puerta corregida».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu puerta: te dicen al momento qué pasa
  en cada escenario. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu puerta sólo recibe propuestas,
  sesiones y números y devuelve su decisión; los documentos, el adaptador y lo
  observado viven en otro proceso.

Se cargan en el mismo espacio de nombres que el laboratorio (usan ESCENARIOS,
ejecuta_escenario, esperado, _llamada...). Sólo biblioteca estándar.
"""

# Cada prueba pasa primero la lectura legítima: una puerta que lo deniega todo no aprueba ninguna.
UTILIDAD = "lectura-publica"
QUE_SE_VE = {  # clave de lo observado: cómo se dice en los mensajes
    "lecturas": "lecturas",
    "escrituras": "escrituras",
    "denegaciones": "denegaciones",
    "fallos": "fallos de la herramienta",
    "cambios": "documentos cambiados en memoria",
    "filtrados": "datos privados en una observación",
}


def mundo(documentos=None, sesion=None):
    """Mientras dura, otros documentos y otra sesión de partida en lugar de los del laboratorio."""
    return con_globales(
        DOCUMENTOS=DOCUMENTOS if documentos is None else documentos, SESION=dict(SESION, **(sesion or {}))
    )


def _propuesta(ll):
    """«p1 read_document lab/guide», o lo que haya si la propuesta no tiene esa forma."""
    destino = _destino(ll)  # del laboratorio
    return " ".join(str(x) for x in (ll.get("id"), ll.get("name"), destino or ll.get("input")))


def _nombre(escenario):
    """«Lectura pública autorizada» (lectura-publica); el de una variación oculta, sólo su id."""
    if "nombre" in escenario:
        return "«%s» (%s)" % (escenario["nombre"], escenario["id"])
    return escenario["id"]


def pasa_por_tu_puerta(escenario):
    """El escenario en modo corregido con tu puerta: el resultado y lo que ha decidido en cada propuesta."""
    decisiones = []

    def vigilada(ll, sesion, admitidas):
        try:
            motivo = puerta(ll, sesion, admitidas)  # la tuya
        except Exception as e:
            raise Fallo(
                "en %s, con la propuesta %s, tu puerta ha lanzado %s: %s. La puerta no lanza: "
                "devuelve None o el motivo." % (_nombre(escenario), _propuesta(ll), type(e).__name__, e)
            ) from None
        decisiones.append("%s → %s" % (_propuesta(ll), "admitida" if motivo is None else repr(motivo)))
        return motivo

    return ejecuta_escenario(escenario, "corregido", vigilada), decisiones


def comprueba_escenario(escenario):
    """Lo observado con tu puerta es lo declarado para el modo corregido; si no, un Fallo que lo cuenta."""
    r, decisiones = pasa_por_tu_puerta(escenario)
    debe = esperado(escenario, "corregido")
    if r["observado"] == debe:
        return
    diferencias = [
        "%s: se esperaba %s y ha habido %s" % (QUE_SE_VE[k], debe[k], r["observado"][k])
        for k in QUE_SE_VE
        if r["observado"][k] != debe[k]
    ]
    raise Fallo(
        "en %s:\n  %s\n  tu puerta ha decidido: %s"
        % (_nombre(escenario), "\n  ".join(diferencias), "; ".join(decisiones) or "nada (no había propuestas)")
    )


def comprueba_escenarios(*ids):
    """La lectura legítima y después los escenarios del laboratorio con esos ids."""
    for id in (UTILIDAD, *ids):
        comprueba_escenario(escenario_por_id(id))


def con_su_parte_oculta(nombre, pista):
    """En el calificador, los mundos ocultos de esta prueba (PARTES_OCULTAS, en ocultas.py).

    Son de la misma clase que los visibles, con otros nombres, otros permisos y otro orden; en tu
    cuaderno no hay ninguno. Si uno no pasa, se dice cuál y la pista, nunca el detalle.
    """
    mundos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, v in enumerate(mundos, 1):
        with oculta(n, len(mundos), pista), mundo(v.get("documentos"), v.get("sesion")):
            for escenario in v["escenarios"]:
                comprueba_escenario(escenario)


# --- Las pruebas ----------------------------------------------------------------------


def prueba_lectura(banco):
    """La lectura legítima pasa y un texto sin propuestas no produce nada."""
    comprueba_escenarios("sin-propuesta")
    con_su_parte_oculta("lectura", "¿Admites toda lectura que la sesión permite, con cualquier tenant y documento?")


def prueba_tenant(banco):
    """La nómina de otro tenant se deniega con tenant_mismatch."""
    comprueba_escenarios("otro-tenant")
    con_su_parte_oculta("tenant", "¿Comparas el tenant de la propuesta con el de la sesión, exactamente?")


def prueba_permisos(banco):
    """Sin permiso explícito para el documento, permission_denied, aunque sea del mismo tenant."""
    comprueba_escenarios("privado-mismo-tenant", "sesion-sin-permiso", "legitima-y-privada")
    con_su_parte_oculta("permisos", '¿Sale el permiso de sesion["permisos"], y de nada más?')


def prueba_herramienta(banco):
    """Ni escribir ni herramientas que no existen: tool_not_allowed."""
    comprueba_escenarios("escritura", "herramienta-inexistente")
    con_su_parte_oculta("herramienta", '¿Miras sesion["herramientas"] antes que los argumentos?')


def prueba_esquema(banco):
    """Un campo de más («aprobado por el administrador»), tipos mal o JSON roto: schema_invalid."""
    comprueba_escenarios("aprobacion-insertada", "tipos-incorrectos", "json-invalido")
    con_su_parte_oculta(
        "esquema", "¿Son los argumentos exactamente los de ESQUEMAS, ni uno más ni uno menos, y cada uno de su tipo?"
    )


def prueba_presupuesto(banco):
    """Como mucho las admitidas que dice la sesión, y un fallo de la herramienta también gasta."""
    comprueba_escenarios("presupuesto", "fallos-gastan")
    con_su_parte_oculta("presupuesto", '¿Comparas admitidas con sesion["presupuesto"], sea cual sea?')


def prueba_revocacion(banco):
    """La sesión se mira en cada llamada: revocada entre dos, la segunda es session_revoked."""
    comprueba_escenarios("revocacion")
    con_su_parte_oculta("revocacion", '¿Miras sesion["activa"] en cada llamada, antes que nada?')


def prueba_variaciones(banco, variaciones):
    """Otros mundos: otros tenants, otros permisos, otro presupuesto, la revocación en otro punto."""
    for n, v in enumerate(variaciones, 1):
        pista = (
            "¿Sale todo lo que decide tu puerta de sesion (tenant, permisos, presupuesto, activa), sin "
            "nombres ni números fijos?"
        )
        with oculta(n, len(variaciones), pista), mundo(v.get("documentos"), v.get("sesion")):
            for escenario in v["escenarios"]:
                comprueba_escenario(escenario)


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "lectura": (2, prueba_lectura),
    "tenant": (1, prueba_tenant),
    "permisos": (1, prueba_permisos),
    "herramienta": (1, prueba_herramienta),
    "esquema": (1, prueba_esquema),
    "presupuesto": (1, prueba_presupuesto),
    "revocacion": (1, prueba_revocacion),
    "variaciones": (2, prueba_variaciones),
}
