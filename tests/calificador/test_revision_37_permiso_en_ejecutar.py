"""En «permiso-en-ejecutar», dejar pasar lo que no es «permitir» ni un True del usuario cuesta lo mismo
que dejar correr la escritura inyectada.

Fallar en abierto ante una errata de la tabla, tomar None por un sí o tomar por un sí el texto
"no" dejan correr, en una conversación, la escritura que pide la receta: pierden la prueba de su
regla, la conversación del salmorejo (que tiene partes ocultas con una errata y con esos usuarios)
y las variaciones. Lo imprevisto se deniega con el mensaje fijo «permiso denegado».
Se mide en el banco del cuaderno (tests/ayudas.py), que cuenta partes ocultas y variaciones.
"""

import pytest

from cursos.desafio import Desafio
from tests.ayudas import puntos_en_el_banco

SLUG = "permiso-en-ejecutar"
SOLUCION = Desafio(SLUG).lee("solucion.py")
INICIO, FIN = "    ### BEGIN SOLUTION\n", "    ### END SOLUTION\n"


def con_region(region: str) -> str:
    """La solución con otra región entre BEGIN y END SOLUTION."""
    return SOLUCION.split(INICIO)[0] + region + SOLUCION.split(FIN)[1]


FALLA_EN_ABIERTO = con_region(
    '    decision = permiso(ll)\n    if decision == "denegar":\n'
    '        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    if decision == "preguntar" and preguntar(ll) is not True:\n'
    '        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
)
# La forma clásica del error: fallar en abierto y además tomar por un sí lo que un if da por verdadero.
CLASICA = con_region(
    '    decision = permiso(ll)\n    if decision == "denegar":\n'
    '        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    if decision == "preguntar" and not preguntar(ll):\n'
    '        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
)
TEXTO_ES_SI = SOLUCION.replace("preguntar(ll) is not True", "not preguntar(ll)")
NONE_ES_SI = SOLUCION.replace("preguntar(ll) is not True", "preguntar(ll) is False")
# Lo imprevisto se deniega, pero con otro motivo: el enunciado fija ahora «permiso denegado».
OTRO_MOTIVO = SOLUCION.replace(
    '    if decision not in ("permitir", "preguntar"):  # denegar, o lo que nadie ha previsto\n'
    '        return error(id, NO_EJECUTADA + "permiso denegado")\n',
    '    if decision == "denegar":\n        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    if decision not in ("permitir", "preguntar"):\n'
    '        return error(id, NO_EJECUTADA + "valor de permiso desconocido")\n',
)
# Honestas escritas de otra forma: match con un caso por defecto que deniega; una función que da el motivo.
CON_MATCH = con_region(
    "    match permiso(ll):\n"
    '        case "permitir":\n            pass\n'
    '        case "preguntar":\n'
    "            if preguntar(ll) is not True:\n"
    '                return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
    "        case _:\n"
    '            return error(id, NO_EJECUTADA + "permiso denegado")\n'
)
CON_MOTIVO = con_region(
    "    def _por_que_no(ll):\n"
    "        d = permiso(ll)\n"
    '        if d == "permitir":\n            return None\n'
    '        if d != "preguntar":\n            return "permiso denegado"\n'
    '        return None if preguntar(ll) is True else "el usuario no lo ha permitido"\n'
    "    motivo = _por_que_no(ll)\n"
    "    if motivo:\n        return error(id, NO_EJECUTADA + motivo)\n"
)
# Cada una deja correr la escritura inyectada en alguna conversación: pierde su regla y las conversaciones.
DEJAN_CORRER = {
    "falla_en_abierto": (FALLA_EN_ABIERTO, {"denegar", "salmorejo", "variaciones"}),
    "texto_es_si": (TEXTO_ES_SI, {"nadie", "salmorejo", "variaciones"}),
    "none_es_si": (NONE_ES_SI, {"nadie", "salmorejo", "variaciones"}),
    "clasica": (CLASICA, {"denegar", "nadie", "salmorejo", "variaciones"}),
}


@pytest.mark.parametrize("codigo", [SOLUCION, CON_MATCH, CON_MOTIVO], ids=["referencia", "match", "motivo"])
def test_las_honestas_sacan_10(codigo):
    puntos, maximo, fallos = puntos_en_el_banco(SLUG, codigo)
    assert (puntos, maximo) == (10, 10), fallos


@pytest.mark.parametrize("alumno", sorted(DEJAN_CORRER))
def test_dejar_correr_lo_no_aprobado_pierde_las_conversaciones(alumno):
    codigo, pierde = DEJAN_CORRER[alumno]
    puntos, _, fallos = puntos_en_el_banco(SLUG, codigo)
    assert set(fallos) == pierde, fallos
    # Cuesta lo que cuesta la escritura inyectada: la conversación del salmorejo y las variaciones.
    assert puntos <= 5
    if "denegar" in pierde:  # el motivo dice qué valor de la tabla no es ninguno de los tres
        assert "'Permitir', que no es permitir, preguntar ni denegar" in fallos["denegar"], fallos


def test_lo_imprevisto_se_deniega_con_el_mensaje_del_enunciado():
    puntos, _, fallos = puntos_en_el_banco(SLUG, OTRO_MOTIVO)
    assert "denegar" in fallos and "permiso denegado" in fallos["denegar"], fallos
    assert puntos < 10
