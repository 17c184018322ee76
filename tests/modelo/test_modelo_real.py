"""ModeloReal contra un servidor HTTP de verdad: el modelo guionizado servido en los dos formatos.

Las celdas de cada lección, sin tocar, corren dos veces: con el modelo guionizado y con
ModeloReal hablando por HTTP con ./curso modelo-guionizado. Cada celda debe imprimir
exactamente lo mismo. Después, cada fallo del servidor da su mensaje en español.
"""

import builtins
import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from cursos import RAIZ
from cursos.cuadernos import escribe_cuadernos
from cursos.manifiesto import leer_curso
from cursos.modelo.modelo_real import FORMATOS, ErrorDelModelo, ModeloReal
from cursos.modelo.servidor import ModeloServido, en_segundo_plano
from tests.ayudas import celdas_de_codigo

CURSO = leer_curso()
CLAVE = "sk-prueba-no-la-escribas-nunca"
# Las lecciones cuyo agente habla con un modelo (el laboratorio de las dos puertas no lo usa).
CON_MODELO = [lec for lec in CURSO.lecciones if any("ModeloGuionizado(" in c for c in celdas_de_codigo(lec))]


@pytest.fixture(scope="module")
def servidor():
    http, url = en_segundo_plano(ModeloServido(clave=CLAVE, demora=3.0))
    yield url
    http.shutdown()


@pytest.fixture(scope="module")
def carpeta(tmp_path_factory):
    """Los cuadernos con sus módulos al lado, como los recibe el alumno."""
    destino = tmp_path_factory.mktemp("cuadernos")
    escribe_cuadernos(CURSO, destino)
    return destino


def registra(url, guion):
    peticion = urllib.request.Request(
        url + "/guiones",
        data=json.dumps({"guion": guion}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(peticion, timeout=10) as r:
        return json.loads(r.read())["modelo"]


def modelo_por_http(url, formato, espacio, original):
    """Una clase con la forma de ModeloGuionizado cuya respuesta viaja por HTTP.

    El guionizado local sólo sirve para que una divergencia diga lo mismo que en la lección
    (su mensaje usa muestra() si el harness está cargado); la respuesta que se devuelve es
    la que ha llegado del servidor, que comprueba el guion por su cuenta.
    """

    class PorHTTP:
        def __init__(self, guion):
            self.local = original(guion)
            self.guion = guion
            base = url + "/v1" if formato == "openai" else url
            self.real = ModeloReal(
                base,
                formato,
                modelo=registra(url, guion),
                clave=CLAVE,
                herramientas=espacio.get("HERRAMIENTAS"),
                plazo=20,
                texto=isinstance(guion[0]["responde"], str) if guion else None,
            )

        @property
        def turno(self):
            return self.local.turno

        def __call__(self, M):
            esperada = self.local(M)
            recibida = self.real(M)
            assert recibida == esperada, f"por HTTP ha llegado {recibida!r} y el guion dice {esperada!r}"
            return recibida

    return PorHTTP


def salidas_de(leccion, carpeta, cambia=None):
    """Lo que imprime cada celda de la lección, ejecutada en la carpeta de su cuaderno."""
    espacio = {"__name__": "__main__"}
    if cambia:

        def abre(nombre, *args, **kwargs):
            fichero = builtins.open(nombre, *args, **kwargs)
            if os.path.basename(str(nombre)) != "guionizado.py":
                return fichero
            with fichero:
                fuente = fichero.read()
            # Tras cargar guionizado.py, ModeloGuionizado es el que habla por HTTP.
            return io.StringIO(fuente + "\nModeloGuionizado = _cambia(ModeloGuionizado)\n")

        espacio["open"], espacio["_cambia"] = abre, lambda original: cambia(espacio, original)
    salidas, antes = [], os.getcwd()
    os.chdir(carpeta)
    try:
        for codigo in celdas_de_codigo(leccion):
            salida = io.StringIO()
            with contextlib.redirect_stdout(salida):
                exec(codigo, espacio)
            salidas.append(salida.getvalue())
    finally:
        os.chdir(antes)
    return salidas


@pytest.mark.parametrize("formato", FORMATOS)
@pytest.mark.parametrize("leccion", CON_MODELO, ids=lambda lec: lec.slug)
def test_cada_leccion_por_http_dice_lo_mismo_que_con_el_guion(servidor, carpeta, leccion, formato):
    guionizadas = salidas_de(leccion, carpeta)
    peticiones = []

    def cambia(espacio, original):
        clase = modelo_por_http(servidor, formato, espacio, original)
        peticiones.append(clase)
        return clase

    por_http = salidas_de(leccion, carpeta, cambia)
    assert peticiones, "la lección carga guionizado.py y usa el modelo"
    for n, (a, b) in enumerate(zip(guionizadas, por_http, strict=True), 1):
        assert a == b, f"celda {n} de {leccion.slug} por HTTP ({formato})"


# --- Los fallos, cada uno con su mensaje --------------------------------------------------


def llama(url, formato, modelo, clave=CLAVE, plazo=10, M=None):
    base = url + "/v1" if formato == "openai" else url
    real = ModeloReal(base, formato, modelo=modelo, clave=clave, herramientas={}, plazo=plazo)
    return real(
        M or [("usuario", [{"type": "text", "text": "hola"}])],
    )


CASOS = {
    "fallo-401": "rechaza la clave",
    "fallo-429": "demasiadas peticiones",
    "fallo-500": "ha fallado",
    "fallo-malformada": "no es JSON",
    "fallo-forma": "no tiene la forma de la API",
    "fallo-escrita": "ha escrito la llamada como texto",
    "fallo-cortada": "max_tokens",
    "no-existe": "no existen en el servidor",
}


@pytest.mark.parametrize("formato", FORMATOS)
@pytest.mark.parametrize("modelo", CASOS)
def test_cada_fallo_da_su_mensaje(servidor, formato, modelo):
    with pytest.raises(ErrorDelModelo, match=CASOS[modelo]) as e:
        llama(servidor, formato, modelo)
    assert CLAVE not in str(e.value)


@pytest.mark.parametrize("formato", FORMATOS)
def test_una_clave_equivocada_es_un_401_en_espanol(servidor, formato):
    with pytest.raises(ErrorDelModelo, match="HTTP 401: el servidor rechaza la clave"):
        llama(servidor, formato, registra(servidor, []), clave="otra")


@pytest.mark.parametrize("formato", FORMATOS)
def test_un_servidor_lento_da_un_error_en_su_plazo(servidor, formato):
    antes = time.monotonic()
    with pytest.raises(ErrorDelModelo, match="no ha contestado en 0.5 s"):
        llama(servidor, formato, "fallo-lenta", plazo=0.5)
    assert time.monotonic() - antes < 2.5, "el plazo corta la espera, no el servidor"


def test_sin_servidor_dice_que_no_ha_podido_conectar():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]  # libre y, al cerrarse, sin nadie escuchando
    with pytest.raises(ErrorDelModelo, match="no se ha podido conectar"):
        llama(f"http://127.0.0.1:{puerto}", "openai", "x")


def test_una_divergencia_del_guion_llega_como_error(servidor):
    guion = [{"espera": [["usuario", "hola"]], "responde": "adiós"}]
    nombre = registra(servidor, guion)
    assert llama(servidor, "anthropic", nombre, M=[("usuario", "hola")]) == [{"type": "text", "text": "adiós"}]
    with pytest.raises(ErrorDelModelo, match="turno 2: el guion tiene 1 turnos"):
        llama(servidor, "anthropic", nombre, M=[("usuario", "hola")])


def test_la_clave_no_sale_en_repr_ni_en_los_errores(servidor):
    real = ModeloReal(servidor, "anthropic", modelo="fallo-500", clave=CLAVE)
    assert CLAVE not in repr(real)
    with pytest.raises(ErrorDelModelo) as e:
        real([("usuario", [{"type": "text", "text": "hola"}])])
    assert CLAVE not in str(e.value) and CLAVE not in repr(e.value)


def test_los_argumentos_que_no_son_json_llegan_a_ejecutar_que_los_rechaza(g):
    from cursos.modelo.modelo_real import respuesta_openai

    datos = {
        "choices": [
            {
                "message": {
                    "content": None,
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "leer", "arguments": "{ruta: notas"}}
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ]
    }
    (bloque,), _ = respuesta_openai(datos)
    observacion = g["ejecutar"](bloque, dict(g["ENTORNO"]))
    assert observacion["is_error"] and observacion["content"].startswith("no se ha ejecutado: ")


# --- La orden ------------------------------------------------------------------------------


def test_la_orden_sirve_un_guion_y_dice_si_el_puerto_esta_ocupado(tmp_path):
    guion = tmp_path / "guion.json"
    guion.write_text(json.dumps([{"espera": [["usuario", "¿cuántos son 2 y 2?"]], "responde": "Son 4."}]))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    orden = [sys.executable, "-m", "cursos", "modelo-guionizado", "--puerto", str(puerto), "--guion", str(guion)]
    proceso = subprocess.Popen(orden, cwd=RAIZ, stdout=subprocess.PIPE, text=True)
    try:
        assert "guion-1" in proceso.stdout.readline()
        respuesta = ModeloReal(f"http://127.0.0.1:{puerto}/v1", "openai", modelo="guion-1", texto=True)
        assert respuesta([("usuario", "¿cuántos son 2 y 2?")]) == "Son 4."
        ocupado = subprocess.run(orden, cwd=RAIZ, capture_output=True, text=True, timeout=30)
        assert ocupado.returncode == 2 and f"no se puede usar el puerto {puerto}" in ocupado.stderr
    finally:
        proceso.terminate()
        proceso.wait(10)


# --- Un modelo de verdad, sólo si se pide ---------------------------------------------------


@pytest.mark.skipif(not os.environ.get("CURSO_MODELO_URL"), reason="sin CURSO_MODELO_URL no hay modelo de verdad")
def test_un_modelo_de_verdad_contesta_con_bloques():
    real = ModeloReal(
        os.environ["CURSO_MODELO_URL"],
        os.environ.get("CURSO_MODELO_FORMATO", "openai"),
        modelo=os.environ.get("CURSO_MODELO_NOMBRE", ""),
        clave=os.environ.get("CURSO_MODELO_CLAVE"),
    )
    respuesta = real([("usuario", [{"type": "text", "text": "Di «hola» y nada más."}])])
    assert respuesta and all(b["type"] in ("text", "tool_use") for b in respuesta)


# --- En Pyodide ------------------------------------------------------------------------------


def test_en_pyodide_las_peticiones_son_las_mismas_y_sin_xhr_lo_dice():
    """El mismo código en Pyodide (Python 3.14): mismas peticiones; bajo Node, sin XMLHttpRequest,
    un error en español en vez de un AttributeError."""
    from cursos.modelo import modelo_real as mr
    from tests.pyodide_node import ejecuta_en_pyodide

    M = [
        ("sistema", "Trabajas con ficheros."),
        ("usuario", "Lee notas.txt"),
        (
            "asistente",
            [
                {"type": "text", "text": "Leo."},
                {"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "notas.txt"}},
            ],
        ),
        ("usuario", [{"type": "tool_result", "tool_use_id": "t1", "content": ["a", 1], "is_error": True}]),
    ]
    herramientas = {"leer": {"description": "Lee.", "input_schema": {"type": "object"}}}
    # Como en el worker de la página: cursos/modelo/ con sus tres ficheros, junto al directorio de trabajo.
    programa = """
import json, os, sys
os.makedirs("cursos/modelo", exist_ok=True)
for nombre in ("cursos/__init__.py", "cursos/modelo/__init__.py"):
    open(nombre, "w").close()
for nombre in ("clave.py", "formatos.py", "modelo_real.py"):
    os.replace(nombre, "cursos/modelo/" + nombre)
sys.path.insert(0, os.getcwd())
from cursos.modelo.modelo_real import ErrorDelModelo, ModeloReal, peticion_anthropic, peticion_openai
M = [tuple(m) for m in datos["M"]]
peticiones = [peticion_anthropic(M, datos["h"], "m", 10), peticion_openai(M, datos["h"], "m", 10)]
try:
    ModeloReal("http://127.0.0.1:9/v1", "openai")(M)
    error = None
except ErrorDelModelo as e:
    error = str(e)
json.dumps({"peticiones": peticiones, "error": error})
"""
    fuentes = {
        n: (RAIZ / "cursos" / "modelo" / n).read_text(encoding="utf-8")
        for n in ("clave.py", "formatos.py", "modelo_real.py")
    }
    hecho = ejecuta_en_pyodide(fuentes, programa, {"M": M, "h": herramientas})
    assert hecho["peticiones"] == json.loads(
        json.dumps([mr.peticion_anthropic(M, herramientas, "m", 10), mr.peticion_openai(M, herramientas, "m", 10)])
    )
    assert hecho["error"].startswith("este Python no puede hacer peticiones HTTP")
