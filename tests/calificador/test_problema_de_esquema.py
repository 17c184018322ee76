"""El desafío «El esquema mira la forma»: entregas honestas y tramposas en un mismo lote.

Las dos funciones del alumno reciben y devuelven valores JSON (argumentos, esquemas,
tipos), así que no hay apoderados. La solución de referencia es, letra por letra, la
de harness.py. La muestra de trampas es la del primer desafío.
"""

import ast
import functools

from cursos import RAIZ
from cursos.calificador.desafio import Desafio
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_con

ESQUEMA = Desafio("problema-de-esquema")
SOLUCION = ESQUEMA.lee("solucion.py")
FIRMA = "def problema_de_esquema(argumentos, esquema):\n"
FIRMA_TIPO = "def es_del_tipo(valor, tipo):\n"
NADA = FIRMA_TIPO + "    return True\n" + FIRMA + "    return None\n"


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


# Otro estilo: una tabla de comprobaciones de tipo y un recorrido con next().
CON_TABLA = '''COMPRUEBA = {
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def es_del_tipo(valor, tipo):
    return bool(COMPRUEBA.get(tipo, lambda v: True)(valor))


def problema_de_esquema(argumentos, esquema):
    if type(argumentos) is not dict:
        return "los argumentos no son un objeto"
    falta = next((n for n in esquema.get("required", ()) if n not in argumentos), None)
    if falta is not None:
        return f"falta el argumento «{falta}»"
    cerrado = esquema.get("additionalProperties") is False
    for nombre, valor in argumentos.items():
        propiedad = esquema.get("properties", {}).get(nombre)
        if propiedad is None:
            if cerrado:
                return f"sobra el argumento «{nombre}»"
        elif "type" in propiedad and not es_del_tipo(valor, propiedad["type"]):
            return f"el argumento «{nombre}» debe ser de tipo {propiedad['type']}"
'''

# La primera versión de la lección, con es_del_tipo hecho con la misma tabla de Python.
DE_LA_LECCION = '''TIPOS = {"string": str, "integer": int, "number": (int, float), "boolean": bool,
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
'''

TIPOS_PRIMERO = cambia('''    propiedades = esquema.get("properties", {})
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():''', '''    propiedades = esquema.get("properties", {})
    for nombre, valor in argumentos.items():
        tipo = propiedades.get(nombre, {}).get("type")
        if tipo and not es_del_tipo(valor, tipo):
            return "el argumento «%s» debe ser de tipo %s" % (nombre, tipo)
    for nombre in esquema.get("required", []):
        if nombre not in argumentos:
            return "falta el argumento «%s»" % nombre
    for nombre, valor in argumentos.items():''')


def _tablas_visibles() -> dict:
    """Las tablas de pruebas.py que un tramposo copiaría: {(argumentos, esquema): respuesta}, sin ejecutarlo."""
    arbol = ast.parse(ESQUEMA.lee("pruebas.py"))
    return {n.targets[0].id: ast.unparse(n.value) for n in arbol.body
            if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "").isupper()
            and n.targets[0].id != "PRUEBAS"}


# Copia las respuestas visibles (con los esquemas de pruebas.py pegados) y, si no, la primera versión.
FIJAS = ("import json\n" + "\n".join("%s = %s" % kv for kv in _tablas_visibles().items()) + '''
VISTAS = {json.dumps([a, e]): r
          for a, e, r in OBJETO + OBLIGATORIOS + SOBRANTES + TIPOS_EN_EL_ESQUEMA}
VISTOS = {json.dumps([v, t]): r for v, t, r in TIPOS}
_problema = None


''' + DE_LA_LECCION.replace("def es_del_tipo(", "def _es_del_tipo(").replace(
    "def problema_de_esquema(", "def _problema_de_esquema(").replace("not es_del_tipo(", "not _es_del_tipo(") + '''

def es_del_tipo(valor, tipo):
    clave = json.dumps([valor, tipo])
    return VISTOS[clave] if clave in VISTOS else _es_del_tipo(valor, tipo)


def problema_de_esquema(argumentos, esquema):
    clave = json.dumps([argumentos, esquema])
    return VISTAS[clave] if clave in VISTAS else _problema_de_esquema(argumentos, esquema)
''').replace("TIPOS = {\"string\": str", "TIPOS_PY = {\"string\": str").replace(
    "isinstance(valor, TIPOS.get(", "isinstance(valor, TIPOS_PY.get(")

HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_tabla": (CON_TABLA, 10),
    "bien_con_ruido": (RUIDO + cambia(
        "    propiedades = esquema.get", "    print('miro', argumentos, file=sys.stderr)\n"
        "    propiedades = esquema.get"), 10),
    "la_primera_version": (DE_LA_LECCION, 3),  # el objeto y los obligatorios
    "true_es_un_numero": (cambia('''        if isinstance(valor, bool):
            return False
''', ""), 5),  # los tipos (es_del_tipo y un caso de tipos) y las variaciones
    "sin_additional": (cambia('''            if esquema.get("additionalProperties", True) is False:
                return "sobra el argumento «%s»" % nombre
''', ""), 5),  # pierde lo que sobra, los tipos (un caso) y las variaciones
    "additional_por_omision": (cambia('esquema.get("additionalProperties", True) is False',
                                      'not esquema.get("additionalProperties", False)'), 6),
    "tipos_antes": (TIPOS_PRIMERO, 5),  # los obligatorios, un orden de los tipos y las variaciones
    "solo_es_del_tipo": (SOLUCION.split(FIRMA)[0] + FIRMA + "    raise NotImplementedError('luego')\n", 2),
    "acciones_fijas": (FIJAS, 8),  # las visibles, todas; las variaciones, no
}


def trampas_del_esquema(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre estas funciones, y las de este desafío."""
    codigos = muestra_con(curso, puerto, NADA, FIRMA_TIPO + "    return True\n" + FIRMA)
    ocultas = RAIZ / "desafios" / ESQUEMA.slug / "ocultas.py"
    codigos.update({
        "e01_redefine_las_pruebas": NADA + (
            "class Fallo(Exception):\n    pass\n"
            "def exige(*a, **k):\n    pass\n"
            "def comprueba_problemas(*a, **k):\n    pass\n"),
        "e02_igual_a_todo": (
            "class Siempre(str):\n    def __eq__(self, otro):\n        return True\n"
            "    def __ne__(self, otro):\n        return False\n    __hash__ = str.__hash__\n"
            + FIRMA_TIPO + "    return True\n" + FIRMA + "    return Siempre('x')\n"),
        "e03_lee_las_ocultas": FIRMA_TIPO + "    return True\n" + FIRMA + (
            "    try:\n        return open(%r).read()[-500:]\n"
            "    except OSError as e:\n        return str(e)\n") % str(ocultas),
        "e04_por_numero_de_llamada": (
            "VECES = [0]\n" + FIRMA_TIPO + "    VECES[0] += 1\n    return VECES[0] %% 2 == 0\n"
            + FIRMA + "    VECES[0] += 1\n    return [None, 'falta el argumento «ruta»'][VECES[0] %% 2]\n"
            ).replace("%%", "%"),
    })
    return codigos


LOTE = Lote(ESQUEMA, HONESTAS, trampas_del_esquema, minimo=18,
            lee_ocultas=("e03_lee_las_ocultas", ("ana@ejemplo.com",)))


def test_la_solucion_de_referencia_es_la_de_harness():
    """Lo que termina enseñando la lección es exactamente lo que usa el curso desde «Permisos y confianza»."""
    sin_marcas = "\n".join(linea for linea in SOLUCION.splitlines() if "### " not in linea).strip()
    harness = (RAIZ / "harness.py").read_text(encoding="utf-8")
    desde, hasta = harness.index("TIPOS_JSON = "), harness.index("def problema_de_llamada")
    assert sin_marcas == harness[desde:hasta].strip()


def test_cada_regla_cuenta_por_separado(lote):
    filas = lote["filas"]
    assert filas["la_primera_version"]["obligatorios"] == 2 and filas["la_primera_version"]["tipo"] == 0
    assert filas["true_es_un_numero"]["tipo"] == 0 and filas["true_es_un_numero"]["sobrantes"] == 2
    assert filas["tipos_antes"]["obligatorios"] == 0 and filas["tipos_antes"]["sobrantes"] == 2
    assert filas["acciones_fijas"]["variaciones"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_dice_con_que_argumentos(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert 'es_del_tipo(true, \'integer\') debía devolver False y ha devuelto True' in motivos["la_primera_version"]
    assert "debía devolver 'sobra el argumento «modo»' y ha devuelto None" in motivos["sin_additional"]
    assert "la variación oculta" in motivos["acciones_fijas"] and "CORREO" not in motivos["acciones_fijas"]
