"""El desafío «Identidad delegada»: entregas honestas y tramposas en un mismo lote.

Aquí lo que devuelve el alumno no es sólo JSON: crear_herramienta_perfil devuelve una
función y abrir_sesion un diccionario con funciones. Viajan como marcas y se llaman en su
proceso; la conversación, el guion, los perfiles de cada prueba y las comprobaciones se
quedan en el de confianza. La muestra de trampas es la del primer desafío.
"""

import functools

from cursos import RAIZ
from cursos.desafio import Desafio
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
    assert filas["la_sesion_insegura"]["inyeccion"] == 0 and filas["la_sesion_insegura"]["sesion"] == 0
    assert filas["usa_AHORA"]["variaciones"] == filas["perfiles_fijos"]["variaciones"] == 0
    assert "falta la solución" in filas["x_stub"]["motivo"]


def test_el_motivo_cuenta_la_sesion(lote):
    motivos = {a: f["motivo"] for a, f in lote["filas"].items()}
    assert "con un token para facturación no se abre ninguna sesión" in motivos["sin_validar"]
    assert "la herramienta de u-100, llamada con ('u-101',), ha devuelto" in motivos["con_parametro"]
    assert "abrir_sesion debía devolver {'leer': LEER, 'leer_mi_perfil': ...}" in motivos["la_sesion_insegura"]
    assert "ha lanzado KeyError" in motivos["con_keyerror"]
