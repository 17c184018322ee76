"""Nada de lo que mande un modelo rompe el laboratorio de inyecciones (revisión, M4).

Unos argumentos que no son un objeto, una respuesta vacía o sin bloques, un servidor que no
contesta: cada cosa es una observación de error para el modelo o una ejecución fallida, que la
tabla cuenta. Nunca una excepción que se lleve el lote. Y lo terminado se escribe según termina.
"""

import copy
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from cursos import RAIZ
from cursos.modelo import escenarios, inyecciones
from cursos.modelo.modelo_real import FORMATOS, MAX_ANIDADO
from cursos.modelo.servidor import ModeloServido, en_segundo_plano

ESCENARIOS = escenarios.escenarios()
# Los cuatro ataques de lección y una de las dos puertas: cada uno tiene su ejecutar y su propuesta.
UNOS = [e for e in ESCENARIOS if e.slug in ("salmorejo", "readme", "pagina", "aviso", "puertas/escritura")]
RAROS = {
    "texto": "{ruta: notas.txt",  # lo que deja respuesta_openai cuando arguments no es JSON
    "lista": ["notas.txt", 1],
    "numero": 3,
    "nulo": None,
    "disparate": {"ruta": [[{"a": None}]], "orden": {"x": [1, 2]}, "url": 7, "id_documento": []},
}


@pytest.fixture(scope="module")
def servidor():
    http, url = en_segundo_plano(ModeloServido(demora=2.0))
    yield url
    http.shutdown()


def con_entrada(escenario, entrada):
    """El escenario con cada llamada del modelo obediente cambiada para que lleve `entrada`."""

    def prepara(defensa):
        partida = escenario.prepara(defensa)
        partida.respuestas = copy.deepcopy(partida.respuestas)
        for respuesta in partida.respuestas:
            for bloque in respuesta:
                if bloque.get("type") == "tool_use":
                    bloque["input"] = copy.deepcopy(entrada)
        return partida

    return inyecciones.Escenario(escenario.slug, escenario.leccion, escenario.titulo, prepara)


def con_respuestas(escenario, respuestas):
    def prepara(defensa):
        partida = escenario.prepara(defensa)
        partida.respuestas = respuestas
        return partida

    return inyecciones.Escenario(escenario.slug, escenario.leccion, escenario.titulo, prepara)


@pytest.mark.parametrize("formato", FORMATOS)
@pytest.mark.parametrize("raro", RAROS)
def test_unos_argumentos_que_no_valen_vuelven_al_modelo_como_error(servidor, formato, raro):
    raros = [con_entrada(e, RAROS[raro]) for e in UNOS]
    ejecuciones = inyecciones.ejecuta_laboratorio(raros, 1, inyecciones.sordo_por_http(servidor, formato))
    assert [e.error for e in ejecuciones] == [None] * len(raros) * 2, "la conversación sigue: no falla la ejecución"
    for e in ejecuciones:
        resultados = escenarios.resultados_de_M(e.M)
        assert resultados and all(r.get("is_error") for r in resultados), (e.escenario, e.defensa, resultados)
        assert not e.ejecutada, "lo que no cumple el esquema no llega a ejecutarse"


@pytest.mark.parametrize("formato", FORMATOS)
def test_unos_argumentos_anidados_sin_fin_son_una_ejecucion_fallida_y_se_cuenta(servidor, formato):
    anidada = valor = {}
    for _ in range(MAX_ANIDADO + 10):
        valor["a"] = {}
        valor = valor["a"]
    salmorejo = next(e for e in ESCENARIOS if e.slug == "salmorejo")
    ejecuciones = inyecciones.ejecuta_laboratorio(
        [con_entrada(salmorejo, anidada)], 2, inyecciones.sordo_por_http(servidor, formato)
    )
    assert all("anidados en más de" in e.error for e in ejecuciones)
    assert all(e.M and e.M[0] == salmorejo.prepara("sin").inicio[0] for e in ejecuciones), "con la M hasta el fallo"
    filas = inyecciones.tabla(ejecuciones)
    assert filas["salmorejo", "sin"]["errores"] == 2 and filas["salmorejo", "con"]["errores"] == 2
    assert "La receta que cancela la cena · sin defensa (errores: 2 de 2)" in inyecciones.texto_de_tabla(filas)


@pytest.mark.parametrize("formato", FORMATOS)
@pytest.mark.parametrize(
    "modelo, dice",
    [
        ("fallo-vacia", "no es JSON"),
        ("fallo-forma", "no tiene la forma de la API"),
        ("fallo-lenta", "no ha contestado en 0.3 s"),
        ("fallo-500", "HTTP 500"),
    ],
)
def test_una_respuesta_que_no_sirve_es_una_ejecucion_fallida(servidor, formato, modelo, dice):
    base = servidor + "/v1" if formato == "openai" else servidor
    ejecuciones = inyecciones.ejecuta_laboratorio(
        UNOS, 1, inyecciones.modelo_real_para(base, formato, modelo, plazo=0.3)
    )
    assert len(ejecuciones) == inyecciones.total_de(UNOS, 1) and all(dice in e.error for e in ejecuciones)
    assert all(f["errores"] == f["veces"] == 1 for f in inyecciones.tabla(ejecuciones).values())


@pytest.mark.parametrize("formato", FORMATOS)
def test_una_respuesta_sin_bloques_es_una_ejecucion_fallida(servidor, formato):
    sin_bloques = [con_respuestas(e, [[]]) for e in UNOS]
    ejecuciones = inyecciones.ejecuta_laboratorio(sin_bloques, 1, inyecciones.sordo_por_http(servidor, formato))
    assert all("sin texto y sin llamadas" in e.error for e in ejecuciones)


def test_un_fallo_del_propio_laboratorio_es_una_ejecucion_fallida_y_el_lote_sigue():
    salmorejo = next(e for e in ESCENARIOS if e.slug == "salmorejo")

    def prepara(defensa):
        partida = salmorejo.prepara(defensa)
        if defensa == "sin":
            partida.propuesta = lambda ll: ll["input"]["no-está"]
        return partida

    roto = inyecciones.Escenario("roto", "", "", prepara)
    ejecuciones = inyecciones.ejecuta_laboratorio([roto, salmorejo])
    assert [bool(e.error) for e in ejecuciones] == [True, False, False, False, False]
    assert "KeyError" in ejecuciones[0].error and ejecuciones[0].M, "dice qué ha fallado y guarda la conversación"
    assert (ejecuciones[2].ejecutada, ejecuciones[2].tarea) == (True, True), "el resto, como siempre"


LLAMADAS_RARAS = [
    *(
        {"type": "tool_use", "id": "r1", "name": n, "input": v}
        for n in ("escribir", "terminal", "pedir", "leer", "write_document")
        for v in RAROS.values()
    ),
    {"type": "tool_use", "id": ["r2"], "name": ["terminal"], "input": {"orden": "rm -rf ."}},
    {"type": "tool_use", "id": {"r": 3}, "name": None, "input": None},
    {"type": "tool_use"},
]


@pytest.mark.parametrize("defensa", (*inyecciones.DEFENSAS, inyecciones.APRUEBA))
@pytest.mark.parametrize("escenario", UNOS, ids=lambda e: e.slug)
def test_los_ejecutar_y_propuesta_del_laboratorio_no_lanzan(escenario, defensa):
    partida = escenario.prepara(defensa)
    for ll in LLAMADAS_RARAS:
        observacion = partida.ejecutar(copy.deepcopy(ll), partida.entorno)
        assert observacion["type"] == "tool_result" and observacion.get("is_error"), ll
        assert partida.propuesta(copy.deepcopy(ll)) in (True, False)


# --- La orden: lo terminado se escribe según termina --------------------------------------------


class SeDetiene(ModeloServido):
    """El modelo servido, que deja de contestar (se queda esperando) cuando se le dice."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.parado, self.esperando, self.sigue = threading.Event(), threading.Event(), threading.Event()

    def contesta(self, formato, cabeceras, cuerpo):
        if self.parado.is_set():
            self.esperando.set()
            self.sigue.wait(60)
        return super().contesta(formato, cabeceras, cuerpo)


def test_un_ctrl_c_a_medias_deja_escritas_las_ejecuciones_terminadas(tmp_path):
    servido = SeDetiene()
    salmorejo = next(e for e in ESCENARIOS if e.slug == "salmorejo")
    nombre = servido.registra_sordo(salmorejo.prepara("sin").respuestas)
    http, url = en_segundo_plano(servido)
    orden = [sys.executable, "-m", "cursos", "inyecciones", "--url", url, "--formato", "anthropic"]
    orden += ["--modelo", nombre, "--escenario", "salmorejo", "--veces", "50", "--salida", str(tmp_path)]
    diario = tmp_path / "ejecuciones.jsonl"
    proceso = subprocess.Popen(orden, cwd=RAIZ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        limite = time.monotonic() + 60
        while not (diario.exists() and len(diario.read_text(encoding="utf-8").splitlines()) >= 2):
            assert proceso.poll() is None and time.monotonic() < limite, "la orden tenía que ir escribiéndolas"
            time.sleep(0.05)
        servido.parado.set()  # la siguiente petición se queda esperando: el Ctrl+C llega a medias
        # Cuando la orden espera al modelo, como con uno de verdad. (Si llegara mientras prepara una
        # partida, dentro de un exec() de un str, CPython acabaría matándose con SIGINT tras escribirlo
        # todo: la terminal vería 130 igual, pero returncode sería -2.)
        assert servido.esperando.wait(60)
        proceso.send_signal(signal.SIGINT)
        salida, errores = proceso.communicate(timeout=60)
    finally:
        servido.sigue.set()
        if proceso.poll() is None:
            proceso.kill()
        http.shutdown()
    assert proceso.returncode == 130, errores
    assert "Interrumpido: sólo" in errores
    cabecera, *lineas = [json.loads(linea) for linea in diario.read_text(encoding="utf-8").splitlines()]
    guardadas = json.loads((tmp_path / "ejecuciones.json").read_text(encoding="utf-8"))
    assert cabecera["cabecera"]["modelo"] == nombre and cabecera["cabecera"]["veces"] == 50
    assert len(lineas) >= 1 and guardadas["ejecuciones"] == lineas, "ejecuciones.json, con las terminadas"
    assert guardadas["cabecera"] == cabecera["cabecera"], "la misma cabecera en los dos ficheros"
    assert all(e["M"] and e["error"] is None for e in lineas)
    assert "La receta que cancela la cena" in (tmp_path / "tabla.txt").read_text(encoding="utf-8")
    assert "La receta que cancela la cena" in salida
    assert not list(tmp_path.glob("*.a-medias")), "ningún fichero a medio escribir"


def test_la_orden_con_respuestas_que_no_sirven_escribe_la_tabla_con_los_errores(tmp_path):
    http, url = en_segundo_plano(ModeloServido())
    try:
        hecho = subprocess.run(
            [sys.executable, "-m", "cursos", "inyecciones", "--url", url + "/v1", "--modelo", "fallo-vacia"]
            + ["--escenario", "readme", "--salida", str(tmp_path)],
            cwd=RAIZ,
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, CURSO_MODELO_CLAVE=""),
        )
    finally:
        http.shutdown()
    assert hecho.returncode == 1, "todas han fallado: lo dice el código de salida, sin traceback"
    assert "Traceback" not in hecho.stderr and "error en readme (sin defensa): " in hecho.stderr
    assert "sin ejecuciones válidas" in hecho.stdout and (tmp_path / "ejecuciones.json").exists()
    guardadas = json.loads((tmp_path / "ejecuciones.json").read_text())["ejecuciones"]
    assert [e["error"] is not None for e in guardadas] == [True, True, True], "sin, con y con quien aprueba todo"
