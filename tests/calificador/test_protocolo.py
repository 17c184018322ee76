"""El protocolo entre el calificador y el proceso del alumno: un módulo, los dos lados, y viaja a la caja."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cursos.calificador.aislamiento import IMPORTA_PROTOCOLO, programa_del_hijo
from cursos.calificador.caja import protocolo
from cursos.calificador.caja.protocolo import Arranque, Clave, Marca, Pide

CARPETA = Path(protocolo.__file__).parent
NOMBRES = {v for clase in (Arranque, Clave, Pide, Marca) for k, v in vars(clase).items() if k.isupper()}


def test_en_la_caja_solo_hay_lo_que_corre_en_ella():
    """La carpeta caja/ es la frontera: lo que hay en ella es lo que viaja al proceso del alumno."""
    assert sorted(p.name for p in CARPETA.glob("*.py")) == ["__init__.py", "hijo.py", "protocolo.py"]


def test_el_protocolo_no_importa_nada():
    """En la caja sólo hay biblioteca estándar y no se ve el repositorio: protocolo.py va tal cual."""
    arbol = ast.parse((CARPETA / "protocolo.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(arbol) if isinstance(n, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize("lado", ["caja/hijo.py", "banco.py", "aislamiento.py"])
def test_los_dos_lados_lo_importan_y_no_repiten_sus_nombres(lado):
    fuente = (CARPETA.parent / lado).read_text(encoding="utf-8")
    assert "cursos.calificador.caja.protocolo import" in fuente
    arbol = ast.parse(fuente)
    # getattr(mesa, "entorno"): un atributo de la mesa de la prueba, no un mensaje
    atributos = {
        n.args[1] for n in ast.walk(arbol) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "getattr"
    }
    literales = {n.value for n in ast.walk(arbol) if isinstance(n, ast.Constant) and n not in atributos}
    assert not (literales & NOMBRES), f"{lado} escribe a mano nombres del protocolo"


def test_el_programa_del_hijo_lleva_el_protocolo_dentro():
    programa = programa_del_hijo()
    assert IMPORTA_PROTOCOLO not in programa and "class Clave:" in programa
    compile(programa, "hijo", "exec")


def test_el_hijo_habla_el_protocolo_sin_el_repositorio(tmp_path):
    """Sin aislamiento y con -I -S (como en la caja): arranca, llama y devuelve la excepción con su tipo."""
    proceso = subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            programa_del_hijo(),
            json.dumps({Arranque.CARPETA: str(tmp_path), Arranque.LIMITES: {}}),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd="/",
        env={},
    )
    celdas = ["", "def f(x):\n    if x < 0:\n        raise ValueError('negativo: ' + str(x))\n    return [x, f]"]
    ordenes = [
        {Clave.MODULOS: [], Clave.CELDAS: celdas, Clave.FUNCIONES: ["f"]},
        {Clave.LLAMA: "f", Clave.ARGS: [2], Clave.KWARGS: {}},
        {Clave.LLAMA: "f", Clave.ARGS: [-1], Clave.KWARGS: {}},
    ]
    salida, _ = proceso.communicate("".join(json.dumps(o) + "\n" for o in ordenes).encode(), timeout=60)
    listo, devuelve, lanza = [json.loads(linea) for linea in salida.splitlines()]
    version = "%d.%d.%d" % sys.version_info[:3]  # el intérprete que ha corrido las celdas, para sus notas
    assert listo == {
        Clave.LISTO: True,
        Clave.ERRORES: [],
        Clave.DEFINIDAS: ["f"],
        Clave.SINTAXIS: [],
        Clave.VERSION: version,
    }
    assert devuelve == {Clave.DEVUELVE: [2, {Marca.FUNCION: 0}]} and protocolo.es_funcion(devuelve[Clave.DEVUELVE][1])
    assert lanza == {Clave.EXCEPCION: ["ValueError", "negativo: -1"]}


def test_cada_motivo_es_una_excepcion_con_su_tipo():
    from cursos.calificador.resultado import QUE_PASO

    for clase in (protocolo.Caida, protocolo.SinCPU, protocolo.SinReloj, protocolo.Rechazo):
        assert issubclass(clase, protocolo.SinRespuesta) and not issubclass(clase, Exception)
        assert clase.tipo in QUE_PASO
