"""Cada hecho repetido tiene una sola fuente, y lo que se guarda en dos sitios se comprueba en los dos sentidos."""

import json

import pytest

from cursos import RAIZ
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from cursos.preguntas import TIPOS, como_json, preguntas_de

CURSO = leer_curso()
DESAFIOS = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))


@pytest.mark.parametrize("copia", ["cursos/sitio/recursos/autoevaluacion.js", "cursos/widgets/autoevaluacion.py"])
def test_el_aviso_de_cada_tipo_de_pregunta_sale_de_preguntas_py(copia):
    texto = (RAIZ / copia).read_text(encoding="utf-8")
    assert not [aviso for aviso in TIPOS.values() if aviso in texto], f"{copia} repite el aviso de un tipo"


def test_cada_pregunta_lleva_su_aviso_al_cuaderno_y_a_la_pagina():
    for leccion in CURSO.lecciones:
        for pregunta in json.loads(como_json(preguntas_de(leccion))):
            assert pregunta["aviso"] == TIPOS[pregunta["tipo"]]


def test_la_leccion_nombra_su_desafio_y_el_desafio_su_leccion():
    """En el manifiesto (desafio = …) y en desafio.toml (leccion = …): los dos sentidos cuadran."""
    pares = [(lc.desafio, lc.slug) for lc in CURSO.lecciones if lc.desafio]
    assert sorted(d for d, _ in pares) == DESAFIOS, "cada desafío, en una lección del manifiesto, y sólo una vez"
    de_la_leccion = dict(pares)
    for slug in DESAFIOS:
        assert Desafio(slug).leccion == de_la_leccion[slug], f"{slug}: desafio.toml y el manifiesto no cuadran"


@pytest.mark.parametrize("slug", DESAFIOS)
def test_los_modulos_del_desafio_son_los_que_carga_su_partida_con_la_ruta_del_manifiesto(slug):
    from cursos.carga import ficheros_cargados

    desafio = Desafio(slug)
    nombres = [nombre for nombre, _ in desafio.modulos()]
    assert nombres == list(dict.fromkeys(ficheros_cargados(desafio.partida()))) and nombres
    assert [(RAIZ / r) for r in desafio.rutas_de_modulos] == [CURSO.modulo(n) for n in nombres]


def test_una_carga_que_no_esta_en_el_manifiesto_lo_dice(monkeypatch):
    from cursos import desafio as modelo

    monkeypatch.setattr(modelo, "_partida", lambda d: 'exec(open("otro.py", encoding="utf-8").read())')
    with pytest.raises(modelo.ErrorDeDesafio, match="carga «otro.py», que no está en «modulos» del manifiesto"):
        Desafio("compacta").modulos()
