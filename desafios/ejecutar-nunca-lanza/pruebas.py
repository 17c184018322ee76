"""Las pruebas del desafío «Un ejecutar que nunca lanza».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu código: te dicen al momento qué ha
  devuelto tu ejecutar. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu ejecutar sólo recibe llamadas, y las
  funciones de las herramientas corren en el otro proceso, sobre su entorno; lo que devuelven
  te llega como un valor de JSON.
En el calificador, cada prueba repite además sus comprobaciones con herramientas y
llamadas que no ves (PARTES_OCULTAS, en ocultas.py).

Cada caso declara la observación que debe volver, con el contenido ya en texto. Una llamada
cuya observación no empieza por "no se ha ejecutado: " debe llegar a su función exactamente
una vez; las demás, ninguna. Sólo biblioteca estándar.
"""


class Ocupado(Exception):
    """La excepción propia de una herramienta de prueba: no es de Python."""


def _contar(entorno, ruta):
    """Cuántas líneas tiene un fichero: devuelve un número, no un texto."""
    return len(leer(entorno, ruta).splitlines())  # leer, de entorno.py


def _ocupados(entorno):
    """Los días de la agenda que ya tienen algo: devuelve una lista."""
    return [linea.split(":")[0] for linea in entorno.get("agenda.txt", "").splitlines() if ":" in linea]


def _existe(entorno, ruta):
    """¿Existe el fichero? Devuelve un booleano."""
    return ruta in entorno


def _repartir(entorno, total, entre):
    if entre == 0:
        raise ZeroDivisionError("no se puede repartir entre 0")
    return total // entre


def _apuntar(entorno, ruta, linea):
    """Añade una línea. Cambia el fichero antes de mirar la línea: falla a medias."""
    entorno[ruta] = entorno[ruta] + "\n" + linea if ruta in entorno else linea
    if not linea.strip():
        raise ValueError("la línea está vacía")
    return "apuntado en " + ruta


def _reservar(entorno, dia, urgente=False):
    for linea in entorno.get("agenda.txt", "").splitlines():
        if linea.lower().startswith(dia.lower() + ":"):
            raise Ocupado("el %s ya tiene algo" % dia)
    cita = "¡urgente!" if urgente else "cita"
    entorno["agenda.txt"] = entorno.get("agenda.txt", "") + "\n%s: %s" % (dia.capitalize(), cita)
    return "reservado el " + dia


def herramienta(funcion, propiedades, obligatorios, cerrado=True):
    """Una herramienta de prueba: su esquema dice los tipos; la descripción no importa aquí."""
    esquema = {
        "type": "object",
        "properties": {n: {"type": t} for n, t in propiedades.items()},
        "required": list(obligatorios),
    }
    if cerrado:
        esquema["additionalProperties"] = False
    return {"description": "", "input_schema": esquema, "funcion": funcion}


# Las cuatro del curso, tal como estaban al cargar las pruebas, y cuatro que no son del curso.
HERRAMIENTAS_DE_PRUEBA = dict(HERRAMIENTAS)  # de entorno.py
HERRAMIENTAS_DE_PRUEBA.update(
    {
        "contar": herramienta(_contar, {"ruta": "string"}, ["ruta"]),
        "repartir": herramienta(_repartir, {"total": "integer", "entre": "integer"}, ["total", "entre"]),
        "apuntar": herramienta(_apuntar, {"ruta": "string", "linea": "string"}, ["ruta", "linea"]),
        "reservar": herramienta(_reservar, {"dia": "string", "urgente": "boolean"}, ["dia"]),
        "ocupados": herramienta(_ocupados, {}, []),
        "existe": herramienta(_existe, {"ruta": "string"}, ["ruta"]),
    }
)


class Mesa:
    """Lo que rodea a ejecutar en una prueba: el entorno y las herramientas, que cuentan cada vez que corren."""

    def __init__(self, entorno, herramientas=None):
        self.entorno = dict(entorno)
        self.originales = HERRAMIENTAS_DE_PRUEBA if herramientas is None else herramientas
        self.ejecutadas = []  # (herramienta, argumentos) de cada función que ha corrido
        self.herramientas = {n: dict(h, funcion=self._contada(n, h["funcion"])) for n, h in self.originales.items()}

    def _contada(self, nombre, funcion):
        def contada(entorno, *args, **kwargs):
            self.ejecutadas.append((nombre, dict(kwargs)))
            return funcion(entorno, *args, **kwargs)

        return contada

    def simula(self, ll, esperada, sombra):
        """Lo que debe pasarle a la sombra del entorno: si la llamada corre, su función corre allí."""
        if no_ejecutada(esperada):
            return
        try:
            self.originales[ll["name"]]["funcion"](sombra, **ll["input"])
        except Exception:
            pass  # el error ya lo dice la observación esperada; lo cambiado, cambiado queda


def no_ejecutada(observacion):
    return bool(observacion.get("is_error")) and str(observacion.get("content")).startswith(NO_EJECUTADA)


# --- Cómo se llama a tu ejecutar ----------------------------------------------------


class BancoLocal(BancoLocal):
    """El de la base, con las herramientas de la mesa donde las busca tu ejecutar."""

    def instala(self, mesa):
        return con_globales(HERRAMIENTAS=mesa.herramientas)

    def bucle_intacto(self):
        """None si el bucle es el del código de partida (DE_LA_LECCION); si no, qué ha cambiado.

        La lección no carga harness.py: el bucle es el de su celda, guardado al empezar.
        """
        for nombre, original in DE_LA_LECCION.items():
            if globals().get(nombre) is not original:
                return "«%s» no es la del código de partida" % nombre
        return None


def _corta(valor):
    return muestra(valor) if isinstance(valor, dict) else repr(valor)


def llama(ll, mesa):
    """Tu ejecutar con una llamada; un Fallo si lanza, porque ejecutar nunca lanza."""
    try:
        return ejecutar(ll, mesa.entorno)  # el tuyo
    except Exception as e:
        raise Fallo(
            "con %s, ejecutar ha lanzado %s: %s. ejecutar nunca lanza: "
            "cualquier problema vuelve como observación." % (_corta(ll), type(e).__name__, e)
        ) from None


def comprueba_casos(banco, mesa, casos):
    """Cada llamada por separado: su observación, cuántas veces corre su función y cómo queda el entorno."""
    sombra = dict(mesa.entorno)
    with banco.instala(mesa):
        for ll, esperada in casos:
            antes = len(mesa.ejecutadas)
            recibida = llama(ll, mesa)
            exige(
                recibida == esperada,
                "con %s\n  se esperaba: %s\n  ejecutar ha devuelto: %s",
                _corta(ll),
                _corta(esperada),
                _corta(recibida),
            )
            veces, debe = len(mesa.ejecutadas) - antes, 0 if no_ejecutada(esperada) else 1
            exige(
                veces == debe,
                "con %s la función de la herramienta debía correr %d vez/veces y ha corrido %d",
                _corta(ll),
                debe,
                veces,
            )
            mesa.simula(ll, esperada, sombra)
            exige(
                mesa.entorno == sombra,
                "después de %s el entorno debía ser %r y es %r",
                _corta(ll),
                sombra,
                mesa.entorno,
            )


def conversa(banco, mesa, inicio, respuestas, vistos, max_turnos=10):
    """Repite una conversación con el modelo guionizado; el guion trae las observaciones que debe ver."""
    sombra = dict(mesa.entorno)
    for respuesta, observaciones in zip(respuestas, vistos, strict=True):
        for ll, esperada in zip(llamadas_de(respuesta), observaciones or [], strict=True):
            mesa.simula(ll, esperada, sombra)
    modelo = ModeloGuionizado(guion_de(inicio, respuestas, vistos))
    with banco.instala(mesa):
        try:
            motivo, final, M = bucle(modelo, inicio, mesa.entorno, max_turnos)
        except DivergenciaDelGuion as e:
            raise Fallo("la conversación se ha separado del guion en el %s" % e) from None
        except Exception as e:
            raise Fallo(
                "la conversación se ha parado: ejecutar ha lanzado %s: %s. ejecutar nunca lanza: "
                "cualquier problema vuelve como observación." % (type(e).__name__, e)
            ) from None
    exige(motivo == "fin", "la conversación no ha terminado: %s", motivo)
    exige(final == texto_de(respuestas[-1]), "el texto final debía ser %r y es %r", texto_de(respuestas[-1]), final)
    exige(mesa.entorno == sombra, "al terminar, el entorno debía ser %r y es %r", sombra, mesa.entorno)


def parte_oculta(nombre):
    """En el calificador, los casos ocultos de esta prueba (ocultas.py); en tu cuaderno, ninguno."""
    return globals().get("PARTES_OCULTAS", {}).get(nombre, [])


def con_su_parte_oculta(nombre, banco, pista):
    """Pasa, con la pista de siempre, cada caso oculto de la prueba: una mesa, y casos o una conversación."""
    casos = parte_oculta(nombre)
    for n, caso in enumerate(casos, 1):
        with oculta(n, len(casos), pista):
            mesa = Mesa(caso["entorno"], caso.get("herramientas"))
            if "casos" in caso:
                comprueba_casos(banco, mesa, caso["casos"])
            else:
                conversa(banco, mesa, caso["inicio"], caso["respuestas"], caso["vistos"])


def no_ejecutada_por(id, motivo):
    return error(id, NO_EJECUTADA + motivo)


# --- Las pruebas ----------------------------------------------------------------------

# La conversación de la tortilla es la de la lección: viene del código de partida.
INICIO_TORTILLA, RESPUESTAS_TORTILLA, VISTOS_TORTILLA = list(INICIO), RESPUESTAS, VISTOS


def prueba_tortilla(banco):
    """La conversación de la tortilla: leer lanza, el modelo lo lee, lista y lo intenta otra vez."""
    conversa(banco, Mesa(ENTORNO), INICIO_TORTILLA, RESPUESTAS_TORTILLA, VISTOS_TORTILLA)
    con_su_parte_oculta("tortilla", banco, "¿Vuelve como observación cualquier excepción de la función?")


def prueba_no_encaja(banco):
    """Lo que no encaja no se ejecuta: «no se ha ejecutado: » y el primer motivo, sin llamar a la función."""
    comprueba_casos(
        banco,
        Mesa(ENTORNO),
        [
            (llamada("a1", "borrar", ruta="notas.txt"), no_ejecutada_por("a1", "no existe la herramienta «borrar»")),
            (llamada("a2", "escribir", ruta="notas.txt"), no_ejecutada_por("a2", "falta el argumento «contenido»")),
            (
                llamada("a3", "escribir", ruta="notas.txt", contenido=4),
                no_ejecutada_por("a3", "el argumento «contenido» debe ser de tipo string"),
            ),
            (
                llamada("a4", "leer", ruta="lista.txt", modo="rápido"),
                no_ejecutada_por("a4", "sobra el argumento «modo»"),
            ),
            (
                {"type": "tool_use", "id": "a5", "name": "leer", "input": "lista.txt"},
                no_ejecutada_por("a5", "los argumentos no son un objeto"),
            ),
            (
                {"type": "tool_use", "id": "a6", "name": "listar"},
                no_ejecutada_por("a6", "los argumentos no son un objeto"),
            ),
            (
                {"type": "tool_use", "name": "leer", "input": {"ruta": "lista.txt"}},
                no_ejecutada_por(None, "la llamada no trae id o nombre"),
            ),
            (
                {"type": "tool_use", "id": 7, "name": "leer", "input": {"ruta": "lista.txt"}},
                no_ejecutada_por(7, "la llamada no trae id o nombre"),
            ),
            ({"type": "tool_use", "id": "a8", "input": {}}, no_ejecutada_por("a8", "la llamada no trae id o nombre")),
            (texto("leer lista.txt"), no_ejecutada_por(None, "no es un bloque tool_use")),
            (
                {"type": "tool_result", "tool_use_id": "a9", "content": "x"},
                no_ejecutada_por(None, "no es un bloque tool_use"),
            ),
            ("leer lista.txt", no_ejecutada_por(None, "no es un bloque tool_use")),
            (None, no_ejecutada_por(None, "no es un bloque tool_use")),
            (
                llamada("a10", "repartir", total=10, entre=True),
                no_ejecutada_por("a10", "el argumento «entre» debe ser de tipo integer"),
            ),
            (llamada("a11", "leer", ruta="lista.txt"), resultado("a11", "pan, leche, patatas")),
        ],
    )
    con_su_parte_oculta(
        "no_encaja",
        banco,
        "¿Miras tipo, id y nombre, que la herramienta exista y su esquema, "
        "en ese orden, con las herramientas de HERRAMIENTAS?",
    )


def prueba_la_funcion_lanza(banco):
    """Lo que lanza la función vuelve como error con su tipo y su mensaje, sin prefijo, y no se deshace."""
    comprueba_casos(
        banco,
        Mesa(ENTORNO),
        [
            (
                llamada("b1", "leer", ruta="recetas/tortila.txt"),
                error("b1", "FileNotFoundError: no existe el fichero recetas/tortila.txt"),
            ),
            (
                llamada("b2", "repartir", total=12, entre=0),
                error("b2", "ZeroDivisionError: no se puede repartir entre 0"),
            ),
            (llamada("b3", "apuntar", ruta="notas.txt", linea="  "), error("b3", "ValueError: la línea está vacía")),
            (llamada("b4", "reservar", dia="martes"), error("b4", "Ocupado: el martes ya tiene algo")),
            (llamada("b5", "contar", ruta="nada.txt"), error("b5", "FileNotFoundError: no existe el fichero nada.txt")),
            (llamada("b6", "leer", ruta="notas.txt"), resultado("b6", "El sábado vienen cuatro a cenar.\n  ")),
        ],
    )
    con_su_parte_oculta(
        "la_funcion_lanza",
        banco,
        "¿Devuelves «Tipo: mensaje» de cualquier excepción, también de las que no son de Python?",
    )


def prueba_bien_formadas(banco):
    """Lo que encaja corre una vez y vuelve en texto: un str tal cual; lo demás, escrito en JSON."""
    comprueba_casos(
        banco,
        Mesa(ENTORNO),
        [
            (llamada("c1", "contar", ruta="agenda.txt"), resultado("c1", "2")),
            (llamada("c2", "escribir", ruta="lista.txt", contenido="pan"), resultado("c2", "escrito lista.txt")),
            (llamada("c3", "reservar", dia="viernes", urgente=True), resultado("c3", "reservado el viernes")),
            (llamada("c4", "repartir", total=12, entre=5), resultado("c4", "2")),
            (llamada("c5", "listar"), resultado("c5", "agenda.txt\nlista.txt\nnotas.txt\nrecetas/tortilla.txt")),
            (llamada("c6", "leer", ruta="lista.txt"), resultado("c6", "pan")),
            (llamada("c7", "ocupados"), resultado("c7", '["Martes", "Jueves", "Viernes"]')),
            (llamada("c8", "existe", ruta="notas.txt"), resultado("c8", "true")),
            (llamada("c9", "existe", ruta="nada.txt"), resultado("c9", "false")),
            (llamada("c10", "escribir", ruta="2", contenido="2"), resultado("c10", "escrito 2")),
            (llamada("c11", "contar", ruta="2"), resultado("c11", "1")),
        ],
    )
    con_su_parte_oculta(
        "bien_formadas",
        banco,
        "¿Llamas a la función una sola vez y devuelves su valor en texto (un str tal cual y lo demás con json.dumps)?",
    )


def prueba_bucle(banco):
    """El bucle no se toca, y con él el modelo corrige una llamada que no se ha ejecutado."""
    if isinstance(banco, BancoLocal):  # en el calificador el bucle es el suyo: se juzga la conversación
        cambio = banco.bucle_intacto()
        exige(cambio is None, "el bucle no se toca: %s", cambio)
    inicio = [("usuario", "Apunta en notas.txt que el sábado vienen seis.")]
    nota = "El sábado vienen seis a cenar."
    conversa(
        banco,
        Mesa(ENTORNO),
        inicio,
        [
            [llamada("n1", "escribir", ruta="notas.txt", texto=nota)],
            [
                llamada("n2", "escribir", ruta="notas.txt", contenido=nota),
                llamada("n3", "apuntar", ruta="notas.txt", linea=""),
            ],
            [texto("Apuntado: el sábado vienen seis.")],
        ],
        [
            [no_ejecutada_por("n1", "falta el argumento «contenido»")],
            [resultado("n2", "escrito notas.txt"), error("n3", "ValueError: la línea está vacía")],
            None,
        ],
    )
    con_su_parte_oculta(
        "bucle", banco, "¿Contesta tu ejecutar a cada llamada de la conversación, también a las que no encajan?"
    )


def prueba_variaciones(banco, variaciones):
    """Otras herramientas y otras conversaciones, con llamadas que encajan, que no y que lanzan."""
    for n, v in enumerate(variaciones, 1):
        with oculta(
            n,
            len(variaciones),
            "¿Lee tu ejecutar las herramientas y sus esquemas de HERRAMIENTAS, sin suponer cuáles hay?",
        ):
            conversa(banco, Mesa(v["entorno"], v["herramientas"]), v["inicio"], v["respuestas"], v["vistos"])


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "tortilla": (2, prueba_tortilla),
    "no_encaja": (2, prueba_no_encaja),
    "la_funcion_lanza": (2, prueba_la_funcion_lanza),
    "bien_formadas": (2, prueba_bien_formadas),
    "bucle": (1, prueba_bucle),
    "variaciones": (1, prueba_variaciones),
}
