"""Las órdenes de ./curso, una por módulo de cursos/ordenes/: cada una con su ayuda, ninguna que
vuelva a decir un error del curso con otras palabras, y las opciones que pasan tal cual."""

import ast
import sys

import pytest

import cursos.ordenes.pruebas
from cursos import RAIZ, cli
from cursos.cli import main

ORDENES = RAIZ / "cursos" / "ordenes"
# Los módulos de cursos/ordenes/ que no son una orden: lo que comparten.
COMPARTIDOS = {"__init__", "argparse_es", "opciones"}
# Atrapado por su nombre, con razón: no es un error de uso, sale con 1 y explica lo que cambiaría.
ATRAPADOS_A_PROPOSITO = {"RepartoCongelado"}


def test_cada_modulo_de_ordenes_es_una_orden_del_parser():
    modulos = {r.stem for r in ORDENES.glob("*.py")} - COMPARTIDOS
    assert {m.__name__.rsplit(".", 1)[1] for m in cli.ORDENES} == modulos
    for orden in cli.ORDENES:
        assert orden.NOMBRE == orden.__name__.rsplit(".", 1)[1].replace("_", "-")
        assert callable(orden.configura) and callable(orden.ejecuta) and orden.AYUDA


@pytest.mark.parametrize("orden", [o.NOMBRE for o in cli.ORDENES])
def test_la_ayuda_de_cada_orden(capsys, orden):
    with pytest.raises(SystemExit) as salida:
        main([orden, "--help"])
    assert salida.value.code == 0
    assert capsys.readouterr().out.startswith(f"uso: curso {orden} [-h]")


def _errores_del_curso() -> set[str]:
    """Los nombres de las clases de cursos/ que derivan de ErrorDelCurso (directamente o no)."""
    bases = {}
    for fichero in (RAIZ / "cursos").rglob("*.py"):
        for nodo in ast.walk(ast.parse(fichero.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.ClassDef):
                bases[nodo.name] = {b.id for b in nodo.bases if isinstance(b, ast.Name)}
    errores, antes = {"ErrorDelCurso"}, set()
    while errores != antes:
        antes = set(errores)
        errores |= {clase for clase, suyas in bases.items() if suyas & errores}
    return errores


def atrapados(codigo: str, errores: set[str]) -> set[str]:
    """Los errores del curso que atrapa por su nombre algún except de este código."""
    nombres = set()
    for nodo in ast.walk(ast.parse(codigo)):
        if isinstance(nodo, ast.ExceptHandler) and nodo.type is not None:
            tipos = nodo.type.elts if isinstance(nodo.type, ast.Tuple) else [nodo.type]
            nombres |= {t.id if isinstance(t, ast.Name) else getattr(t, "attr", "") for t in tipos}
    return nombres & errores


def test_ninguna_orden_atrapa_un_error_del_curso_para_decirlo_de_otra_manera():
    errores = _errores_del_curso()
    assert {"LibroSinDesafio", "EntradaInvalida", "ErrorDeConfiguracion"} <= errores
    vistos = {
        str(r.relative_to(RAIZ)): atrapados(r.read_text(encoding="utf-8"), errores) - ATRAPADOS_A_PROPOSITO
        for r in [*ORDENES.glob("*.py"), RAIZ / "cursos" / "cli.py"]
    }
    # main los atrapa todos, una vez, por la base; ninguna orden atrapa uno por su nombre.
    assert {f: e for f, e in vistos.items() if e} == {"cursos/cli.py": {"ErrorDelCurso"}}


def test_la_busqueda_de_atrapados_ve_uno():
    codigo = "try:\n    pass\nexcept (OSError, LibroSinDesafio) as e:\n    raise ErrorDeOrden(str(e))\n"
    assert atrapados(codigo, {"LibroSinDesafio", "ErrorDeOrden"}) == {"LibroSinDesafio"}


@pytest.fixture
def llamadas(monkeypatch):
    """Lo que ./curso pruebas lanzaría (ruff y pytest), sin lanzarlo: todo acaba bien."""
    hechas = []
    monkeypatch.setattr(cursos.ordenes.pruebas.subprocess, "call", lambda orden, **_: hechas.append(orden) or 0)
    return hechas


def test_pruebas_pasa_ruff_antes_salvo_con_sin_ruff(llamadas):
    assert main(["pruebas", "-q", "-k", "algo"]) == 0
    assert [orden[2:4] for orden in llamadas] == [["ruff", "check"], ["ruff", "format"], ["pytest", "-q"]]
    assert llamadas[-1] == [sys.executable, "-m", "pytest", "-q", "-k", "algo"]
    llamadas.clear()
    assert main(["pruebas", "--sin-ruff", "-q", "-m", "navegador"]) == 0
    assert llamadas == [[sys.executable, "-m", "pytest", "-q", "-m", "navegador"]]


def test_ci_pasa_ruff_una_vez_y_las_capas_sin_ruff():
    pasos = [
        linea for linea in (RAIZ / ".ci" / "run").read_text(encoding="utf-8").splitlines() if linea.startswith("paso ")
    ]
    capas = [p for p in pasos if "./curso pruebas" in p]
    assert len(capas) == 3 and all("--sin-ruff" in p for p in capas), capas
    assert sum("ruff check" in p for p in pasos) == 1 and sum("ruff format --check" in p for p in pasos) == 1


@pytest.mark.parametrize("cluster", [None, "tcp://10.0.0.5:8786"])
def test_calificar_pasa_el_cluster(monkeypatch, tmp_path, cluster):
    monkeypatch.setenv("CURSO_PROFESOR", str(tmp_path / "profesor.toml"))  # sin profesor.toml
    pedido = {}
    monkeypatch.setattr("cursos.profesor.calificar.califica", lambda *a, **k: pedido.update(k))
    opciones = ["--cluster", cluster] if cluster else []
    assert main(["calificar", "--nbgrader", str(tmp_path), "--alumno", "ana", *opciones]) == 0
    assert pedido["cluster"] == cluster and pedido["alumno"] == "ana"
