"""Lo que sale del calificador por cada entrega (calificador/resultado.py), sin abrir ninguna caja.

«No calificable» es un dato de Resultados, no una solución que falta; los textos salen limpios; y
el lote del profesor declara sus pasos una vez, en orden.
"""

from cursos.calificador.califica import limpios, rechazada
from cursos.calificador.resultado import QUE_PASO, Prueba, Resultados, Tipo
from cursos.desafio import Desafio
from cursos.profesor import calificar

DESAFIO = Desafio("permiso-en-ejecutar")


def test_una_entrega_rechazada_no_es_calificable_y_vale_cero_en_cada_prueba():
    r = rechazada(DESAFIO, "el cuaderno está dañado")
    assert not r.calificable and r.solucion is None and not r.reloj
    assert r.motivo == f"{QUE_PASO[Tipo.RECHAZO]}: el cuaderno está dañado"
    assert list(r.pruebas) == list(DESAFIO.puntos())
    assert all(p == Prueba(0, DESAFIO.puntos()[n], Tipo.RECHAZO, r.motivo) for n, p in r.pruebas.items())
    assert r.puntos() == 0 and r.maximo() == sum(DESAFIO.puntos().values())
    assert r.motivos() == dict.fromkeys(DESAFIO.puntos(), r.motivo)


def test_cada_texto_sale_limpio():
    sucio = "a\x1b[31mb\nc\u202e"
    r = limpios(
        Resultados({"x": Prueba(0, 2, Tipo.RESULTADO, sucio), "y": Prueba(1, 1)}, True, sucio, "s\ud800", (sucio,))
    )
    assert r.pruebas["x"].motivo == r.motivo == r.notas[0] == "ab ⏎ c"
    assert r.pruebas["y"].pasa and r.solucion == "s?"


def test_el_lote_declara_sus_pasos_una_vez_y_en_orden():
    assert calificar.PASOS[: calificar.EN_LOS_HILOS] == (calificar.lee_la_entrega, calificar.califica_la_entrega)
    assert calificar.PASOS[calificar.EN_LOS_HILOS :] == (
        calificar.anota_en_el_libro,
        calificar.anade_al_csv,
        calificar.escribe_el_calificado,
        calificar.escribe_la_devolucion,
    )
