"""harness.py: bloques, esquema, ejecutar (que nunca lanza) y el bucle."""

import pytest


def test_bloques(g):
    assert g["llamada"]("t1", "leer", ruta="a") == {
        "type": "tool_use",
        "id": "t1",
        "name": "leer",
        "input": {"ruta": "a"},
    }
    assert g["texto"]("hola") == {"type": "text", "text": "hola"}
    assert g["resultado"]("t1", "x") == {"type": "tool_result", "tool_use_id": "t1", "content": "x"}
    assert g["error"]("t1", "mal") == {"type": "tool_result", "tool_use_id": "t1", "content": "mal", "is_error": True}


def test_muestra_una_linea_por_bloque(g):
    assert g["muestra"](g["llamada"]("t1", "leer", ruta="a.txt")) == 'llamada   t1 leer {"ruta": "a.txt"}'
    assert g["muestra"](g["resultado"]("t1", "a\nb")) == 'resultado t1 "a\\nb"'
    assert g["muestra"](g["error"]("t2", "no")) == 'error     t2 "no"'
    assert g["muestra"](g["texto"]("fin")) == 'texto     "fin"'
    assert "\n" not in g["muestra"]({"type": "raro", "x": "\n"})


def test_ejecutar_lectura_y_escritura(g):
    e = dict(g["ENTORNO"])
    assert g["ejecutar"](g["llamada"]("t1", "leer", ruta="lista.txt"), e) == g["resultado"]("t1", "pan, leche, patatas")
    assert g["ejecutar"](g["llamada"]("t2", "escribir", ruta="lista.txt", contenido="x"), e)["content"] == (
        "escrito lista.txt"
    )
    assert e["lista.txt"] == "x"


@pytest.mark.parametrize(
    "llamada, motivo",
    [
        ({"type": "tool_use", "id": "t1", "name": "leer", "input": {}}, "falta el argumento «ruta»"),
        (
            {"type": "tool_use", "id": "t1", "name": "escribir", "input": {"ruta": "a"}},
            "falta el argumento «contenido»",
        ),
        (
            {"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": 3}},
            "el argumento «ruta» debe ser de tipo string",
        ),
        (
            {"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "a", "aprobado": True}},
            "sobra el argumento «aprobado»",
        ),
        ({"type": "tool_use", "id": "t1", "name": "leer", "input": "lista.txt"}, "los argumentos no son un objeto"),
        (
            {"type": "tool_use", "id": "t1", "name": "borrar", "input": {"ruta": "a"}},
            "no existe la herramienta «borrar»",
        ),
        ({"type": "tool_use", "id": "t1"}, "la llamada no trae id o nombre"),
        ({"type": "text", "id": "t1", "text": "hola"}, "no es un bloque tool_use"),
    ],
)
def test_llamadas_que_no_se_ejecutan(g, llamada, motivo):
    e = dict(g["ENTORNO"])
    obs = g["ejecutar"](llamada, e)
    assert obs == g["error"]("t1", "no se ha ejecutado: " + motivo)
    assert e == g["ENTORNO"], "una llamada que no se ejecuta no cambia nada"


def test_ejecutar_con_algo_que_no_es_un_diccionario(g):
    obs = g["ejecutar"](None, {})
    assert obs["is_error"] and obs["content"] == "no se ha ejecutado: no es un bloque tool_use"


def test_fichero_que_no_existe_vuelve_como_error_de_la_funcion(g):
    obs = g["ejecutar"](g["llamada"]("t1", "leer", ruta="nada.txt"), {})
    assert obs == g["error"]("t1", "FileNotFoundError: no existe el fichero nada.txt")
    assert not obs["content"].startswith("no se ha ejecutado"), "la función sí se ejecutó"


def test_funcion_que_lanza_vuelve_como_error(g):
    def rota(entorno, ruta):
        raise RuntimeError("disco lleno")

    g["HERRAMIENTAS"]["leer"]["funcion"] = rota
    assert g["ejecutar"](g["llamada"]("t9", "leer", ruta="a"), {}) == g["error"]("t9", "RuntimeError: disco lleno")


def test_bucle_termina_con_el_texto_del_modelo(g):
    respuestas = iter([[g["llamada"]("t1", "leer", ruta="lista.txt")], [g["texto"]("listo")]])
    motivo, final, M = g["bucle"](lambda M: next(respuestas), [("usuario", "hola")], dict(g["ENTORNO"]), 5)
    assert (motivo, final) == ("fin", "listo")
    assert [rol for rol, _ in M] == ["usuario", "asistente", "usuario", "asistente"]
    assert M[2][1] == [g["resultado"]("t1", "pan, leche, patatas")], "las observaciones van en tool_result"


def test_bucle_se_para_en_max_turnos(g):
    motivo, final, M = g["bucle"](lambda M: [g["llamada"]("t", "listar")], [], {}, 3)
    assert (motivo, final, len(M)) == ("max_turnos", None, 6)


def test_bucle_llama_al_ejecutar_redefinido(g):
    """Las lecciones redefinen ejecutar en el cuaderno; el bucle debe usar la nueva."""
    vistas = []
    g["ejecutar"] = lambda ll, entorno: vistas.append(ll["id"]) or g["error"](ll["id"], "no")
    respuestas = iter([[g["llamada"]("t1", "listar")], [g["texto"]("fin")]])
    g["bucle"](lambda M: next(respuestas), [], {}, 5)
    assert vistas == ["t1"]


def test_json_queda_disponible_como_en_las_celdas(g):
    assert g["json"].dumps({"a": "ñ"}, ensure_ascii=False) == '{"a": "ñ"}'


@pytest.mark.parametrize(
    "valor, tipo, esperado",
    [
        (3, "integer", True),
        (3.0, "integer", True),
        (-0.0, "integer", True),
        (10**400, "integer", True),
        (2.5, "integer", False),
        (float("inf"), "integer", False),
        (float("nan"), "integer", False),
        (True, "integer", False),
        (False, "number", False),
        ("3", "integer", False),
        (None, "number", False),
        (2.5, "number", True),
        (10**400, "number", True),
    ],
)
def test_los_numeros_como_en_json_schema(g, valor, tipo, esperado):
    """JSON Schema: un número con parte decimal cero es un integer; un booleano no es un número."""
    assert g["es_del_tipo"](valor, tipo) is esperado


def test_una_lista_de_tipos_no_hace_lanzar_a_ejecutar(g):
    """ "type": ["string", "null"] es JSON Schema válido: vale cualquiera de los dos, y ejecutar no lanza."""
    g["HERRAMIENTAS"]["nota"] = {
        "description": "",
        "funcion": lambda entorno, texto: "vale %r" % (texto,),
        "input_schema": {
            "type": "object",
            "properties": {"texto": {"type": ["string", "null"]}},
            "required": ["texto"],
            "additionalProperties": False,
        },
    }
    assert g["ejecutar"](g["llamada"]("t1", "nota", texto=None), {}) == g["resultado"]("t1", "vale None")
    assert g["ejecutar"](g["llamada"]("t2", "nota", texto="a"), {}) == g["resultado"]("t2", "vale 'a'")
    assert g["ejecutar"](g["llamada"]("t3", "nota", texto=3), {}) == g["error"](
        "t3", "no se ha ejecutado: el argumento «texto» debe ser de tipo string o null"
    )


def test_un_tipo_que_no_es_un_nombre_no_hace_lanzar_y_no_deja_pasar_nada(g):
    """Ante la duda, no (revisión del bloque 1, N7): un tipo que no es un nombre no lo cumple ningún valor."""
    assert g["es_del_tipo"]("x", {"raro": 1}) is False
    assert g["problema_de_esquema"]({"a": 1}, {"properties": {"a": {"type": {"raro": 1}}}}) == (
        'el esquema del argumento «a» tiene un tipo desconocido: {"raro": 1}'
    )
