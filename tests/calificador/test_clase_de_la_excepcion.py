"""Lo que el alumno ve de un objeto que le da el lado de confianza es lo del cuaderno.

Una herramienta de «ejecutar-nunca-lanza» lanza Ocupado, una excepción de las pruebas. En el cuaderno
vive en __main__: traceback.format_exception_only(e) da «Ocupado: …», y logging y repr(type(e)) no
nombran ningún módulo. En el calificador la clase se reconstruye en el proceso del alumno, y antes
llevaba el módulo de hijo.py («hijo.Ocupado: …»): una entrega honesta que escribe así el error sacaba
7 en el calificador y 10 en Jupyter. Cada una de estas entregas saca 10 en los dos.
"""

import pytest

from cursos.calificador.aislamiento import detecta
from cursos.calificador.banco import BancoRemoto, corre_pruebas, espacio_de_pruebas
from cursos.calificador.cuaderno import Entrega
from cursos.desafio import Desafio
from tests.calificador.ayudas import con_solucion, ejecuta_cuaderno, genera

NUNCA_LANZA = Desafio("ejecutar-nunca-lanza")
SOLUCION = NUNCA_LANZA.lee("solucion.py")
COMO_SE_ESCRIBE = '        return error(id, "%s: %s" % (type(e).__name__, e))\n'


def con_el_error(linea: str, importa: str = "") -> str:
    """La solución de referencia con otra forma de escribir el error de la función que lanza."""
    assert COMO_SE_ESCRIBE in SOLUCION
    return importa + SOLUCION.replace(COMO_SE_ESCRIBE, linea)


HONESTAS = {
    "format_exception_only": con_el_error(
        "        return error(id, traceback.format_exception_only(e)[-1].strip())\n", "import traceback\n"
    ),
    "logging": con_el_error(
        "        texto = logging.Formatter().formatException((type(e), e, e.__traceback__))\n"
        "        return error(id, texto.splitlines()[-1])\n",
        "import logging\n",
    ),
    "modulo_y_nombre_calificado": con_el_error(
        "        clase = type(e)\n"
        "        nombre = clase.__qualname__\n"
        '        if clase.__module__ not in ("builtins", "__main__"):\n'
        '            nombre = clase.__module__ + "." + nombre\n'
        '        return error(id, "%s: %s" % (nombre, e))\n'
    ),
    "repr_de_la_clase": con_el_error(
        '        nombre = repr(type(e)).split("\'")[1].removeprefix("__main__.")\n'
        '        return error(id, "%s: %s" % (nombre, e))\n'
    ),
}


@pytest.fixture(scope="module")
def aislamiento():
    aislamiento = detecta()
    if not aislamiento.con_pyodide():
        pytest.fail("aquí no arranca Pyodide bajo Node: " + aislamiento.describe())
    return aislamiento


def puntos_en_el_calificador(aislamiento, desafio: Desafio, codigo: str) -> tuple[int, dict]:
    pasada = corre_pruebas(aislamiento, desafio, espacio_de_pruebas(desafio), Entrega([codigo], codigo), plazo=5)
    motivos = pasada.motivos()
    return sum(p for n, p in desafio.puntos().items() if motivos[n] is None), {n: m for n, m in motivos.items() if m}


@pytest.mark.parametrize("forma", HONESTAS)
def test_la_entrega_honesta_saca_10_en_el_calificador(aislamiento, forma):
    puntos, motivos = puntos_en_el_calificador(aislamiento, NUNCA_LANZA, HONESTAS[forma])
    assert puntos == 10, motivos
    assert "hijo." not in str(motivos)


@pytest.mark.parametrize("forma", HONESTAS)
def test_y_pasa_sus_pruebas_en_jupyter(tmp_path_factory, forma):
    """La misma entrega en un núcleo de Jupyter: allí Ocupado es de __main__ y cada prueba visible pasa."""
    curso, cuaderno = genera(tmp_path_factory, NUNCA_LANZA)
    salida = ejecuta_cuaderno(
        con_solucion(cuaderno, HONESTAS[forma], NUNCA_LANZA), curso / "release" / "ejecutar-nunca-lanza"
    )
    for prueba in NUNCA_LANZA.puntos():
        if prueba != "variaciones":
            assert f"✔ {prueba}" in salida, salida[-2000:]


MIRA = """
import traceback
def _describe(objeto):
    return [objeto.__module__, objeto.__qualname__, repr(objeto).split(" at ")[0]]
def mira(entorno):
    reservar = HERRAMIENTAS["reservar"]["funcion"]
    vistos = []
    for _ in range(2):
        try:
            reservar(entorno, dia="martes")
        except Exception as e:
            vistos.append(e)
    a, b = vistos
    return {
        "clase": _describe(type(a)),
        "repr": repr(a),
        "traza": traceback.format_exception_only(a),
        "la_misma": type(a) is type(b),
        "entorno": [type(entorno).__module__, type(entorno).__name__, repr(type(entorno))],
        "apoderado": _describe(reservar),
    }
"""


def test_lo_que_ve_el_alumno_de_la_clase_del_entorno_y_del_apoderado(aislamiento):
    """En el proceso del alumno, como en el cuaderno: __main__ (el entorno, un dict de builtins), sin
    «hijo» en el módulo, el nombre calificado ni el repr; y una sola clase por nombre."""
    espacio = espacio_de_pruebas(NUNCA_LANZA)
    banco = BancoRemoto(aislamiento, NUNCA_LANZA, espacio, Entrega([MIRA], MIRA), 5)
    mesa = espacio["Mesa"]({"agenda.txt": "Martes: dentista"})
    try:
        with banco.instala(mesa):
            visto = banco.llama("mira", [mesa.entorno])
    finally:
        banco.cierra()
    assert visto == {
        "clase": ["__main__", "Ocupado", "<class '__main__.Ocupado'>"],
        "repr": "Ocupado('el martes ya tiene algo')",
        "traza": ["Ocupado: el martes ya tiene algo\n"],
        "la_misma": True,
        "entorno": ["builtins", "dict", "<class 'dict'>"],
        "apoderado": ["__main__", "reservar", "<function reservar"],
    }
