"""Lo que el sitio hace sin necesitar un navegador: el ejecutor de celdas en CPython, el
servidor (tipos MIME, caché, subruta) y las páginas generadas."""

import urllib.error
import urllib.request

import pytest

from cursos.carga import ficheros_cargados
from cursos.sitio import RECURSOS
from cursos.sitio.paginas import bloques_de, dependencias, lista_de_celdas, modulos_de_la_pagina, nombres_de_fuera
from cursos.sitio.servir import INMUTABLE, normaliza_subruta, politica_de_cache
from tests.navegador.ayudas import CURSO


@pytest.fixture
def ejecutor():
    espacio = {}
    exec((RECURSOS / "ejecutor.py").read_text(encoding="utf-8"), espacio)
    return espacio


def ejecuta(ejecutor, codigo, nombre="<celda 1>"):
    trozos = []
    ok = ejecutor["ejecuta"](codigo, nombre, lambda flujo, texto: trozos.append((flujo, texto)))
    return ok, "".join(t for _, t in trozos), {f for f, _ in trozos}


def test_las_celdas_comparten_espacio_y_muestran_la_ultima_expresion(ejecutor):
    assert ejecuta(ejecutor, "x = 40\nprint('hola')")[:2] == (True, "hola\n")
    assert ejecuta(ejecutor, "x + 2", "<celda 2>")[:2] == (True, "42\n")


def test_un_error_se_ve_como_traceback_de_la_celda_sin_el_ejecutor(ejecutor):
    ok, texto, flujos = ejecuta(ejecutor, "a = 1\nb = a / 0", "<celda 3>")
    assert not ok and flujos == {"error"}
    assert 'File "<celda 3>", line 2' in texto and "b = a / 0" in texto and "ZeroDivisionError" in texto
    assert "_ejecuta" not in texto and "exec(" not in texto


def test_un_error_de_sintaxis_tambien_se_lee(ejecutor):
    ok, texto, _ = ejecuta(ejecutor, "def f(:\n    pass")
    assert not ok and "SyntaxError" in texto and "<celda 1>" in texto
    # Sin las líneas de dentro de Python con que el ejecutor compila la celda (ast.parse).
    assert "ast.py" not in texto and "in parse" not in texto and "Traceback" not in texto


def test_una_celda_que_usa_nombres_de_otra_depende_de_ella():
    assert nombres_de_fuera("x = 1\nprint(x)") == set()
    assert nombres_de_fuera("import json\ndef f(a):\n    return json.dumps(a)\nf(2)") == set()
    assert nombres_de_fuera("print(permiso(ll))") == {"permiso", "ll"}


def test_una_celda_depende_solo_de_las_que_definen_lo_que_usa():
    """La nota «Usa lo que definen las celdas …» nombra las que hacen falta, no todas las anteriores."""
    fuentes = ['exec(open("harness.py").read())', "a = paso(1)", "b = a + 1", "print('suelta')", "print(paso(a), b)"]
    assert dependencias(fuentes) == [[], [1], [1, 2], [], [1, 2, 3]]
    # Sin módulos cargados con exec, un nombre que no define nadie: todas las anteriores.
    assert dependencias(["x = 1", "print(y)"]) == [[], [1]]
    assert lista_de_celdas([1, 2, 3]) == "1 a 3" and lista_de_celdas([1, 2, 4]) == "1, 2 y 4"
    assert lista_de_celdas([1, 3]) == "1 y 3" and lista_de_celdas([2]) == "2"


def test_cache_larga_solo_para_lo_que_no_cambia_en_su_url():
    assert politica_de_cache("pyodide/v314.0.6/pyodide.asm.wasm") == INMUTABLE
    assert politica_de_cache("pyodide/v314.0.6/ipython-9.12.0-py3-none-any.whl") == INMUTABLE
    assert politica_de_cache("pyodide/v314.0.6/pyodide-lock.json") == "no-cache"
    assert politica_de_cache("lite/build/393.d0cf8b3e64df6b99.js") == INMUTABLE
    assert politica_de_cache("courses/llm-agents/harness.py") == "no-cache"
    assert politica_de_cache("recursos-0123456789ab/leccion.mjs") == INMUTABLE
    assert politica_de_cache("courses/llm-agents/permisos-y-confianza/index.html") == "no-cache"


def test_subruta_normalizada():
    assert normaliza_subruta("") == normaliza_subruta("/") == "/"
    assert normaliza_subruta("curso") == normaliza_subruta("/curso/") == "/curso/"


def _cabeceras(url):
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers


def test_el_servidor_da_tipos_y_cache_correctos_bajo_la_subruta(url_subruta, sitio):
    wasm = next(sitio.glob("pyodide/*/pyodide.asm.wasm")).relative_to(sitio)
    estado, cabeceras = _cabeceras(f"{url_subruta}{wasm}")
    assert estado == 200 and cabeceras["Content-Type"] == "application/wasm"
    assert cabeceras["Cache-Control"] == INMUTABLE
    estado, cabeceras = _cabeceras(f"{url_subruta}{wasm.with_name('pyodide.mjs')}")
    assert cabeceras["Content-Type"] == "text/javascript"
    estado, cabeceras = _cabeceras(f"{url_subruta}courses/llm-agents/harness.py")
    assert estado == 200 and cabeceras["Cache-Control"] == "no-cache"
    assert _cabeceras(url_subruta.replace("/curso/", "/harness.py"))[0] == 404  # fuera de la subruta


@pytest.mark.parametrize("slug", ["puerta-corregida", "identidad-delegada", "acumulador-de-hechos"])
def test_el_desafio_se_comprueba_aparte_de_las_celdas(ejecutor, slug, tmp_path, monkeypatch):
    """Lo que hace «Comprobar» en la página, en CPython: su carpeta y su espacio de nombres."""
    import json

    from cursos.desafio import Desafio
    from cursos.manifiesto import leer_curso
    from cursos.sitio.paginas import desafio_para_la_pagina

    monkeypatch.chdir(tmp_path)
    (tmp_path / "laboratorio_puerta.py").write_text("# el de la lección", encoding="utf-8")
    curso = leer_curso()
    datos = desafio_para_la_pagina(curso, next(lc for lc in curso.lecciones if lc.desafio == slug))
    assert datos["esqueleto"] == Desafio(slug).esqueleto() and "ocultas" not in json.dumps(list(datos))
    trozos = []
    peticion = dict(datos, codigo=Desafio(slug).lee("solucion.py"))
    pasan = json.loads(ejecutor["comprueba_desafio"](json.dumps(peticion), lambda f, t: trozos.append(t)))
    assert pasan and all(pasan.values()), "".join(trozos)
    assert (tmp_path / "laboratorio_puerta.py").read_text(encoding="utf-8") == "# el de la lección"
    assert "comprueba_todas" not in ejecutor["espacio"]  # el espacio de las celdas no se toca
    roto = dict(datos, codigo="def puerta(:\n")
    assert ejecutor["comprueba_desafio"](json.dumps(roto), lambda f, t: trozos.append(t)) == "null"
    assert "SyntaxError" in "".join(trozos)


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_la_pagina_baja_los_modulos_que_cargan_sus_celdas_y_ninguno_mas(leccion):
    celdas = [b.celda for b in bloques_de(leccion) if b.celda]
    cargados = {f for c in celdas for f in ficheros_cargados(c.fuente)}
    assert set(modulos_de_la_pagina(CURSO, celdas)) == cargados  # ningún módulo carga otro hoy


def test_un_modulo_que_carga_otro_tambien_se_baja(tmp_path):
    """La clausura: si una celda carga a.py y a.py carga harness.py, la página baja los dos."""
    from types import SimpleNamespace

    (tmp_path / "a.py").write_text('exec(open("harness.py").read())\n', encoding="utf-8")
    (tmp_path / "harness.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("y = 2\n", encoding="utf-8")
    rutas = {n: tmp_path / n for n in ("harness.py", "a.py", "b.py")}
    curso = SimpleNamespace(modulos=list(rutas), modulo=rutas.__getitem__)
    celda = SimpleNamespace(fuente='exec(open("a.py", encoding="utf-8").read())\nprint(x)')
    assert modulos_de_la_pagina(curso, [celda]) == ["harness.py", "a.py"]
