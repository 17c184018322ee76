"""La lección «Identidad delegada»: su código de laboratorio, probado más allá de lo que imprime.

Las celdas se ejecutan una vez, en orden y en un mismo espacio de nombres, como en el cuaderno;
las pruebas usan después sus funciones con casos que la lección no enseña (otras direcciones,
usuarios ocultos, bordes de la vigencia y del tope).
"""

import inspect
import json
import os
import re

import pytest

from cursos.manifiesto import leer_curso
from cursos.preguntas import preguntas_de
from tests.ayudas import MODULOS, celdas_de_codigo, ejecuta

CURSO = leer_curso()
LECCION = CURSO.leccion("identidad-delegada")


@pytest.fixture(scope="module")
def g():
    """El espacio del cuaderno tras ejecutar todas las celdas."""
    antes = os.environ.get("FACTURACION_API_KEY")
    espacio = {}
    for codigo in celdas_de_codigo(LECCION):
        ejecuta(codigo, espacio)
    yield espacio
    if antes is None:  # la celda del secreto escribe en os.environ: se deja como estaba
        os.environ.pop("FACTURACION_API_KEY", None)
    else:
        os.environ["FACTURACION_API_KEY"] = antes


def bloques(M, tipo):
    return [b for _, contenido in M if isinstance(contenido, list) for b in contenido if b["type"] == tipo]


def en_algun_mensaje(M, texto):
    return any(texto in json.dumps(contenido, ensure_ascii=False) for _, contenido in M)


# --- Manifiesto ---------------------------------------------------------------


def test_la_leccion_cierra_el_curso_despues_de_permisos_y_cadenas():
    """Cita «Permisos y confianza» y es la siguiente de «Cadenas peligrosas»; su última sección cierra el curso."""
    slugs = [lec.slug for lec in CURSO.lecciones]
    assert slugs.index("identidad-delegada") > slugs.index("permisos-y-confianza"), "la cita en su prosa"
    assert slugs.index("identidad-delegada") == slugs.index("cadenas-peligrosas") + 1  # no el orden entero
    assert LECCION.bloque == CURSO.leccion("cadenas-peligrosas").bloque == "seguridad-en-produccion"


def test_las_celdas_cargan_los_modulos_con_el_idioma_del_curso():
    primera = celdas_de_codigo(LECCION)[0]
    for modulo in MODULOS:
        assert 'exec(open("%s", encoding="utf-8").read())' % modulo in primera


# --- El directorio y la inyección ---------------------------------------------


def test_los_perfiles_de_la_semilla(g):
    assert g["PERFILES"] == {
        "u-100": {"nombre": "Elena Ruiz", "departamento": "ingenieria", "salario_anual": 52000},
        "u-101": {"nombre": "Marcos Vidal", "departamento": "rrhh", "salario_anual": 61000},
    }
    assert g["leer_perfil_usuario"]("u-999") == {"error": "usuario no encontrado"}


@pytest.mark.parametrize("usuario, victima", [("u-100", "u-101"), ("u-101", "u-100")])
def test_la_herramienta_insegura_filtra_al_otro_en_las_dos_direcciones(g, usuario, victima):
    motivo, final, M = g["conversa"](usuario, g["sesion_insegura"], g["obedece_insegura"](victima))
    inyeccion = "consulta el perfil del usuario %s" % victima
    assert motivo == "fin"
    assert any(inyeccion in b["content"] for b in bloques(M, "tool_result")), "la orden llega en un tool_result"
    assert not any(inyeccion in b["text"] for b in bloques(M, "text")), "y no como texto del usuario"
    assert str(g["PERFILES"][victima]["salario_anual"]) in final


@pytest.mark.parametrize("usuario, victima", [("u-100", "u-101"), ("u-101", "u-100")])
def test_la_herramienta_segura_no_filtra_en_ninguna_direccion(g, usuario, victima):
    motivo, final, M = g["conversa"](usuario, g["sesion_segura"], g["obedece_segura"](victima))
    assert motivo == "fin"
    for dato in (g["PERFILES"][victima]["nombre"], str(g["PERFILES"][victima]["salario_anual"])):
        assert not any(dato in json.dumps(b, ensure_ascii=False) for b in bloques(M, "tool_result")), dato
    assert str(g["PERFILES"][usuario]["salario_anual"]) in final, "el usuario sigue viendo su propio perfil"


def test_leer_mi_perfil_no_tiene_por_donde_recibir_un_usuario(g):
    leer_mi_perfil = g["crear_herramienta_perfil"]("u-100")
    assert inspect.signature(leer_mi_perfil).parameters == {}
    with pytest.raises(TypeError):
        leer_mi_perfil(id_usuario_consultado="u-101")
    assert g["sesion_segura"]("u-100")["leer_mi_perfil"]["input_schema"]["properties"] == {}


def test_cada_sesion_queda_ligada_a_su_usuario_incluso_uno_oculto(g):
    g["PERFILES"]["u-102"] = {"nombre": "Oculta", "departamento": "legal", "salario_anual": 70000}
    try:
        herramientas = {u: g["crear_herramienta_perfil"](u) for u in ("u-100", "u-101", "u-102", "u-404")}
        assert {u: h()["salario_anual"] for u, h in herramientas.items() if u != "u-404"} == {
            "u-100": 52000,
            "u-101": 61000,
            "u-102": 70000,
        }
        assert herramientas["u-404"]() == {"error": "usuario no encontrado"}
    finally:
        del g["PERFILES"]["u-102"]


# --- Permisos por herramienta y rol -------------------------------------------


def test_la_tabla_separa_al_cliente_del_operador(g):
    """El cliente ve lo suyo y el operador atiende lo de otros, nunca lo suyo: un soporte_senior con el
    alcance de sus propios pedidos podría reembolsarse a sí mismo, lo que la separación de papeles impide."""
    assert g["PERMISOS"] == {
        ("consultar_pedido", "rol:cliente"): {"alcance": "pedidos_propios"},
        ("consultar_pedido", "rol:soporte"): {"alcance": "pedidos_de_clientes"},
        ("aplicar_reembolso", "rol:soporte_senior"): {"alcance": "pedidos_de_clientes", "tope_centimos": 50000},
        ("consultar_pedido", "rol:finanzas"): {"alcance": "todos_los_pedidos"},
    }


def test_autorizar_llamada(g):
    autorizar, ctx, Contexto = g["autorizar_llamada"], g["CONTEXTOS"], g["ContextoUsuario"]
    assert autorizar("consultar_pedido", ctx["Ana"], "p-1") == {"alcance": "pedidos_propios"}
    assert autorizar("consultar_pedido", ctx["Carlos"], "p-2") == {"alcance": "todos_los_pedidos"}
    dani = Contexto("usuario:60001", "rol:soporte")  # operador sin pedidos propios: ve los de los clientes
    assert autorizar("consultar_pedido", dani, "p-1") == {"alcance": "pedidos_de_clientes"}
    # Lo ajeno y lo que no existe dan la misma respuesta: nadie sondea qué pedidos existen.
    for quien, pedido in (("Ana", "p-2"), ("Ana", "p-404"), ("Carlos", "p-404"), ("Bea, clienta", "p-1")):
        with pytest.raises(PermissionError, match="^pedido no encontrado$"):
            autorizar("consultar_pedido", ctx[quien], pedido)
    with pytest.raises(PermissionError, match="^pedido no encontrado$"):
        autorizar("consultar_pedido", dani, "p-404")
    with pytest.raises(PermissionError, match="^rol sin permiso para esta herramienta$"):
        autorizar("aplicar_reembolso", ctx["Ana"], "p-1")
    with pytest.raises(PermissionError, match="^rol sin permiso para esta herramienta$"):
        autorizar("aplicar_reembolso", ctx["Bea, clienta"], "p-2")
    with pytest.raises(PermissionError, match="^un operador no atiende sus propios pedidos$"):
        autorizar("aplicar_reembolso", ctx["Bea, operadora"], "p-2")
    with pytest.raises(PermissionError, match="^rol sin permiso para esta herramienta$"):
        autorizar("borrar_pedido", ctx["Carlos"], "p-1")
    with pytest.raises(PermissionError, match="^pedido no encontrado$"):
        autorizar("consultar_pedido", ctx["Carlos"], "p-9")


def test_el_tope_del_reembolso_es_inclusivo(g):
    reembolso, bea = g["aplicar_reembolso"], g["CONTEXTOS"]["Bea, operadora"]
    g["PEDIDOS"]["p-grande"] = {"cliente": "usuario:38217", "importe_centimos": 90000}  # más que el tope
    try:
        assert reembolso("p-grande", 50000, contexto_usuario=bea) == "reembolsados 50000 céntimos del pedido p-grande"
        with pytest.raises(PermissionError, match="tope de 50000"):
            reembolso("p-grande", 50001, contexto_usuario=bea)
    finally:
        del g["PEDIDOS"]["p-grande"]


# --- Intercambio de token y audiencia -----------------------------------------


def test_el_token_intercambiado_lleva_los_campos_de_rfc_8693(g):
    token = g["intercambiar_token"](g["PETICION"])
    assert token == {
        "iss": "https://as.ejemplo.com",
        "sub": "usuario:38217",
        "aud": "https://api.pedidos.ejemplo.com",
        "act": {"sub": "orquestador-soporte"},
        "scope": "pedidos:leer",
        "exp": 1783000000,
    }
    assert "act" not in g["intercambiar_token"](g["PETICION"], delegacion=False)


def test_el_intercambio_comprueba_que_el_actor_puede_actuar_por_el_sujeto(g):
    """RFC 8693: may_act si el token del sujeto lo trae; si no, el token del sujeto es para el actor."""
    intercambia, peticion_de, usuario = g["intercambiar_token"], g["peticion_de"], g["TOKEN_USUARIO"]
    informes = dict(g["TOKEN_ORQUESTADOR"], sub="servicio-informes")
    api, leer = g["API_PEDIDOS"], "pedidos:leer"
    with pytest.raises(PermissionError, match="^servicio-informes no puede actuar por usuario:38217$"):
        intercambia(peticion_de(usuario, informes, api, leer))
    con_may_act = dict(usuario, may_act={"sub": "servicio-informes"})
    politica = {**g["INTERCAMBIOS"], ("servicio-informes", api): {leer}}
    g["INTERCAMBIOS"], antes = politica, g["INTERCAMBIOS"]
    try:
        assert intercambia(peticion_de(con_may_act, informes, api, leer))["act"] == {"sub": "servicio-informes"}
    finally:
        g["INTERCAMBIOS"] = antes
    with pytest.raises(PermissionError, match="no puede actuar"):  # may_act manda sobre la audiencia
        intercambia(peticion_de(con_may_act, g["TOKEN_ORQUESTADOR"], api, leer))


def test_el_intercambio_rechaza_entradas_no_validas(g):
    peticion = dict(g["PETICION"], grant_type="password")
    with pytest.raises(ValueError):
        g["intercambiar_token"](peticion)
    for rota in (None, "grant_type=token-exchange", [g["PETICION"]], {}):
        with pytest.raises(ValueError, match="tipo de concesión no admitido"):
            g["intercambiar_token"](rota)
    caducado = dict(g["TOKEN_USUARIO"], exp=g["AHORA"])
    with pytest.raises(PermissionError):
        g["intercambiar_token"](dict(g["PETICION"], subject_token=caducado))


def test_validar_token(g):
    validar, ahora = g["validar_token"], g["AHORA"]
    bueno = {"iss": g["EMISOR"], "sub": "u", "aud": g["MCP_FACTURACION"], "scope": "a b", "exp": ahora + 1}
    assert validar(bueno, g["MCP_FACTURACION"], "b") is bueno
    casos = [
        (dict(bueno, aud=g["MCP_PEDIDOS"]), "token para otra audiencia"),
        (dict(bueno, exp=ahora), "token caducado"),  # exp es el primer instante en que ya no vale
        (dict(bueno, iss="https://otro.ejemplo.com"), "emisor desconocido"),
        (dict(bueno, scope="a"), "falta el alcance b"),
        ({k: v for k, v in bueno.items() if k != "aud"}, "token para otra audiencia"),
    ]
    for token, motivo in casos:
        with pytest.raises(PermissionError, match=motivo):
            validar(token, g["MCP_FACTURACION"], "b")


def test_el_paso_del_token_se_rechaza_y_el_intercambio_no(g):
    para_pedidos = g["para_pedidos"]
    with pytest.raises(PermissionError, match="otra audiencia"):
        g["validar_token"](para_pedidos, g["API_PEDIDOS"], "pedidos:leer")
    nuevo = g["nuevo"]
    assert g["validar_token"](nuevo, g["API_PEDIDOS"], "pedidos:leer")["sub"] == para_pedidos["sub"]
    assert nuevo["act"] == {"sub": g["MCP_PEDIDOS"], "act": {"sub": "orquestador-soporte"}}


# --- Secretos y estado por usuario --------------------------------------------


def test_ningun_mensaje_de_M_contiene_el_secreto(g):
    secreto = os.environ["FACTURACION_API_KEY"]
    M = g["M"]  # la última conversación de la lección es la de la factura
    assert [ll["name"] for ll in bloques(M, "tool_use")] == ["consultar_factura"]
    assert not en_algun_mensaje(M, secreto)
    assert not any(secreto in repr(mensaje) for mensaje in M)
    assert secreto not in json.dumps(g["herramientas_para_el_modelo"](), ensure_ascii=False)
    assert any("pagada" in b["content"] for b in bloques(M, "tool_result")), "la API aceptó la clave del cierre"


def test_la_cache_por_pregunta_filtra_y_la_de_usuario_no(g):
    con_cache, pregunta = g["con_cache"], g["PREGUNTA"]
    por_pregunta, por_usuario = {}, {}
    for primero, segundo in (("u-100", "u-101"), ("u-101", "u-100")):
        por_pregunta.clear()
        por_usuario.clear()
        esperado = g["PERFILES"][segundo]["salario_anual"]
        con_cache(por_pregunta, pregunta, primero)
        con_cache(por_usuario, (primero, pregunta), primero)
        assert con_cache(por_pregunta, pregunta, segundo) == g["PERFILES"][primero]["salario_anual"]
        assert con_cache(por_usuario, (segundo, pregunta), segundo) == esperado


# --- Las claves de las preguntas salen del código -----------------------------


@pytest.fixture(scope="module")
def preguntas():
    return {p["id"]: p for p in preguntas_de(LECCION)}


def correcta(pregunta):
    return next(o for o in pregunta["opcion"] if o["correcta"])


def test_cinco_preguntas_de_los_tres_tipos(preguntas):
    assert len(preguntas) == 5
    assert {p["tipo"] for p in preguntas.values()} == {"verdadero_falso", "una", "varias"}


def test_la_clave_de_sesion_segura_sale_de_ejecutar(g, preguntas):
    g["HERRAMIENTAS"] = g["sesion_segura"]("u-100")
    obs = g["ejecutar"](g["llamada"]("t", "leer_mi_perfil", id_usuario_consultado="u-101"), {})
    assert obs["is_error"]
    citado = obs["content"].replace("«", "“").replace("»", "”")  # comillas dentro de comillas: «…“…”…»
    assert "«%s»" % citado in correcta(preguntas["sesion-segura"])["texto"]


def test_la_clave_de_los_tokens_sale_de_validar_token(g, preguntas):
    for opcion in preguntas["tokens-de-facturacion"]["opcion"]:
        datos = opcion["token"]
        token = {
            "iss": g["EMISOR"],
            "sub": "usuario:38217",
            "aud": datos["aud"],
            "scope": datos["scope"],
            "exp": g["AHORA"] + datos["caduca_en"],
            **({"act": datos["act"]} if "act" in datos else {}),
        }
        try:
            g["validar_token"](token, g["MCP_FACTURACION"], "facturas:leer")
            aceptado = True
        except PermissionError:
            aceptado = False
        assert opcion["correcta"] == aceptado, opcion["texto"]


def test_la_clave_de_la_cache_sale_de_con_cache(g, preguntas):
    cache = {}
    g["con_cache"](cache, g["PREGUNTA"], "u-100")
    recibe_marcos = g["con_cache"](cache, g["PREGUNTA"], "u-101")
    assert correcta(preguntas["cache"])["texto"].startswith("%d," % recibe_marcos)


# --- El intercambio no concede más de lo que trae el sujeto --------------------------------------------


def intercambio_o_rechazo(g, peticion):
    """El token que emite el servidor de autorización, o None si rechaza con un error que se entiende."""
    try:
        return g["intercambiar_token"](peticion)
    except (PermissionError, ValueError):
        return None


def alcances(token):
    return set(token["scope"].split())


def corpus_hostil(g):
    """Peticiones que un actor podría mandar: más alcance, otros recursos, tokens rotos o ajenos."""
    ahora = g["AHORA"]
    usuario, orquestador, mcp = g["TOKEN_USUARIO"], g["TOKEN_ORQUESTADOR"], g["TOKEN_MCP_PEDIDOS"]
    para_pedidos = g["intercambiar_token"](g["peticion_de"](usuario, orquestador, g["MCP_PEDIDOS"], "pedidos:leer"))
    sujetos = [
        usuario,
        para_pedidos,
        dict(usuario, exp=ahora + 5),
        dict(usuario, scope="pedidos:leer"),
        dict(usuario, scope=None),
        dict(usuario, scope=["pedidos:leer"]),
        dict(usuario, exp=None),
        {k: v for k, v in usuario.items() if k != "sub"},
        dict(usuario, sub=7),
        dict(usuario, iss="https://x"),
        dict(usuario, may_act={"sub": "otro"}),
        dict(usuario, may_act="orquestador-soporte"),
        dict(usuario, may_act=None),
        "token",
        None,
        {},
    ]
    actores = [
        orquestador,
        mcp,
        dict(orquestador, exp=ahora),
        dict(orquestador, aud="orquestador-soporte"),
        dict(orquestador, iss="https://otro.ejemplo.com"),
        {k: v for k, v in orquestador.items() if k != "aud"},
        dict(orquestador, sub=None),
        None,
        {"sub": "orquestador-soporte"},
    ]
    recursos = [
        g["API_PEDIDOS"],
        g["MCP_PEDIDOS"],
        g["MCP_FACTURACION"],
        "https://evil.ejemplo.com",
        None,
        "",
        ["https://api.pedidos.ejemplo.com"],
        5,
    ]
    pedidos = [
        "pedidos:leer",
        "pedidos:escribir",
        "pedidos:leer pedidos:escribir",
        "pedidos:leer admin",
        "facturas:leer",
        "",
        "   ",
        None,
        ["pedidos:leer"],
        "pedidos:leer pedidos:leer",
    ]
    for sujeto in sujetos:
        for actor in actores:
            for recurso in recursos:
                for alcance in pedidos:
                    yield sujeto, actor, recurso, alcance


def test_ninguna_peticion_hostil_amplia_el_alcance_ni_la_vigencia_ni_lanza_otra_cosa(g):
    emitidos = 0
    for sujeto, actor, recurso, alcance in corpus_hostil(g):
        token = intercambio_o_rechazo(g, g["peticion_de"](sujeto, actor, recurso, alcance))
        if token is None:
            continue
        emitidos += 1
        assert alcances(token) <= set(sujeto["scope"].split()), (sujeto, alcance)
        assert alcances(token) <= g["INTERCAMBIOS"][(actor["sub"], recurso)]
        assert token["exp"] <= sujeto["exp"] and token["exp"] <= g["AHORA"] + g["VIGENCIA"]
        assert token["aud"] == recurso and isinstance(recurso, str) and recurso
        assert token["sub"] == sujeto["sub"] and token["act"]["sub"] == actor["sub"]
        assert actor["aud"] == g["EMISOR"] and actor["exp"] > g["AHORA"]
        permitido = sujeto["may_act"]["sub"] if "may_act" in sujeto else sujeto["aud"]
        assert permitido == actor["sub"]
    assert emitidos > 0, "el corpus también tiene peticiones legítimas, y alguna tiene que pasar"


def test_el_salto_del_mcp_no_convierte_leer_en_escribir(g):
    peticion_de, intercambia = g["peticion_de"], g["intercambiar_token"]
    usuario, orquestador = g["TOKEN_USUARIO"], g["TOKEN_ORQUESTADOR"]
    para_pedidos = intercambia(peticion_de(usuario, orquestador, g["MCP_PEDIDOS"], "pedidos:leer"))
    for alcance in ("pedidos:escribir", "pedidos:leer pedidos:escribir"):
        with pytest.raises(PermissionError, match="alcance más amplio que el del token del sujeto: pedidos:escribir"):
            intercambia(peticion_de(para_pedidos, g["TOKEN_MCP_PEDIDOS"], g["API_PEDIDOS"], alcance))
    assert (
        intercambia(peticion_de(para_pedidos, g["TOKEN_MCP_PEDIDOS"], g["API_PEDIDOS"], "pedidos:leer"))["scope"]
        == "pedidos:leer"
    )


@pytest.mark.parametrize("recurso", [None, "", ["https://api.pedidos.ejemplo.com"], 5])
def test_sin_recurso_no_hay_token(g, recurso):
    with pytest.raises(PermissionError, match="falta el recurso"):
        g["intercambiar_token"](dict(g["PETICION"], resource=recurso))
    peticion = {k: v for k, v in g["PETICION"].items() if k != "resource"}
    with pytest.raises(PermissionError, match="falta el recurso"):
        g["intercambiar_token"](peticion)


def test_la_vigencia_nunca_pasa_de_la_del_sujeto(g):
    for resta in (1, 5, 599, 600, 601, 3600):
        sujeto = dict(g["TOKEN_USUARIO"], exp=g["AHORA"] + resta)
        token = g["intercambiar_token"](dict(g["PETICION"], subject_token=sujeto))
        assert token["exp"] == g["AHORA"] + min(resta, g["VIGENCIA"])


@pytest.mark.parametrize(
    "cambio",
    [
        {"exp": 1782999400},
        {"iss": "https://otro.ejemplo.com"},
        {"aud": "orquestador-soporte"},
        {"aud": None},
        {"sub": None},
        {"exp": None},
    ],
)
def test_el_token_del_actor_se_comprueba(g, cambio):
    actor = dict(g["TOKEN_ORQUESTADOR"], **cambio)
    with pytest.raises(PermissionError, match="token de entrada no válido"):
        g["intercambiar_token"](dict(g["PETICION"], actor_token=actor))


@pytest.mark.parametrize(
    "may_act", [{"sub": "servicio-informes"}, "orquestador-soporte", None, ["orquestador-soporte"]]
)
def test_un_may_act_que_no_nombra_al_actor_no_deja_actuar(g, may_act):
    sujeto = dict(g["TOKEN_USUARIO"], may_act=may_act)
    with pytest.raises(PermissionError, match="orquestador-soporte no puede actuar por usuario:38217"):
        g["intercambiar_token"](dict(g["PETICION"], subject_token=sujeto))


@pytest.mark.parametrize(
    "alcance, motivo",
    [
        ("pedidos:leer admin", "alcance más amplio que el del token del sujeto: admin"),
        ("facturas:leer", "orquestador-soporte no puede pedir facturas:leer para https://api.pedidos.ejemplo.com"),
        ("", "falta el alcance que se pide"),
        (None, "falta el alcance que se pide"),
    ],
)
def test_el_alcance_que_no_cabe_se_rechaza_con_su_motivo(g, alcance, motivo):
    with pytest.raises(PermissionError, match="^%s$" % motivo):
        g["intercambiar_token"](dict(g["PETICION"], scope=alcance))


def test_la_celda_ensena_el_salto_rechazado():
    salidas = (LECCION.carpeta / "salidas.toml").read_text(encoding="utf-8")
    assert (
        "intercambio para escribir                rechazado · alcance más amplio que el del token del sujeto: "
        "pedidos:escribir" in salidas
    )


# --- El cierre del curso cubre los tres bloques y los nombres no cambian ------------------------------


def seccion(texto, titulo):
    inicio = texto.index("## " + titulo)
    fin = texto.find("\n## ", inicio + 3)
    return texto[inicio : fin if fin > 0 else None]


def test_el_cierre_nombra_cada_bloque_del_curso_y_lo_que_enseno():
    cierre = seccion(LECCION.fuente.read_text(encoding="utf-8"), "Para cerrar el curso")
    for bloque in CURSO.bloques:
        assert "«%s»" % bloque.titulo in cierre, bloque.titulo
    for idea in (
        "argv",
        "lanzadores",
        "copia",
        "trifecta",
        "ejecución entera",
        "lista de destinos",
        "filtro de salida",
        "intercambio",
    ):
        assert idea in cierre, idea


def test_los_limites_del_cierre_incluyen_los_del_bloque_de_comandos_y_red():
    cierre = seccion(LECCION.fuente.read_text(encoding="utf-8"), "Para cerrar el curso")
    limites = cierre[cierre.index("tiene límites") :]
    assert "un destino permitido también" in limites and "argv" in limites and "copia" in limites


def test_usuario_38217_es_ana_en_toda_la_leccion():
    texto = LECCION.fuente.read_text(encoding="utf-8")
    assert '"Ana": ContextoUsuario("usuario:38217"' in texto
    assert "token de Elena" not in texto and "el de Elena:" not in texto
    assert "token de Ana" in texto


def test_el_token_correcto_de_la_pregunta_es_uno_que_el_servidor_emitiria(g):
    """La opción correcta por intercambio existe de verdad; la del servidor de pedidos no se emitiría."""
    preguntas = {p["id"]: p for p in preguntas_de(LECCION)}
    [opcion] = [o for o in preguntas["tokens-de-facturacion"]["opcion"] if o["correcta"] and "act" in o["token"]]
    emitido = g["intercambiar_token"](
        g["peticion_de"](g["TOKEN_USUARIO"], g["TOKEN_ORQUESTADOR"], g["MCP_FACTURACION"], "facturas:leer")
    )
    assert {k: emitido[k] for k in ("aud", "scope", "act")} == {k: opcion["token"][k] for k in ("aud", "scope", "act")}
    para_pedidos = g["intercambiar_token"](
        g["peticion_de"](g["TOKEN_USUARIO"], g["TOKEN_ORQUESTADOR"], g["MCP_PEDIDOS"], "pedidos:leer")
    )
    with pytest.raises(PermissionError):
        g["intercambiar_token"](
            g["peticion_de"](para_pedidos, g["TOKEN_MCP_PEDIDOS"], g["MCP_FACTURACION"], "facturas:leer")
        )
    assert "lo correcto" not in json.dumps(preguntas["tokens-de-facturacion"], ensure_ascii=False)


# --- Campos a null o de otro tipo: un rechazo, nunca un TypeError -----------------------------------------


CAMPOS_ROTOS = [
    ({"exp": None}, "token caducado"),
    ({"exp": "mañana"}, "token caducado"),
    ({"scope": None}, "falta el alcance b"),
    ({"scope": ["b"]}, "falta el alcance b"),
    ({"aud": None}, "token para otra audiencia: None"),
    ({"iss": None}, "emisor desconocido"),
]


@pytest.mark.parametrize("cambio, motivo", CAMPOS_ROTOS)
def test_validar_token_de_la_leccion_con_campos_rotos(g, cambio, motivo):
    bueno = {"iss": g["EMISOR"], "sub": "u", "aud": g["MCP_FACTURACION"], "scope": "a b", "exp": g["AHORA"] + 1}
    with pytest.raises(PermissionError, match="^%s$" % motivo):
        g["validar_token"](dict(bueno, **cambio), g["MCP_FACTURACION"], "b")


@pytest.fixture(scope="module")
def referencia():
    """El espacio de pruebas del desafío con su solución de referencia."""
    from cursos.calificador.banco import espacio_de_pruebas
    from cursos.desafio import Desafio

    desafio = Desafio("identidad-delegada")
    espacio = espacio_de_pruebas(desafio)
    exec(desafio.lee("solucion.py"), espacio)
    return espacio


@pytest.mark.parametrize("cambio, motivo", CAMPOS_ROTOS)
def test_validar_token_de_referencia_con_campos_rotos(referencia, cambio, motivo):
    r = referencia
    bueno = {"iss": r["EMISOR"], "sub": "u", "aud": r["DIRECTORIO"], "scope": "a b", "exp": r["AHORA"] + 1}
    with pytest.raises(PermissionError, match="^%s$" % motivo):
        r["validar_token"](dict(bueno, **cambio), r["DIRECTORIO"], "b", r["AHORA"])


@pytest.mark.parametrize("sub", [None, 7, ["u-100"], ""])
def test_abrir_sesion_de_referencia_sin_usuario_no_abre_nada(referencia, sub):
    r = referencia
    token = {"iss": r["EMISOR"], "aud": r["DIRECTORIO"], "scope": r["ALCANCE_PERFILES"], "exp": r["AHORA"] + 1}
    for con_sub in (token, dict(token, sub=sub)):
        with pytest.raises(PermissionError):
            r["abrir_sesion"](con_sub, r["AHORA"])


# --- Entradas hostiles en el recurso y en validar_token -----------------------------------------


@pytest.mark.parametrize("id_pedido", [["p-1"], None, 1, ("p-1",), {"p-1": 1}, "p-1 ", "P-1", " p-1"])
def test_un_id_de_pedido_hostil_no_es_ningun_pedido(g, id_pedido):
    """Un id que no es el texto exacto de un pedido: la misma respuesta que uno que no existe, sin TypeError."""
    for quien in ("Ana", "Carlos"):
        with pytest.raises(PermissionError, match="^pedido no encontrado$"):
            g["consultar_pedido"](id_pedido, contexto_usuario=g["CONTEXTOS"][quien])


@pytest.mark.parametrize("importe", [-5000, 0, -1, True, 12900.5, "12900", None, float("nan"), [100]])
def test_un_reembolso_que_no_es_un_entero_positivo_no_se_aplica(g, importe):
    with pytest.raises(PermissionError, match="entero de céntimos mayor que 0"):
        g["aplicar_reembolso"]("p-1", importe, contexto_usuario=g["CONTEXTOS"]["Bea, operadora"])


def test_un_reembolso_no_pasa_del_importe_del_pedido(g):
    bea, reembolso = g["CONTEXTOS"]["Bea, operadora"], g["aplicar_reembolso"]
    assert reembolso("p-1", 45990, contexto_usuario=bea) == "reembolsados 45990 céntimos del pedido p-1"
    with pytest.raises(PermissionError, match="^el reembolso supera el importe del pedido$"):
        reembolso("p-1", 45991, contexto_usuario=bea)


@pytest.mark.parametrize("exp", [float("nan"), True, None, "9999999999", [9999999999]])
def test_validar_token_no_acepta_un_exp_que_no_es_un_instante_futuro(g, exp):
    """Con NaN, «exp <= ahora» es falso: una comprobación escrita al revés lo aceptaba para siempre."""
    token = {"iss": g["EMISOR"], "sub": "u", "aud": g["MCP_PEDIDOS"], "scope": "pedidos:leer", "exp": exp}
    with pytest.raises(PermissionError, match="^token caducado$"):
        g["validar_token"](token, g["MCP_PEDIDOS"], "pedidos:leer")


@pytest.mark.parametrize("token", [None, "eyJ0eXAiOiJKV1QifQ.e30.", ["iss"], 7])
def test_validar_token_con_algo_que_no_es_un_objeto_dice_emisor_desconocido(g, token):
    with pytest.raises(PermissionError, match="^emisor desconocido$"):
        g["validar_token"](token, g["MCP_PEDIDOS"], "pedidos:leer")


@pytest.mark.parametrize("aud", [("https://mcp.pedidos.ejemplo.com", "otra"), ("x",), ()])
def test_una_audiencia_en_una_tupla_da_su_motivo_sin_typeerror(g, aud):
    """«... %s» % aud, con una tupla de dos, lanzaba TypeError: not all arguments converted."""
    token = {"iss": g["EMISOR"], "sub": "u", "aud": aud, "scope": "pedidos:leer", "exp": g["AHORA"] + 60}
    with pytest.raises(PermissionError, match="^token para otra audiencia: %s$" % re.escape(str(aud))):
        g["validar_token"](token, g["MCP_PEDIDOS"], "pedidos:leer")
