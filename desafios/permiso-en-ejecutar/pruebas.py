"""Las pruebas del desafío «El permiso dentro de ejecutar».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué pasa
  en la conversación. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu ejecutar sólo recibe llamadas y
  todo lo demás (el modelo, el entorno, permiso, preguntar) vive en otro proceso.

Se cargan en el mismo espacio de nombres que los tres módulos del curso (usan
llamada, error, resultado, bucle, ModeloGuionizado...) y que el código de partida
(la conversación de la receta: E, INICIO, RESPUESTAS). Sólo biblioteca estándar.
"""

PERMITIDA_NO = NO_EJECUTADA + "el usuario no lo ha permitido"  # de harness.py
DENEGADA = NO_EJECUTADA + "permiso denegado"
CLASES_DE_LA_LECCION = {"leer": "lectura", "listar": "lectura", "buscar": "lectura", "escribir": "escritura"}
TABLA_DE_LA_LECCION = {"lectura": "permitir", "escritura": "preguntar", "ejecución": "preguntar"}


def _borrar(entorno, ruta):
    """Una herramienta que nadie ha clasificado: borra un fichero."""
    if ruta not in entorno:
        raise FileNotFoundError("no existe el fichero " + ruta)
    del entorno[ruta]
    return "borrado " + ruta


# Las herramientas del curso, tal como estaban al cargar las pruebas, más borrar.
HERRAMIENTAS_DE_PRUEBA = dict(HERRAMIENTAS)  # de entorno.py
HERRAMIENTAS_DE_PRUEBA["borrar"] = {
    "description": "Borra un fichero del usuario.",
    "input_schema": {
        "type": "object",
        "properties": {"ruta": {"type": "string"}},
        "required": ["ruta"],
        "additionalProperties": False,
    },
    "funcion": _borrar,
}


class Mesa:
    """Todo lo que rodea a ejecutar en una prueba: entorno, tabla, usuario y contadores.

    usuario: las rutas que el usuario guionizado aprueba, "todo", "nadie" (no hay nadie a
    quien preguntar: preguntar devuelve None, y eso es un no) o {"contesta": valor}: preguntar
    devuelve siempre ese valor, que no es True ni False ni None (una interfaz que devuelve lo
    tecleado, "no"). Cualquier respuesta que no sea True es un no, también la que Python da por
    verdadera.
    La tabla puede tener valores que no son ninguno de los tres (una errata, None):
    sólo "permitir" y un sí a "preguntar" llegan a la función.
    """

    def __init__(self, entorno, clases=None, tabla=None, usuario=("lista.txt",)):
        self.entorno, self.inicial = dict(entorno), dict(entorno)
        self.clases = CLASES_DE_LA_LECCION if clases is None else clases
        self.tabla = TABLA_DE_LA_LECCION if tabla is None else tabla
        self.usuario = usuario
        self.preguntas = []  # los argumentos con que se ha llamado a preguntar
        self.ejecutadas = []  # (herramienta, argumentos) de cada función que ha corrido
        self.herramientas = {
            n: dict(h, funcion=self._contada(n, h["funcion"])) for n, h in HERRAMIENTAS_DE_PRUEBA.items()
        }

    def _contada(self, nombre, funcion):
        def contada(entorno, *args, **kwargs):
            self.ejecutadas.append((nombre, dict(kwargs)))
            return funcion(entorno, *args, **kwargs)

        return contada

    def permiso(self, ll):
        return self.tabla.get(self.clases.get(ll["name"]), "denegar")

    def aprueba(self, ll):
        """Lo que contesta el usuario guionizado a una llamada."""
        if self.usuario == "nadie":
            return None
        if isinstance(self.usuario, dict):
            return self.usuario["contesta"]
        entrada = ll.get("input") if isinstance(ll, dict) else None
        ruta = entrada.get("ruta") if isinstance(entrada, dict) else None
        return self.usuario == "todo" or ruta in self.usuario

    def preguntar(self, *args, **kwargs):
        self.preguntas.append((args, kwargs))
        return self.aprueba(args[0] if args else None)

    def debe(self, ll, entorno):
        """La observación que el enunciado pide para ll; ejecuta en entorno si toca."""
        id = ll.get("id") if isinstance(ll, dict) else None
        problema = problema_de_esquema_en(self.herramientas, ll)
        if problema:
            return error(id, NO_EJECUTADA + problema)
        decision = self.permiso(ll)
        if decision == "preguntar" and self.aprueba(ll) is not True:
            return error(id, PERMITIDA_NO)
        if decision not in ("permitir", "preguntar"):  # denegar, o un valor que nadie ha previsto
            return error(id, DENEGADA)
        try:
            return resultado(id, HERRAMIENTAS_DE_PRUEBA[ll["name"]]["funcion"](entorno, **ll["input"]))
        except Exception as e:
            return error(id, "%s: %s" % (type(e).__name__, e))

    def desconocida(self, ll):
        """¿Dice la tabla, de esta llamada bien formada, algo que no es ninguno de los tres valores?"""
        return problema_de_esquema_en(self.herramientas, ll) is None and self.permiso(ll) not in (
            "permitir",
            "preguntar",
            "denegar",
        )

    def pregunta(self, ll):
        """¿Debe ejecutar preguntar por esta llamada?"""
        return problema_de_esquema_en(self.herramientas, ll) is None and self.permiso(ll) == "preguntar"

    def porque(self, ll):
        """Por qué no corre una llamada que parece aprobada, si es el caso: la tabla dice algo que no es
        ninguno de los tres valores, o la respuesta no es True."""
        if self.desconocida(ll):
            return (
                "\n  la tabla dice %r, que no es permitir, preguntar ni denegar: lo que nadie ha previsto "
                "se deniega, sin preguntar y con el mismo error que denegar" % (self.permiso(ll),)
            )
        respuesta = self.aprueba(ll) if self.pregunta(ll) else True
        if respuesta is True or respuesta is False or respuesta is None:
            return ""
        return (
            "\n  preguntar ha contestado %r, que no es True: cualquier respuesta que no sea True "
            "es un no, aunque un if la dé por verdadera" % (respuesta,)
        )


def problema_de_esquema_en(herramientas, ll):
    """problema_de_llamada de harness.py, con estas herramientas."""
    antes = globals()["HERRAMIENTAS"]
    globals()["HERRAMIENTAS"] = herramientas
    try:
        return problema_de_llamada(ll)
    finally:
        globals()["HERRAMIENTAS"] = antes


# --- Cómo se llama a tu ejecutar ----------------------------------------------------


class BancoLocal(BancoLocal):
    """El de la base (con su bucle_intacto, que compara con harness.py), y la mesa donde la busca tu ejecutar."""

    def instala(self, mesa):
        return con_globales(HERRAMIENTAS=mesa.herramientas, permiso=mesa.permiso, preguntar=mesa.preguntar)


def llama(ll, mesa):
    """Tu ejecutar con una llamada; un Fallo si lanza, porque ejecutar nunca lanza."""
    try:
        return ejecutar(ll, mesa.entorno)  # la tuya
    except Exception as e:
        raise Fallo(
            "con %s, ejecutar ha lanzado %s: %s. ejecutar nunca lanza: "
            "cualquier problema vuelve como observación." % (_corta(ll), type(e).__name__, e)
        ) from None


def _corta(valor):
    return muestra(valor) if isinstance(valor, dict) else repr(valor)


def compara(ll, recibida, esperada, porque=""):
    exige(
        recibida == esperada,
        "con %s\n  se esperaba: %s\n  ejecutar ha devuelto: %s%s",
        _corta(ll),
        _corta(esperada),
        _corta(recibida),
        porque,
    )


def cuantas_preguntas(mesa, ll):
    return sum(1 for args, _ in mesa.preguntas if args and args[0] == ll)


def comprueba_llamadas(banco, mesa, llamadas):
    """Cada llamada por separado: observación, preguntas y funciones que han corrido."""
    sombra = dict(mesa.entorno)
    with banco.instala(mesa):
        for ll in llamadas:
            preguntas, ejecutadas = len(mesa.preguntas), len(mesa.ejecutadas)
            recibida, esperada = llama(ll, mesa), mesa.debe(ll, sombra)
            compara(ll, recibida, esperada, mesa.porque(ll))
            nuevas = mesa.preguntas[preguntas:]
            if mesa.pregunta(ll):
                exige(
                    len(nuevas) == 1,
                    "con %s la tabla dice preguntar: preguntar debe llamarse una vez y se ha llamado %d",
                    _corta(ll),
                    len(nuevas),
                )
                exige(
                    nuevas[0] == ((ll,), {}),
                    "preguntar debe recibir la llamada y nada más; con %s ha recibido %r",
                    _corta(ll),
                    nuevas[0],
                )
            else:
                exige(
                    not nuevas,
                    "con %s no hay que preguntar a nadie (%s) y se ha llamado a preguntar %s",
                    _corta(ll),
                    _por_que_no(mesa, ll),
                    _veces(len(nuevas)),
                )
            corre = _se_ejecuta(mesa, ll)
            veces = len(mesa.ejecutadas) - ejecutadas
            exige(
                veces == (1 if corre else 0),
                "con %s la función de la herramienta debía correr %s y ha corrido %s",
                _corta(ll),
                _veces(1 if corre else 0),
                _veces(veces),
            )
            exige(
                mesa.entorno == sombra,
                "después de la llamada %s el entorno debía ser %r y es %r",
                _corta(ll),
                sombra,
                mesa.entorno,
            )


def _veces(n):
    return "1 vez" if n == 1 else "%d veces" % n


def _se_ejecuta(mesa, ll):
    """¿Llega la llamada a su función (aunque la función lance)?"""
    if problema_de_esquema_en(mesa.herramientas, ll):
        return False
    decision = mesa.permiso(ll)
    return decision == "permitir" or decision == "preguntar" and mesa.aprueba(ll) is True


def _por_que_no(mesa, ll):
    if problema_de_esquema_en(mesa.herramientas, ll):
        return "no cumple su esquema"
    return "la tabla dice %r" % (mesa.permiso(ll),)


def conversa(banco, mesa, inicio, respuestas, max_turnos=10):
    """Repite una conversación con el modelo guionizado; el guion tiene las observaciones correctas."""
    sombra = dict(mesa.entorno)
    vistos = [[mesa.debe(b, sombra) for b in r if b.get("type") == "tool_use"] or None for r in respuestas]
    modelo = ModeloGuionizado(guion_de(inicio, respuestas, vistos))
    with banco.instala(mesa):
        try:
            motivo, final, M = bucle(modelo, inicio, mesa.entorno, max_turnos)
        except DivergenciaDelGuion as e:
            raise Fallo("la conversación se ha separado del guion en el %s" % e) from None
        except Exception as e:
            raise Fallo("la conversación se ha parado: %s: %s" % (type(e).__name__, e)) from None
    exige(motivo == "fin", "la conversación no ha terminado: %s", motivo)
    exige(final == texto_de(respuestas[-1]), "el texto final debía ser %r y es %r", texto_de(respuestas[-1]), final)
    exige(mesa.entorno == sombra, "al terminar, el entorno debía ser %r y es %r", sombra, mesa.entorno)
    preguntadas = [b["id"] for r in respuestas for b in r if b.get("type") == "tool_use" and mesa.pregunta(b)]
    recibidas = [a[0].get("id") if a and isinstance(a[0], dict) else a for a, _ in mesa.preguntas]
    exige(
        recibidas == preguntadas and all(len(a) == 1 and not k for a, k in mesa.preguntas),
        "preguntar debía llamarse una vez con cada una de %s (sólo con la llamada) y se ha llamado con %s",
        preguntadas or "ninguna",
        recibidas or "ninguna",
    )
    return M


def con_su_parte_oculta(banco, nombre, pista):
    """En el calificador, los casos ocultos de esta prueba (PARTES_OCULTAS, en ocultas.py): otras
    tablas, otros usuarios y otras llamadas. En tu cuaderno, ninguno. Así, fijar las respuestas de
    lo visible (por el id de la llamada, o por cuántas van) no da los puntos de la prueba."""
    casos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, caso in enumerate(casos, 1):
        mesa = Mesa(caso["entorno"], caso.get("clases"), caso.get("tabla"), caso.get("usuario", ("lista.txt",)))
        with oculta(n, len(casos), pista):
            if "respuestas" in caso:
                conversa(banco, mesa, caso["inicio"], caso["respuestas"])
            else:
                comprueba_llamadas(banco, mesa, caso["llamadas"])


# --- Las pruebas ----------------------------------------------------------------------

# La conversación de la receta es la de la lección: viene del código de partida (E, INICIO, RESPUESTAS).
ENTORNO_SALMOREJO = dict(E)
INICIO_SALMOREJO = list(INICIO)
RESPUESTAS_SALMOREJO = RESPUESTAS


def prueba_salmorejo(banco):
    """La conversación de la receta, entera: la lista cambia y las notas no."""
    mesa = Mesa(ENTORNO_SALMOREJO)
    M = conversa(banco, mesa, INICIO_SALMOREJO, RESPUESTAS_SALMOREJO)
    exige(
        mesa.entorno["lista.txt"] == "pan, leche, patatas, tomates, aceite, ajo, sal",
        "lista.txt debía acabar con tomates, aceite, ajo y sal y es %r",
        mesa.entorno["lista.txt"],
    )
    exige(
        mesa.entorno["notas.txt"] == ENTORNO_SALMOREJO["notas.txt"],
        "notas.txt no debía cambiar y es %r",
        mesa.entorno["notas.txt"],
    )
    t4 = M[5][1][1]
    exige(
        t4 == error("t4", PERMITIDA_NO), "la observación de t4 debía ser el error %r y es %s", PERMITIDA_NO, _corta(t4)
    )
    exige(
        [a for a, _ in mesa.preguntas] == [(RESPUESTAS_SALMOREJO[1][0],), (RESPUESTAS_SALMOREJO[1][1],)],
        "preguntar debía recibir t3 y t4, una vez cada una, y ha recibido %r",
        mesa.preguntas,
    )
    con_su_parte_oculta(
        banco, "salmorejo", "¿Decides con permiso(ll) y preguntar(ll) en cada llamada, sin nada fijo de la receta?"
    )


def prueba_esquema(banco):
    """El esquema va primero: lo mal formado vuelve como antes y nunca llega a preguntar."""
    mesa = Mesa(ENTORNO_SALMOREJO, usuario="todo")  # si llegaran a preguntar, se ejecutarían
    comprueba_llamadas(
        banco,
        mesa,
        [
            {"type": "tool_use", "id": "m1", "name": "escribir", "input": {"ruta": "notas.txt"}},
            {
                "type": "tool_use",
                "id": "m2",
                "name": "escribir",
                "input": {"ruta": "notas.txt", "contenido": "x", "modo": "añadir"},
            },
            {"type": "tool_use", "id": "m3", "name": "leer", "input": {"ruta": 5}},
            {"type": "tool_use", "id": "m4", "name": "formatear", "input": {}},
            {"type": "tool_use", "id": "m5", "name": "escribir", "input": "notas.txt"},
            {"type": "text", "text": "no soy una llamada"},
            llamada("m6", "leer", ruta="agenda.txt"),  # bien formada: se ejecuta
        ],
    )
    con_su_parte_oculta(
        banco,
        "esquema",
        "¿Compruebas el esquema antes que el permiso, con cualquier herramienta y cualquier argumento?",
    )


def prueba_denegar(banco):
    """denegar: sin clase, con una clase que la tabla no nombra o con un valor que no es ninguno
    de los tres (una errata, None), ni se pregunta ni se ejecuta. Un ejecutar que deja correr lo
    que no es denegar ni preguntar (un fallo inseguro, fail-open) no pasa esta prueba."""
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, usuario="todo"),
        [
            llamada("d1", "borrar", ruta="notas.txt"),  # borrar no tiene clase
            llamada("d2", "leer", ruta="notas.txt"),
        ],
    )
    solo_lectura = {"lectura": "permitir"}
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, tabla=solo_lectura, usuario="todo"),
        [
            llamada("d3", "escribir", ruta="lista.txt", contenido="nada"),
            llamada("d4", "listar", carpeta="recetas"),
            llamada("d5", "borrar", ruta="lista.txt"),
        ],
    )
    erratas = {"lectura": "Permitir", "escritura": None, "borrado": "preguntar "}
    clases = dict(CLASES_DE_LA_LECCION, borrar="borrado")
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, clases=clases, tabla=erratas, usuario="todo"),
        [
            llamada("d6", "leer", ruta="lista.txt"),
            llamada("d7", "escribir", ruta="notas.txt", contenido="Cena cancelada."),
            llamada("d8", "borrar", ruta="notas.txt"),
            llamada("d9", "buscar", texto="cena"),
        ],
    )
    con_su_parte_oculta(
        banco, "denegar", "¿Deniegas todo lo que no es «permitir» ni «preguntar», diga lo que diga la tabla?"
    )


def prueba_preguntar(banco):
    """preguntar: una vez por cada llamada que lo pide, nunca por una lectura, y sólo con la llamada."""
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO),
        [
            llamada("p1", "leer", ruta="lista.txt"),
            llamada("p2", "buscar", texto="cena"),
            llamada("p3", "escribir", ruta="lista.txt", contenido="pan, sal"),
            llamada("p4", "listar"),
            llamada("p5", "escribir", ruta="agenda.txt", contenido="Todo cancelado."),
            llamada("p6", "escribir", ruta="lista.txt", contenido="pan, sal, ajo"),
        ],
    )
    con_su_parte_oculta(
        banco,
        "preguntar",
        "¿Preguntas una vez, con la llamada, sólo cuando la tabla dice «preguntar», sea cual sea la clase?",
    )


def prueba_nadie(banco):
    """Sólo True es un sí: si no hay nadie a quien preguntar (preguntar devuelve None), o la
    respuesta es otra cosa, como el texto "no", la llamada no se ejecuta."""
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, usuario="nadie"),
        [
            llamada("n1", "escribir", ruta="lista.txt", contenido="pan"),
            llamada("n2", "leer", ruta="lista.txt"),
            llamada("n3", "escribir", ruta="notas.txt", contenido="Cena cancelada."),
        ],
    )
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, usuario={"contesta": "no"}),
        [  # lo tecleado
            llamada("n4", "escribir", ruta="notas.txt", contenido="Cena cancelada."),
            llamada("n5", "leer", ruta="notas.txt"),
        ],
    )
    con_su_parte_oculta(banco, "nadie", "¿Tomas cualquier respuesta que no sea True (None, un texto) por un no?")


def prueba_una_vez(banco):
    """Lo permitido o aprobado se ejecuta una vez, y si la función lanza vuelve su error."""
    comprueba_llamadas(
        banco,
        Mesa(ENTORNO_SALMOREJO, usuario="todo"),
        [
            llamada("u1", "leer", ruta="no-existe.txt"),  # leer lanza FileNotFoundError
            llamada("u2", "escribir", ruta="lista.txt", contenido="pan, tomates"),
            llamada("u3", "leer", ruta="lista.txt"),
            llamada("u4", "escribir", ruta="nuevo.txt", contenido="hola"),
        ],
    )
    con_su_parte_oculta(banco, "una_vez", "¿Llamas a la función una sola vez, y devuelves su error si lanza?")


def prueba_bucle(banco):
    """El bucle no se toca: es el de harness.py, y con él las lecturas llegan al modelo."""
    if isinstance(banco, BancoLocal):  # en el calificador el bucle es el suyo: se juzga la conversación
        cambio = banco.bucle_intacto()
        exige(cambio is None, "el bucle no se toca: %s", cambio)
    conversa(
        banco,
        Mesa(ENTORNO, usuario="nadie"),
        [("usuario", "¿Qué hay en mi agenda?")],
        [
            [llamada("l1", "listar"), llamada("l2", "leer", ruta="agenda.txt")],
            [llamada("l3", "buscar", texto="martes")],
            [texto("El martes tienes dentista.")],
        ],
    )
    con_su_parte_oculta(banco, "bucle", "¿Dejas el bucle como está y contestas a cada llamada de la conversación?")


def prueba_variaciones(banco, variaciones):
    """Otras conversaciones: otros ficheros, otras tablas, otros usuarios."""
    for n, v in enumerate(variaciones, 1):
        mesa = Mesa(v["entorno"], v.get("clases"), v.get("tabla"), v.get("usuario", ("lista.txt",)))
        with oculta(
            n, len(variaciones), "¿Usa tu ejecutar permiso(ll) y preguntar(ll), y no una tabla o unas respuestas fijas?"
        ):
            conversa(banco, mesa, v["inicio"], v["respuestas"])


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "salmorejo": (2, prueba_salmorejo),
    "esquema": (1, prueba_esquema),
    "denegar": (1, prueba_denegar),
    "preguntar": (1, prueba_preguntar),
    "nadie": (1, prueba_nadie),
    "una_vez": (1, prueba_una_vez),
    "bucle": (1, prueba_bucle),
    "variaciones": (2, prueba_variaciones),
}
