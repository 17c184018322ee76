"""El modelo de verdad en el sitio, sin navegador: el manifiesto, la CSP y la página del laboratorio."""

import dataclasses
import json
import re
import threading
import urllib.request

import pytest

from cursos.manifiesto import ErrorDeManifiesto, ServidorDelModelo, leer_curso, servidores_del_modelo
from cursos.sitio.paginas import pagina_de_inicio, pagina_de_leccion, pagina_del_laboratorio
from cursos.sitio.servir import crea_servidor, politica_de_contenido

LOCAL = {
    "titulo": "Ollama",
    "url": "http://127.0.0.1:11434/v1",
    "formato": "openai",
    "modelo": "qwen2.5:7b",
    "clave": False,
}
REMOTO = {"titulo": "Anthropic", "url": "https://api.ejemplo.test", "formato": "anthropic", "modelo": "m"}


def _lee(*servidores, publica=True):
    tabla = {"servidores": [dict(s) for s in servidores]}
    if publica is not None:
        tabla["publica_las_defensas"] = publica
    return servidores_del_modelo(tabla, "llm-agents.toml")


def test_sin_la_tabla_ningun_servidor():
    assert leer_curso().servidores_del_modelo == ()
    assert servidores_del_modelo({}, "x.toml") == ()


def test_servidores_validos():
    local, remoto = _lee(LOCAL, REMOTO)
    assert local == ServidorDelModelo("Ollama", "http://127.0.0.1:11434/v1", "openai", "qwen2.5:7b", False)
    assert remoto.clave is True, "sin decirlo, un servidor pide clave"
    assert _lee({**LOCAL, "url": "http://localhost:8080/v1/"})[0].url == "http://localhost:8080/v1"


@pytest.mark.parametrize(
    "url, mensaje",
    [
        ("http://api.ejemplo.test/v1", "va sin cifrar; usa https"),
        ("http://192.168.1.5:11434/v1", "va sin cifrar; usa https"),
        ("http://127.0.0.1.ejemplo.test/v1", "va sin cifrar"),
        ("ftp://api.ejemplo.test", "no es https"),
        ("file:///etc/passwd", "no es una URL que pueda usar"),
        ("https://", "no es una URL que pueda usar"),
        ("https://usuario:secreto@api.ejemplo.test", "no es una URL que pueda usar"),
        ("https://api.ejemplo.test/v1?clave=1", "no es una URL que pueda usar"),
        ("https://api.ejemplo.test/v1#x", "no es una URL que pueda usar"),
        ("https://api.ejemplo.test:abc/v1", "no es una URL que pueda usar"),
        ("https://api.ejemplo.test; script-src *", "no es una URL que pueda usar"),  # inyectar en la CSP
        ("https://a.test https://b.test", "no es una URL que pueda usar"),
    ],
)
def test_urls_que_no_valen(url, mensaje):
    with pytest.raises(ErrorDeManifiesto, match=re.escape(mensaje)):
        _lee({**REMOTO, "url": url})


@pytest.mark.parametrize(
    "cambio, mensaje",
    [
        ({"formato": "gemini"}, "formato «gemini» desconocido"),
        ({"modelo": ""}, "falta «modelo»"),
        ({"titulo": 3}, "falta «titulo»"),
        ({"clave": "no"}, "«clave» es true"),
    ],
)
def test_campos_que_no_valen(cambio, mensaje):
    with pytest.raises(ErrorDeManifiesto, match=re.escape(mensaje)):
        _lee({**REMOTO, **cambio})


def test_hay_que_confirmar_que_se_publican_las_defensas():
    for publica in (None, False, "sí"):
        with pytest.raises(ErrorDeManifiesto, match="publica_las_defensas = true"):
            _lee(LOCAL, publica=publica)


def test_otras_formas_que_no_valen():
    with pytest.raises(ErrorDeManifiesto, match="no conozco endpoints"):
        servidores_del_modelo({"endpoints": []}, "x.toml")
    with pytest.raises(ErrorDeManifiesto, match="lista de tablas"):
        servidores_del_modelo({"servidores": "https://a.test"}, "x.toml")
    with pytest.raises(ErrorDeManifiesto, match="repetidos"):
        _lee(LOCAL, LOCAL)


def _connect_src(politica):
    directiva = next(d.strip() for d in politica.split(";") if d.strip().startswith("connect-src"))
    return directiva.split()[1:]


def test_la_politica_sin_servidores_solo_deja_el_origen():
    politica = politica_de_contenido()
    assert _connect_src(politica) == ["'self'"]
    assert "'wasm-unsafe-eval'" in politica and "'unsafe-eval'" not in politica.replace("'wasm-unsafe-eval'", "")
    assert "default-src 'self'" in politica and "object-src 'none'" in politica


def test_la_politica_deja_exactamente_los_servidores():
    politica = politica_de_contenido(_lee(LOCAL, REMOTO))
    assert _connect_src(politica) == ["'self'", "http://127.0.0.1:11434/v1/", "https://api.ejemplo.test/"]


def _meta(html):
    return re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)


def test_cada_pagina_lleva_la_politica_y_solo_con_servidores_el_laboratorio():
    curso = leer_curso()
    con = dataclasses.replace(curso, servidores_del_modelo=_lee(LOCAL))
    for c in (curso, con):
        esperada = politica_de_contenido(c.servidores_del_modelo).replace("'", "&#39;")
        inicio = pagina_de_inicio(c, "recursos-x/")
        leccion = pagina_de_leccion(c, c.lecciones[0], "pyodide/", "recursos-x/")
        assert _meta(inicio) == _meta(leccion) == esperada
        assert inicio.index("Content-Security-Policy") < inicio.index("<script"), "la CSP va antes de cualquier script"
    assert "laboratorio/" not in pagina_de_inicio(curso, "recursos-x/"), "sin servidores, ninguna opción de modelo"
    assert "laboratorio/index.html" in pagina_de_inicio(con, "recursos-x/")
    laboratorio = pagina_del_laboratorio(con, "pyodide/", "recursos-x/")
    assert _meta(laboratorio) == politica_de_contenido(con.servidores_del_modelo).replace("'", "&#39;")
    datos = json.loads(re.search(r'id="laboratorio-datos">(.*?)</script>', laboratorio).group(1))
    assert datos["servidores"] == [LOCAL]


def test_servir_manda_la_misma_politica(tmp_path):
    (tmp_path / "sitio").mkdir()
    (tmp_path / "sitio" / "index.html").write_text("hola", encoding="utf-8")
    (tmp_path / "sitio" / "a.mjs").write_text("1", encoding="utf-8")
    politica = politica_de_contenido(_lee(LOCAL))
    (tmp_path / "sitio.csp").write_text(politica, encoding="utf-8")  # lo que escribe la construcción
    for sitio, esperada in ((tmp_path / "sitio", politica), (tmp_path / "otro", politica_de_contenido())):
        sitio.mkdir(exist_ok=True)
        (sitio / "a.mjs").write_text("1", encoding="utf-8")
        servidor = crea_servidor(sitio, 0)
        threading.Thread(target=servidor.serve_forever, daemon=True).start()
        try:
            puerto = servidor.server_address[1]
            with urllib.request.urlopen(f"http://127.0.0.1:{puerto}/a.mjs") as r:  # también los scripts (workers)
                assert r.headers["Content-Security-Policy"] == esperada
        finally:
            servidor.shutdown()
            servidor.server_close()


# --- El servidor guionizado, como lo usa la página del laboratorio ---------------------------------


def test_el_preflight_permite_la_cabecera_de_la_clave():
    """«*» en access-control-allow-headers no cubre authorization: tiene que ir por su nombre."""
    from cursos.modelo.servidor import ModeloServido, en_segundo_plano

    http, url = en_segundo_plano(ModeloServido())
    try:
        peticion = urllib.request.Request(
            url + "/v1/chat/completions",
            method="OPTIONS",
            headers={"origin": "http://127.0.0.1:1", "access-control-request-headers": "authorization,content-type"},
        )
        with urllib.request.urlopen(peticion) as r:
            permitidas = {c.strip() for c in r.headers["access-control-allow-headers"].split(",")}
            assert r.headers["access-control-allow-origin"] == "*"
    finally:
        http.shutdown()
        http.server_close()
    assert {
        "authorization",
        "x-api-key",
        "anthropic-version",
        "content-type",
        "anthropic-dangerous-direct-browser-access",
    } <= permitidas


def test_el_modelo_sordo_contesta_segun_la_peticion_del_usuario():
    from cursos.modelo import modelo_real as mr
    from cursos.modelo.servidor import ModeloServido

    servido = ModeloServido()
    assert servido.registra_sordo([[{"type": "text", "text": "uno"}]], "pide uno") == "sordo"
    servido.registra_sordo([[{"type": "text", "text": "dos"}]], "pide dos")

    def pide(texto):
        cuerpo = {"model": "sordo", "messages": [{"role": "user", "content": texto}]}
        return servido.contesta(mr.OPENAI, {}, cuerpo)

    estado, respuesta = pide("pide dos")
    assert estado == 200 and respuesta["choices"][0]["message"]["content"] == "dos"
    estado, respuesta = pide("otra cosa")
    assert estado == 404 and "no tiene respuestas para esta petición" in respuesta["error"]["message"]


def test_la_construccion_deja_al_worker_el_mismo_python_del_laboratorio(tmp_path):
    from cursos import RAIZ
    from cursos.modelo import escenarios
    from cursos.sitio.construir import escribe_laboratorio
    from cursos.sitio.laboratorio_de_inyecciones import CODIGO_DEL_LABORATORIO

    curso = dataclasses.replace(leer_curso(), servidores_del_modelo=_lee(LOCAL))
    escribe_laboratorio(curso, tmp_path, "pyodide/", "recursos-x/")
    carpeta = tmp_path / "laboratorio"
    assert (carpeta / "index.html").exists()
    for ruta in CODIGO_DEL_LABORATORIO[1:]:  # el mismo código que `./curso inyecciones`, sin copiarlo a mano
        assert (carpeta / ruta).read_text(encoding="utf-8") == (RAIZ / ruta).read_text(encoding="utf-8")
    assert (carpeta / "cursos/__init__.py").read_text(encoding="utf-8") == ""
    fuentes = json.loads((carpeta / "fuentes.json").read_text(encoding="utf-8"))
    assert fuentes.pop("_commit"), "el commit del curso, para la cabecera de los resultados"
    assert sorted(fuentes) == sorted(escenarios.DESAFIOS)
    assert fuentes == escenarios.fuentes_de_los_desafios()
