"""Un proceso del alumno por entrega, también con partes ocultas.

Primero las pruebas visibles, con sus motivos enteros; después, en el mismo proceso, las partes
ocultas y las variaciones, con sus motivos reducidos. Lo que el alumno ve en una parte oculta no
llega a ningún motivo ya escrito ni a nada que lea el alumno o el profesor: una entrega lo guarda
en un global, en un atributo de un módulo, en un fichero y en builtins, y lo lanza en cada llamada
siguiente. Sin la reducción de los motivos de la segunda pasada sí saldría (la prueba de control).
"""

import sqlite3
import time

import pytest

from cursos.calificador import banco
from cursos.calificador.aislamiento import Aislamiento, detecta
from cursos.calificador.cuaderno import Entrega
from cursos.cli import main
from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from tests.calificador.ayudas import con_solucion, curso_del_desafio, entrega, por_alumno

PERMISO = Desafio("permiso-en-ejecutar")
DESAFIOS = sorted(p.parent.name for p in (PERMISO.carpeta.parent).glob("*/ocultas.py"))
# Sólo están en ocultas.py (las partes ocultas y las variaciones): ni en el cuaderno ni en los módulos.
PLAZO = 4.5
SECRETOS = ("pisto", "teatro", "calabacín", "gazpacho", "ajoblanco", "azafrán")

# La solución de referencia, que además apunta en cuatro sitios lo que ve (las llamadas y el entorno)
# y, en cuanto ha visto algo oculto, lo lanza en cada llamada.
GUARDA = (
    PERMISO.lee("solucion.py").replace("def ejecutar(ll, entorno):", "def _ref(ll, entorno):", 1)
    + """
import builtins, json
_VISTO = []
builtins._visto = []
json._visto = []


def _guarda(texto):
    _VISTO.append(texto)
    builtins._visto.append(texto)
    json._visto.append(texto)
    with open("visto.txt", "a", encoding="utf-8") as f:
        f.write(texto + "\\n")


def _lo_guardado():
    with open("visto.txt", encoding="utf-8") as f:
        fichero = f.read().splitlines()
    return " | ".join(["g", _VISTO[-1], "b", builtins._visto[-1], "m", json._visto[-1], "f", fichero[-1]])


def ejecutar(ll, entorno):
    if _VISTO and _VISTO[-1].startswith("k"):  # la llamada k1 sólo está en una parte oculta
        guardado = _lo_guardado()
        print(guardado)
        raise Exception(MARCA + guardado)
    _guarda("%s %s" % (ll.get("id"), sorted(entorno)))  # su id y los ficheros de su entorno
    return _ref(ll, entorno)
"""
)
MARCA = "lo que he visto: "
GUARDA = GUARDA.replace("MARCA", repr(MARCA[:7]) + " + " + repr(MARCA[7:]))  # la entrega no lleva la marca


@pytest.fixture(scope="module")
def aislamiento():
    aislamiento = detecta()
    if not aislamiento.con_pyodide():
        pytest.fail("aquí no arranca Pyodide bajo Node: " + aislamiento.describe())
    return aislamiento


class Contado:
    """La caja de siempre, contando los procesos del alumno que se arrancan."""

    def __init__(self, aislamiento):
        self.aislamiento, self.veces = aislamiento, 0
        self.con_pyodide = aislamiento.con_pyodide

    def arranca(self, plazo):
        self.veces += 1
        return self.aislamiento.arranca(plazo)


@pytest.mark.parametrize("slug", DESAFIOS)
def test_la_solucion_saca_10_con_un_solo_proceso(aislamiento, slug):
    desafio = Desafio(slug)
    contado, codigo = Contado(aislamiento), desafio.lee("solucion.py")
    espacio = banco.espacio_de_pruebas(desafio)
    assert espacio.get("PARTES_OCULTAS"), "el desafío tiene partes ocultas: son las que pedían un segundo proceso"
    motivos = banco.corre_pruebas(contado, desafio, espacio, Entrega([codigo], codigo), plazo=5).motivos()
    assert all(m is None for m in motivos.values()), motivos
    assert contado.veces == 1


def test_si_el_proceso_no_llega_vivo_a_la_segunda_pasada_esta_arranca_otro(aislamiento):
    """Se cae en la última prueba visible: lo de antes sigue contando, y la segunda pasada va en otro
    proceso (que cae en la misma prueba, y otro más para las variaciones), como dos pasadas nuevas."""
    codigo = PERMISO.lee("solucion.py") + (
        "\n_ref = ejecutar\n"
        "def ejecutar(ll, entorno):\n"
        "    if ll.get('id') == 'l1':\n"
        "        import os; os._exit(3)\n"
        "    return _ref(ll, entorno)\n"
    )
    contado = Contado(aislamiento)
    motivos = banco.corre_pruebas(
        contado, PERMISO, banco.espacio_de_pruebas(PERMISO), Entrega([codigo], codigo), plazo=5
    ).motivos()
    assert list(PERMISO.puntos())[-2:] == ["bucle", "variaciones"]
    assert motivos["bucle"].startswith("tu código se ha caído"), motivos
    assert all(m is None for n, m in motivos.items() if n != "bucle"), motivos
    assert contado.veces == 3


def _lo_que_sale(curso) -> str:
    """Todo lo escrito para el alumno o el profesor: autograded/, feedback/, calificaciones/ y el libro
    (sus notas y comentarios; no las celdas de source/, que trae nbgrader con las ocultas)."""
    textos = []
    for carpeta in ("autograded", "feedback", "calificaciones"):
        for ruta in sorted((curso / carpeta).rglob("*")):
            if ruta.is_file():
                textos.append(ruta.read_bytes().decode("utf-8", "replace"))
    with sqlite3.connect(curso / "gradebook.db") as libro:  # menos source_cell: las celdas del profesor
        tablas = [t for (t,) in libro.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for tabla in (t for t in tablas if t != "source_cell"):
            textos += [str(v) for fila in libro.execute(f"SELECT * FROM {tabla}") for v in fila]
    return "\n".join(textos).lower()


def _califica_y_devuelve(tmp_path_factory, monkeypatch) -> tuple:
    curso, cuaderno = curso_del_desafio(tmp_path_factory, PERMISO)
    entrega(curso, "guarda", con_solucion(cuaderno, GUARDA))
    arranques = []  # los de plazo PLAZO: los de calificar (detecta() prueba la caja con otro)
    arranca = Aislamiento.arranca
    monkeypatch.setattr(Aislamiento, "arranca", lambda self, plazo: arranques.append(plazo) or arranca(self, plazo))
    filas = por_alumno(califica(curso, PERMISO, plazo=PLAZO, progreso=False, reserva=0))
    assert main(["devolver", "--nbgrader", str(curso)]) == 0
    return curso, filas["guarda"], [p for p in arranques if p == PLAZO]


def test_lo_visto_en_una_parte_oculta_no_llega_a_nada_de_lo_escrito(tmp_path_factory, monkeypatch):
    curso, fila, arranques = _califica_y_devuelve(tmp_path_factory, monkeypatch)
    repartido = "\n".join(
        p.read_text(encoding="utf-8").lower() for p in (curso / "release" / PERMISO.slug).iterdir() if p.is_file()
    )
    assert not [s for s in SECRETOS if s in repartido + GUARDA.lower()], "los secretos sólo están en ocultas.py"
    assert len(arranques) == 1, arranques
    assert fila["puntos"] < 10  # lanza en cuanto ha visto algo oculto: la segunda pasada no pasa
    texto = _lo_que_sale(curso)
    assert "una parte oculta de esta prueba no pasa" in texto  # el motivo de las que lanzan en lo visible
    assert (curso / "feedback").is_dir() and "guarda" in texto
    assert not [s for s in SECRETOS if s in texto]
    assert MARCA not in texto


def test_control_sin_reducir_los_motivos_de_la_segunda_pasada_se_veria(tmp_path_factory, monkeypatch):
    """La misma entrega, con los motivos de la segunda pasada enteros: lo guardado sale. La prueba de
    arriba mira donde debe."""
    monkeypatch.setattr(banco, "_sin_desvelar", lambda resultado: resultado)
    curso, fila, _ = _califica_y_devuelve(tmp_path_factory, monkeypatch)
    assert fila["puntos"] < 10
    texto = _lo_que_sale(curso)
    assert MARCA in texto and "pisto" in texto


def test_la_sonda_de_la_caja_se_hace_una_vez_por_proceso(tmp_path_factory, monkeypatch, capsys):
    """detecta() prueba que la caja arranca (~3 s con Pyodide) y cada calificación lo llama: la segunda,
    con otro curso (otras carpetas que tapar), no vuelve a arrancar la sonda y tapa las suyas."""
    from cursos.calificador import aislamiento as caja

    monkeypatch.setattr(caja, "_ARRANCAN", set())  # como en un proceso nuevo
    sondas, arranca = [], Aislamiento.arranca
    monkeypatch.setattr(Aislamiento, "arranca", lambda self, plazo: sondas.append(plazo) or arranca(self, plazo))
    segundos = []
    for vez in range(2):
        curso, cuaderno = curso_del_desafio(tmp_path_factory, PERMISO)
        entrega(curso, "ana", con_solucion(cuaderno, PERMISO.lee("solucion.py")))
        inicio, antes = time.perf_counter(), len(sondas)
        assert por_alumno(califica(curso, PERMISO, plazo=PLAZO, progreso=False, reserva=0))["ana"]["puntos"] == 10
        segundos.append(time.perf_counter() - inicio)
        assert [p for p in sondas[antes:] if p != PLAZO] == ([5] if vez == 0 else [])
    tapadas = caja.detecta((curso,)).config[caja.Arranque.TAPAR]
    assert str(curso.resolve()) in tapadas
    with capsys.disabled():
        print(f"\ncalificar una entrega: {segundos[0]:.1f} s con la sonda, {segundos[1]:.1f} s sin ella")
