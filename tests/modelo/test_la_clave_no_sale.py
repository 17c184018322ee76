"""La clave de ModeloReal sólo va a su servidor (revisión, M5).

Ninguna redirección se sigue con la clave, http:// sólo hacia este ordenador, la clave no se ve
en el objeto (vars, repr, pickle, atributos públicos) y lo que devuelva el servidor se guarda con
todo lo que parece una clave tapado. Con servidores HTTP de verdad, en este ordenador.
"""

import copy
import json
import os
import pickle
import subprocess
import sys
import threading
import types
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cursos import RAIZ
from cursos.modelo import escenarios, inyecciones
from cursos.modelo import modelo_real as mr
from cursos.modelo.modelo_real import FORMATOS, OCULTA, ErrorDelModelo, ModeloReal, tapa
from cursos.modelo.servidor import ModeloServido, en_segundo_plano

CLAVE = "sk-ant-secreta-456-no-la-escribas"
M = [("usuario", [{"type": "text", "text": "hola"}])]
RESPUESTA = {
    "anthropic": {"content": [{"type": "text", "text": "soy el otro sitio"}], "stop_reason": "end_turn"},
    "openai": {"choices": [{"message": {"content": "soy el otro sitio"}, "finish_reason": "stop"}]},
}


def arranca(manejador):
    http = ThreadingHTTPServer(("127.0.0.1", 0), manejador)
    http.daemon_threads = True
    threading.Thread(target=http.serve_forever, daemon=True).start()
    return http, http.server_address[1]


@pytest.fixture
def otro_sitio():
    """Un segundo servidor que apunta las cabeceras de cada petición y contesta como un modelo."""
    recibidas = []

    class Apunta(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def contesta(self):
            recibidas.append({k.lower(): v for k, v in self.headers.items()})
            formato = "anthropic" if "messages" in self.path else "openai"
            datos = json.dumps(RESPUESTA[formato]).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(datos)))
            self.end_headers()
            self.wfile.write(datos)

        do_GET = do_POST = contesta

    http, puerto = arranca(Apunta)
    yield puerto, recibidas
    http.shutdown()


def base(puerto, formato):
    return f"http://127.0.0.1:{puerto}" + ("/v1" if formato == "openai" else "")


def redirige(estado, destino):
    """Un servidor que contesta a todo con `estado` y Location: destino."""

    class Redirige(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(estado)
            self.send_header("location", destino + self.path)
            self.send_header("content-length", "0")
            self.end_headers()

    return arranca(Redirige)


@pytest.mark.parametrize("formato", FORMATOS)
@pytest.mark.parametrize("estado", [301, 302, 303, 307, 308])
def test_una_redireccion_no_se_sigue_y_el_otro_sitio_no_ve_la_clave(otro_sitio, formato, estado):
    puerto, recibidas = otro_sitio
    http, puerto_del_modelo = redirige(estado, f"http://localhost:{puerto}/robado")
    try:
        modelo = ModeloReal(base(puerto_del_modelo, formato), formato, modelo="m", clave=CLAVE)
        with pytest.raises(ErrorDelModelo) as e:
            modelo(M)
    finally:
        http.shutdown()
    assert recibidas == [], "al otro sitio no ha llegado nada: ni la clave ni la petición"
    assert f"HTTP {estado}: el servidor de 127.0.0.1 manda la petición a otro sitio (localhost)" in str(e.value)
    assert CLAVE not in str(e.value)


def test_en_el_laboratorio_una_redireccion_es_una_ejecucion_fallida(otro_sitio):
    puerto, recibidas = otro_sitio
    http, puerto_del_modelo = redirige(307, f"http://localhost:{puerto}")
    salmorejo = next(e for e in escenarios.escenarios() if e.slug == "salmorejo")
    try:
        para = inyecciones.modelo_real_para(f"http://127.0.0.1:{puerto_del_modelo}/v1", "openai", "m", CLAVE)
        ejecuciones = inyecciones.ejecuta_laboratorio([salmorejo], 1, para)
    finally:
        http.shutdown()
    assert recibidas == [] and all("HTTP 307" in e.error for e in ejecuciones)


# --- http:// sólo hacia este ordenador ------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:11434/v1", "http://127.9.8.7/v1", "http://[::1]:8080", "http://LocalHost:1"]
)
def test_por_http_con_clave_solo_hacia_este_ordenador(url):
    ModeloReal(url, "openai", clave=CLAVE)


@pytest.mark.parametrize(
    "url", ["http://192.168.1.20:11434/v1", "http://api.ejemplo.es/v1", "http://localhost.ejemplo.es"]
)
def test_por_http_con_clave_a_otro_ordenador_se_niega(url):
    with pytest.raises(ErrorDelModelo, match="la clave no se manda sin cifrar: .* es http:// y no es este ordenador"):
        ModeloReal(url, "anthropic", clave=CLAVE)
    ModeloReal(url, "openai")  # sin clave, sí: un Ollama en la red de casa
    ModeloReal(url.replace("http://", "https://"), "openai", clave=CLAVE)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://ejemplo.es/v1", "127.0.0.1:11434/v1", "https://"])
def test_una_url_que_no_es_http_se_niega(url):
    with pytest.raises(ErrorDelModelo, match="tiene que empezar por https://"):
        ModeloReal(url, "openai")


def test_la_orden_niega_http_con_clave_a_otro_ordenador_antes_de_empezar(tmp_path):
    orden = [sys.executable, "-m", "cursos", "inyecciones", "--url", "http://192.0.2.7:11434/v1"]
    orden += ["--modelo", "m", "--escenario", "salmorejo", "--salida", str(tmp_path)]
    hecho = subprocess.run(
        orden, cwd=RAIZ, capture_output=True, text=True, timeout=120, env=dict(os.environ, CURSO_MODELO_CLAVE=CLAVE)
    )
    assert hecho.returncode == 2 and "Traceback" not in hecho.stderr
    assert "--url: la clave no se manda sin cifrar: 192.0.2.7 es http://" in hecho.stderr
    assert CLAVE not in hecho.stderr + hecho.stdout and not (tmp_path / "ejecuciones.json").exists()


# --- La clave no se ve en el objeto -----------------------------------------------------------------


def test_la_clave_no_esta_en_vars_repr_pickle_ni_en_lo_publico():
    modelo = ModeloReal("https://api.ejemplo.es", "anthropic", modelo="m", clave=CLAVE)
    vistas = [
        repr(modelo),
        str(modelo),
        repr(vars(modelo)),
        repr(modelo.__dict__),
        json.dumps(vars(modelo), default=str),
    ]
    vistas += [repr(getattr(modelo, nombre)) for nombre in dir(modelo) if not nombre.startswith("_")]
    vistas += [str(getattr(modelo, nombre)) for nombre in dir(modelo) if not nombre.startswith("_")]
    vistas += [repr(v) for v in vars(modelo).values()] + [str(v) for v in vars(modelo).values()]
    assert not [v for v in vistas if CLAVE in v]
    with pytest.raises(TypeError, match="la clave de ModeloReal no se guarda") as e:
        pickle.dumps(modelo)
    assert CLAVE not in str(e.value)
    assert "clave: sí" in repr(copy.deepcopy(modelo)), "copiarlo sí se puede (sin enseñarla)"
    assert pickle.loads(pickle.dumps(ModeloReal("https://api.ejemplo.es", "openai"))).url.endswith("/chat/completions")


# --- Lo que devuelve el servidor, tapado --------------------------------------------------------------


@pytest.mark.parametrize("formato", FORMATOS)
def test_un_error_que_repite_la_clave_se_guarda_tapado(formato, tmp_path):
    http, url = en_segundo_plano(ModeloServido())
    base = url + "/v1" if formato == "openai" else url
    salmorejo = next(e for e in escenarios.escenarios() if e.slug == "salmorejo")
    try:
        with pytest.raises(ErrorDelModelo, match="HTTP 401: el servidor rechaza la clave") as e:
            ModeloReal(base, formato, modelo="fallo-eco", clave=CLAVE)(M)
        para = inyecciones.modelo_real_para(base, formato, "fallo-eco", CLAVE)
        ejecuciones, _ = inyecciones.ejecuta_y_escribe(tmp_path, [salmorejo], 1, para)
    finally:
        http.shutdown()
    assert CLAVE not in str(e.value) and "Incorrect API key provided: " in str(e.value) and OCULTA in str(e.value)
    assert all(e.error and OCULTA in e.error for e in ejecuciones)
    for fichero in tmp_path.iterdir():
        assert CLAVE not in fichero.read_text(encoding="utf-8"), fichero.name


@pytest.mark.parametrize(
    "texto",
    [
        "sk-proj-Ab12Cd34Ef56",
        "sk-ant-api03-abcdefghijklmnop",
        "Bearer abc.def.ghi",
        "token 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "clave ZXN0byBlcyB1bmEgY2xhdmUgZW4gYmFzZTY0IQ==",
    ],
)
def test_lo_que_parece_una_clave_se_tapa(texto):
    tapado = tapa("el servidor dice: %s, revisa" % texto)
    assert OCULTA in tapado and texto.split()[-1] not in tapado and tapado.endswith(", revisa")


def test_lo_que_no_es_una_clave_se_queda():
    texto = (
        "no existe el modelo meta-llama/Llama-3.1-8B-Instruct ni qwen2.5:7b en "
        "http://127.0.0.1:11434/v1/chat/completions (not_found_error_of_the_request_schema)"
    )
    assert tapa(texto) == texto
    assert tapa("la clave otra es mala", "otra") == "la clave otra es mala", "una «clave» de 4 letras no tapa palabras"


# --- En el navegador: el XMLHttpRequest sigue las redirecciones por su cuenta -------------------------


class XHRComoElNavegador:
    """Un XMLHttpRequest síncrono como el del worker, hecho con urllib: sigue las redirecciones
    (como el navegador) y dice en responseURL adónde ha acabado la petición."""

    def __init__(self):
        self.cabeceras, self.status, self.responseText, self.responseURL = {}, 0, "", ""

    @classmethod
    def new(cls):
        return cls()

    def open(self, metodo, url, asincrono):
        self.metodo, self.url = metodo, url

    def setRequestHeader(self, nombre, valor):
        self.cabeceras[nombre] = valor

    def send(self, cuerpo):
        peticion = urllib.request.Request(self.url, cuerpo.encode(), self.cabeceras, method=self.metodo)
        with urllib.request.urlopen(peticion, timeout=10) as r:
            self.status, self.responseText, self.responseURL = r.status, r.read().decode(), r.geturl()


@pytest.mark.parametrize("formato", FORMATOS)
def test_en_el_navegador_la_respuesta_de_una_redireccion_no_se_toma_por_la_del_modelo(otro_sitio, formato, monkeypatch):
    puerto, recibidas = otro_sitio
    # 302: urllib, como un navegador, la repite en GET (un 307 con POST urllib no lo sigue).
    http, puerto_del_modelo = redirige(302, f"http://localhost:{puerto}/robado")
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(XMLHttpRequest=XHRComoElNavegador))
    monkeypatch.setattr(mr, "en_el_navegador", lambda: True)
    try:
        modelo = ModeloReal(base(puerto_del_modelo, formato), formato, modelo="m")
        with pytest.raises(ErrorDelModelo, match="el navegador ha seguido una redirección de 127.0.0.1 a localhost"):
            modelo(M)
    finally:
        http.shutdown()
    assert len(recibidas) == 1, "el navegador sí ha ido (lo limita la CSP del sitio); su respuesta no se usa"
