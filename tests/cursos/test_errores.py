"""Los errores de uso: una sola base, una sola salida en cli.main, el traceback sólo si se pide."""

import argparse
import ast
import gettext
import shutil

import pytest

import cursos.desafio
import cursos.ordenes.cuadernos
import cursos.ordenes.devolver
import cursos.ordenes.opciones
from cursos import RAIZ
from cursos.cli import main
from cursos.errores import CODIGO_DE_SALIDA, ErrorDelCurso

# Las bases con las que una clase de cursos/ sería un error que cli.main no sabría que es de uso.
BASES_DE_ERROR = {"Exception", "ValueError", "RuntimeError", "OSError", "TypeError", "KeyError", "LookupError"}
# Los que viven en un fichero que se carga solo, con exec, en un cuaderno o en Pyodide (sin cursos/ al
# lado): no pueden importar la base. La orden que los usa los recoge ella misma.
INDEPENDIENTES = {"cursos/modelo/clave.py", "cursos/modelo/modelo_real.py"}  # ErrorDelModelo, en clave.py


def ejecuta(capsys, *argumentos) -> tuple[int, str]:
    try:
        codigo = main(list(argumentos))
    except SystemExit as e:
        codigo = e.code
    return codigo, capsys.readouterr().err


def clases_de_error() -> list[tuple[str, str, list[str]]]:
    """(fichero, clase, bases) de cada clase de cursos/ que hereda de una excepción por su nombre."""
    encontradas = []
    for fichero in sorted((RAIZ / "cursos").rglob("*.py")):
        for nodo in ast.walk(ast.parse(fichero.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.ClassDef) and str(fichero.relative_to(RAIZ)) not in INDEPENDIENTES:
                bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in nodo.bases]
                if BASES_DE_ERROR & set(bases) or "ErrorDelCurso" in bases:
                    encontradas.append((str(fichero.relative_to(RAIZ)), nodo.name, bases))
    return encontradas


def test_todo_error_de_cursos_deriva_de_la_base():
    sueltas = [
        f"{f}: {clase}({', '.join(bases)})"
        for f, clase, bases in clases_de_error()
        if "ErrorDelCurso" not in bases and clase != "ErrorDelCurso"
    ]
    assert not sueltas, "deben derivar de cursos.errores.ErrorDelCurso: " + "; ".join(sueltas)
    # Y la búsqueda encuentra las de verdad (una lista vacía no probaría nada).
    assert {"ErrorDeManifiesto", "ErrorDeDesafio", "EntradaInvalida"} <= {c for _, c, _ in clases_de_error()}


@pytest.fixture
def desafios_copiados(tmp_path, monkeypatch):
    """Una copia de desafios/ en la que estropear un desafio.toml sin tocar el repositorio."""
    shutil.copytree(RAIZ / "desafios", tmp_path / "desafios")
    for modulo in (cursos.ordenes.opciones, cursos.desafio):
        monkeypatch.setattr(modulo, "RAIZ", tmp_path)
    return tmp_path / "desafios"


@pytest.mark.parametrize(
    ("cambia", "dice"),
    [
        (lambda t: t.replace("funciones =", "funcion ="), ["«funcion» no existe", "funciones"]),
        (
            lambda t: t.replace("funciones =", "funciones = 3\nnada =", 1).replace("nada =", "#", 1),
            ["«funciones» tiene que ser una lista"],
        ),
        (lambda t: t.replace("leccion =", "leccion ==", 1), ["no es TOML válido", "corrígelo"]),
    ],
)
def test_una_errata_en_desafio_toml_dice_que_corregir(capsys, desafios_copiados, cambia, dice):
    toml = desafios_copiados / "compacta" / "desafio.toml"
    toml.write_text(cambia(toml.read_text(encoding="utf-8")), encoding="utf-8")
    codigo, error = ejecuta(capsys, "desafio", "--desafio", "compacta", "--nbgrader", str(desafios_copiados))
    assert codigo == CODIGO_DE_SALIDA and error.count("\n") == 1, error
    assert error.startswith("curso desafio: desafios/compacta/desafio.toml")
    assert "inesperado" not in error and "Traceback" not in error
    for texto in dice:
        assert texto in error


def _falla_con(monkeypatch, excepcion):
    def orden(args):
        raise excepcion

    monkeypatch.setattr(cursos.ordenes.cuadernos, "ejecuta", orden)


def test_un_error_de_uso_sin_traceback_salvo_si_se_pide(capsys, monkeypatch):
    _falla_con(monkeypatch, ErrorDelCurso("falta algo: ponlo"))
    monkeypatch.delenv("CURSO_DEPURAR", raising=False)
    codigo, error = ejecuta(capsys, "cuadernos")
    assert (codigo, error) == (CODIGO_DE_SALIDA, "curso cuadernos: falta algo: ponlo\n")
    codigo, error = ejecuta(capsys, "cuadernos", "--depurar")
    assert codigo == CODIGO_DE_SALIDA and "Traceback" in error
    assert error.endswith("curso cuadernos: falta algo: ponlo\n")


@pytest.mark.parametrize("pide", [["--depurar"], []])
def test_un_fallo_del_curso_es_una_linea_y_el_traceback_se_pide(capsys, monkeypatch, pide):
    _falla_con(monkeypatch, RuntimeError("se ha roto algo"))
    if pide:
        monkeypatch.delenv("CURSO_DEPURAR", raising=False)
        codigo, error = ejecuta(capsys, *pide, "cuadernos")
        assert codigo == 1 and "Traceback" in error and "RuntimeError: se ha roto algo" in error
        monkeypatch.setenv("CURSO_DEPURAR", "1")
        codigo, error = ejecuta(capsys, "cuadernos")
        assert codigo == 1 and "Traceback" in error
    else:
        monkeypatch.delenv("CURSO_DEPURAR", raising=False)
        codigo, error = ejecuta(capsys, "cuadernos")
        assert codigo == 1 and error.count("\n") == 1 and "Traceback" not in error
        assert "error inesperado (RuntimeError: se ha roto algo)" in error and "--depurar" in error


def test_argparse_queda_como_estaba():
    """El curso traduce sus mensajes en su parser, sin cambiar argparse para nadie más."""
    assert argparse._ is gettext.gettext


@pytest.mark.parametrize(
    ("argumentos", "dice"),
    [
        (["nada"], "curso: orden: «nada» no es válido; elige entre "),
        (["calificar", "--plazo"], "curso calificar: --plazo: necesita un valor"),
        (["recoger"], "curso recoger: falta: entrada"),
        (["servir", "--puerto", "ochenta"], "curso servir: --puerto: «ochenta» no es un valor válido"),
        (["calificar", "--alumnos", "ana"], "curso: no se entiende: --alumnos ana"),
    ],
)
def test_los_errores_de_argparse_en_espanol(capsys, argumentos, dice):
    codigo, error = ejecuta(capsys, *argumentos)
    assert codigo == 2 and error.startswith(dice), error
    assert error.count("\n") == 1 and "--help" in error


def test_el_prefijo_lo_pone_la_clase_del_error(capsys, monkeypatch):
    """Ninguna orden vuelve a decir un error: lo que va delante del mensaje lo declara su clase."""
    from cursos.profesor.libro import LibroSinDesafio

    def orden(args):
        raise LibroSinDesafio("el libro de notas no tiene el desafío «x»: repártelo antes")

    monkeypatch.setattr(cursos.ordenes.devolver, "ejecuta", orden)
    codigo, error = ejecuta(capsys, "devolver")
    assert (codigo, error) == (
        CODIGO_DE_SALIDA,
        "curso devolver: no se puede devolver: el libro de notas no tiene el desafío «x»: repártelo antes\n",
    )
    assert ErrorDelCurso("sin prefijo").para_la_orden("devolver") == "sin prefijo"


def test_un_desafio_de_profesor_toml_que_no_existe_lo_dice(capsys, monkeypatch, tmp_path):
    """Antes se quedaba de valor por omisión de --desafio en todas las órdenes (y en su ayuda)."""
    ajustes = tmp_path / "profesor.toml"
    ajustes.write_text('desafio = "no-existe"\n', encoding="utf-8")
    monkeypatch.setenv("CURSO_PROFESOR", str(ajustes))
    codigo, error = ejecuta(capsys, "calificar", "--help")
    assert codigo == CODIGO_DE_SALIDA and error.count("\n") == 1, error
    assert error.startswith(f"curso: {ajustes}: «desafio» es «no-existe», que no es ningún desafío; pon uno de")
    assert "permiso-en-ejecutar" in error
