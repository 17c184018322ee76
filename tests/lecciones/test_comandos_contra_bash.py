"""Lo que permite la solución de «El permiso de una orden» es lo que ejecutaría bash, el de verdad.

Para cada orden de un corpus (llaves, comodines, ~, variables, comillas, barras, comentarios,
asignaciones… y líneas al azar hechas con esos trozos), con varias listas de lectura, la
solución de referencia decide. Cada orden que permite se pasa a /bin/bash en una carpeta con
ficheros que los comodines encontrarían, con un HOME propio y sin PATH: cada programa de la
lista es una función que escribe sus argumentos separados por NUL. El argv que bash entrega
tiene que ser exactamente el que se decidió, shlex.split(orden).
"""

import json
import random
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio

BASH = shutil.which("bash") or "/bin/bash"
pytestmark = pytest.mark.skipif(not shutil.which("bash"), reason="hace falta bash")

COMANDO = Desafio("permiso-de-comando")

# Trozos de línea que bash lee de una manera especial, o que lo parecen.
TROZOS = [
    "a",
    "notas.txt",
    "-n",
    "-l",
    "-r",
    "-name",
    "-delete",
    "-exec",
    "rm",
    ".",
    "/",
    "x",
    "proyecto",
    "*",
    "*.txt",
    "?",
    "a?",
    "[a]",
    "[!a]*",
    "[[",
    "]]",
    "]",
    "[",
    "{a,b}",
    "{-delete,}",
    "{1..3}",
    "{}",
    "{",
    "}",
    ",",
    "{a}",
    "x{,}",
    "~",
    "~/x",
    "~root",
    "a=~",
    "a=~/x",
    "x:~",
    "#",
    "#c",
    "x#y",
    "!",
    "!!",
    "$HOME",
    "${IFS}",
    "$'a'",
    "'*'",
    '"*"',
    "\\*",
    "\\{a,b\\}",
    "'{a,b}'",
    '"{a,b}"',
    '"~"',
    "'~'",
    "\\~",
    "\\#",
    "'#'",
    "\\",
    "\\ ",
    "''",
    '""',
    "a'b'c",
    '"a\\"b"',
    "'a\\'",
    '"a\\\\"',
    '"a\\b"',
    "\t",
    "=",
    "LANG=C",
    "X=1",
    "^",
    "%",
    "@",
    "+",
    "é",
    "ñ*",
    "\u00a0",
    "\x0b",
    "\\\n",
    "\n",
    ";",
    "&",
    "|",
    ">",
    "<",
    "(",
    ")",
    "`",
    "\r",
    "\0",
    "'",
    '"',
    "\x01",
    "\x7f",
    "\x1b",
    "\x0c",
    "\u3000",
    "\u2028",
    "\u0085",
    "\ufeff",
    "a\x01*",
    "'\x01'",
    "\\\x01",
]
MANUALES = [
    "find . -name '*.txt' {-delete,}",
    "find . {-exec,rm,{},+}",
    'find . -name "*.txt"',
    "cat *.txt",
    "cat ~/.ssh/id_rsa",
    "cat ~root/x",
    "cat notas.txt # -n",
    "cat notas.txt #",
    "ls [a]*",
    "ls a?",
    "cat {notas,lista}.txt",
    "cat notas{,.bak}.txt",
    "cat 'a{b,c}'",
    "cat \\*",
    'cat "~"',
    "cat a=~",
    'grep -r "~" proyecto',
    "cat ./-delete",
    "cat -- -delete",
    "cat \\#",
    "cat 'x'#y",
    "cat x#y",
    "cat $HOME",
    'cat "$HOME"',
    "cat '$HOME'",
    "cat !!",
    "cat '!!'",
    'cat "!!"',
    "cat a\\\nb",
    "c''at notas.txt",
    "ca\\t notas.txt",
    "'cat' notas.txt",
    "cat mis\\ notas.txt",
    'cat "a\\"b"',
    "cat 'a'\\''b'",
    'cat "a\\\\"',
    "cat ''",
    'cat ""',
    "cat\tnotas.txt",
    "cat\x0bnotas.txt",
    "cat\u00a0notas.txt",
    "ls -l -a",
    "head -n 1 notas.txt",
    "wc -l proyecto/README.md",
    "LANG=C ls",
    '"LANG=C" ls',
    "ls a=b",
    "ls =",
    "ls {}",
    "ls }",
    "ls {",
    "ls ]",
    "time ls",
    "coproc ls",
    "! ls",
    "[[ -f x ]]",
    "if ls",
    "ls\\",
    "ls '",
    "cat <(ls)",
    "cat >(ls)",
    "ls 2>x",
    "{ ls; }",
    "(ls)",
    "ls ^x",
    "ls %1",
    "ls @(a)",
    "ls +(a)",
    "cat \\\\*",
    "cat '\\'*",
    'cat "\\"*"',
    "cat <<< x",
    "cat <(ls)",
    "cat $((1+1))",
    "((1))",
    "cat $'\\x2a'",
    'cat $"x"',
    "head -n5 x",
    "grep --include=x y",
    "cat -- -n",
    "cat /etc/passwd",
    "cat ../../x",
    "find . -name x -fprint y",
    "find . -name x -ok rm",
    "find . -name '*.txt'-delete",
    'find . -name "*.txt"-delete',
    "cat x\x01*",
]
LISTAS = [None, {"tail": ["-n"], "sort": ["-r", "-n"], "ls": []}, {"cat": [], "wc": ["-l", "-c"], "find": ["-name"]}]


@pytest.fixture(scope="module")
def decide():
    g = espacio_de_pruebas(COMANDO)
    exec(COMANDO.lee("solucion.py"), g)
    lectura = json.loads(json.dumps(g["LECTURA"]))
    return lambda orden, otra=None: g["permiso_de_comando"](orden, otra or lectura), lectura


def corpus(lectura) -> list[str]:
    """Las órdenes manuales y unas líneas al azar (siempre las mismas) con los programas de la lista."""
    azar = random.Random(7)
    programas = sorted(lectura)
    lineas = list(MANUALES)
    for _ in range(1500):
        trozos = [azar.choice(TROZOS) for _ in range(azar.randint(1, 4))]
        juntos = "".join(t + azar.choice(["", " ", " ", "  "]) for t in trozos)
        lineas.append(azar.choice(programas) + azar.choice([" ", "\t", ""]) + juntos)
    return lineas


@pytest.fixture(scope="module")
def carpeta(tmp_path_factory):
    """Una carpeta donde los comodines encuentran ficheros, y un HOME que ~ expandiría."""
    raiz = tmp_path_factory.mktemp("bash")
    for nombre in ["notas.txt", "lista.txt", "a", "ab", "a.txt", "-delete", "-n", "b", "x", "{a,b}", "~"]:
        (raiz / nombre).write_text("x")
    (raiz / "proyecto").mkdir()
    (raiz / "proyecto" / "README.md").write_text("x")
    (raiz / "casa").mkdir()
    (raiz / "vacio").mkdir()
    return raiz


def argv_de_bash(orden: str, programas, carpeta, opciones: str = "") -> list[str] | str:
    """El argv que bash entrega al programa de la orden, o lo que bash ha dicho si no llega a ninguno."""
    if "\0" in orden:
        return "una línea con el carácter nulo no llega a bash: execve la corta"
    funciones = "".join("%s() { printf '%%s\\0' %s \"$@\"; }\n" % (p, shlex.quote(p)) for p in programas)
    hecho = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", opciones + funciones + orden],
        cwd=carpeta,
        capture_output=True,
        timeout=10,
        env={"PATH": str(carpeta / "vacio"), "HOME": str(carpeta / "casa"), "LC_ALL": "C.UTF-8"},
    )
    salida = hecho.stdout.decode("utf-8", "surrogateescape")
    if not salida.endswith("\0"):
        return "bash no ha llegado al programa: %r %r" % (salida, hecho.stderr.decode("utf-8", "replace"))
    return salida[:-1].split("\0")


@pytest.mark.parametrize("n", range(len(LISTAS)))
def test_lo_que_se_permite_es_el_argv_que_corre_bash(decide, carpeta, n):
    permiso, lectura_de_la_leccion = decide
    lectura = LISTAS[n] or lectura_de_la_leccion
    permitidas = [orden for orden in corpus(lectura) if permiso(orden, lectura) == "permitir"]
    assert len(permitidas) >= 100, "el corpus tiene que dar órdenes permitidas que probar: %d" % len(permitidas)
    distintas = []
    for orden in permitidas:
        decidido = shlex.split(orden)
        for opciones in ("", "shopt -s extglob nullglob dotglob globstar\n"):
            corrido = argv_de_bash(orden, sorted(lectura), carpeta, opciones)
            if corrido != decidido:
                distintas.append((orden, decidido, corrido))
    assert not distintas, "\n".join("%r: se decidió %r y bash corre %r" % d for d in distintas[:10])


def test_la_comparacion_ve_lo_que_bash_cambia(carpeta):
    """La prueba de arriba puede fallar: bash expande llaves, comodines, ~ y comentarios, y shlex no."""
    for orden in ["find . -name '*.txt' {-delete,}", "cat *.txt", "cat ~/x", "cat notas.txt # -n", "LANG=C cat"]:
        assert argv_de_bash(orden, ["cat", "find"], carpeta) != shlex.split(orden), orden
    assert argv_de_bash("find . -name '*.txt' {-delete,}", ["find"], carpeta) == [
        "find",
        ".",
        "-name",
        "*.txt",
        "-delete",
    ]


def test_las_expansiones_sin_comillas_se_deniegan(decide):
    """La regresión de la revisión: la solución permitía {-delete,}, que bash convierte en un borrado."""
    permiso, _ = decide
    for orden in [
        "find . -name '*.txt' {-delete,}",
        "find . {-exec,rm,{},+}",
        "cat *.txt",
        "cat ~/.ssh/id_rsa",
        "ls [a]*",
        "cat notas.txt # x",
        "cat !!",
        'cat "!x"',
        "cat notas.txt\0x",
    ]:
        assert permiso(orden) == "denegar", orden
    for orden in ["find . -name '*.txt'", "cat '{a,b}'", "cat \\*", 'grep -r "~" proyecto', "cat \\#"]:
        assert permiso(orden) == "permitir", orden


# --- La terminal simulada de la lección, contra el mismo bash ---------------------------------

TERMINAL = (RAIZ / "lecciones" / "un-comando-en-la-terminal" / "terminal.py").read_text(encoding="utf-8")
# Trozos de una sola orden: comillas pegadas a otras palabras, barras, opciones, asignaciones…
TROZOS_DE_PALABRA = [
    "a",
    "'",
    '"',
    "\\",
    " ",
    "\t",
    "'a'",
    '"a"',
    "\\'",
    '\\"',
    "''",
    '""',
    "!",
    "=",
    "-n",
    "é",
    "x y",
    "'a'\\''b'",
    '"a\\\\"',
    '"a\\b"',
    "\\ ",
    "2",
    "A=1",
    "time",
    "if",
    "!",
    "\x0b",
    "\u00a0",
]
MANUALES_DE_LA_TERMINAL = [
    'find . -name "*.txt"-delete',
    "echo 'a'\\''b'",
    'cat "a"-n',
    "cat a\\ b",
    'cat "a\\"b"',
    "cat ''",
    "cat x ''",
    "A=1 cat x",
    "time cat x",
    "! cat x",
    "cat x=1",
]


@pytest.fixture(scope="module")
def simulada():
    espacio = {"__name__": "__leccion__"}
    exec(TERMINAL, espacio)
    return espacio


def test_la_terminal_simulada_forma_las_palabras_como_bash(simulada, carpeta):
    """Cada línea de una orden que la terminal de la lección acepta da las palabras que bash daría al
    programa. La revisión encontró que "a"-n eran dos palabras para ella (y una para bash), así que
    find . -name "*.txt"-delete borraba en la simulación y no en bash."""
    azar = random.Random(3)
    lineas = list(MANUALES_DE_LA_TERMINAL)
    for _ in range(1500):
        lineas.append("cat " + "".join(azar.choice(TROZOS_DE_PALABRA) for _ in range(azar.randint(1, 5))))
    aceptadas, distintas = 0, []
    for linea in lineas:
        try:
            trozos = simulada["palabras"](linea)
        except simulada["ErrorDeOrden"]:
            continue  # la rechaza: no la lee a su manera
        aceptadas += 1
        leidas = [valor for _, valor in trozos]
        corrido = argv_de_bash(linea, ["cat", "find", "echo"], carpeta)
        if leidas != corrido:
            distintas.append((linea, leidas, corrido))
    assert aceptadas >= 500, aceptadas
    assert not distintas, "\n".join("%r: la terminal lee %r y bash %r" % d for d in distintas[:10])


def ficheros_tras_bash(linea: str, ficheros: dict, carpeta) -> dict:
    """Los ficheros que deja bash, el de verdad (con cat, rm y echo de verdad), tras una línea."""
    dentro = Path(tempfile.mkdtemp(dir=carpeta))
    for ruta, contenido in ficheros.items():
        (dentro / ruta).write_text(contenido)
    subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", linea],
        cwd=dentro,
        capture_output=True,
        timeout=10,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
    )
    return {p.name: p.read_text().rstrip("\n") for p in dentro.iterdir()}


@pytest.mark.parametrize(
    "linea",
    [
        "cat notas.txt > notas.txt",  # bash vacía el fichero antes de lanzar cat
        "echo hola >> lista.txt extra",  # lo que va detrás del fichero son más argumentos
        "echo hola > a > b",  # crea los dos, y escribe en el último
        "cat notas.txt > copia | cat",  # la redirección es de cat, no del final de la tubería
        "cat no-existe > f",  # el error no va al fichero
        "> vacio",
        "; rm notas.txt",  # un error de sintaxis: no se ejecuta nada
        "rm notas.txt | | cat",
        "rm notas.txt && && cat lista.txt",
        "rm notas.txt >",
        "rm notas.txt; ; cat lista.txt",
        "rm notas.txt;",
        "echo x > 'a;b'",
        "cat lista.txt && rm notas.txt || echo no",
    ],
)
def test_la_terminal_simulada_cambia_los_ficheros_como_bash(simulada, carpeta, linea):
    ficheros = {"notas.txt": "cena el martes", "lista.txt": "pan"}
    entorno = dict(ficheros)
    simulada["terminal"](entorno, linea)
    assert {r: c.rstrip("\n") for r, c in entorno.items()} == ficheros_tras_bash(linea, ficheros, carpeta)
