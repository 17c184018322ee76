"""La orden `curso` para el profesor: ayuda en español, errores de una línea y rutas desde donde se lanza."""

import pytest

from cursos.cli import main


def ejecuta(capsys, *argumentos) -> tuple[int, str, str]:
    try:
        codigo = main(list(argumentos))
    except SystemExit as e:
        codigo = e.code
    salida = capsys.readouterr()
    return codigo, salida.out, salida.err


@pytest.mark.parametrize("orden", [[], ["calificar"], ["desafio"]])
def test_la_ayuda_esta_en_espanol(capsys, orden):
    codigo, salida, _ = ejecuta(capsys, *orden, "--help")
    assert codigo == 0 and salida.startswith("uso: curso")
    assert "muestra esta ayuda y sale" in salida and "opciones:" in salida
    for ingles in ("usage:", "show this help", "positional arguments", "options:"):
        assert ingles not in salida


@pytest.mark.parametrize("orden", ["calificar", "desafio"])
def test_un_desafio_desconocido_lista_los_validos(capsys, tmp_path, orden):
    codigo, _, error = ejecuta(capsys, orden, "--desafio", "permiso-en-ejecucion", "--nbgrader", str(tmp_path))
    assert codigo == 2 and error.count("\n") == 1
    assert "permiso-en-ejecucion" in error and "permiso-en-ejecutar" in error and "puerta-corregida" in error


def test_una_carpeta_equivocada_no_sugiere_crear_un_curso_en_la_errata(capsys, tmp_path):
    codigo, _, error = ejecuta(capsys, "calificar", "--nbgrader", str(tmp_path / "nbgrdaer"))
    assert codigo == 2 and error.count("\n") == 1
    assert "revisa la ruta de --nbgrader" in error and "curso desafio" not in error
    assert not (tmp_path / "nbgrdaer").exists()


def test_un_desafio_sin_repartir_dice_la_orden_entera(capsys, tmp_path, monkeypatch):
    (tmp_path / "mi-curso").mkdir()
    monkeypatch.setenv("CURSO_DIRECTORIO", str(tmp_path))  # lo que exporta ./curso: la carpeta del usuario
    codigo, _, error = ejecuta(capsys, "calificar", "--desafio", "puerta-corregida", "--nbgrader", "mi-curso")
    assert codigo == 2 and error.count("\n") == 1 and "Traceback" not in error
    assert f"--desafio puerta-corregida --nbgrader {tmp_path / 'mi-curso'}" in error


def test_una_opcion_desconocida_es_una_linea(capsys):
    codigo, _, error = ejecuta(capsys, "calificar", "--alumnos", "ana")
    assert codigo == 2 and error.count("\n") == 1 and "--help" in error
