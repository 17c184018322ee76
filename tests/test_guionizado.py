"""El modelo guionizado: responde según el guion y comprueba cada M que recibe."""

import pytest

INICIO = [("sistema", "Eres un agente."), ("usuario", "Lee la lista.")]


@pytest.fixture
def guion(g):
    respuestas = [[g["llamada"]("t1", "leer", ruta="lista.txt")], [g["texto"]("Ya está.")]]
    vistos = [[g["resultado"]("t1", "pan, leche, patatas")], None]
    return g["guion_de"](INICIO, respuestas, vistos)


def test_repite_la_traza_si_el_harness_contesta_lo_esperado(g, guion):
    motivo, final, M = g["bucle"](g["ModeloGuionizado"](guion), INICIO, dict(g["ENTORNO"]), 10)
    assert (motivo, final) == ("fin", "Ya está.")
    assert [rol for rol, _ in M] == ["sistema", "usuario", "asistente", "usuario", "asistente"]


def test_guion_de_exige_tantas_observaciones_como_respuestas(g):
    with pytest.raises(ValueError, match="2 respuestas y 1 listas"):
        g["guion_de"](INICIO, [[], []], [None])


def test_observacion_distinta(g, guion):
    modelo = g["ModeloGuionizado"](guion)
    modelo(INICIO)
    M = INICIO + [("asistente", guion[0]["responde"]), ("usuario", [g["resultado"]("t1", "otra cosa")])]
    with pytest.raises(g["DivergenciaDelGuion"]) as e:
        modelo(M)
    mensaje = str(e.value)
    assert mensaje.startswith("turno 2:")
    assert "mensaje 3 (usuario), bloque 0" in mensaje
    assert 'esperado: resultado t1 "pan, leche, patatas"' in mensaje
    assert 'recibido: resultado t1 "otra cosa"' in mensaje


def test_falta_un_bloque(g, guion):
    modelo = g["ModeloGuionizado"](guion)
    modelo(INICIO)
    M = INICIO + [("asistente", guion[0]["responde"]), ("usuario", [])]
    with pytest.raises(g["DivergenciaDelGuion"], match=r"(?s)turno 2.*esperado: resultado t1.*recibido: \(nada\)"):
        modelo(M)


def test_falta_un_mensaje(g, guion):
    modelo = g["ModeloGuionizado"](guion)
    modelo(INICIO)
    with pytest.raises(g["DivergenciaDelGuion"], match="turno 2.*falta el mensaje 2 \\(asistente\\)"):
        modelo(INICIO)


def test_llamada_de_mas(g):
    """Un harness que mete una observación de más también diverge."""
    respuestas = [[g["llamada"]("t1", "leer", ruta="lista.txt")], [g["texto"]("fin")]]
    guion = g["guion_de"](INICIO, respuestas, [[g["resultado"]("t1", "pan, leche, patatas")], None])
    modelo = g["ModeloGuionizado"](guion)
    modelo(INICIO)
    extra = [g["resultado"]("t1", "pan, leche, patatas"), g["resultado"]("t2", "x")]
    with pytest.raises(g["DivergenciaDelGuion"], match=r"(?s)bloque 1.*esperado: \(nada\).*recibido: resultado t2"):
        modelo(INICIO + [("asistente", respuestas[0]), ("usuario", extra)])


def test_un_turno_de_mas(g, guion):
    modelo = g["ModeloGuionizado"](guion)
    g["bucle"](modelo, INICIO, dict(g["ENTORNO"]), 10)
    with pytest.raises(g["DivergenciaDelGuion"], match="turno 3: el guion tiene 2 turnos"):
        modelo([])


def test_la_respuesta_es_una_copia(g, guion):
    modelo = g["ModeloGuionizado"](guion)
    modelo(INICIO)[0]["input"]["ruta"] = "notas.txt"
    assert guion[0]["responde"][0]["input"]["ruta"] == "lista.txt"


def test_funciona_sin_el_harness_cargado():
    """guionizado.py se puede cargar solo: entonces enseña los bloques en JSON."""
    from cursos import RAIZ

    espacio = {}
    exec((RAIZ / "guionizado.py").read_text(encoding="utf-8"), espacio)
    assert espacio["primera_diferencia"](
        [("usuario", [{"type": "text", "text": "a"}])], [("usuario", [{"type": "text", "text": "b"}])]
    ) == (
        'mensaje 0 (usuario), bloque 0:\n  esperado: {"type": "text", "text": "a"}\n'
        '  recibido: {"type": "text", "text": "b"}'
    )


def test_un_mensaje_de_texto_no_habla_de_bloques(g):
    """En «El primer agente» los mensajes son textos: la divergencia dice el mensaje y el texto, sin «bloque 0»."""
    modelo = g["ModeloGuionizado"]([{"espera": [("usuario", "¿2 + 2?")], "responde": "4"}])
    with pytest.raises(g["DivergenciaDelGuion"]) as e:
        modelo([("usuario", "¿2 + 3?")])
    assert str(e.value) == (
        "turno 1: la conversación no es la del guion. el mensaje 0 (usuario) tiene otro texto:\n"
        '  esperado: "¿2 + 2?"\n  recibido: "¿2 + 3?"'
    )
    assert "bloque" not in str(e.value)


def test_un_texto_donde_se_esperaban_bloques_sigue_diciendo_el_bloque(g):
    diferencia = g["primera_diferencia"]([("usuario", [g["texto"]("a")])], [("usuario", "a")])
    assert diferencia.startswith("mensaje 0 (usuario), bloque 0:") and 'recibido: "a"' in diferencia


def test_un_mensaje_vacio_que_falta_no_rompe_la_comparacion(g):
    """Falta un mensaje sin bloques: la divergencia lo dice, en vez de lanzar IndexError."""
    diferencia = g["primera_diferencia"]([("usuario", "a"), ("usuario", [])], [("usuario", "a")])
    assert diferencia == "falta el mensaje 1 (usuario): (nada)"


@pytest.mark.parametrize(
    "M, dice",
    [
        ([("usuario", "a"), ("asistente", "b", "c")], "el mensaje 1 no es un par (rol, contenido)"),
        ([("usuario", "a"), "asistente: b"], 'el mensaje 1 no es un par (rol, contenido): "asistente: b"'),
        ("usuario: a", "M tiene que ser una lista de mensajes"),
        (None, "M tiene que ser una lista de mensajes y es (nada)"),
    ],
)
def test_una_M_mal_formada_es_una_divergencia_y_no_otra_excepcion(g, M, dice):
    """Lo que un harness con fallos mande al modelo se dice con el turno; no sale un ValueError ni un TypeError."""
    modelo = g["ModeloGuionizado"]([{"espera": [("usuario", "a"), ("asistente", "b")], "responde": "c"}])
    with pytest.raises(g["DivergenciaDelGuion"], match="^turno 1: ") as e:
        modelo(M)
    assert dice in str(e.value)
