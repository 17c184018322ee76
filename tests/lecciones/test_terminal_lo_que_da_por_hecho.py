"""«Un comando en la terminal» y su desafío: lo que la decisión da por hecho, y que lo dicen.

- La lección dice que la decisión da por hecho un bash no interactivo, porque `^viejo^nuevo` (la otra
  expansión de la historia) no se trata.
- La lección nombra las opciones que no empiezan por `-` (letras juntas, clave=valor, el `+` de un
  paginador o un editor) y las rutas especiales que hacen de una «lectura» algo sin tope; el enunciado dice
  qué es una opción para el desafío.
- Trocear con shlex.split cuesta el cuadrado de lo que mide una palabra; argv_de y la terminal no leen
  una línea de más de LIMITE_DE_ORDEN caracteres, y la decisión de la lección la deniega al momento.
"""

import shlex
import time

import pytest

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from tests.ayudas import carga_modulos

CURSO = leer_curso()
COMANDO = Desafio("permiso-de-comando")
ENORME = "cat " + "a" * 400_000  # shlex.split tarda segundos en trocearla (dos millones: casi dos minutos)


def prosa(texto: str) -> str:
    return " ".join(texto.split())


LECCION = prosa(CURSO.leccion("un-comando-en-la-terminal").fuente.read_text(encoding="utf-8"))
ENUNCIADO = prosa(COMANDO.lee("enunciado.md"))


@pytest.fixture
def g():
    espacio = carga_modulos()
    exec((RAIZ / "lecciones/un-comando-en-la-terminal/terminal.py").read_text(encoding="utf-8"), espacio)
    return espacio


def test_la_terminal_dice_que_la_historia_de_bash_no_entra():
    assert "`^viejo^nuevo`" in LECCION and "tiene que ser `bash -c` (sin historia ni alias)" in LECCION


# --- Las opciones que no empiezan por «-» y las rutas especiales ---------------------------------------


def test_la_leccion_nombra_las_opciones_que_no_empiezan_por_guion_y_las_rutas_especiales():
    for dicho in ("`ps aux`", "`tar xf copia.tar`", "`dd if=notas.txt of=copia.txt`", "`vi '+w copia.txt' notas.txt`"):
        assert dicho in LECCION, dicho
    assert "Otros tienen opciones que no empiezan por `-`, y que la lista no ve" in LECCION
    assert "`cat /dev/zero`" in LECCION and "`/proc/self/environ`" in LECCION
    assert "no tienen tope de tiempo ni de tamaño" in LECCION


def test_el_enunciado_dice_que_es_una_opcion_para_el_desafio_y_la_referencia_hace_eso():
    """Una opción es un argumento que empieza por -: las letras juntas, clave=valor y +cmd son datos para la
    decisión, y por eso esos programas no van en una lista de lectura (con uno en la lista, se permiten)."""
    assert "En este desafío, una opción es cualquier argumento que empieza por `-`" in ENUNCIADO
    for dicho in ("`tar xf`", "`ps aux`", "`dd of=copia.txt`", "`vi '+w copia.txt'`"):
        assert dicho in ENUNCIADO, dicho
    espacio = espacio_de_pruebas(COMANDO)
    exec(COMANDO.lee("solucion.py"), espacio)
    mal_puestos = {"tar": [], "dd": [], "vi": []}
    for orden in ("tar xf copia.tar", "dd if=notas.txt of=copia.txt", "vi '+w copia.txt' notas.txt"):
        assert espacio["permiso_de_comando"](orden, mal_puestos) == "permitir", orden
        assert espacio["permiso_de_comando"](orden, espacio["LECTURA"]) == "preguntar", orden


# --- Una línea de más de LIMITE_DE_ORDEN no se trocea --------------------------------------------------


def test_argv_de_no_trocea_una_linea_de_mas_de_limite_de_orden(g):
    limite = g["LIMITE_DE_ORDEN"]
    assert limite == 8192
    justa = "cat " + "a" * (limite - 4)
    assert g["argv_de"](justa) == shlex.split(justa)
    with pytest.raises(ValueError, match="8192"):
        g["argv_de"](justa + "a")
    inicio = time.perf_counter()
    with pytest.raises(ValueError):
        g["argv_de"](ENORME)
    assert time.perf_counter() - inicio < 0.1


def test_la_decision_de_la_leccion_deniega_una_palabra_enorme_al_momento():
    permiso_por_argv = espacio_de_pruebas(COMANDO)["permiso_por_argv"]  # la de la celda 3, que trocea con argv_de
    inicio = time.perf_counter()
    assert permiso_por_argv(ENORME) == "denegar"
    # Antes de argv_de mira SINTAXIS y sin_comillas, que recorren la línea una vez; shlex.split tardaba segundos.
    assert time.perf_counter() - inicio < 1.5
    assert permiso_por_argv("cat " + "a" * 8000) == "permitir"


def test_la_terminal_no_ejecuta_una_linea_enorme_y_contesta_al_momento(g):
    entorno = dict(g["ENTORNO"])
    inicio = time.perf_counter()
    salida = g["terminal"](entorno, ENORME)
    assert time.perf_counter() - inicio < 0.1
    assert salida == "sh: esta terminal no lee líneas de más de 8192 caracteres\n(código de salida 2)"
    assert entorno == g["ENTORNO"]


def test_la_leccion_y_el_enunciado_dicen_el_tope_y_por_que():
    assert "Por eso `argv_de` no trocea una línea de más de `LIMITE_DE_ORDEN` caracteres (8192" in LECCION
    assert "`shlex.split` tarda el cuadrado de lo que mide una palabra" in LECCION
    assert "Si `orden` es un texto de más de `LIMITE_DE_ORDEN` caracteres (8192, de `terminal.py`), se deniega" in (
        ENUNCIADO
    )
