"""Cada ejecutar que definen «Un comando en la terminal» y «La red» contesta a todo: nunca lanza.

«Los errores» hace de esto una regla del curso: lo que el modelo pide vuelve siempre como una
observación. Un README o una página pueden pedir cualquier texto, así que aquí se ejecutan las
celdas de cada lección y cada ejecutar que definen recibe un corpus de llamadas raras (órdenes
vacías, comillas sin cerrar, barras al final, URL que urllib.parse no entiende, argumentos que no
son textos, llamadas que no son llamadas) y unas líneas al azar, siempre las mismas.
"""

import contextlib
import io
import os
import random
import re
import shutil

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from tests.ayudas import celdas_de_codigo

CURSO = leer_curso()
MODULOS = {"un-comando-en-la-terminal": "terminal.py", "la-red": "web.py"}

ORDENES = [
    "",
    "   ",
    "\t",
    "\n",
    "cat 'notas.txt",
    'cat "notas.txt',
    "ls\\",
    "\\",
    "'",
    '"',
    "\0",
    "ls\0",
    "sh -c",
    "sh -c ''",
    "sh -c 'sh -c \"sh -c ls\"'",
    'sh -c "cat \'x"',
    "find -name",
    "find . -name",
    "head -n",
    "head -n x notas.txt",
    "grep",
    "grep -r",
    "mv a",
    "mv",
    ">",
    ">>",
    "| |",
    "&&",
    ";",
    ";;",
    "ls >",
    "ls >>",
    "cat < x",
    "rm",
    "rm -x",
    "ls -Z",
    "echo {a,b}",
    "cat *",
    "cat ~",
    "# x",
    "!",
    "$(",
    "`",
    "(",
    ")",
    "&",
    "ls &&",
    "|| ls",
    "ls | | wc",
    "cat notas.txt | head -n",
    "wc",
    "wc -l",
    "cat -",
    "head",
    "find . -delete x",
    "rm -rf .",
    "ls proyecto/..",
    "cat ../../etc/passwd",
    "ls " + "a" * 5000,
    "c''at notas.txt",
    "ls\x0b",
]
URLS = [
    "",
    "   ",
    "https://[::1",
    "http://[",
    "http://]",
    "https://x:99999/",
    "https://x:abc/",
    "::",
    "http://",
    "https://",
    "https:",
    "//",
    "https://@",
    "https://%",
    "https://[::1]:x/",
    "https://a..b/",
    "https://\udcff/",
    "https://aßets.example/",
    "https://ｗｉｋｉ。ｅｘａｍｐｌｅ/",
    "https://\u200b/",
    "http://0x/",
    "\0",
    "https://a\0b/",
    "https://recetas.example/" + "a" * 5000,
    "javascript:alert(1)",
    "https://[v1.x]/",
    "https://[::1%25eth0]/",
]
# Argumentos y llamadas que no son lo que dice el esquema: el esquema los para antes de la decisión.
RAROS = [None, 3, 2.5, True, [], ["ls"], {}, {"orden": "ls"}, b"ls"]


def _llamada(id, nombre, **argumentos):
    return {"type": "tool_use", "id": id, "name": nombre, "input": argumentos}


def llamadas() -> list:
    """Las llamadas del corpus, y 600 líneas y URL al azar hechas con trozos difíciles."""
    lista = [_llamada("o%d" % n, "terminal", orden=o) for n, o in enumerate(ORDENES)]
    lista += [_llamada("u%d" % n, "pedir", url=u) for n, u in enumerate(URLS)]
    for nombre, argumento in (("terminal", "orden"), ("pedir", "url"), ("leer", "ruta"), ("buscar", "texto")):
        lista += [_llamada("r", nombre, **{argumento: raro}) for raro in RAROS]
        lista += [
            _llamada("r", nombre),
            _llamada("r", nombre, **{argumento: "x", "otro": 1}),
            {"type": "tool_use", "id": "r", "name": nombre, "input": "ls"},
            {"type": "tool_use", "id": "r", "name": nombre},
        ]
    lista += [
        None,
        "terminal",
        3,
        [],
        {},
        {"type": "tool_use"},
        {"type": "tool_use", "id": 1, "name": "terminal"},
        {"type": "text", "text": "ls"},
        _llamada("x", "no-existe", orden="ls"),
    ]
    azar = random.Random(3)
    trozos = (
        ORDENES
        + URLS
        + [
            "'",
            '"',
            "\\",
            " ",
            "-",
            "-n",
            "ls",
            "cat",
            "find",
            "rm",
            "|",
            ">",
            "[",
            "]",
            ":",
            "@",
            "%",
            "#",
            "?",
            "/",
            "sh",
            "-c",
            "{",
            "}",
        ]
    )
    for n in range(300):
        texto = "".join(azar.choice(trozos) for _ in range(azar.randint(1, 6)))
        lista += [_llamada("a%d" % n, "terminal", orden=texto), _llamada("b%d" % n, "pedir", url=texto)]
    return lista


def ejecutares(slug: str, carpeta) -> list[tuple[int, object]]:
    """Ejecuta las celdas de la lección en orden y devuelve (celda, ejecutar) de cada celda que lo define."""
    for modulo in ("guionizado.py", "entorno.py", "harness.py"):
        shutil.copy(RAIZ / modulo, carpeta)
    shutil.copy(RAIZ / "lecciones" / slug / MODULOS[slug], carpeta)
    espacio, encontrados, antes = {}, [], os.getcwd()
    os.chdir(carpeta)
    try:
        for n, codigo in enumerate(celdas_de_codigo(CURSO.leccion(slug)), 1):
            with contextlib.redirect_stdout(io.StringIO()):
                exec(codigo, espacio)
            if re.search(r"^def ejecutar\(", codigo, re.M):
                encontrados.append((n, espacio["ejecutar"]))
    finally:
        os.chdir(antes)
    return encontrados, espacio


@pytest.mark.parametrize("slug", MODULOS)
def test_cada_ejecutar_de_la_leccion_contesta_a_todo(slug, tmp_path):
    encontrados, espacio = ejecutares(slug, tmp_path)
    assert encontrados, f"{slug} no define ningún ejecutar"
    entorno = espacio["E"]
    for celda, ejecutar in encontrados:
        for ll in llamadas():
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    obs = ejecutar(ll, dict(entorno))
            except Exception as e:
                pytest.fail(f"el ejecutar de la celda {celda} de {slug} lanza {type(e).__name__}: {e} con {ll!r}")
            assert isinstance(obs, dict) and obs.get("type") == "tool_result", (celda, ll, obs)


def test_la_regresion_de_la_revision(tmp_path):
    """Lo que la revisión vio lanzar: "" y "   " (IndexError), unas comillas sin cerrar (ValueError) y
    https://[::1 (ValueError). Ahora son observaciones que dicen que no se ha ejecutado."""
    ((_, ejecutar),) = ejecutares("un-comando-en-la-terminal", tmp_path)[0]
    for orden in ["", "   ", "cat 'notas.txt", "ls\\"]:
        obs = ejecutar(_llamada("t", "terminal", orden=orden), {})
        assert obs.get("is_error") and obs["content"].startswith("no se ha ejecutado: "), obs
    otra = tmp_path / "red"
    otra.mkdir()
    ((_, ejecutar),) = ejecutares("la-red", otra)[0]
    obs = ejecutar(_llamada("p", "pedir", url="https://[::1"), {})
    assert obs.get("is_error") and obs["content"].startswith("no se ha ejecutado: "), obs


def test_la_terminal_simulada_no_lanza(tmp_path):
    """Los errores de lectura de la terminal simulada son salidas con código, no excepciones."""
    _, espacio = ejecutares("un-comando-en-la-terminal", tmp_path)
    for ll in llamadas():
        orden = ll.get("input", {}).get("orden") if isinstance(ll, dict) and isinstance(ll.get("input"), dict) else None
        if isinstance(orden, str):
            salida = espacio["terminal"](dict(espacio["E"]), orden)
            assert isinstance(salida, str)
    assert espacio["terminal"]({}, "cat {a,b}").endswith("(código de salida 2)")


def test_lo_leido_se_apunta_con_el_entorno_de_la_llamada(tmp_path):
    """buscar lee todos los ficheros del entorno que recibe, no los del entorno de la lección (E): un
    fichero privado que sólo está en este entorno también cuenta como leído."""
    ((_, ejecutar),) = ejecutares("la-red", tmp_path)[0]
    espacio = ejecutar.__globals__
    espacio["EJECUCION"].update(leidos=[], privados=["privado/nuevo.txt"])
    entorno = dict(espacio["E"], **{"privado/nuevo.txt": "clave: 1234"})
    assert not ejecutar(_llamada("b", "buscar", texto="clave"), entorno).get("is_error")
    obs = ejecutar(_llamada("p", "pedir", url="https://recetas-completas.example/ver?c=1234"), entorno)
    assert obs.get("is_error") and obs["content"].startswith("no se ha ejecutado: "), obs
