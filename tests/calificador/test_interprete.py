"""El calificador corre el código del alumno con el Python del navegador (Pyodide bajo Node).

Lo que la página acepta lo acepta el calificador: un f-string de PEP 701 o un `def f[T]`
(Python 3.12+) sacan la nota entera. Y lo que en un cuaderno no cuelga tampoco cuelga aquí:
`input()` en una celda de demostración lanza enseguida, `help`, `exit` y `quit` existen, y el
entorno de `ejecutar` es un dict. Pyodide no llega a Node: `import js` no encuentra `process`,
y Node corre con el usuario propio y el filtro del llavero del encierro.
"""

import json
import os
from pathlib import Path

import nbformat
import pytest

from cursos.calificador import banco
from cursos.calificador.aislamiento import PRIMER_USUARIO, USUARIOS, detecta, termina
from cursos.calificador.cuaderno import Entrega, lee_entrega
from cursos.desafio import Desafio
from tests.calificador.ayudas import califica_lote, con_solucion, curso_del_desafio, entrega

PERMISO = Desafio("permiso-en-ejecutar")
NUNCA_LANZA = Desafio("ejecutar-nunca-lanza")


@pytest.fixture(scope="module")
def aislamiento():
    aislamiento = detecta()
    # Un fallo y no un salto: el calificador, sin Pyodide, califica con el Python de la máquina, y
    # una prueba saltada escondería que la instantánea ya no se puede hacer.
    if not aislamiento.con_pyodide():
        pytest.fail("aquí no arranca Pyodide bajo Node: " + aislamiento.describe())
    return aislamiento


# Python 3.12+: en la página pasan (test_pyodide.py); con el Python de la máquina (3.11) ni compilan.
PEP_701 = 'ETIQUETAS = {"permitir": "sí"}\nassert f"{ETIQUETAS["permitir"]}" == "sí"\n'
PEP_695 = "def _igual[T](x: T) -> T:\n    return x\n"


def con_celdas(cuaderno, solucion: str, desafio: Desafio, *extra: str):
    """El cuaderno con la solución y unas celdas de código más, añadidas por el alumno."""
    nb = con_solucion(cuaderno, solucion, desafio)
    for codigo in extra:
        nb.cells.append(nbformat.v4.new_code_cell(codigo))
    return nb


@pytest.fixture(scope="module")
def calificadas(tmp_path_factory, aislamiento):
    solucion = PERMISO.lee("solucion.py")
    curso, cuaderno = curso_del_desafio(tmp_path_factory, PERMISO)
    entregas = {
        "pep_701": con_solucion(cuaderno, PEP_701 + solucion, PERMISO),
        "pep_695": con_solucion(
            cuaderno, PEP_695 + solucion.replace("decision = permiso(ll)", "decision = _igual(permiso(ll))"), PERMISO
        ),
        "input_en_demo": con_celdas(cuaderno, solucion, PERMISO, 'nombre = input("¿Cómo te llamas? ")\n'),
        # En la misma celda que la solución: si help fuera un NameError, el resto de la celda no correría.
        "help_exit_quit": con_solucion(
            cuaderno, "help(len)\nassert callable(exit) and callable(quit)\n" + solucion, PERMISO
        ),
        "exit_en_demo": con_celdas(cuaderno, solucion, PERMISO, "exit()\n"),
    }
    for alumno, nb in entregas.items():
        entrega(curso, alumno, nb, PERMISO)
    return califica_lote(curso, PERMISO)


@pytest.mark.parametrize("alumno", ["pep_701", "pep_695", "input_en_demo", "help_exit_quit", "exit_en_demo"])
def test_lo_que_corre_en_la_pagina_saca_la_nota_entera(calificadas, alumno):
    fila = calificadas[alumno]
    assert fila["puntos"] == fila["maximo"] == 10, fila["motivo"]
    assert "reloj" not in fila["motivo"]


def test_el_entorno_de_ejecutar_es_un_dict(tmp_path_factory, aislamiento):
    """En ejecutar-nunca-lanza: isinstance(entorno, dict) y json.dumps(entorno), como en la lección."""
    solucion = NUNCA_LANZA.lee("solucion.py").replace(
        '    """\n',
        '    """\n    import json\n    assert isinstance(entorno, dict)\n'
        "    assert json.loads(json.dumps(entorno)) == dict(entorno) == {**entorno}\n",
        1,
    )
    assert "isinstance(entorno, dict)" in solucion
    curso, cuaderno = curso_del_desafio(tmp_path_factory, NUNCA_LANZA)
    entrega(curso, "entorno_dict", con_solucion(cuaderno, solucion, NUNCA_LANZA), NUNCA_LANZA)
    fila = califica_lote(curso, NUNCA_LANZA)["entorno_dict"]
    assert fila["puntos"] == fila["maximo"], fila["motivo"]


class Contado:
    """El encierro de siempre, contando cuántos procesos del alumno arranca."""

    def __init__(self, aislamiento):
        self.aislamiento, self.veces = aislamiento, 0
        self.con_pyodide = aislamiento.con_pyodide

    def arranca(self, plazo):
        self.veces += 1
        return self.aislamiento.arranca(plazo)


@pytest.mark.parametrize("desafio", [PERMISO, NUNCA_LANZA], ids=lambda d: d.slug)
def test_un_bucle_al_cargar_se_cobra_una_vez(aislamiento, desafio):
    """El tiempo agotado al cargar las celdas se recuerda: ni las pruebas siguientes ni la pasada con las
    partes ocultas vuelven a arrancar el proceso."""
    contado = Contado(aislamiento)
    codigo = "while True:\n    pass\n" + desafio.lee("solucion.py")
    resultados = banco.corre_pruebas(
        contado, desafio, banco.espacio_de_pruebas(desafio), Entrega([codigo], codigo), plazo=1
    ).motivos()
    assert contado.veces == 1
    # CPU o, con la máquina muy cargada, reloj: los dos se recuerdan igual.
    assert all(m and m.startswith(("tiempo de CPU agotado", "tiempo de reloj agotado")) for m in resultados.values())


def test_import_js_no_llega_a_node(aislamiento):
    celda = (
        "import js, pyodide_js\n"
        "def ejecutar(ll, entorno):\n"
        "    return [str(getattr(js, n, None)) for n in ('process', 'require', 'Buffer', 'fetch')] + [\n"
        "        str(getattr(pyodide_js, 'mountNodeFS', None)),\n"
        "        str(getattr(pyodide_js.FS.filesystems, 'NODEFS', None))]\n"
    )
    proceso = aislamiento.arranca(5)
    try:
        for mensaje in ({"modulos": [], "celdas": [celda]}, {"llama": "ejecutar", "args": [{}, None]}):
            proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
            proceso.stdin.flush()
            respuesta = json.loads(proceso.stdout.readline())
    finally:
        termina(proceso)
    assert respuesta == {"devuelve": ["None"] * 6}


def test_la_instantanea_trae_hijo_py_y_nada_de_ningun_alumno(aislamiento):
    """La instantánea la hace el calificador antes de calificar, con hijo.py cargado y sin código de nadie.

    Una entrega que guarda una marca en la memoria de su intérprete no la deja en la instantánea
    (la caja la ve de sólo lectura), y su propio hijo.py (escrito como con %%writefile) es el suyo.
    """
    import hashlib

    from cursos.calificador.caja.protocolo import Interprete

    interprete = aislamiento.config["interprete"]
    ruta = Path(interprete[Interprete.CARPETA]) / interprete[Interprete.INSTANTANEA]
    antes = hashlib.sha256(ruta.read_bytes()).hexdigest()
    marca = "MARCA-DEL-ALUMNO-%d" % os.getpid()
    celda = (
        "get_ipython().run_cell_magic('writefile', 'hijo.py', 'DEL_ALUMNO = True\\n')\nimport hijo\n"
        "GUARDADA = %r * 1000\n"
        "def ejecutar(ll, entorno):\n    return [hijo.DEL_ALUMNO, len(GUARDADA)]\n" % marca
    )
    proceso = aislamiento.arranca(5)
    try:
        for mensaje in ({"modulos": [], "celdas": [celda]}, {"llama": "ejecutar", "args": [{}, None]}):
            proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
            proceso.stdin.flush()
            respuesta = json.loads(proceso.stdout.readline())
    finally:
        termina(proceso)
    assert respuesta == {"devuelve": [True, len(marca) * 1000]}
    datos = ruta.read_bytes()
    assert hashlib.sha256(datos).hexdigest() == antes and marca.encode() not in datos
    assert b"principal_pyodide" in datos  # hijo.py ya está cargado: el proceso no lo compila


def test_la_instantanea_se_hace_desde_cero_con_las_opciones_de_la_caja(aislamiento, tmp_path):
    """En una copia de la carpeta sin instantánea, con las mismas opciones de Node que la caja: una
    opción que rompa el arranque de Pyodide falla aquí, y no sólo en una máquina recién instalada.
    Al lado, la caché de código de pyodide.asm.mjs, que sólo se guarda si V8 la acepta con esas opciones."""
    import shutil

    from cursos.calificador.aislamiento import HIJO
    from cursos.calificador.caja.protocolo import Interprete
    from cursos.calificador.interprete import _instantanea

    interprete = aislamiento.config["interprete"]
    copia = tmp_path / "carpeta"
    shutil.copytree(interprete[Interprete.CARPETA], copia, ignore=shutil.ignore_patterns("instantanea-*"))
    nombre = _instantanea(copia, interprete[Interprete.NODE], HIJO)
    assert nombre == interprete[Interprete.INSTANTANEA] and (copia / nombre).stat().st_size > 10_000_000
    assert (copia / nombre).with_suffix(".v8").stat().st_size > 100_000


def _hijos(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.mark.skipif(not (hasattr(os, "geteuid") and os.geteuid() == 0), reason="el usuario propio necesita root")
def test_node_corre_con_usuario_propio_y_el_llavero_filtrado(aislamiento):
    """Visto desde fuera: el proceso de Node (el hijo de unshare) no es root y tiene el filtro seccomp."""
    proceso = aislamiento.arranca(5)
    try:
        proceso.stdin.write(json.dumps({"modulos": [], "celdas": []}).encode() + b"\n")
        proceso.stdin.flush()
        assert json.loads(proceso.stdout.readline())["listo"] is True
        (node,) = _hijos(proceso.pid)
        estado = dict(linea.split(":", 1) for linea in Path(f"/proc/{node}/status").read_text().splitlines())
        ejecutable = os.readlink(f"/proc/{node}/exe")
    finally:
        termina(proceso)
    assert os.path.basename(ejecutable).startswith("node")
    assert PRIMER_USUARIO <= int(estado["Uid"].split()[0]) < PRIMER_USUARIO + USUARIOS
    assert estado["Seccomp"].strip() == "2" and estado["NoNewPrivs"].strip() == "1"


def test_una_tupla_llega_como_la_lista_de_json(aislamiento):
    """Decisión (docs/decisiones/grader-lo-que-dice-el-enunciado.md): lo devuelto cruza como JSON, y una tupla
    es la lista que representa, como en el BancoLocal de las pruebas que copia en JSON (compacta)."""
    desafio = PERMISO
    espacio = banco.espacio_de_pruebas(desafio)
    codigo = desafio.lee("solucion.py") + "\ndef ejecutar(ll, entorno):\n    return (1, [2, (3,)])\n"
    b = banco.BancoRemoto(aislamiento, desafio, espacio, Entrega([codigo], codigo), 5)
    try:
        assert b.llama("ejecutar", [{}, None]) == [1, [2, [3]]]
    finally:
        b.cierra()


def test_una_celda_enorme_con_ordenes_no_cuesta_segundos_al_calificador(tmp_path):
    """El transformador de IPython relee la celda por cada orden: con tope, la celda se salta con una nota."""
    solucion = PERMISO.lee("solucion.py")
    enorme = ("x = 1\n" * 940 + "!echo hola\n") * 30  # ~170 KB y 30 órdenes
    cuaderno = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell(solucion, metadata={"nbgrader": {"grade_id": PERMISO.celda_solucion}}),
            nbformat.v4.new_code_cell(enorme),
        ]
    )
    ruta = tmp_path / PERMISO.cuaderno
    nbformat.write(cuaderno, ruta)
    leida = lee_entrega(PERMISO, ruta)
    assert leida.celdas[-1] == ""
    assert any("muy larga para tantas órdenes de IPython" in n for n in leida.notas)
