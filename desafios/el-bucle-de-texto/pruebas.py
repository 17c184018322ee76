"""Las pruebas del desafío «El bucle y su protocolo de texto».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué pasa
  en cada respuesta y en cada conversación. Tu código podría engañarlas, así que no
  cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tus funciones sólo reciben textos,
  conversaciones y ficheros, y el modelo guionizado de cada prueba vive en otro
  proceso, que comprueba cada M que le manda tu bucle.

Se cargan en el mismo espacio de nombres que el código de partida (ModeloGuionizado,
guion_de, DivergenciaDelGuion, ENTORNO, SISTEMA, observa). Sólo biblioteca estándar.
Las acciones esperadas están escritas a mano en cada caso: aquí no hay ningún lee_accion.
En el calificador, cada prueba repite además sus comprobaciones con respuestas y
conversaciones que no ves (PARTES_OCULTAS, en ocultas.py): copiar las visibles no da puntos.
"""


class Mesa:
    """Lo que rodea a tu bucle en una conversación: el modelo guionizado y lo que ha visto.

    pasos: [(respuesta del modelo, la acción que trae o None)]. Lo que el modelo debe recibir
    tras cada acción es "Observación: " + observa(acción, entorno), con el observa de la lección.
    """

    def __init__(self, inicio, entorno, pasos):
        self.inicio, self.entorno, self.pasos = [list(m) for m in inicio], dict(entorno), pasos
        vistos = [None if accion is None else "Observación: " + observa(accion, self.entorno) for _, accion in pasos]
        self.guionizado = ModeloGuionizado(guion_de(self.inicio, [r for r, _ in pasos], vistos))
        self.llamadas = 0  # cuántas veces ha llamado tu bucle al modelo
        self.divergencia = None  # el primer DivergenciaDelGuion, si lo ha habido

    def modelo(self, M):
        """El modelo de la prueba: cuenta cada llamada y apunta la primera divergencia."""
        self.llamadas += 1
        try:
            return self.guionizado([list(m) if isinstance(m, (list, tuple)) else m for m in M])
        except DivergenciaDelGuion as e:
            self.divergencia = self.divergencia or str(e)
            raise

    def esperado(self, max_turnos):
        """(motivo, final, M, llamadas) que debe dar el bucle con este tope."""
        M = [list(m) for m in self.inicio]
        for n, (respuesta, accion) in enumerate(self.pasos[:max_turnos], 1):
            M.append(["asistente", respuesta])
            if accion is None:
                return "fin", respuesta, M, n
            M.append(["usuario", "Observación: " + observa(accion, self.entorno)])
        return "max_turnos", None, M, min(max_turnos, len(self.pasos))


class BancoLocal(BancoLocal):
    """El de la base, con el modelo de la mesa donde lo busca tu bucle."""

    def instala(self, mesa):
        return con_globales(modelo=mesa.modelo)  # conversa le pasa a tu bucle el modelo de la prueba


def _corto(valor):
    texto = repr(valor)
    return texto if len(texto) < 300 else texto[:300] + "…"


def _como_lista(valor):
    """Tuplas y listas como listas, en todos los niveles: lo que cruza el canal llega como listas."""
    if isinstance(valor, (list, tuple)):
        return [_como_lista(v) for v in valor]
    return valor


# --- lee_accion ---------------------------------------------------------------------


def comprueba_acciones(casos):
    """Cada respuesta da la acción esperada ([herramienta, argumento] o None)."""
    for respuesta, esperada in casos:
        try:
            vista = lee_accion(respuesta)
        except Exception as e:
            raise Fallo("lee_accion(%r) ha lanzado %s: %s" % (respuesta, type(e).__name__, e)) from None
        if isinstance(vista, tuple):
            vista = list(vista)
        exige(
            vista == esperada, "lee_accion(%r) debía devolver %r y ha devuelto %s", respuesta, esperada, _corto(vista)
        )


ACCIONES = [  # (respuesta, acción esperada)
    ("Acción: leer lista.txt", ["leer", "lista.txt"]),
    ("Miro la lista.\nAcción: leer lista.txt", ["leer", "lista.txt"]),
    ("Ya está: pan, leche y patatas.", None),
    ("", None),
    ("Acción: leer notas.txt\nAcción: leer agenda.txt", ["leer", "notas.txt"]),
    ("acción: leer agenda.txt", ["leer", "agenda.txt"]),
    ("ACCION: leer agenda.txt", ["leer", "agenda.txt"]),
    ("   Acción: leer agenda.txt   ", ["leer", "agenda.txt"]),
    ("Acción :  leer   recetas/tortilla.txt", ["leer", "recetas/tortilla.txt"]),
    ("Acción:leer lista.txt", ["leer", "lista.txt"]),
    ("Acción: leer mis notas.txt", ["leer", "mis notas.txt"]),
    ("Acción: listar", ["listar", ""]),
    ("Acción:\nAcción: leer lista.txt", ["leer", "lista.txt"]),
    ("Acción:    \nNada más.", None),
    ("La acción: leer lista.txt", None),
    ("Acciones: leer lista.txt", None),
    ("Acción leer lista.txt", None),
    ("Acción: leer(lista.txt)", ["leer(lista.txt)", ""]),
]


# --- Las conversaciones ---------------------------------------------------------------


def comprueba_conversacion(banco, inicio, entorno, pasos, max_turnos, que):
    """Tu bucle con un modelo guionizado: el modelo recibe cada M del guion y el bucle da lo esperado."""
    mesa = Mesa(inicio, entorno, pasos)
    motivo, final, M, llamadas = mesa.esperado(max_turnos)
    with banco.instala(mesa):
        try:
            visto = conversa(mesa.inicio, dict(entorno), max_turnos)
        except Exception as e:
            if mesa.divergencia:
                raise Fallo(
                    "%s, el modelo ha recibido una M que no es la del guion: %s" % (que, mesa.divergencia)
                ) from None
            raise Fallo("%s, tu bucle ha lanzado %s: %s" % (que, type(e).__name__, e)) from None
    exige(mesa.divergencia is None, "%s, el modelo ha recibido una M que no es la del guion: %s", que, mesa.divergencia)
    exige(
        mesa.llamadas == llamadas,
        "%s (max_turnos=%d), tu bucle debía llamar al modelo %d veces y lo ha llamado %d",
        que,
        max_turnos,
        llamadas,
        mesa.llamadas,
    )
    visto = _como_lista(visto)
    exige(
        isinstance(visto, list) and len(visto) == 3,
        "%s, tu bucle debía devolver (motivo, final, M) y ha devuelto %s",
        que,
        _corto(visto),
    )
    exige(visto[0] == motivo, "%s, el motivo debía ser %r y es %s", que, motivo, _corto(visto[0]))
    exige(visto[1] == final, "%s, la respuesta final debía ser %r y es %s", que, final, _corto(visto[1]))
    exige(
        visto[2] == M,
        "%s, M debía terminar con %d mensajes, el último %r, y tiene %s",
        que,
        len(M),
        M[-1],
        _corto(visto[2][-2:]) if isinstance(visto[2], list) else _corto(visto[2]),
    )


INICIO_MARTES = [("sistema", SISTEMA), ("usuario", "¿Qué tengo el martes?")]
MARTES = [
    ("Miro la agenda.\nAcción: leer agenda.txt", ["leer", "agenda.txt"]),
    ("El martes tienes dentista a las 17:30.", None),
]
COMPRA = [
    ("Acción: leer lista.txt", ["leer", "lista.txt"]),
    ("Y las recetas.\nAcción: leer recetas/tortilla.txt", ["leer", "recetas/tortilla.txt"]),
    ("Para la tortilla te faltan huevos, cebolla, aceite y sal.", None),
]
FALLOS = [
    ("Acción: leer agenda", ["leer", "agenda"]),
    ("Acción: buscar martes", ["buscar", "martes"]),
    ("Acción: leer agenda.txt", ["leer", "agenda.txt"]),
    ("Dentista a las 17:30.", None),
]
PASOS_TERCO = [("Acción: leer agenda", ["leer", "agenda"])] * 12


def comprueba_grupo(banco, grupo):
    """Un grupo de casos, como los de ocultas.py: {"acciones": [...], "conversaciones": [...]}."""
    comprueba_acciones(grupo.get("acciones", []))
    for conversacion in grupo.get("conversaciones", []):
        comprueba_conversacion(
            banco,
            conversacion["inicio"],
            conversacion["entorno"],
            conversacion["pasos"],
            conversacion["max_turnos"],
            "en la variación",
        )


def con_su_parte_oculta(nombre, banco, pista):
    """En el calificador, cada grupo de casos ocultos de esta prueba (ocultas.py); en tu cuaderno, ninguno."""
    grupos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, grupo in enumerate(grupos, 1):
        with oculta(n, len(grupos), pista):
            comprueba_grupo(banco, grupo)


def prueba_accion(banco):
    """lee_accion: la primera línea de acción, con las tolerancias del enunciado, o None."""
    comprueba_acciones(ACCIONES)
    con_su_parte_oculta("accion", banco, "¿Sigue tu lee_accion todas las reglas del enunciado?")


def prueba_conversacion(banco):
    """La conversación del martes y la de la compra: el modelo recibe cada M y el bucle acaba en fin."""
    comprueba_conversacion(banco, INICIO_MARTES, ENTORNO, MARTES, 5, "en la conversación del martes")
    comprueba_conversacion(
        banco,
        [("sistema", SISTEMA), ("usuario", "¿Qué me falta para la tortilla?")],
        ENTORNO,
        COMPRA,
        5,
        "en la conversación de la compra",
    )
    con_su_parte_oculta("conversacion", banco, "¿Busca tu bucle la acción con tu lee_accion, el tolerante?")


def prueba_fallos(banco):
    """Un fichero que no existe y una herramienta que no existe: vuelven como observación y se sigue."""
    comprueba_conversacion(banco, INICIO_MARTES, ENTORNO, FALLOS, 10, "con un fichero y una herramienta que no existen")
    con_su_parte_oculta("fallos", banco, "¿Devuelve tu bucle lo que dice observa, también si es un fallo?")


def prueba_tope(banco):
    """max_turnos: el modelo terco se corta en el tope (4, 1 y 0 llamadas); contestar en el último turno es fin."""
    for tope in (4, 1, 0):
        comprueba_conversacion(banco, INICIO_MARTES, ENTORNO, PASOS_TERCO, tope, "con el modelo terco")
    comprueba_conversacion(banco, INICIO_MARTES, ENTORNO, FALLOS, 4, "con los fallos y el tope justo")
    con_su_parte_oculta("tope", banco, "¿Llama tu bucle al modelo como mucho max_turnos veces?")


def prueba_variaciones(banco, variaciones):
    """Otras respuestas que leer, otros ficheros, otras conversaciones y otros topes."""
    for n, v in enumerate(variaciones, 1):
        with oculta(
            n,
            len(variaciones),
            "¿Sigue tu lee_accion todas las reglas del enunciado y para tu bucle "
            "sólo en una respuesta sin acción o en max_turnos?",
        ):
            comprueba_grupo(banco, v)


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "accion": (3, prueba_accion),
    "conversacion": (2, prueba_conversacion),
    "fallos": (1, prueba_fallos),
    "tope": (2, prueba_tope),
    "variaciones": (2, prueba_variaciones),
}
