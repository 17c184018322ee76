"""El desafío «El esquema mira la forma»: entregas honestas y tramposas en un mismo lote.

Las dos funciones del alumno reciben y devuelven valores JSON (argumentos, esquemas,
tipos), así que no hay apoderados. La solución de referencia es la de harness.py más la
regla de enum, que harness.py no trae. La muestra de trampas es la del primer desafío.
"""

import ast
import functools

import pytest

from cursos import RAIZ
from cursos.desafio import Desafio
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_con

ESQUEMA = Desafio("problema-de-esquema")
SOLUCION = ESQUEMA.lee("solucion.py")
FIRMA = "def problema_de_esquema(argumentos, esquema):\n"
FIRMA_TIPO = "def es_del_tipo(valor, tipo):\n"
NADA = FIRMA_TIPO + "    return True\n" + FIRMA + "    return None\n"


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


# Otro estilo: una tabla de comprobaciones de tipo y un recorrido con next().
CON_TABLA = """COMPRUEBA = {
    "integer": lambda v: type(v) is int or (type(v) is float and v == int(v)),
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def es_del_tipo(valor, tipo):
    return bool(COMPRUEBA.get(tipo, lambda v: False)(valor))


def problema_de_esquema(argumentos, esquema):
    if type(argumentos) is not dict:
        return "los argumentos no son un objeto"
    falta = next((n for n in esquema.get("required", ()) if n not in argumentos), None)
    if falta is not None:
        return f"falta el argumento «{falta}»"
    otros = esquema.get("additionalProperties", True)
    for nombre, valor in argumentos.items():
        propiedad = esquema.get("properties", {}).get(nombre)
        if propiedad is None:
            if otros is False:
                return f"sobra el argumento «{nombre}»"
            if otros is not True:
                return "additionalProperties debe ser true o false, y es " + json.dumps(otros, ensure_ascii=False)
        elif "type" in propiedad and propiedad["type"] not in COMPRUEBA:
            return "el esquema del argumento «%s» tiene un tipo desconocido: %s" % (
                nombre, json.dumps(propiedad["type"], ensure_ascii=False))
        elif "type" in propiedad and not es_del_tipo(valor, propiedad["type"]):
            return f"el argumento «{nombre}» debe ser de tipo {propiedad['type']}"
        elif "enum" in propiedad and (type(valor) is bool, valor) not in [
                (type(p) is bool, p) for p in propiedad["enum"]]:
            return "el argumento «%s» debe ser uno de %s" % (
                nombre, ", ".join(json.dumps(p, ensure_ascii=False) for p in propiedad["enum"]))
"""

# La primera versión de la lección, con es_del_tipo hecho con la misma tabla de Python.
DE_LA_LECCION = """TIPOS = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
         "object": dict, "array": list, "null": type(None)}


def es_del_tipo(valor, tipo):
    return isinstance(valor, TIPOS.get(tipo, object))


def problema_de_esquema(argumentos, esquema):
    if not isinstance(argumentos, dict):
        return "los argumentos no son un objeto"
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():
        tipo = esquema.get("properties", {}).get(nombre, {}).get("type")
        if tipo and not es_del_tipo(valor, tipo):
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
    return None
"""

TIPOS_PRIMERO = cambia(
    """    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
""",
    """    propiedades = esquema.get("properties", {})
    for nombre, valor in argumentos.items():
        tipo = propiedades.get(nombre, {}).get("type")
        if tipo in NOMBRES_DE_TIPO and not es_del_tipo(valor, tipo):
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
""",
)


# Lo que trae harness.py, copiado tal cual: todo menos enum.
def _de_harness() -> str:
    harness = (RAIZ / "harness.py").read_text(encoding="utf-8")
    return harness[harness.index("TIPOS_JSON = ") : harness.index("def problema_de_llamada")]


SIN_ENUM = cambia(
    """    permitidos = propiedad.get("enum")
    if permitidos is not None and not any(igual_en_json(valor, p) for p in permitidos):
""",
    "    permitidos = None\n    if permitidos:\n",
)
ENUM_CON_IN = cambia("not any(igual_en_json(valor, p) for p in permitidos)", "valor not in permitidos")
ENUM_CON_STR = cambia('", ".join(en_json(p) for p in permitidos)', '", ".join(str(p) for p in permitidos)')
# Fallar en abierto con las erratas del esquema (revisión del bloque 1, N7): la referencia de antes, en la
# que un tipo desconocido no ponía condiciones y sólo False cerraba additionalProperties.
FALLA_EN_ABIERTO = (
    cambia(
        """    if tipo not in TIPOS_JSON:
        return False
    return isinstance(valor, TIPOS_JSON[tipo])""",
        "    return isinstance(valor, TIPOS_JSON.get(tipo, object))",
    )
    .replace(
        """        if tipo not in NOMBRES_DE_TIPO:
            return "el esquema del argumento «%s» tiene un tipo desconocido: %s" % (nombre, en_json(tipo))
""",
        "",
    )
    .replace(
        """        elif admitidos is True:
            problema = None
        elif admitidos is False:
            problema = "sobra el argumento «%s»" % nombre
        else:
            problema = "additionalProperties debe ser true o false, y es %s" % en_json(admitidos)""",
        """        elif admitidos is False:
            problema = "sobra el argumento «%s»" % nombre
        else:
            problema = None""",
    )
)
# Cada errata por separado: sólo es_del_tipo da por bueno un tipo desconocido (problema_de_esquema lo
# para antes), o sólo additionalProperties se deja abierto con lo que no es False.
DESCONOCIDO_EN_ES_DEL_TIPO = cambia(
    "    if tipo not in TIPOS_JSON:\n        return False\n", "    if tipo not in TIPOS_JSON:\n        return True\n"
)
ADDITIONAL_SOLO_CON_FALSE = cambia(
    """        else:
            problema = "additionalProperties debe ser true o false, y es %s" % en_json(admitidos)""",
    """        else:
            problema = None""",
)
# El tipo desconocido escrito sin json.dumps: «strnig» sin comillas.
DESCONOCIDO_SIN_COMILLAS = cambia(
    'tipo desconocido: %s" % (nombre, en_json(tipo))', 'tipo desconocido: %s" % (nombre, tipo)'
)


def _tablas_visibles() -> dict:
    """Las tablas de pruebas.py que un tramposo copiaría: {(argumentos, esquema): respuesta}, sin ejecutarlo."""
    arbol = ast.parse(ESQUEMA.lee("pruebas.py"))
    return {
        n.targets[0].id: ast.unparse(n.value)
        for n in arbol.body
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "").isupper() and n.targets[0].id != "PRUEBAS"
    }


# Las respuestas visibles copiadas del cuaderno (con los esquemas de pruebas.py pegados), y nada más.
TABLAS = (
    "import json\n"
    + "\n".join("%s = %s" % kv for kv in _tablas_visibles().items())
    + """
VISTAS = {json.dumps([a, e]): r
          for a, e, r in CASOS_DE_OBJETO + CASOS_DE_OBLIGATORIOS + CASOS_DE_SOBRANTES + CASOS_DE_TIPOS + CASOS_DE_ENUM}
VISTOS = {json.dumps([v, t]): r for v, t, r in CASOS_DE_TIPO}
"""
)
FIJAS = (
    TABLAS
    + """

def es_del_tipo(valor, tipo):
    return VISTOS.get(json.dumps([valor, tipo]), True)


def problema_de_esquema(argumentos, esquema):
    return VISTAS.get(json.dumps([argumentos, esquema]))
"""
)
# Las mismas respuestas, en el orden en que las piden las pruebas visibles.
POR_ORDEN = (
    TABLAS
    + """
ORDEN_T = [r for v, t, r in CASOS_DE_TIPO]
ORDEN_P = [r for a, e, r in CASOS_DE_OBJETO + CASOS_DE_OBLIGATORIOS + CASOS_DE_SOBRANTES + CASOS_DE_TIPOS
           + CASOS_DE_ENUM]
VEZ = {"t": 0, "p": 0}


def es_del_tipo(valor, tipo):
    VEZ["t"] += 1
    return ORDEN_T[(VEZ["t"] - 1) % len(ORDEN_T)]


def problema_de_esquema(argumentos, esquema):
    VEZ["p"] += 1
    return ORDEN_P[(VEZ["p"] - 1) % len(ORDEN_P)]
"""
)

# Escrita sólo con el enunciado: una tabla de lambdas con type() y enum con type() is bool.
CON_LAMBDAS = """import json
TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}

COMPRUEBA = {
    "integer": lambda v: type(v) is int or (type(v) is float and v % 1 == 0),
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "null": lambda v: v is None,
}


def es_del_tipo(valor, tipo):
    comprobacion = COMPRUEBA.get(tipo)
    if comprobacion is None:
        return False
    return bool(comprobacion(valor))


def _mismo_valor(a, b):
    a_es_bool, b_es_bool = type(a) is bool, type(b) is bool
    if a_es_bool != b_es_bool:
        return False
    return a == b


def problema_de_esquema(argumentos, esquema):
    if type(argumentos) is not dict:
        return "los argumentos no son un objeto"
    faltan = [n for n in esquema.get("required", []) if n not in argumentos]
    if faltan:
        return f"falta el argumento «{faltan[0]}»"
    propiedades = esquema.get("properties", {})
    ap = esquema.get("additionalProperties", True)
    for nombre in argumentos:
        valor = argumentos[nombre]
        if nombre not in propiedades:
            if type(ap) is not bool:
                return f"additionalProperties debe ser true o false, y es {json.dumps(ap, ensure_ascii=False)}"
            if not ap:
                return f"sobra el argumento «{nombre}»"
            continue
        prop = propiedades[nombre]
        if "type" in prop and prop["type"] not in COMPRUEBA:
            return f"el esquema del argumento «{nombre}» tiene un tipo desconocido: {json.dumps(prop['type'])}"
        if "type" in prop and not es_del_tipo(valor, prop["type"]):
            return f"el argumento «{nombre}» debe ser de tipo {prop['type']}"
        if "enum" in prop:
            if not [p for p in prop["enum"] if _mismo_valor(valor, p)]:
                lista = ", ".join([json.dumps(p, ensure_ascii=False) for p in prop["enum"]])
                return f"el argumento «{nombre}» debe ser uno de {lista}"
    return None
"""

# Escrita sólo con el enunciado: match en es_del_tipo, un generador de problemas y enum por (clase, valor).
CON_MATCH = '''import json
import math
TIPOS_JSON = {"string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}
NOMBRES_DE_TIPO = ("string", "integer", "number", "boolean", "object", "array", "null")


def es_del_tipo(valor, tipo):
    es_numero = isinstance(valor, (int, float)) and not isinstance(valor, bool)
    match tipo:
        case "number":
            return es_numero
        case "integer":
            return es_numero and (isinstance(valor, int) or (math.isfinite(valor) and valor == math.floor(valor)))
        case _ if tipo in TIPOS_JSON:
            return isinstance(valor, TIPOS_JSON[tipo])
        case _:
            return False


def _clave_json(v):
    """Dos valores son iguales en JSON si su clave es igual: los booleanos aparte de los números."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float)):
        return ("num", v)
    return ("otro", v)


def _problemas(argumentos, esquema):
    if not isinstance(argumentos, dict):
        yield "los argumentos no son un objeto"
        return
    for nombre in esquema.get("required", ()):
        if nombre not in argumentos:
            yield "falta el argumento «%s»" % nombre
    propiedades = esquema.get("properties") or {}
    for nombre, valor in argumentos.items():
        propiedad = propiedades.get(nombre)
        if propiedad is None:
            match esquema.get("additionalProperties", True):
                case True:
                    continue
                case False:
                    yield "sobra el argumento «%s»" % nombre
                case otro:
                    yield "additionalProperties debe ser true o false, y es " + json.dumps(otro, ensure_ascii=False)
            continue
        tipo = propiedad.get("type", "")
        if "type" in propiedad and tipo not in NOMBRES_DE_TIPO:
            yield "el esquema del argumento «%s» tiene un tipo desconocido: %s" % (nombre, json.dumps(tipo))
            continue
        if "type" in propiedad and not es_del_tipo(valor, tipo):
            yield "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
            continue
        if "enum" in propiedad:
            claves = [_clave_json(p) for p in propiedad["enum"]]
            if _clave_json(valor) not in claves:
                yield "el argumento «%s» debe ser uno de %s" % (
                    nombre, ", ".join(json.dumps(p, ensure_ascii=False) for p in propiedad["enum"]))


def problema_de_esquema(argumentos, esquema):
    return next(_problemas(argumentos, esquema), None)
'''


HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "con_lambdas": (CON_LAMBDAS, 10),
    "con_match": (CON_MATCH, 10),
    "bien_con_tabla": (CON_TABLA, 10),
    "bien_con_ruido": (
        RUIDO
        + cambia(
            "    propiedades = esquema.get",
            "    print('miro', argumentos, file=sys.stderr)\n    propiedades = esquema.get",
        ),
        10,
    ),
    "la_primera_version": (DE_LA_LECCION, 2),  # el objeto y los obligatorios
    "true_es_un_numero": (
        cambia(
            """        if isinstance(valor, bool) or not isinstance(valor, (int, float)):
            return False
""",
            """        if not isinstance(valor, (int, float)):
            return False
""",
        ),
        3,
    ),  # pierde los tipos (es_del_tipo y un caso de tipos), un caso de enum y las variaciones
    "sin_additional": (
        cambia('    admitidos = esquema.get("additionalProperties", True)\n', "    admitidos = True\n"),
        6,
    ),  # pierde lo que sobra, los tipos (un caso) y las variaciones
    "additional_por_omision": (
        cambia('esquema.get("additionalProperties", True)', 'esquema.get("additionalProperties", False)'),
        7,
    ),
    "falla_en_abierto": (FALLA_EN_ABIERTO, 7),  # la referencia de antes: pierde tipo, sobrantes y tipos (N7)
    "desconocido_en_es_del_tipo": (DESCONOCIDO_EN_ES_DEL_TIPO, 9),  # sólo el punto de tipo
    "additional_solo_con_false": (ADDITIONAL_SOLO_CON_FALSE, 9),  # sólo el punto de sobrantes
    "desconocido_sin_comillas": (DESCONOCIDO_SIN_COMILLAS, 9),  # sólo el punto de tipos
    "tipos_antes": (TIPOS_PRIMERO, 3),  # los obligatorios, un orden de los tipos y las variaciones
    "solo_es_del_tipo": (SOLUCION.split(FIRMA)[0] + FIRMA + "    raise NotImplementedError('luego')\n", 1),
    "copia_harness": (_de_harness(), 7),  # todo menos enum: sólo los 3 puntos de enum
    "sin_enum": (SIN_ENUM, 7),
    "enum_con_in": (ENUM_CON_IN, 7),  # True en [1] y False en [0]
    "enum_con_str": (ENUM_CON_STR, 7),  # el mensaje sin comillas: «añadir, sustituir»
}


def trampas_del_esquema(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre estas funciones, y las de este desafío."""
    codigos = muestra_con(curso, puerto, NADA, FIRMA_TIPO + "    return True\n" + FIRMA)
    ocultas = RAIZ / "desafios" / ESQUEMA.slug / "ocultas.py"
    codigos.update(
        {
            "e01_redefine_las_pruebas": NADA
            + (
                "class Fallo(Exception):\n    pass\n"
                "def exige(*a, **k):\n    pass\n"
                "def comprueba_problemas(*a, **k):\n    pass\n"
            ),
            "e02_igual_a_todo": (
                "class Siempre(str):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n    __hash__ = str.__hash__\n"
                + FIRMA_TIPO
                + "    return True\n"
                + FIRMA
                + "    return Siempre('x')\n"
            ),
            "e03_lee_las_ocultas": FIRMA_TIPO
            + "    return True\n"
            + FIRMA
            + ("    try:\n        return open(%r).read()[-500:]\n    except OSError as e:\n        return str(e)\n")
            % str(ocultas),
            "e05_tabla_de_las_visibles": FIJAS,
            "e06_visibles_por_orden": POR_ORDEN,
            "e04_por_numero_de_llamada": (
                "VECES = [0]\n"
                + FIRMA_TIPO
                + "    VECES[0] += 1\n    return VECES[0] %% 2 == 0\n"
                + FIRMA
                + "    VECES[0] += 1\n    return [None, 'falta el argumento «ruta»'][VECES[0] %% 2]\n"
            ).replace("%%", "%"),
        }
    )
    return codigos


LOTE = Lote(
    ESQUEMA, HONESTAS, trampas_del_esquema, minimo=18, lee_ocultas=("e03_lee_las_ocultas", ("ana@ejemplo.com",))
)


def _con(codigo: str) -> dict:
    """Un espacio con json y el entorno del curso (HERRAMIENTAS), como el código de partida, y el código."""
    espacio = {"json": __import__("json")}
    exec((RAIZ / "entorno.py").read_text(encoding="utf-8"), espacio)
    exec(codigo, espacio)
    return espacio


def test_la_referencia_es_la_de_harness_mas_enum():
    """Sin enum, la referencia y harness.py dicen lo mismo en cada caso visible; con enum, harness.py no ve nada."""
    referencia, harness = _con(SOLUCION), _con(_de_harness())
    tablas = {
        nombre: _con("import json\n" + "\n".join("%s = %s" % kv for kv in _tablas_visibles().items()))[nombre]
        for nombre in (
            "CASOS_DE_TIPO",
            "CASOS_DE_OBJETO",
            "CASOS_DE_OBLIGATORIOS",
            "CASOS_DE_SOBRANTES",
            "CASOS_DE_TIPOS",
            "CASOS_DE_ENUM",
        )
    }
    for valor, tipo, _ in tablas["CASOS_DE_TIPO"]:
        assert referencia["es_del_tipo"](valor, tipo) is harness["es_del_tipo"](valor, tipo), (valor, tipo)
    sin_enum = [c for n, casos in tablas.items() if n not in ("CASOS_DE_TIPO", "CASOS_DE_ENUM") for c in casos]
    for argumentos, esquema, esperado in sin_enum:
        assert referencia["problema_de_esquema"](argumentos, esquema) == esperado
        assert harness["problema_de_esquema"](argumentos, esquema) == esperado
    de_enum = [c for c in tablas["CASOS_DE_ENUM"] if c[2] and "uno de" in c[2]]
    assert len(de_enum) >= 5
    assert all(harness["problema_de_esquema"](a, e) != esperado for a, e, esperado in de_enum), "trae enum"


def test_cada_regla_cuenta_por_separado(lote):
    filas = lote["filas"]
    assert filas["la_primera_version"]["objeto"] == 1 and filas["la_primera_version"]["tipo"] == 0
    assert filas["true_es_un_numero"]["tipo"] == 0 and filas["true_es_un_numero"]["sobrantes"] == 1
    assert filas["tipos_antes"]["obligatorios"] == 0 and filas["tipos_antes"]["sobrantes"] == 1
    assert filas["copia_harness"]["enum"] == 0 and filas["copia_harness"]["tipo"] == 1
    assert filas["enum_con_in"]["enum"] == 0 and filas["enum_con_in"]["tipos"] == 1
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_fallar_en_abierto_con_las_erratas_del_esquema_no_saca_el_maximo(lote):
    """N7: la referencia de antes (un tipo desconocido no pone condiciones, sólo False cierra
    additionalProperties) pierde las tres reglas en que falla en abierto, y cada errata cuesta lo suyo."""
    filas = lote["filas"]
    abierta = filas["falla_en_abierto"]
    assert abierta["puntos"] < 10 and abierta["tipo"] == abierta["tipos"] == abierta["sobrantes"] == 0
    assert abierta["enum"] == 3 and abierta["obligatorios"] == 1
    assert "no pasa tipo, sobrantes, tipos" in abierta["motivo"], abierta["motivo"]
    assert "es_del_tipo(\"lo que sea\", 'fecha') debía devolver False y ha devuelto True" in abierta["motivo"]
    assert filas["desconocido_en_es_del_tipo"]["tipo"] == 0 and filas["desconocido_en_es_del_tipo"]["tipos"] == 1
    assert filas["additional_solo_con_false"]["sobrantes"] == 0 and filas["additional_solo_con_false"]["tipos"] == 1


def test_el_motivo_dice_con_que_argumentos(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "es_del_tipo(true, 'integer') debía devolver False y ha devuelto True" in motivos["la_primera_version"]
    assert "debía devolver 'sobra el argumento «modo»' y ha devuelto None" in motivos["sin_additional"]
    assert 'debía devolver \'el argumento «modo» debe ser uno de "añadir", "sustituir"\'' in motivos["enum_con_str"]
    tabla = motivos["e05_tabla_de_las_visibles"]
    assert "la variación oculta 1 de 1 no pasa" in tabla and "AVISO" not in tabla


def _definidos(fuente: str) -> set[str]:
    """Los nombres que un código define en su primer nivel (asignaciones, funciones, clases)."""
    nombres = set()
    for nodo in ast.parse(fuente).body:
        if isinstance(nodo, ast.Assign):
            nombres |= {t.id for t in nodo.targets if isinstance(t, ast.Name)}
        elif isinstance(nodo, (ast.FunctionDef, ast.ClassDef)):
            nombres.add(nodo.name)
    return nombres


@pytest.mark.parametrize("slug", ["el-bucle-de-texto", "problema-de-esquema", "ejecutar-nunca-lanza"])
def test_la_celda_de_pruebas_no_pisa_nombres_de_la_leccion(slug):
    """La celda de pruebas corre después de la del alumno: si define TIPOS, pisa el TIPOS que el alumno
    copió de la lección y su es_del_tipo cambia. Ninguna tabla de pruebas.py se llama como algo de
    las celdas de la lección (salvo PRUEBAS, la tabla que leen el cuaderno y el calificador)."""
    from cursos import celdas

    desafio = Desafio(slug)
    leccion = RAIZ / "lecciones" / desafio.leccion / "leccion.md"
    de_la_leccion = set().union(*(_definidos(f) for f, _ in celdas.celdas_de_codigo(leccion)))
    pisados = (_definidos(desafio.lee("pruebas.py")) & (de_la_leccion - _definidos(desafio.partida()))) - {"PRUEBAS"}
    assert not pisados, f"{slug}: pruebas.py redefine {sorted(pisados)}, que la lección también define"
