"""El desafío «Un ejecutar que nunca lanza»: entregas honestas y tramposas en un mismo lote.

Como en el primer desafío, el alumno escribe ejecutar(ll, entorno) y las funciones de las
herramientas corren en el proceso de confianza. Aquí las herramientas de cada prueba no son
las del curso (otros nombres, esquemas y excepciones), y cada prueba visible tiene en el
calificador una parte oculta: fijar las observaciones de las pruebas visibles no da puntos.
"""

import ast
import functools
import re

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.calificador.ayudas import califica_lote, con_solucion, curso_del_desafio, ejecuta_cuaderno, entrega
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import MUESTRA, trampas

NUNCA_LANZA = Desafio("ejecutar-nunca-lanza")
SOLUCION = NUNCA_LANZA.lee("solucion.py")
FIRMA = "def ejecutar(ll, entorno):\n"
LECCION = (RAIZ / "lecciones" / "los-errores" / "leccion.md").read_text(encoding="utf-8")
# Las celdas de la lección: la 1 repite la lección anterior, la 2 confía en la llamada, la 3 sólo
# recoge lo que lanza la función, la 5 es la de la lección (problema_de_llamada y ejecutar).
CELDAS = re.split(r"```python[^\n]*\n", LECCION)[1:]  # con o sin etiquetas en la cabecera
CONFIA = CELDAS[1][CELDAS[1].index("def ejecutar(") : CELDAS[1].index("\nINICIO")]
SOLO_TRY = CELDAS[2][CELDAS[2].index("def ejecutar(") : CELDAS[2].index("\nmotivo")]
DE_LA_LECCION = CELDAS[4][: CELDAS[4].index("\nentorno = dict(ENTORNO)")]
SIN_ID = (
    '    if not isinstance(id, str) or not isinstance(ll.get("name"), str):\n'
    '        return error(id, NO_EJECUTADA + "la llamada no trae id o nombre")\n'
)
FUNCION_ERROR = '        return error(id, "%s: %s" % (type(e).__name__, e))\n'
RECOGE = "    except Exception as e:  # la función ha corrido: su error vuelve sin el prefijo\n" + FUNCION_ERROR
EN_TEXTO = (
    "    try:\n"
    "        texto = valor if isinstance(valor, str) else json.dumps(valor, ensure_ascii=False)\n"
    "    except (TypeError, ValueError):  # un set, unos bytes, una fecha, una lista que se contiene: JSON no sabe\n"
    "        texto = repr(valor)\n"
    "    return resultado(id, texto)\n"
)


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


# Escrita sólo con el enunciado: una función da el motivo, otra pasa a texto.
CON_MOTIVO = """def _motivo(ll):
    if not isinstance(ll, dict) or ll.get("type") != "tool_use":
        return "no es un bloque tool_use"
    if type(ll.get("id")) is not str or type(ll.get("name")) is not str:
        return "la llamada no trae id o nombre"
    if ll["name"] not in HERRAMIENTAS:
        return f"no existe la herramienta «{ll['name']}»"
    return problema_de_esquema(ll.get("input"), HERRAMIENTAS[ll["name"]]["input_schema"])


def _como_texto(valor):
    if isinstance(valor, str):
        return valor
    return json.dumps(valor, ensure_ascii=False)


def ejecutar(ll, entorno):
    identificador = ll.get("id") if isinstance(ll, dict) else None
    motivo = _motivo(ll)
    if motivo:
        return error(identificador, NO_EJECUTADA + motivo)
    funcion = HERRAMIENTAS[ll["name"]]["funcion"]
    try:
        valor = funcion(entorno, **ll["input"])
    except Exception as e:
        return error(identificador, f"{type(e).__name__}: {e}")
    return resultado(identificador, _como_texto(valor))
"""

# Escrita sólo con el enunciado: el prefijo escrito a mano y la herramienta con try/KeyError.
CON_KEYERROR = """def ejecutar(ll, entorno):
    es_dict = isinstance(ll, dict)
    id_ = ll.get("id") if es_dict else None
    if not es_dict or ll.get("type") != "tool_use":
        return error(id_, "no se ha ejecutado: no es un bloque tool_use")
    nombre = ll.get("name")
    if not (isinstance(id_, str) and isinstance(nombre, str)):
        return error(id_, "no se ha ejecutado: la llamada no trae id o nombre")
    try:
        herramienta = HERRAMIENTAS[nombre]
    except KeyError:
        return error(id_, "no se ha ejecutado: no existe la herramienta «%s»" % nombre)
    argumentos = ll.get("input")
    problema = problema_de_esquema(argumentos, herramienta["input_schema"])
    if problema is not None:
        return error(id_, "no se ha ejecutado: %s" % problema)
    try:
        valor = herramienta["funcion"](entorno, **argumentos)
    except Exception as excepcion:
        return error(id_, "%s: %s" % (excepcion.__class__.__name__, excepcion))
    contenido = valor if type(valor) is str else json.dumps(valor, ensure_ascii=False)
    return resultado(id_, contenido)
"""


HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "con_motivo": (CON_MOTIVO, 10),
    "con_keyerror": (CON_KEYERROR, 10),
    "bien_con_ruido": (RUIDO + cambia("    try:\n", "    print('ejecuto', ll, file=sys.stderr)\n    try:\n"), 10),
    "la_de_la_leccion": (DE_LA_LECCION, 4),  # no pasa a texto: sólo lo que no encaja y lo que lanza
    # Comprueba primero y recoge después, escrito de otra manera: un diccionario de motivos.
    "otro_estilo": (
        FIRMA
        + (
            "    es_llamada = isinstance(ll, dict) and ll.get('type') == 'tool_use'\n"
            "    id = ll.get('id') if isinstance(ll, dict) else None\n"
            "    if not es_llamada:\n        motivo = 'no es un bloque tool_use'\n"
            "    elif not (isinstance(id, str) and isinstance(ll.get('name'), str)):\n"
            "        motivo = 'la llamada no trae id o nombre'\n"
            "    elif ll['name'] not in HERRAMIENTAS:\n        motivo = 'no existe la herramienta «' + ll['name'] + '»'\n"  # noqa: E501
            "    else:\n        motivo = problema_de_esquema(ll.get('input'), HERRAMIENTAS[ll['name']]['input_schema'])\n"  # noqa: E501
            "    if motivo is not None:\n        return error(id, NO_EJECUTADA + motivo)\n"
            "    try:\n        valor = HERRAMIENTAS[ll['name']]['funcion'](entorno, **ll['input'])\n"
            "    except Exception as fallo:\n        return error(id, f'{fallo.__class__.__name__}: {fallo}')\n"
            "    if type(valor) is not str:\n        import json as j\n"
            "        valor = j.dumps(valor, ensure_ascii=False)\n"
            "    return resultado(id, valor)\n"
        ),
        10,
    ),
    "con_str": (cambia(EN_TEXTO, "    return resultado(id, str(valor))\n"), 7),  # True, listas y None salen mal
    "json_tambien_el_texto": (
        cambia(EN_TEXTO, "    return resultado(id, json.dumps(valor, ensure_ascii=False))\n"),
        0,
    ),  # un texto sale entre comillas: la tortilla ya no es la del guion
    "json_con_ascii": (cambia(EN_TEXTO, EN_TEXTO.replace(", ensure_ascii=False", "")), 8),  # «azafrán» sale escapado
    "sin_pasar_a_texto": (cambia(EN_TEXTO, "    return resultado(id, valor)\n"), 4),
    "confia_en_la_llamada": (CONFIA, 0),  # lanza en la tortilla y no pasa nada a texto
    "solo_recoge_lo_que_lanza": (SOLO_TRY, 2),  # la celda 3: sin mirar la llamada ni pasar a texto
    "sin_recoger": (
        cambia("    try:\n        valor = ", "    if True:\n        valor = ").replace(RECOGE, ""),
        4,
    ),
    "prefijo_en_todo": (cambia(FUNCION_ERROR, FUNCION_ERROR.replace("error(id, ", "error(id, NO_EJECUTADA + ")), 4),
    "sin_el_tipo": (cambia(FUNCION_ERROR, "        return error(id, str(e))\n"), 4),
    "sin_mirar_el_id": (cambia(SIN_ID, ""), 8),
    "dos_veces": (
        cambia(
            '        valor = herramienta["funcion"](entorno, **ll["input"])\n',
            '        herramienta["funcion"](entorno, **ll["input"])\n'
            '        valor = herramienta["funcion"](entorno, **ll["input"])\n',
        ),
        3,
    ),
    "nada_se_ejecuta": (FIRMA + "    return error(None, NO_EJECUTADA + 'no')\n", 0),
    "lanza": (FIRMA + "    raise ValueError('todavía no')\n", 0),
}


def visibles() -> dict:
    """{repr(llamada): observación} de cada llamada de las pruebas visibles, con la solución de referencia."""
    g = espacio_de_pruebas(NUNCA_LANZA)
    exec(SOLUCION, g)
    vistas = {}

    class Anota:
        def instala(self, mesa):
            return g["con_globales"](HERRAMIENTAS=mesa.herramientas)

        def bucle_intacto(self):
            return None

    original = g["ejecutar"]

    def anota(ll, entorno):
        obs = original(ll, entorno)
        vistas[repr(ll)] = obs
        return obs

    g["ejecutar"] = anota
    g.pop("PARTES_OCULTAS")
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        if nombre != "variaciones":
            prueba(Anota())
    return vistas


def trampas_de_ejecutar(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío (ya son de ejecutar) y las propias de éste."""
    comunes = trampas(curso, puerto)
    codigos = {a: comunes[a] for a in MUESTRA}
    fijas = repr(visibles())
    ocultas = RAIZ / "desafios" / NUNCA_LANZA.slug / "ocultas.py"
    # Corre la función si la observación fijada dice que ha corrido: así el entorno cuadra.
    corre = (
        "    if not (obs.get('is_error') and str(obs.get('content')).startswith(NO_EJECUTADA)):\n"
        "        try:\n            HERRAMIENTAS[ll['name']]['funcion'](entorno, **ll['input'])\n"
        "        except Exception:\n            pass\n    return obs\n"
    )
    codigos.update(
        {
            # Las observaciones de las pruebas visibles, fijadas llamada a llamada.
            "e01_fija_las_visibles": "FIJAS = %s\n" % fijas
            + FIRMA
            + ("    obs = FIJAS.get(repr(ll), resultado(None, ''))\n")
            + corre,
            # Las mismas, en el orden en que llegan las llamadas.
            "e02_por_numero_de_llamada": "ORDEN = list(%s.values())\nVEZ = [0]\n" % fijas
            + FIRMA
            + ("    VEZ[0] += 1\n    obs = ORDEN[(VEZ[0] - 1) % len(ORDEN)]\n")
            + corre,
            "e03_lee_las_ocultas": FIRMA
            + (
                "    try:\n        return error(None, open(%r).read()[-2000:])\n"
                "    except OSError as e:\n        return error(None, str(e))\n"
            )
            % str(ocultas),
            "e04_usa_el_de_harness": "def ejecutar_de_harness(ll, entorno):\n    pass\n"
            + FIRMA
            + ("    exec(open('harness.py').read(), globals())\n    return ejecutar(ll, entorno)\n"),
            "e05_redefine_las_pruebas": FIRMA
            + "    return None\n"
            + (
                "def comprueba_casos(*a, **k):\n    pass\ndef conversa(*a, **k):\n    pass\n"
                "class Fallo(Exception):\n    pass\nPARTES_OCULTAS = {}\n"
            ),
            "e06_observacion_igual_a_todo": (
                "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n" + FIRMA + "    return Siempre()\n"
            ),
            "e07_herramientas_propias": FIRMA
            + "    obs = resultado(ll.get('id'), 'escrito lista.txt')\n"
            + corre.replace("HERRAMIENTAS", "MIAS")
            + "MIAS = dict(HERRAMIENTAS)\n",
        }
    )
    return codigos


LOTE = Lote(NUNCA_LANZA, HONESTAS, trampas_de_ejecutar, minimo=20, lee_ocultas=("e03_lee_las_ocultas", ("azafrán",)))


def test_cada_parte_cuenta(lote):
    filas = lote["filas"]
    solo_try = filas["solo_recoge_lo_que_lanza"]
    assert solo_try["no_encaja"] == 0 and solo_try["la_funcion_lanza"] == 2
    assert filas["sin_recoger"]["la_funcion_lanza"] == 0 and filas["sin_recoger"]["no_encaja"] == 2
    assert filas["prefijo_en_todo"]["la_funcion_lanza"] == 0
    assert filas["sin_mirar_el_id"]["no_encaja"] == 0 and filas["sin_mirar_el_id"]["variaciones"] == 1
    assert filas["dos_veces"]["bien_formadas"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_dice_que_ha_devuelto(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "se ha parado: ejecutar ha lanzado FileNotFoundError" in motivos["confia_en_la_llamada"]
    assert "no se ha ejecutado: la llamada no trae id o nombre" in motivos["sin_mirar_el_id"]
    assert "debía correr 1 vez/veces y ha corrido 2" in motivos["dos_veces"]


def test_las_fijas_pasan_las_visibles_en_el_cuaderno(lote):
    """Fijar las visibles engaña al cuaderno (que no cuenta para la nota) y no al calificador."""
    carpeta = lote["curso"] / "release" / NUNCA_LANZA.slug
    codigo = trampas_de_ejecutar(lote["curso"], 9)["e01_fija_las_visibles"]
    nb = con_solucion(lote["cuaderno"], codigo, NUNCA_LANZA)
    salida = ejecuta_cuaderno(nb, carpeta)
    assert "✔ no_encaja" in salida and "✔ la_funcion_lanza" in salida
    assert lote["filas"]["e01_fija_las_visibles"]["puntos"] == 0


def test_el_desafio_no_reparte_harness():
    """Como la lección, el desafío no carga harness.py: su ejecutar, que no pasa a texto, no va al lado."""
    assert [nombre for nombre, _ in NUNCA_LANZA.modulos()] == ["guionizado.py", "entorno.py"]
    definidas = {n.name for n in ast.parse(NUNCA_LANZA.partida()).body if isinstance(n, ast.FunctionDef)}
    assert {"bucle", "problema_de_esquema", "error", "resultado"} <= definidas
    assert "problema_de_llamada" not in definidas


def test_el_ejecutar_de_la_leccion_y_el_de_harness_no_pasan_a_texto(lote):
    """La regla nueva se califica: lo que la lección y harness.py traen hecho no la cumple."""
    filas = lote["filas"]
    assert filas["la_de_la_leccion"]["bien_formadas"] == 0 and filas["la_de_la_leccion"]["no_encaja"] == 2
    assert filas["con_str"]["bien_formadas"] == 0 and "resultado c7" in filas["con_str"]["motivo"]


# Un ejecutar correcto que trata el entorno como lo que la lección le da: un dict.
USA_EL_ENTORNO = cambia(
    '    id = ll.get("id") if isinstance(ll, dict) else None\n',
    "    assert isinstance(entorno, dict), 'la lección da un dict'\n"
    "    json.dumps(entorno)  # un registro, por ejemplo\n"
    '    id = ll.get("id") if isinstance(ll, dict) else None\n',
)


def test_el_entorno_es_un_dict_como_en_la_leccion(tmp_path_factory):
    curso, cuaderno = curso_del_desafio(tmp_path_factory, NUNCA_LANZA)
    entrega(curso, "usa_el_entorno", con_solucion(cuaderno, USA_EL_ENTORNO, NUNCA_LANZA), NUNCA_LANZA)
    fila = califica_lote(curso, NUNCA_LANZA)["usa_el_entorno"]
    assert fila["puntos"] == 10, fila["motivo"]


def test_la_solucion_hace_lo_que_dice_la_pista_del_try():
    """La pista 4 dice que en el try sólo va la llamada a la función de la herramienta: la solución de
    referencia, que es de lo que aprende quien la lee, hace lo mismo (pasar a texto va después)."""
    funcion = next(n for n in ast.parse(SOLUCION).body if isinstance(n, ast.FunctionDef) and n.name == "ejecutar")
    # Dos try: el de la función y, después, el de pasar a texto (lo que JSON no sabe escribir, con repr).
    bloque, a_texto = [n for n in ast.walk(funcion) if isinstance(n, ast.Try)]
    assert "json.dumps" in ast.unparse(a_texto.body[0]) and "repr(valor)" in ast.unparse(a_texto.handlers[0])
    assert len(bloque.body) == 1, "en el try de ejecutar va algo más que la llamada a la función"
    (llamada,) = [n for n in ast.walk(bloque.body[0]) if isinstance(n, ast.Call)]
    assert ast.unparse(llamada.func) == 'herramienta["funcion"]'.replace('"', "'")
