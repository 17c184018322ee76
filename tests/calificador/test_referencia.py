"""Una edición de la lección que rompe su desafío no se reparte ni se construye (revisión del
profesor: una palabra más en la receta del código de partida; `construir` construía, `desafio
--forzar` lo repartía y la siguiente calificación quitaba 2 puntos a todos)."""

import pytest

from cursos import desafio as modelo
from cursos.calificador.referencia import fallos
from cursos.cli import main
from tests.calificador.ayudas import DESAFIO

ORIGINAL = modelo._partida


def con_la_receta_editada(desafio):
    """La lección con una palabra más en lo que escribe el guion de la receta, como la editó el profesor."""
    partida = ORIGINAL(desafio)
    if desafio.slug != DESAFIO.slug:
        return partida
    assert 'contenido="pan, leche, patatas, tomates, aceite, ajo, sal"' in partida
    return partida.replace('tomates, aceite, ajo, sal"', 'tomates, aceite, ajo, sal, pepino"')


@pytest.fixture
def leccion_editada(monkeypatch, tmp_path):
    monkeypatch.setattr(modelo, "_partida", con_la_receta_editada)
    monkeypatch.setattr("cursos.calificador.referencia.PASADAS", tmp_path / "pasadas")


def test_la_solucion_de_referencia_pasa_con_la_leccion_de_hoy():
    assert fallos(DESAFIO) == []


def test_desafio_y_forzar_no_reparten_una_leccion_rota(leccion_editada, tmp_path, capsys):
    malas = fallos(DESAFIO)
    assert malas and all(linea.startswith("✘ ") for linea in malas)
    prueba = malas[0].split()[1]
    assert prueba in DESAFIO.puntos()
    for forzar in ([], ["--forzar"]):
        codigo = main(["desafio", "--nbgrader", str(tmp_path / "curso"), *forzar])
        error = capsys.readouterr().err
        assert codigo == 2 and f"✘ {prueba}" in error and "solución de referencia" in error, error
        assert not (tmp_path / "curso" / "release").exists()


@pytest.mark.parametrize("orden", ["construir", "servir"])
def test_construir_y_servir_no_siguen_con_una_leccion_rota(leccion_editada, capsys, orden):
    assert main([orden]) == 2
    error = capsys.readouterr().err
    assert "No se construye el sitio" in error and f"{DESAFIO.slug}: ✘" in error
