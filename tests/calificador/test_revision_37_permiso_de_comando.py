"""Issue 37, N1 de la revisión de los bloques 2 y 3: en «permiso-de-comando», mirar SINTAXIS sólo fuera de
comillas deja pasar `cat "$(rm notas.txt)"`, que bash ejecuta: un agujero de ejecución de órdenes.
Sacaba 7 de 10 (sólo perdía «sintaxis» y un caso de «opciones»); ahora cada variación trae `$( )`,
comillas invertidas y `${ }` entre comillas dobles, y lo pierde también.
"""

from cursos.desafio import Desafio
from tests.ayudas import puntos_en_el_banco

SLUG = "permiso-de-comando"
SOLUCION = Desafio(SLUG).lee("solucion.py")
TODO_EL_TEXTO = "        if SINTAXIS & set(orden):\n"
SOLO_FUERA_DE_COMILLAS = SOLUCION.replace(TODO_EL_TEXTO, "        if SINTAXIS & set(sin_comillas(orden)):\n")


def test_la_referencia_saca_10():
    assert puntos_en_el_banco(SLUG, SOLUCION)[:2] == (10, 10)


def test_mirar_la_sintaxis_solo_fuera_de_comillas_pierde_las_variaciones():
    assert TODO_EL_TEXTO in SOLUCION
    puntos, _, fallos = puntos_en_el_banco(SLUG, SOLO_FUERA_DE_COMILLAS)
    assert {"sintaxis", "variaciones"} <= set(fallos) and puntos <= 3, fallos
