"""Issue 37, N7 de la revisión de los bloques 2 y 3: el laboratorio de «Cadenas peligrosas» no acepta
pagos negativos. Un -3000 restaría de la suma que mira la regla 3 y la apagaría, como un pago
grande apaga la condición del máximo; customer_export ya rechazaba los negativos.
"""

import pytest

from cursos.manifiesto import leer_curso
from tests.ayudas import carga_modulos

CURSO = leer_curso()


@pytest.fixture
def lab():
    espacio = carga_modulos()
    ruta = CURSO.modulo("cadenas.py")
    exec(compile(ruta.read_text(encoding="utf-8"), str(ruta), "exec"), espacio)
    return espacio


@pytest.mark.parametrize("importe", [-3000, -0.5, 0])
def test_un_pago_que_no_es_positivo_no_entra_en_el_lote(lab, importe):
    entorno = {"lote.txt": ""}
    with pytest.raises(ValueError, match="mayor que 0"):
        lab["payment_submit"](entorno, "bene-1", importe, "marzo", "op-1")
    assert entorno["lote.txt"] == ""


def test_un_pago_positivo_entra(lab):
    entorno = {"lote.txt": ""}
    assert lab["payment_submit"](entorno, "bene-1", 480, "marzo", "op-1") == "pago op-1 en el lote: 480 a bene-1"
    assert entorno["lote.txt"] == "op-1 bene-1 480\n"
