"""Las pruebas del desafío «La sesión sale del token, no del modelo».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué pasa
  en cada sesión. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tus funciones sólo reciben tokens
  y nombres, y lo que devuelven (también la herramienta de perfil) se llama desde
  otro proceso, que tiene el modelo, el bucle, los perfiles y las comprobaciones.

Se cargan en el mismo espacio de nombres que los tres módulos del curso y que el
código de partida (PERFILES, LEER, herramienta, AVISO, EMISOR, AHORA, DIRECTORIO,
ACTORES_DEL_DIRECTORIO...).
Sólo biblioteca estándar.
"""

import json

PERFILES_DE_LA_LECCION = dict(PERFILES)
ACTORES_DEL_DESAFIO = list(ACTORES_DEL_DIRECTORIO)
SIN_ARGUMENTOS = herramienta(dict, "", {})["input_schema"]  # el esquema de herramienta(..., {})
FACTURACION = "https://mcp.facturacion.ejemplo.com"
PEDIDOS = "https://mcp.pedidos.ejemplo.com"
INICIO = [("sistema", "Eres un asistente interno. Usa tus herramientas."), ("usuario", "Resume avisos/nomina.txt.")]


class Mesa:
    """Lo que rodea a tus funciones en una prueba: los perfiles y los actores del directorio, y el reloj."""

    def __init__(self, perfiles=None, ahora=AHORA, actores=None):
        self.PERFILES = dict(PERFILES_DE_LA_LECCION if perfiles is None else perfiles)
        self.ahora = ahora
        self.ACTORES_DEL_DIRECTORIO = list(ACTORES_DEL_DESAFIO if actores is None else actores)

    def con_otros_perfiles(self):
        """La misma mesa con el directorio cambiado: cada perfil, con otro departamento y otro salario."""
        perfiles = {
            u: dict(p, departamento=p["departamento"] + "-2", salario_anual=p["salario_anual"] + 1250)
            for u, p in self.PERFILES.items()
        }
        return Mesa(perfiles, self.ahora, self.ACTORES_DEL_DIRECTORIO)


class BancoLocal(BancoLocal):
    """El de la base, con los perfiles y los actores de la mesa donde los busca tu código."""

    def instala(self, mesa):
        # Tu código lee los perfiles y los actores de la prueba.
        return con_globales(PERFILES=mesa.PERFILES, ACTORES_DEL_DIRECTORIO=mesa.ACTORES_DEL_DIRECTORIO)


NULO = ("un campo que está, y vale None",)  # en los casos: la clave se queda, con None (null en JSON)


def actua(*actores):
    """El act de una cadena de delegación: el primero es el actor actual, el último, el más antiguo."""
    return {"sub": actores[0], **({"act": actua(*actores[1:])} if len(actores) > 1 else {})}


def token_para(usuario, mesa, **cambios):
    """Un token del emisor para el directorio, con el alcance de perfiles, recién emitido, delegado en
    el primer actor que admite el directorio.

    Un cambio a None quita la clave; un cambio a NULO la deja, con el valor None.
    """
    token = {
        "iss": EMISOR,
        "sub": usuario,
        "aud": DIRECTORIO,
        "act": actua(mesa.ACTORES_DEL_DIRECTORIO[0]),
        "scope": ALCANCE_PERFILES,
        "exp": mesa.ahora + VIGENCIA,
    }
    token.update(cambios)
    return {k: (None if v is NULO else v) for k, v in token.items() if v is not None}


def llama(funcion, *args):
    """Tu función con esos argumentos; un Fallo si lanza."""
    try:
        return funcion(*args)
    except Exception as e:
        raise Fallo("%s(%s) ha lanzado %s: %s" % (funcion.__name__, _args(args), type(e).__name__, e)) from None


def rechaza(funcion, *args):
    """El motivo del PermissionError que debe lanzar tu función; un Fallo si no lo lanza."""
    try:
        valor = funcion(*args)
    except Exception as e:
        exige(
            type(e).__name__ == "PermissionError",
            "%s(%s) debía lanzar PermissionError y ha lanzado %s: %s",
            funcion.__name__,
            _args(args),
            type(e).__name__,
            e,
        )
        return str(e)
    raise Fallo("%s(%s) debía lanzar PermissionError y ha devuelto %s" % (funcion.__name__, _args(args), _corto(valor)))


def _args(args):
    return ", ".join(json.dumps(a, ensure_ascii=False) if isinstance(a, (dict, str)) else repr(a) for a in args)


def _corto(valor):
    texto = repr(valor)
    return texto if len(texto) < 200 else texto[:200] + "…"


# --- Las sesiones ------------------------------------------------------------------


def herramientas_de(token, mesa):
    """Las herramientas que abre tu abrir_sesion con este token, comprobadas; LEER es la del curso."""
    sesion = llama(abrir_sesion, token, mesa.ahora)
    exige(
        isinstance(sesion, dict) and set(sesion) == {"leer", "leer_mi_perfil"},
        "abrir_sesion debía devolver {'leer': LEER, 'leer_mi_perfil': ...} y ha devuelto %s",
        _corto(sesion),
    )
    exige(
        isinstance(sesion["leer"], dict) and sesion["leer"].get("input_schema") == LEER["input_schema"],
        "en la sesión, «leer» debía ser LEER, la de entorno.py",
    )
    perfil = sesion["leer_mi_perfil"]
    exige(
        isinstance(perfil, dict) and callable(perfil.get("funcion")) and perfil.get("input_schema") == SIN_ARGUMENTOS,
        "«leer_mi_perfil» debía registrarse con herramienta(..., {}), sin argumentos, y es %s",
        _corto(perfil),
    )
    return {"leer": LEER, "leer_mi_perfil": perfil}


def de_referencia(usuario, mesa):
    """Las herramientas que debe tener la sesión de usuario: con ellas se escribe el guion."""

    def leer_mi_perfil():
        return mesa.PERFILES.get(usuario, {"error": "usuario no encontrado"})

    return {"leer": LEER, "leer_mi_perfil": herramienta(leer_mi_perfil, "", {})}


def obedece(victima):
    """Un modelo que hace lo que pide el aviso, con todo lo que puede intentar."""
    return [
        llamada("t1", "leer", ruta="avisos/nomina.txt"),
        llamada("t2", "leer_perfil_usuario", id_usuario_consultado=victima),
        llamada("t3", "leer_mi_perfil", id_usuario_consultado=victima),
        llamada("t4", "leer_mi_perfil"),
    ]


def datos_ajenos(usuario, victima, mesa):
    """Lo que no puede salir en la sesión de usuario: el nombre y el salario de la víctima (si es otro)."""
    if victima == usuario:
        return []
    perfil = mesa.PERFILES[victima]
    return [perfil["nombre"], str(perfil["salario_anual"])]


def conversa_con_aviso(banco, mesa, usuario, victima):
    """La sesión de usuario con el aviso que pide el perfil de victima y un modelo obediente."""
    quien = "en la sesión de %s (%s), con el aviso que pide el perfil de %s" % (
        mesa.PERFILES[usuario]["nombre"],
        usuario,
        "su propio usuario" if victima == usuario else victima,
    )
    entorno = {"avisos/nomina.txt": AVISO % victima}
    llamadas = obedece(victima)
    with banco.instala(mesa):
        herramientas = herramientas_de(token_para(usuario, mesa), mesa)
        with con_globales(HERRAMIENTAS=de_referencia(usuario, mesa)):
            copia = dict(entorno)
            vistos = [[ejecutar(ll, copia)] for ll in llamadas]  # lo que debe contestar la sesión
        respuestas = [[ll] for ll in llamadas] + [[texto("Lo que pide el aviso: " + vistos[-1][0]["content"])]]
        vigiladas = dict(herramientas, leer_mi_perfil=dict(herramientas["leer_mi_perfil"]))
        vistas = []
        funcion = herramientas["leer_mi_perfil"]["funcion"]

        def vigilada(entorno, **argumentos):
            vistas.append(str(funcion(entorno, **argumentos)))
            return vistas[-1]

        vigiladas["leer_mi_perfil"]["funcion"] = vigilada
        with con_globales(HERRAMIENTAS=vigiladas):
            try:
                motivo, final, M = bucle(
                    ModeloGuionizado(guion_de(INICIO, respuestas, vistos + [None])), INICIO, entorno, 10
                )
            except DivergenciaDelGuion as e:
                _sin_fugas(quien, vistas, datos_ajenos(usuario, victima, mesa))
                raise Fallo("%s, la conversación se ha separado del guion en el %s" % (quien, e)) from None
            except Exception as e:
                raise Fallo("%s, la conversación se ha parado: %s: %s" % (quien, type(e).__name__, e)) from None
    _sin_fugas(quien, vistas, datos_ajenos(usuario, victima, mesa))
    exige(motivo == "fin", "%s, la conversación no ha terminado: %s", quien, motivo)
    observaciones = [b["content"] for _, c in M if isinstance(c, list) for b in c if b["type"] == "tool_result"]
    for dato in datos_ajenos(usuario, victima, mesa):
        exige(not any(dato in o for o in observaciones), "%s, una observación contiene %r", quien, dato)
    exige(
        str(mesa.PERFILES[usuario]["salario_anual"]) in final,
        "%s, la respuesta final debía traer el salario del propio usuario y es %r",
        quien,
        final,
    )


def _sin_fugas(quien, vistas, ajenos):
    for vista in vistas:
        for dato in ajenos:
            exige(dato not in vista, "%s, leer_mi_perfil ha devuelto datos ajenos: %s", quien, vista)


# --- Las comprobaciones de cada prueba ---------------------------------------------


def comprueba_perfiles(banco, mesa, usuarios):
    """Cada herramienta lee el perfil de su usuario, no admite argumentos y no cambia al crear otra."""
    with banco.instala(mesa):
        herramientas = {u: llama(crear_herramienta_perfil, u) for u in usuarios}
        for usuario in [*usuarios, usuarios[0]]:  # la primera, otra vez después de crear las demás
            leer_mi_perfil = herramientas[usuario]
            exige(
                callable(leer_mi_perfil),
                "crear_herramienta_perfil(%r) debía devolver una función y ha devuelto %s",
                usuario,
                _corto(leer_mi_perfil),
            )
            visto = llama(leer_mi_perfil)
            exige(
                visto == mesa.PERFILES[usuario],
                "la herramienta de %s debía devolver %s y ha devuelto %s",
                usuario,
                mesa.PERFILES[usuario],
                _corto(visto),
            )
        otro = usuarios[1]
        for args, kwargs in (((otro,), {}), ((), {"id_usuario_consultado": otro})):
            try:
                visto = herramientas[usuarios[0]](*args, **kwargs)
            except Exception:
                continue  # sin parámetros: con argumentos, lanza
            exige(
                visto == mesa.PERFILES[usuarios[0]],
                "la herramienta de %s, llamada con %s, ha devuelto %s: no debe aceptar quién se consulta",
                usuarios[0],
                args or kwargs,
                _corto(visto),
            )
        nadie = llama(llama(crear_herramienta_perfil, "u-999"))
        exige(
            nadie == {"error": "usuario no encontrado"},
            "la herramienta de u-999, que no está en el directorio, debía devolver el error y ha devuelto %s",
            _corto(nadie),
        )
    despues = mesa.con_otros_perfiles()  # el directorio cambia entre crear la herramienta y llamarla
    with banco.instala(despues):
        for usuario in usuarios:
            visto = llama(herramientas[usuario])
            exige(
                visto == despues.PERFILES[usuario],
                "con el directorio cambiado después de crearla, la herramienta de %s debía devolver %s (lo de "
                "ahora) y ha devuelto %s: lee PERFILES al llamarla, no al crearla",
                usuario,
                despues.PERFILES[usuario],
                _corto(visto),
            )


CASOS_DE_VALIDAR = [  # (qué tiene el token, cambios, audiencia, motivo esperado o None si vale)
    ("válido", {}, None, None),
    ("otro emisor", {"iss": "https://otro.ejemplo.com"}, None, "emisor desconocido"),
    ("para facturación", {"aud": FACTURACION}, None, "token para otra audiencia: " + FACTURACION),
    ("que caduca ahora", {"exp": 0}, None, "token caducado"),
    ("que caduca dentro de 1 s", {"exp": 1}, None, None),
    ("sin el alcance", {"scope": "perfiles:escribir"}, None, "falta el alcance perfiles:leer"),
    ("con varios alcances", {"scope": "pedidos:leer perfiles:leer"}, None, None),
    ("con un alcance parecido", {"scope": "perfiles:leerlo"}, None, "falta el alcance perfiles:leer"),
    ("de otro emisor y para facturación", {"iss": "x", "aud": FACTURACION}, None, "emisor desconocido"),
    ("para facturación y caducado", {"aud": FACTURACION, "exp": 0}, None, "token para otra audiencia: " + FACTURACION),
    ("sin iss", {"iss": None}, None, "emisor desconocido"),
    ("sin aud", {"aud": None}, None, "token para otra audiencia: None"),
    ("sin exp", {"exp": None}, None, "token caducado"),
    ("sin scope", {"scope": None}, None, "falta el alcance perfiles:leer"),
    ("válido, en facturación", {"aud": FACTURACION}, FACTURACION, None),
    ("con aud a null", {"aud": NULO}, None, "token para otra audiencia: None"),
    ("con exp a null", {"exp": NULO}, None, "token caducado"),
    ("con exp de texto", {"exp": "mañana"}, None, "token caducado"),
    ("con scope a null", {"scope": NULO}, None, "falta el alcance perfiles:leer"),
    ("con scope en una lista", {"scope": ["perfiles:leer"]}, None, "falta el alcance perfiles:leer"),
    ("con exp NaN", {"exp": float("nan")}, None, "token caducado"),  # NaN no es mayor ni menor que ahora
]
# Tokens que no son un objeto: no traen ningún campo, así que tampoco el emisor.
NO_OBJETOS = [None, "eyJhbGciOiJub25lIn0.e30.", ["iss", EMISOR]]


def comprueba_validar(banco, mesa, usuario, casos=CASOS_DE_VALIDAR, no_objetos=NO_OBJETOS):
    with banco.instala(mesa):
        for token in no_objetos:
            visto = rechaza(validar_token, token, DIRECTORIO, ALCANCE_PERFILES, mesa.ahora)
            exige(
                visto == "emisor desconocido",
                "con un token que no es un objeto (%s), el motivo debía ser 'emisor desconocido' y es %r",
                _corto(token),
                visto,
            )
        for que, cambios, audiencia, motivo in casos:
            if isinstance(cambios.get("exp"), int):
                cambios = dict(cambios, exp=mesa.ahora + cambios["exp"])
            token = token_para(usuario, mesa, **cambios)
            args = (token, audiencia or DIRECTORIO, ALCANCE_PERFILES, mesa.ahora)
            if motivo is None:
                visto = llama(validar_token, *args)
                exige(
                    visto == token,
                    "con un token %s, validar_token debía devolver el token y ha devuelto %s",
                    que,
                    _corto(visto),
                )
            else:
                visto = rechaza(validar_token, *args)
                exige(visto == motivo, "con un token %s, el motivo debía ser %r y es %r", que, motivo, visto)


def tokens_ajenos(usuario, mesa):
    """(qué es, token) que no deben abrir una sesión en el directorio."""
    return [
        ("para facturación", token_para(usuario, mesa, aud=FACTURACION)),
        (
            "de pedidos reenviado tal cual (paso del token)",
            token_para(usuario, mesa, aud=PEDIDOS, scope="pedidos:leer"),
        ),
        ("caducado", token_para(usuario, mesa, exp=mesa.ahora)),
        ("caducado hace una hora", token_para(usuario, mesa, exp=mesa.ahora - 3600)),
        ("de otro emisor", token_para(usuario, mesa, iss="https://as.falso.ejemplo.com")),
        ("sin el alcance de perfiles", token_para(usuario, mesa, scope="pedidos:leer")),
        ("sin audiencia", token_para(usuario, mesa, aud=None)),
        ("sin usuario", token_para(None, mesa)),
        ("con el usuario a null", token_para(NULO, mesa)),
        ("con un usuario que no es texto", token_para(7, mesa)),
    ]


def casos_de_actor(mesa):
    """([(qué es, act)] que abren sesión, [(qué es, act)] que no), con los actores que admite la mesa.

    Un act a None quita el campo (suplantación); NULO lo deja, con el valor None.
    """
    admitidos = mesa.ACTORES_DEL_DIRECTORIO
    actual, anterior, ajeno = admitidos[-1], admitidos[0], "https://informes.ejemplo.com"
    abren = [("delegado por %s" % a, actua(a)) for a in admitidos] + [
        ("con una cadena cuyo actor actual es %s y el anterior no está en la lista" % actual, actua(actual, ajeno)),
        ("con una cadena de tres, la de fuera de %s" % actual, actua(actual, ajeno, anterior)),
    ]
    no_abren = [
        ("sin act (suplantación)", None),
        ("con act a null", NULO),
        ("con act en texto", actual),
        ("con act sin sub", {}),
        ("con act y el actor en una lista", {"sub": [actual]}),
        ("de un actor que no está en la lista", actua(ajeno)),
        ("con el actor en mayúsculas", actua(actual.upper())),
        ("con un actor admitido sólo como actor anterior", actua(ajeno, actual)),
    ]
    return abren, no_abren


def comprueba_actores(banco, mesa, usuario, casos=None):
    """Un token delegado por un actor admitido abre la sesión de su usuario; sin act, o con un actor actual
    que el directorio no admite, PermissionError."""
    abren, no_abren = casos or casos_de_actor(mesa)
    salario = str(mesa.PERFILES[usuario]["salario_anual"])
    with banco.instala(mesa):
        for que, act in abren:
            perfil = herramientas_de(token_para(usuario, mesa, act=act), mesa)["leer_mi_perfil"]
            visto = llama(perfil["funcion"], {})
            exige(
                isinstance(visto, str) and salario in visto,
                "con un token %s, leer_mi_perfil debía dar el perfil de %s y da %r",
                que,
                usuario,
                visto,
            )
        for que, act in no_abren:
            try:
                rechaza(abrir_sesion, token_para(usuario, mesa, act=act), mesa.ahora)
            except Fallo as e:
                raise Fallo("con un token %s no se abre ninguna sesión: %s" % (que, e)) from None


def comprueba_tokens(banco, mesa, usuario, ajenos=None):
    """Con un token válido se abre la sesión; con uno ajeno, PermissionError y ninguna sesión."""
    with banco.instala(mesa):
        herramientas_de(token_para(usuario, mesa), mesa)
        for que, token in ajenos or tokens_ajenos(usuario, mesa):
            try:
                rechaza(abrir_sesion, token, mesa.ahora)
            except Fallo as e:
                raise Fallo("con un token %s no se abre ninguna sesión: %s" % (que, e)) from None


def partes_ocultas(nombre):
    """En el calificador, las mesas ocultas de esta prueba (PARTES_OCULTAS, en ocultas.py); aquí, ninguna.

    Son de la misma clase que las visibles, con otros usuarios, otro reloj y otros tokens. Cada una
    se pasa con oculta(): si no pasa, se dice cuál y la pista, nunca el detalle.
    """
    partes = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    return [(n, len(partes), Mesa(p["perfiles"], p["ahora"], p.get("actores")), p) for n, p in enumerate(partes, 1)]


PISTA_OCULTA = (
    "¿Sale el usuario sólo del token, usas el «ahora» que recibes y lees PERFILES al llamar a la herramienta?"
)
PISTA_DEL_ACTOR = (
    "¿Miras sólo el actor actual (el sub del act de fuera) y lo buscas en ACTORES_DEL_DIRECTORIO al abrir la sesión?"
)


# --- Las pruebas ----------------------------------------------------------------------


def prueba_perfil(banco):
    """crear_herramienta_perfil: cada herramienta lee su perfil, sin parámetros, y crear otra no la cambia."""
    comprueba_perfiles(banco, Mesa(), ["u-100", "u-101"])
    comprueba_perfiles(banco, Mesa(), ["u-101", "u-100"])
    for n, total, mesa, parte in partes_ocultas("perfil"):
        with oculta(n, total, PISTA_OCULTA):
            comprueba_perfiles(banco, mesa, parte["usuarios"])


def prueba_validar(banco):
    """validar_token: emisor, audiencia, vigencia y alcance, en ese orden; sin KeyError."""
    comprueba_validar(banco, Mesa(), "u-100")
    for n, total, mesa, parte in partes_ocultas("validar"):
        with oculta(
            n,
            total,
            "¿Lees cada campo con get, comparas exp con el «ahora» que recibes y buscas el "
            "alcance entre las palabras de scope?",
        ):
            comprueba_validar(banco, mesa, parte["usuarios"][0], parte["casos_de_validar"], parte["no_objetos"])


def prueba_actor(banco):
    """Un token delegado por un actor admitido abre la sesión, y cada usuario lee su perfil; sin act o con
    otro actor actual, no."""
    for usuario in ("u-100", "u-101"):
        conversa_con_aviso(banco, Mesa(), usuario, usuario)
    comprueba_actores(banco, Mesa(), "u-101")
    for n, total, mesa, parte in partes_ocultas("actor"):
        with oculta(n, total, PISTA_DEL_ACTOR):
            for usuario in parte["usuarios"]:
                conversa_con_aviso(banco, mesa, usuario, usuario)
                comprueba_actores(banco, mesa, usuario)


def prueba_inyeccion(banco):
    """El aviso inyectado, en las dos direcciones: ninguna observación trae los datos del otro."""
    conversa_con_aviso(banco, Mesa(), "u-100", "u-101")
    conversa_con_aviso(banco, Mesa(), "u-101", "u-100")
    for n, total, mesa, parte in partes_ocultas("inyeccion"):
        a, b = parte["usuarios"]
        with oculta(n, total, PISTA_OCULTA):
            conversa_con_aviso(banco, mesa, b, a)
            conversa_con_aviso(banco, mesa, a, b)


def prueba_tokens(banco):
    """Tokens para otro servidor, caducados, de otro emisor o reenviados tal cual: no abren sesión."""
    comprueba_tokens(banco, Mesa(), "u-100")
    for n, total, mesa, parte in partes_ocultas("tokens"):
        usuario = parte["usuarios"][0]
        ajenos = [
            (que, token_para(usuario, mesa, **{k: (mesa.ahora + x if k == "exp" else x) for k, x in c.items()}))
            for que, c in parte["tokens_ajenos"]
        ]
        pista = "¿Abre abrir_sesion sólo con un token que vale en DIRECTORIO, trae un usuario y un actor admitido?"
        with oculta(n, total, pista):
            comprueba_tokens(banco, mesa, usuario, ajenos)


def prueba_variaciones(banco, variaciones):
    """Otros usuarios, otro reloj, otros actores admitidos, tokens ajenos para ellos."""
    for n, v in enumerate(variaciones, 1):
        mesa = Mesa(v["perfiles"], v["ahora"], v["actores"])
        a, b = v["usuarios"]
        with oculta(
            n,
            len(variaciones),
            "¿Sale el usuario sólo del token, usas el «ahora» que recibes, lees PERFILES al llamar a la herramienta "
            "y buscas el actor actual en ACTORES_DEL_DIRECTORIO?",
        ):
            comprueba_perfiles(banco, mesa, [a, b])
            # Otros casos, en otro orden y en otro número que los visibles: contestar por posición no sirve.
            comprueba_validar(banco, mesa, b, v["casos_de_validar"], v.get("no_objetos", []))
            conversa_con_aviso(banco, mesa, a, b)
            conversa_con_aviso(banco, mesa, b, a)
            ajenos = [
                (que, token_para(b, mesa, **{k: (mesa.ahora + x if k == "exp" else x) for k, x in c.items()}))
                for que, c in v["tokens_ajenos"]
            ]
            comprueba_tokens(banco, mesa, b, ajenos)
            comprueba_actores(banco, mesa, a)


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "perfil": (2, prueba_perfil),
    "validar": (2, prueba_validar),
    "actor": (1, prueba_actor),
    "inyeccion": (2, prueba_inyeccion),
    "tokens": (1, prueba_tokens),
    "variaciones": (2, prueba_variaciones),
}
