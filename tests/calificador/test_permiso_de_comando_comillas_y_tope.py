"""«permiso-de-comando»: dos entregas que sacaban más de lo que valen, y las variaciones que ahora las paran.

Mirar SINTAXIS sólo fuera de comillas deja pasar `cat "$(rm notas.txt)"`, que bash ejecuta: un agujero de
ejecución de órdenes. Sacaba 7 de 10 (sólo perdía «sintaxis» y un caso de «opciones»); ahora cada variación trae
`$( )`, comillas invertidas y `${ }` entre comillas dobles, y lo pierde también.

Trocear una palabra enorme con shlex.split cuesta el cuadrado de su longitud; la referencia deniega antes una
línea de más de LIMITE_DE_ORDEN caracteres, y la entrega que no lo hace pierde el punto de «argv».
"""

import time

from cursos.calificador.banco import espacio_de_pruebas
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


# --- La decisión era cuadrática en la longitud de una palabra ------------------------------------
# shlex.split trocea una palabra de n caracteres en un tiempo que crece con n²: 400 000 caracteres, segundos;
# dos millones, casi dos minutos. La referencia deniega antes de trocear una línea de más de LIMITE_DE_ORDEN
# caracteres (8192, en terminal.py), y el enunciado lo pide.
TOPE = "        if len(orden) > LIMITE_DE_ORDEN:\n"
SIN_TOPE = SOLUCION.replace(TOPE, "        if False:\n")


def test_la_referencia_deniega_una_palabra_enorme_sin_trocearla():
    g = espacio_de_pruebas(Desafio(SLUG))
    exec(SOLUCION, g)
    orden = "cat " + "a" * 400_000
    inicio = time.perf_counter()
    assert g["permiso_de_comando"](orden, g["LECTURA"]) == "denegar"
    assert time.perf_counter() - inicio < 0.1  # shlex.split tardaría segundos
    assert g["LIMITE_DE_ORDEN"] == 8192 and "`LIMITE_DE_ORDEN` caracteres (8192" in Desafio(SLUG).lee("enunciado.md")


def test_sin_el_tope_de_longitud_se_pierde_solo_el_punto_de_argv():
    """Una entrega que no limita la línea no permite nada que no deba (una palabra larga sigue siendo una lectura):
    sólo deja al harness decidiendo lo que tarde shlex.split. Pierde el punto de «argv», donde están la línea
    demasiado larga y lo que no es una orden, y nada más (CALIFICACION.md lo justifica)."""
    assert TOPE in SOLUCION
    puntos, _, fallos = puntos_en_el_banco(SLUG, SIN_TOPE)
    assert (puntos, set(fallos)) == (9, {"argv"}), fallos
    assert "se esperaba denegar y tu función ha dado permitir" in fallos["argv"]
