"""El desafío «Identidad delegada»: entregas honestas y tramposas en un mismo lote.

Aquí lo que devuelve el alumno no es sólo JSON: crear_herramienta_perfil devuelve una
función y abrir_sesion un diccionario con funciones. Viajan como marcas y se llaman en su
proceso; la conversación, el guion, los perfiles de cada prueba y las comprobaciones se
quedan en el de confianza. La muestra de trampas es la del primer desafío.
"""

import contextlib
import functools
import io

from cursos import RAIZ, celdas
from cursos.desafio import Desafio
from tests.ayudas import puntos_en_el_banco
from tests.calificador.copias import copia_renombrada
from tests.calificador.lotes import RUIDO, Lote, cambia_en
from tests.calificador.trampas import muestra_con

IDENTIDAD = Desafio("identidad-delegada")
SOLUCION = IDENTIDAD.lee("solucion.py")
CREAR = "def crear_herramienta_perfil(id_usuario_autenticado):\n"
RESTO = (
    "def validar_token(token, audiencia, alcance, ahora):\n    raise PermissionError('no')\n"
    "def abrir_sesion(token, ahora):\n    raise PermissionError('no')\n"
)
NADA = CREAR + "    return None\n" + RESTO


cambia = functools.partial(cambia_en, SOLUCION)  # cambia(viejo, nuevo) sobre la solución


VALIDA = '    usuario = validar_token(token, DIRECTORIO, ALCANCE_PERFILES, ahora).get("sub")\n'
LEE = '        return PERFILES.get(id_usuario_autenticado, {"error": "usuario no encontrado"})\n'
ACTOR = 'actor = token.get("act")'
ADMITIDO = 'actor["sub"] not in ACTORES_DEL_DIRECTORIO'
SIN_ACTOR = (
    '    actor = token.get("act")  # el actor actual; los act anidados son actores anteriores, y no deciden\n'
    "    if not isinstance(actor, dict):\n"
    '        raise PermissionError("token sin actor: el directorio no admite suplantación")\n'
    '    if not isinstance(actor.get("sub"), str) or actor["sub"] not in ACTORES_DEL_DIRECTORIO:\n'
    '        raise PermissionError("actor no admitido: %s" % (actor.get("sub"),))\n'
)

# Otra solución honesta, escrita de otra forma: una lista de comprobaciones, una lambda y try/except.
CON_OTRO_ESTILO = """
def crear_herramienta_perfil(id_usuario_autenticado):
    return lambda: PERFILES.get(id_usuario_autenticado, {"error": "usuario no encontrado"})


def _numero(x):
    return type(x) in (int, float)


def validar_token(token, audiencia, alcance, ahora):
    t = dict(token) if isinstance(token, dict) else {}
    scope = t.get("scope")
    comprobaciones = [
        (lambda: t.get("iss") == EMISOR, "emisor desconocido"),
        (lambda: t.get("aud") == audiencia, "token para otra audiencia: " + str(t.get("aud"))),
        (lambda: _numero(t.get("exp")) and t["exp"] > ahora, "token caducado"),
        (lambda: isinstance(scope, str) and alcance in scope.split(" "), "falta el alcance " + alcance),
    ]
    for pasa, motivo in comprobaciones:
        if not pasa():
            raise PermissionError(motivo)
    return token


def abrir_sesion(token, ahora):
    validar_token(token, DIRECTORIO, ALCANCE_PERFILES, ahora)
    quien = token.get("sub")
    try:
        actor = token["act"]["sub"]
    except (KeyError, TypeError):
        raise PermissionError("sin actor") from None
    if type(quien) is not str or type(actor) is not str or actor not in list(ACTORES_DEL_DIRECTORIO):
        raise PermissionError("no")
    perfil = herramienta(crear_herramienta_perfil(quien), "Tu perfil.", {})
    return {"leer": LEER, "leer_mi_perfil": perfil}
"""
HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (
        RUIDO + cambia(LEE, "        print('leo', id_usuario_autenticado, file=sys.stderr)\n" + LEE),
        10,
    ),
    "deniega_todo": (CREAR + "    return lambda: {}\n" + RESTO, 0),
    "sin_validar": (cambia(VALIDA, '    usuario = token.get("sub")\n'), 7),
    "usa_AHORA": (cambia("exp > ahora", "exp > AHORA"), 5),
    "perfiles_fijos": (
        cambia(
            LEE,
            "        return {'u-100': {'nombre': 'Elena Ruiz', 'departamento': 'ingenieria', "
            "'salario_anual': 52000}, 'u-101': {'nombre': 'Marcos Vidal', 'departamento': 'rrhh', "
            "'salario_anual': 61000}}.get(id_usuario_autenticado, {'error': "
            "'usuario no encontrado'})\n",
        ),
        3,
    ),
    "con_parametro": (
        cambia("    def leer_mi_perfil():\n", "    def leer_mi_perfil(id_usuario_consultado=None):\n").replace(
            "PERFILES.get(id_usuario_autenticado,", "PERFILES.get(id_usuario_consultado or id_usuario_autenticado,"
        ),
        6,
    ),
    "la_sesion_insegura": (
        cambia('    return {"leer": LEER,\n', '    return sesion_insegura(usuario)\n    return {"leer": LEER,\n'),
        4,
    ),
    "con_keyerror": (cambia('campos.get("iss")', 'campos["iss"]'), 6),
    # Con un usuario desconocido devuelve None: la prueba que lo usa falla, las demás cuentan.
    "none_si_no_existe": (
        cambia(
            "    return leer_mi_perfil\n", "    return leer_mi_perfil if id_usuario_autenticado in PERFILES else None\n"
        ),
        6,
    ),
    "solo_el_perfil": (SOLUCION.split("\n\n\ndef validar_token")[0] + "\n" + RESTO, 2),
    "bien_con_otro_estilo": (CON_OTRO_ESTILO, 10),
    # Lee el perfil al crear la herramienta; si el directorio cambia antes de llamarla, da lo de antes.
    "lee_al_crear": (
        cambia(LEE, "        return perfil\n").replace(
            "    def leer_mi_perfil():\n",
            "    perfil = PERFILES.get(id_usuario_autenticado, {'error': 'usuario no encontrado'})\n"
            "    def leer_mi_perfil():\n",
        ),
        6,
    ),
    # La política de actores del directorio, que no está en la lección.
    "sin_mirar_el_actor": (cambia(SIN_ACTOR, ""), 6),
    "cualquier_actor": (cambia(" or " + ADMITIDO, ""), 7),
    "el_actor_de_dentro": (
        cambia(
            ACTOR,
            'actor = token.get("act")\n'
            '    while isinstance(actor, dict) and isinstance(actor.get("act"), dict):\n'
            '        actor = actor["act"]\n'
            "    actor = actor",
        ),
        7,
    ),
    "actores_fijos": (
        cambia(ADMITIDO, 'actor["sub"] not in ["orquestador-asistente", "https://mcp.rrhh.ejemplo.com"]'),
        4,
    ),
}


def trampas_de_identidad(curso, puerto: int) -> dict[str, str]:
    """La muestra de trampas del primer desafío, sobre estas funciones, y las de este desafío."""
    codigos = muestra_con(curso, puerto, NADA, RESTO + CREAR)
    ocultas = RAIZ / "desafios" / IDENTIDAD.slug / "ocultas.py"
    codigos.update(
        {
            "i01_redefine_las_pruebas": NADA
            + (
                "class Fallo(Exception):\n    pass\n"
                "def exige(*a, **k):\n    pass\n"
                "def conversa_con_aviso(*a, **k):\n    pass\n"
                "PERFILES.clear()\n"
            ),
            "i02_perfil_igual_a_todo": (
                "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
                "    def __ne__(self, otro):\n        return False\n"
                + CREAR
                + "    return lambda *a, **k: Siempre()\n"
                + RESTO
            ),
            "i03_lee_las_ocultas": CREAR
            + (
                "    def leer():\n        try:\n            return {'x': open(%r).read()[-2000:]}\n"
                "        except OSError as e:\n            return {'x': str(e)}\n    return leer\n"
            )
            % str(ocultas)
            + RESTO,
            "i04_token_igual_a_todo": (
                "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
                + NADA.replace(
                    "def validar_token(token, audiencia, alcance, ahora):\n    raise PermissionError('no')\n",
                    "def validar_token(token, audiencia, alcance, ahora):\n    return Siempre()\n",
                )
            ),
            "i05_la_herramienta_sale": "import os\n" + CREAR + "    return lambda: os._exit(0)\n" + RESTO,
            "i06_permissionerror_propio": (
                "class PermissionError(Exception):\n    pass\n" + CREAR + "    return None\n" + RESTO
            ),
            "i07_devuelve_una_clase": CREAR + "    return dict\n" + RESTO,
        }
    )
    return codigos


LOTE = Lote(IDENTIDAD, HONESTAS, trampas_de_identidad, minimo=20, lee_ocultas=("i03_lee_las_ocultas", ("Lucía",)))


def test_utilidad_y_seguridad_juntas(lote):
    filas = lote["filas"]
    assert filas["sin_validar"]["tokens"] == 0 and filas["sin_validar"]["inyeccion"] == 2
    assert filas["la_sesion_insegura"]["inyeccion"] == 0 and filas["la_sesion_insegura"]["actor"] == 0
    assert filas["usa_AHORA"]["variaciones"] == filas["perfiles_fijos"]["variaciones"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_cuenta_la_sesion(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "con un token para facturación no se abre ninguna sesión" in motivos["sin_validar"]
    assert "la herramienta de u-100, llamada con ('u-101',), ha devuelto" in motivos["con_parametro"]
    assert "abrir_sesion debía devolver {'leer': LEER, 'leer_mi_perfil': ...}" in motivos["la_sesion_insegura"]
    assert "ha lanzado KeyError" in motivos["con_keyerror"]


def test_leer_el_perfil_al_crear_no_pasa(lote):
    """La pista dice «lees PERFILES al llamar a la herramienta», y una herramienta que lo leía al
    crearla sacaba 10. Ahora el directorio cambia entre crearla y llamarla, en la visible y en las ocultas."""
    fila = lote["filas"]["lee_al_crear"]
    assert fila["perfil"] == 0 and fila["variaciones"] == 0 and fila["puntos"] == 6
    assert "lee PERFILES al llamarla, no al crearla" in fila["motivo"]


def test_la_politica_de_actores_cuenta(lote):
    """Lo que el desafío añade a la lección: sólo decide el actor actual, y tiene que estar en la lista."""
    filas = lote["filas"]
    for alumno in ("sin_mirar_el_actor", "cualquier_actor", "el_actor_de_dentro", "actores_fijos"):
        assert filas[alumno]["actor"] == 0 and filas[alumno]["variaciones"] == 0, alumno
    assert "con un token sin act (suplantación) no se abre ninguna sesión" in filas["sin_mirar_el_actor"]["motivo"]
    assert filas["bien_con_otro_estilo"]["puntos"] == 10


def _en_el_banco(codigo):
    with contextlib.redirect_stdout(io.StringIO()):  # las celdas de la lección imprimen
        return puntos_en_el_banco(IDENTIDAD.slug, IDENTIDAD.esqueleto() + "\n\n\n" + codigo)[0]


# Lo que escribiría quien junta las dos celdas de la lección: un abrir_sesion de cuatro líneas.
CUATRO_LINEAS = """
def abrir_sesion(token, ahora):
    usuario = validar_token(token, DIRECTORIO, ALCANCE_PERFILES, ahora).get("sub")
    if not isinstance(usuario, str):
        raise PermissionError("sin usuario")
    return {"leer": LEER, "leer_mi_perfil": herramienta(crear_herramienta_perfil(usuario), "", {})}
"""


def test_juntar_las_celdas_de_la_leccion_no_saca_la_nota_entera():
    """Juntar la lección no es resolver el desafío: las celdas de crear_herramienta_perfil y validar_token,
    tal cual, y un abrir_sesion de cuatro líneas sacaban 10; también la copia renombrada de copias.py. La
    política de actores del directorio no está en la lección: sin ella, como mucho 6."""
    leccion = RAIZ / "lecciones" / IDENTIDAD.leccion / "leccion.md"
    juntas = celdas.fuente(leccion, "salida-3") + "\n\n" + celdas.fuente(leccion, "salida-7") + CUATRO_LINEAS
    assert _en_el_banco(juntas) == 6
    assert _en_el_banco(copia_renombrada(IDENTIDAD)) < 10
    # Con la política que pide el enunciado, lo mismo saca la nota entera: el contrato se puede cumplir.
    con_actor = CUATRO_LINEAS.replace(
        '    return {"leer"',
        '    actor = token.get("act")\n'
        '    if not isinstance(actor, dict) or not isinstance(actor.get("sub"), str):\n'
        '        raise PermissionError("sin actor")\n'
        '    if actor["sub"] not in ACTORES_DEL_DIRECTORIO:\n'
        '        raise PermissionError("actor no admitido")\n'
        '    return {"leer"',
    )
    assert _en_el_banco(juntas.replace(CUATRO_LINEAS, con_actor)) == 10
