"""Los laboratorios de «Comandos y red»: la terminal simulada (terminal.py) y la web simulada (web.py)."""

import pytest

from cursos import RAIZ
from tests.ayudas import carga_modulos


@pytest.fixture
def g():
    """Un espacio como el de las lecciones: los módulos compartidos y los dos laboratorios."""
    espacio = carga_modulos()
    for ruta in ("lecciones/un-comando-en-la-terminal/terminal.py", "lecciones/la-red/web.py"):
        exec((RAIZ / ruta).read_text(encoding="utf-8"), espacio)
    return espacio


def test_la_terminal_lee_la_linea_como_un_shell(g):
    e = dict(g["ENTORNO"])
    assert g["terminal"](e, "c''at notas.txt") == e["notas.txt"]
    assert g["terminal"](e, 'cat "a;b"').startswith("cat: a;b: no existe el fichero")  # entre comillas, una palabra
    assert g["terminal"](e, "cat agenda.txt | wc -l") == "2"
    assert g["terminal"](e, "cat no-existe.txt && rm notas.txt").endswith("(código de salida 1)")
    assert "notas.txt" in e, "tras un fallo, && no sigue"
    g["terminal"](e, "cat no-existe.txt || echo hola > saludo.txt")
    assert e["saludo.txt"] == "hola\n"


def test_lo_que_cambia_una_orden_solo_se_sabe_al_ejecutarla(g):
    e = dict(g["ENTORNO"])
    for orden, cambios in [
        ("ls; rm lista.txt", ["borra lista.txt"]),
        ('sh -c "rm notas.txt"', ["borra notas.txt"]),
        ("mv lista.txt compra.txt", ["crea compra.txt", "borra lista.txt"]),
        ("echo x >> agenda.txt", ["cambia agenda.txt"]),
        ("rm -r recetas", ["borra recetas/tortilla.txt"]),
        ("find . -name '*.txt'", []),
    ]:
        copia = dict(e)
        g["terminal"](copia, orden)
        assert sorted(g["cambios"](e, copia)) == sorted(cambios), orden


def test_corre_argv_no_pasa_por_un_shell(g):
    e = dict(g["ENTORNO"])
    assert g["corre_argv"](e, ["grep", "a;b", "notas.txt"]) == ("", 1)  # el ; es un carácter del patrón
    assert g["corre_argv"](e, ["borra", "x"]) == ("borra: no existe esa orden", 127)
    assert g["argv_de"]("c''at 'mis notas.txt'") == ["cat", "mis notas.txt"]


def test_la_web_apunta_cada_peticion_antes_de_buscarla(g):
    g["SALIDAS"].clear()
    assert g["pedir"]({}, "HTTPS://Recetas.Example/salmorejo").startswith("Salmorejo")
    with pytest.raises(LookupError, match="404"):
        g["pedir"]({}, "https://otra.example/?dato=secreto")
    assert g["SALIDAS"] == ["HTTPS://Recetas.Example/salmorejo", "https://otra.example/?dato=secreto"]
    assert g["partes_de"]("https://a@b.example:8080/") == ("https", "a", "b.example", 8080)
    assert g["partes_de"]("https://b.example:x/").startswith("ValueError")


def test_sin_comillas_deja_lo_que_bash_expandiria(g):
    """Lo que va entre comillas, o tras una barra, no lo expande bash; lo demás, sí."""
    assert g["sin_comillas"]("find . -name '*.txt' {-delete,}") == "find . -name  {-delete,}"
    assert g["sin_comillas"]('cat "a*b" \\~ x') == "cat   x"
    assert g["sin_comillas"]("'a\\'b") == "b"  # entre comillas simples, la barra no protege nada
    assert g["sin_comillas"]('"a\\"*"c') == "c"  # entre dobles, \" no cierra
    assert g["EXPANSIONES"] == set("{}*?[]~#")


def test_la_terminal_no_lee_distinto_que_bash(g):
    """Una línea que bash expandiría no se ejecuta: la terminal simulada no la lee a su manera."""
    e = dict(g["ENTORNO"])
    for orden in ["cat {notas,lista}.txt", "cat *.txt", "ls ~", "cat x#y", "cat notas.txt # -n", "ls [a]*"]:
        salida = g["terminal"](e, orden)
        assert "no expande" in salida and salida.endswith("(código de salida 2)"), orden
    assert e == g["ENTORNO"]
    assert g["terminal"](e, 'cat "*.txt"').startswith("cat: *.txt: no existe el fichero")
    assert g["terminal"](e, "") == "" and "sh:" in g["terminal"](e, "cat 'x")
