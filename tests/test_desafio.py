"""El modelo del desafío: desafio.toml se lee una vez, se comprueba y no se puede cambiar."""

import dataclasses

import pytest

from cursos import RAIZ
from cursos.calificador import desafio as modelo
from cursos.calificador.desafio import Desafio, ErrorDeDesafio

BUENO = 'leccion = "l"\nceldas_de_partida = ["p"]\nfunciones = ["f"]\nocultas = "otras"\n'


def todos() -> list[str]:
    return sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))


@pytest.mark.parametrize("slug", todos())
def test_cada_desafio_del_curso_es_valido(slug):
    d = Desafio(slug)
    assert d.funciones and all(isinstance(f, str) for f in d.funciones)
    assert d.celda_solucion == d.funciones[0] and isinstance(d.herramientas, bool)
    assert d.celdas_de_partida and all(isinstance(e, str) for e in d.celdas_de_partida)


@pytest.fixture
def raiz(tmp_path, monkeypatch):
    """Un desafío «x» en una raíz falsa: se escribe su desafio.toml y se construye."""
    monkeypatch.setattr(modelo, "RAIZ", tmp_path)
    (tmp_path / "desafios" / "x").mkdir(parents=True)

    def con(texto: str) -> Desafio:
        (tmp_path / "desafios" / "x" / "desafio.toml").write_text(texto, encoding="utf-8")
        return Desafio("x")
    return con


def test_un_desafio_bueno_trae_sus_valores_y_los_por_omision(raiz):
    d = raiz(BUENO + 'apoderados = ["modelo"]\n')
    assert (d.leccion, d.celdas_de_partida, d.funciones, d.apoderados) == ("l", ("p",), ("f",), ("modelo",))
    assert (d.herramientas, d.datos, d.quitar, d.partida_propia) == (False, (), (), None)


@pytest.mark.parametrize("extra, clave", [
    ('herramienta = true\n', "herramienta"),  # mal escrita: no se toma por el valor por omisión
    ('herramientas = "false"\n', "herramientas"),  # un texto no es un booleano
    ('apoderados = "modelo"\n', "apoderados"),
    ('quitar = ["a", 3]\n', "quitar"),
    ('modulos = ["harness.py"]\n', "modulos"),  # ya no se escribe: sale de las líneas de carga
])
def test_una_clave_desconocida_o_de_otro_tipo_es_un_error_que_nombra_fichero_y_clave(raiz, extra, clave):
    with pytest.raises(ErrorDeDesafio, match=f"desafios/x/desafio.toml: la clave «{clave}»"):
        raiz(BUENO + extra)


def test_las_celdas_son_etiquetas_y_no_numeros(raiz):
    with pytest.raises(ErrorDeDesafio, match="«celdas_de_partida» tiene que ser una lista de textos"):
        raiz(BUENO.replace('["p"]', "[1]"))


def test_falta_una_obligatoria_o_el_toml_esta_roto(raiz):
    with pytest.raises(ErrorDeDesafio, match="falta la clave «ocultas»"):
        raiz(BUENO.replace('ocultas = "otras"\n', ""))
    with pytest.raises(ErrorDeDesafio, match="desafios/x/desafio.toml no es TOML válido"):
        raiz(BUENO + "funciones = \n")
    with pytest.raises(ErrorDeDesafio, match="«funciones» está vacía"):
        raiz(BUENO.replace('["f"]', "[]"))  # sin funciones no hay celda de la solución


def test_se_lee_una_vez_y_no_se_puede_cambiar(raiz):
    primero = raiz(BUENO)
    segundo = Desafio("x")
    assert segundo == primero and segundo.funciones is primero.funciones  # la misma lectura, de la caché
    with pytest.raises(dataclasses.FrozenInstanceError):
        primero.funciones = ("g",)


def test_sin_desafio_toml_lo_dice():
    with pytest.raises(ErrorDeDesafio, match="no existe desafios/no-existe/desafio.toml"):
        Desafio("no-existe")


def test_con_stub_cambia_la_region_por_el_stub_con_su_sangria():
    fuente = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\n\nx = 2"
    assert modelo.con_stub(fuente) == f"def f():\n    {modelo.STUB}\n\nx = 2"


@pytest.mark.parametrize("fuente, linea", [
    ("def f():\n    ### BEGIN SOLUTION\n    return 1\n\nx = 2", 2),  # sin cerrar: antes se perdía «x = 2»
    ("### BEGIN SOLUTION\na = 1\n### BEGIN SOLUTION\nb = 2\n### END SOLUTION", 3),  # una dentro de otra
])
def test_una_region_sin_cerrar_o_anidada_es_un_error_como_en_nbgrader(fuente, linea):
    with pytest.raises(ErrorDeDesafio, match=f"desafios/x/solucion.py, línea {linea}: «### BEGIN SOLUTION»"):
        modelo.con_stub(fuente, "desafios/x/solucion.py")


def test_el_cuaderno_fuente_no_se_genera_con_una_region_sin_cerrar(monkeypatch):
    from cursos.calificador import fuente

    desafio = Desafio("compacta")
    original = Desafio.lee
    monkeypatch.setattr(Desafio, "lee", lambda self, nombre: original(self, nombre).replace(
        "### END SOLUTION", "") if nombre == "solucion.py" else original(self, nombre))
    with pytest.raises(ErrorDeDesafio, match="desafios/compacta/solucion.py, línea .*sin su «### END SOLUTION»"):
        fuente.cuaderno_fuente(desafio)
