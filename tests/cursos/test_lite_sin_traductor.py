"""Los textos de JupyterLite que no pasan por su traductor se cambian en los scripts al construir:
si al paquete de idioma le falta uno, la construcción lo dice en español y no con un KeyError."""

import dataclasses

import pytest

from cursos.sitio import lite


def test_una_traduccion_que_falta_para_un_literal_lo_dice(tmp_path, monkeypatch):
    propia = lite.traduccion_propia()
    sin_una = dataclasses.replace(propia, cadenas={k: v for k, v in propia.cadenas.items() if k != "More commands"})
    monkeypatch.setattr(lite, "traduccion_propia", lambda: sin_una)
    with pytest.raises(lite.ErrorDeTraduccion, match=r"no traduce More commands.*añade su traducción"):
        lite.traduce_lo_que_no_pasa_por_el_traductor(tmp_path)


def test_cada_literal_sin_traductor_tiene_su_traduccion():
    cadenas = lite.traduccion_propia().cadenas
    assert all(cadenas[ingles] and cadenas[ingles] != ingles for ingles in lite.SIN_TRADUCTOR)
