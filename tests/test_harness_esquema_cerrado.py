"""harness.py: la comprobación del esquema falla cerrada con las erratas de quien escribe el esquema.

Revisión del bloque 1, N7: un tipo que no se conoce ("strnig") no ponía ninguna condición y sólo el
literal False cerraba additionalProperties, así que 0 o "false" lo dejaban abierto y `contenido=4`
llegaba a escribir. Ahora lo que el esquema no dice bien es un problema y la llamada no se ejecuta.
Con los esquemas bien escritos, la comprobación dice lo mismo que antes (HOY, la de antes, copiada).
"""

import copy
import random

import pytest

NO = "no se ha ejecutado: "

# La comprobación de antes del arreglo, tal cual: con esquemas bien escritos debe decir lo mismo.
HOY = """
def es_del_tipo(valor, tipo):
    if isinstance(tipo, list):
        return any(es_del_tipo(valor, t) for t in tipo)
    if tipo in ("integer", "number"):
        if isinstance(valor, bool) or not isinstance(valor, (int, float)):
            return False
        return tipo == "number" or isinstance(valor, int) or valor.is_integer()
    if not isinstance(tipo, str):
        return True
    return isinstance(valor, TIPOS_JSON.get(tipo, object))


def problema_de_esquema(argumentos, esquema):
    if not isinstance(argumentos, dict):
        return "los argumentos no son un objeto"
    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():
        if nombre not in propiedades:
            if esquema.get("additionalProperties", True) is False:
                return "sobra el argumento «%s»" % nombre
            continue
        tipo = propiedades[nombre].get("type")
        if tipo and not es_del_tipo(valor, tipo):
            if isinstance(tipo, list):
                tipo = " o ".join(map(str, tipo))
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
    return None
"""


def _escribir_con(g, **cambios):
    """HERRAMIENTAS["escribir"] con su esquema cambiado: contenido con otro type, u otro additionalProperties."""
    esquema = copy.deepcopy(g["HERRAMIENTAS"]["escribir"]["input_schema"])
    if "tipo" in cambios:
        esquema["properties"]["contenido"]["type"] = cambios["tipo"]
    if "otros" in cambios:
        esquema["additionalProperties"] = cambios["otros"]
    g["HERRAMIENTAS"]["escribir"] = dict(g["HERRAMIENTAS"]["escribir"], input_schema=esquema)


@pytest.mark.parametrize(
    "tipo, escrito",
    [
        ("strnig", '"strnig"'),
        ("String", '"String"'),
        ("", '""'),
        (None, "null"),
        (3, "3"),
        ({"raro": 1}, '{"raro": 1}'),
        ([], "[]"),
        (["string", "strnig"], '"strnig"'),
        (str, "\"<class 'str'>\""),
    ],
)
def test_un_tipo_desconocido_no_deja_que_contenido_4_llegue_a_escribir(g, tipo, escrito):
    """El caso de la revisión: con una errata en el tipo de contenido, escribir(contenido=4) no se ejecuta."""
    _escribir_con(g, tipo=tipo)
    entorno = dict(g["ENTORNO"])
    obs = g["ejecutar"](g["llamada"]("t1", "escribir", ruta="notas.txt", contenido=4), entorno)
    motivo = "el esquema del argumento «contenido» tiene un tipo desconocido: " + escrito
    assert obs == g["error"]("t1", NO + motivo)
    assert entorno == g["ENTORNO"], "con el esquema mal escrito, la escritura ha corrido"
    # Tampoco con un valor que sería del tipo bueno: el esquema está mal, y se deniega.
    assert g["problema_de_esquema"]({"ruta": "a", "contenido": "pan"}, g["HERRAMIENTAS"]["escribir"]["input_schema"])


@pytest.mark.parametrize("otros, escrito", [(0, "0"), ("false", '"false"'), (None, "null"), (1, "1"), ({}, "{}")])
def test_un_additional_properties_que_no_es_true_ni_false_no_admite_lo_que_sobra(g, otros, escrito):
    _escribir_con(g, otros=otros)
    entorno = dict(g["ENTORNO"])
    ll = g["llamada"]("t2", "escribir", ruta="lista.txt", contenido="pan", modo="añadir")
    obs = g["ejecutar"](ll, entorno)
    assert obs == g["error"]("t2", NO + "additionalProperties debe ser true o false, y es " + escrito)
    assert entorno == g["ENTORNO"]
    # Sin nada que sobre, additionalProperties no se mira y la llamada se ejecuta.
    assert g["ejecutar"](g["llamada"]("t3", "escribir", ruta="lista.txt", contenido="pan"), entorno)["content"] == (
        "escrito lista.txt"
    )


def test_una_propiedad_que_no_es_un_objeto_es_un_problema_y_no_lanza(g):
    """ "ruta": "string" en lugar de {"type": "string"}: antes lanzaba AttributeError dentro de ejecutar."""
    esquema = {"type": "object", "properties": {"ruta": "string"}, "required": ["ruta"]}
    assert g["problema_de_esquema"]({"ruta": 3}, esquema) == "el esquema del argumento «ruta» no es un objeto"


def test_es_del_tipo_no_da_por_bueno_un_tipo_que_no_conoce(g):
    for tipo in ("strnig", "fecha", "Integer", "", None, 3, {"raro": 1}, ["strnig"]):
        assert g["es_del_tipo"]("x", tipo) is False, tipo
        assert g["es_del_tipo"](None, tipo) is False, tipo


def _esquema_bien_escrito(azar: random.Random) -> dict:
    nombres = ["string", "integer", "number", "boolean", "object", "array", "null"]
    propiedades = {}
    for n in azar.sample(["a", "b", "c", "d", "e"], azar.randint(0, 4)):
        forma = azar.random()
        if forma < 0.6:
            propiedades[n] = {"type": azar.choice(nombres)}
        elif forma < 0.8:
            propiedades[n] = {"type": azar.sample(nombres, azar.randint(1, 3))}
        else:
            propiedades[n] = {"description": "libre"}
    esquema = {"type": "object", "properties": propiedades}
    if propiedades and azar.random() < 0.5:
        esquema["required"] = azar.sample(sorted(propiedades), azar.randint(1, len(propiedades)))
    if azar.random() < 0.7:
        esquema["additionalProperties"] = azar.random() < 0.6
    return esquema


def _argumentos(azar: random.Random):
    valores = ["", "x", 0, 3, 3.0, 2.5, -1, True, False, None, [], [1], {}, {"k": 1}]
    if azar.random() < 0.05:
        return azar.choice(["a", 3, None, [1]])  # no es un objeto
    return {n: azar.choice(valores) for n in azar.sample(["a", "b", "c", "d", "e", "f"], azar.randint(0, 4))}


def test_con_esquemas_bien_escritos_dice_lo_mismo_que_antes(g):
    """3.000 esquemas y argumentos al azar, con los siete tipos, listas de tipos y additionalProperties
    true, false o sin decir: la comprobación nueva y la de antes dan el mismo problema (o ninguno)."""
    antes = {"TIPOS_JSON": g["TIPOS_JSON"]}
    exec(HOY, antes)
    azar, distintos, problemas = random.Random(37), [], set()
    for _ in range(3000):
        esquema, argumentos = _esquema_bien_escrito(azar), _argumentos(azar)
        nuevo = g["problema_de_esquema"](argumentos, esquema)
        problemas.add((nuevo or "ninguno").split("«")[0])
        if nuevo != antes["problema_de_esquema"](argumentos, esquema):
            distintos.append((argumentos, esquema))
    assert not distintos, distintos[:3]
    # La muestra pasa por cada caso: ninguno, objeto, falta, sobra y tipo.
    assert len(problemas) == 5, problemas
    for esquema in (h["input_schema"] for h in g["HERRAMIENTAS"].values()):
        for argumentos in ({}, {"ruta": "a"}, {"ruta": 3, "contenido": "x"}, {"carpeta": "r", "x": 1}):
            assert g["problema_de_esquema"](argumentos, esquema) == antes["problema_de_esquema"](argumentos, esquema)
