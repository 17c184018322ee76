"""El desafío como dato: desafio.toml se lee una vez, se comprueba y no se puede cambiar."""

import dataclasses
import os

import pytest

from cursos import RAIZ, contrato
from cursos import desafio as modelo
from cursos.calificador.banco import SIN_CITAS, BancoRemoto, Resultado, espacio_de_pruebas
from cursos.calificador.resultado import QUE_PASO, Tipo
from cursos.desafio import Desafio, ErrorDeDesafio

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


@pytest.mark.parametrize(
    "extra, clave",
    [
        ("herramienta = true\n", "herramienta"),  # mal escrita: no se toma por el valor por omisión
        ('herramientas = "false"\n', "herramientas"),  # un texto no es un booleano
        ('apoderados = "modelo"\n', "apoderados"),
        ('quitar = ["a", 3]\n', "quitar"),
        ('modulos = ["harness.py"]\n', "modulos"),  # ya no se escribe: sale de las líneas de carga
    ],
)
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


@pytest.mark.parametrize(
    "fuente, linea",
    [
        ("def f():\n    ### BEGIN SOLUTION\n    return 1\n\nx = 2", 2),  # sin cerrar: antes se perdía «x = 2»
        ("### BEGIN SOLUTION\na = 1\n### BEGIN SOLUTION\nb = 2\n### END SOLUTION", 3),  # una dentro de otra
    ],
)
def test_una_region_sin_cerrar_o_anidada_es_un_error_como_en_nbgrader(fuente, linea):
    with pytest.raises(ErrorDeDesafio, match=f"desafios/x/solucion.py, línea {linea}: «### BEGIN SOLUTION»"):
        modelo.con_stub(fuente, "desafios/x/solucion.py")


def test_el_cuaderno_fuente_no_se_genera_con_una_region_sin_cerrar(monkeypatch):
    from cursos import cuaderno_del_desafio

    desafio = Desafio("compacta")
    original = Desafio.lee
    monkeypatch.setattr(
        Desafio,
        "lee",
        lambda self, nombre: (
            original(self, nombre).replace("### END SOLUTION", "")
            if nombre == "solucion.py"
            else original(self, nombre)
        ),
    )
    with pytest.raises(ErrorDeDesafio, match="desafios/compacta/solucion.py, línea .*sin su «### END SOLUTION»"):
        cuaderno_del_desafio.cuaderno_fuente(desafio)


# --- El contrato de las pruebas: desafios/base.py va delante de cada pruebas.py --------------------


def test_las_pruebas_son_la_base_y_detras_pruebas_py(raiz):
    """Un solo texto para la página, el cuaderno y el calificador: la base delante; pruebas.py la usa sin definirla."""
    d = raiz(BUENO)
    (d.carpeta / "pruebas.py").write_text(
        'def prueba_a(banco):\n    exige(False, "no %s", "pasa")\nPRUEBAS = {"a": (10, prueba_a)}\n', encoding="utf-8"
    )
    texto = d.pruebas()
    assert texto.startswith(contrato.BASE.read_text(encoding="utf-8"))
    espacio = {}
    exec(texto, espacio)
    with pytest.raises(espacio["Fallo"], match="✘ a \\(10 p.\\): no pasa"):
        espacio["comprueba"]("a")


@pytest.mark.parametrize(
    "linea, nombre",
    [
        ("class Fallo(AssertionError):\n    pass\n", "Fallo"),
        ("def exige(c, m):\n    pass\n", "exige"),
        ("oculta = None\n", "oculta"),
        ("PRUEBA_DE_VARIACIONES = 'otra'\n", "PRUEBA_DE_VARIACIONES"),
        ("class BancoLocal:\n    pass\n", "BancoLocal"),
    ],
)
def test_pruebas_py_no_redefine_lo_de_la_base(raiz, linea, nombre):
    """Un Fallo propio no sería el que atrapa el calificador: redefinir algo de la base es un error que lo dice."""
    d = raiz(BUENO)
    (d.carpeta / "pruebas.py").write_text("\n" + linea + "PRUEBAS = {}\n", encoding="utf-8")
    with pytest.raises(ErrorDeDesafio, match=f"desafios/x/pruebas.py, línea 2: «(class )?{nombre}»"):
        d.pruebas()


def test_el_banco_local_se_amplia_como_subclase(raiz):
    d = raiz(BUENO)
    (d.carpeta / "pruebas.py").write_text("class BancoLocal(BancoLocal):\n    pass\nPRUEBAS = {}\n", encoding="utf-8")
    espacio = {}
    exec(d.pruebas(), espacio)
    assert espacio["BancoLocal"].__mro__[1].__name__ == "BancoLocal"


def test_los_nombres_del_contrato_salen_de_la_base():
    """contrato.py los lee de base.py: lo que lee el calificador es lo que escribe la base."""
    espacio = {}
    exec(contrato.BASE.read_text(encoding="utf-8"), espacio)
    assert (contrato.PRUEBAS, contrato.VARIACIONES, contrato.PARTES_OCULTAS, contrato.PRUEBA_DE_VARIACIONES) == (
        "PRUEBAS",
        "VARIACIONES",
        "PARTES_OCULTAS",
        "variaciones",
    )
    assert espacio["PRUEBA_DE_VARIACIONES"] == contrato.PRUEBA_DE_VARIACIONES
    assert issubclass(espacio[contrato.VARIACION_OCULTA], espacio[contrato.FALLO])
    assert {contrato.FALLO, contrato.VARIACION_OCULTA, contrato.BANCO_LOCAL} <= contrato.DE_LA_BASE


@pytest.mark.parametrize("slug", todos())
def test_ningun_pruebas_py_redefine_la_base(slug):
    """Los once: Fallo, exige y el banco local vienen de la base (y las pruebas cargan)."""
    texto = Desafio(slug).lee("pruebas.py")
    for nombre in ("class Fallo", "def exige", "def _exige", 'def _json(valor):\n    """Una copia JSON'):
        assert nombre not in texto, nombre
    assert Desafio(slug).pruebas()


def test_el_tipo_de_un_resultado_es_uno_de_los_que_hay():
    """Resultado.tipo es un Tipo (sus valores, los textos de siempre: van al CSV); otro texto es un error."""
    assert {str(t) for t in Tipo} == {"cpu", "reloj", "caida", "rechazo", "resultado", "variacion", "falta"}
    assert Resultado("falta", "x").tipo is Tipo.FALTA
    assert set(QUE_PASO) == set(Tipo) and SIN_CITAS < set(Tipo)
    with pytest.raises(ValueError):
        Resultado("variación", "x")


def test_el_bucle_se_mira_en_el_banco_local_y_el_remoto_no_finge():
    """BancoRemoto no tiene una comprobación que no puede fallar; la del banco local sí falla con otro bucle."""
    assert not hasattr(BancoRemoto, "bucle_intacto")
    for slug in ("ejecutar-nunca-lanza", "permiso-en-ejecutar"):
        espacio = espacio_de_pruebas(Desafio(slug))
        antes = os.getcwd()
        os.chdir(RAIZ)  # permiso-en-ejecutar compara con harness.py, que está al lado
        try:
            assert espacio["BancoLocal"]().bucle_intacto() is None
            exec("def bucle(*a, **k):\n    return 'fin', 'hecho', []\n", espacio)
            assert "«bucle»" in espacio["BancoLocal"]().bucle_intacto(), slug
        finally:
            os.chdir(antes)


def test_las_pistas_las_lee_el_modelo_y_un_error_nombra_el_fichero(raiz):
    d = raiz(BUENO)
    assert d.pistas() == []  # sin pistas.toml, ninguna
    fichero = modelo.RAIZ / "desafios" / "x" / "pistas.toml"
    fichero.write_text('[[pista]]\ntexto = "Mira **el tope**."\n[[pista]]\ntexto = "Y el fin."\n', encoding="utf-8")
    assert d.pistas() == ["Mira **el tope**.", "Y el fin."]
    fichero.write_text('[[pista]]\ntexto = ""\n', encoding="utf-8")
    with pytest.raises(
        modelo.ErrorDeDesafio, match=r"desafios/x/pistas.toml, \[\[pista\]\] número 1: la clave «texto» está vacía"
    ):
        d.pistas()
    fichero.write_text('[[pistas]]\ntexto = "Mira."\n', encoding="utf-8")
    with pytest.raises(modelo.ErrorDeDesafio, match=r"desafios/x/pistas.toml: la clave «pistas» no existe"):
        d.pistas()
    fichero.write_text("[[pista]\n", encoding="utf-8")
    with pytest.raises(modelo.ErrorDeDesafio, match=r"desafios/x/pistas.toml no es TOML válido"):
        d.pistas()
