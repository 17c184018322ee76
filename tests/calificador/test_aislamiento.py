"""El encierro del proceso del alumno, visto desde dentro: usuario, red, ficheros y procesos.

Con el Python de la máquina (detecta(pyodide=False)): es la pared del sistema, la misma que rodea
a Node cuando el código corre en Pyodide (lo de Pyodide, en test_interprete.py).
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cursos import RAIZ
from cursos.calificador.aislamiento import PRIMER_USUARIO, USUARIOS, detecta, termina

# Un ejecutar que sólo cuenta lo que ve desde su proceso.
ESPIA = """
import os, socket
def ejecutar(ll, entorno):
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1)
        red = True
    except OSError:
        red = False
    return {"uid": os.getuid(), "repositorio": os.path.exists(%r), "red": red,
            "procesos": len([p for p in os.listdir("/proc") if p.isdigit()])}
""" % str(RAIZ / "pyproject.toml")  # un fichero: la carpeta tapada existe, pero vacía

PROGRAMA = """
import json, sys
sys.path.insert(0, %r)
from cursos.calificador.aislamiento import detecta, termina
aislamiento = detecta(pyodide=False)
proceso = aislamiento.arranca(5)
for mensaje in ({"modulos": [], "celdas": [%r]}, {"llama": "ejecutar", "args": [{}, None]}):
    proceso.stdin.write(json.dumps(mensaje).encode() + b"\\n")
    proceso.stdin.flush()
    respuesta = json.loads(proceso.stdout.readline())
termina(proceso)
print(json.dumps({"describe": aislamiento.describe(), "visto": respuesta["devuelve"]}))
""" % (str(RAIZ), ESPIA)

es_root = hasattr(os, "geteuid") and os.geteuid() == 0


def lo_que_ve(proceso) -> dict:
    for mensaje in ({"modulos": [], "celdas": [ESPIA]}, {"llama": "ejecutar", "args": [{}, None]}):
        proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
        proceso.stdin.flush()
        respuesta = json.loads(proceso.stdout.readline())
    return respuesta["devuelve"]


@pytest.mark.skipif(not es_root, reason="sin root no hay usuario propio para el alumno")
def test_como_root_el_alumno_es_un_usuario_propio_sin_red_ni_ficheros_ni_procesos_ajenos():
    aislamiento = detecta(pyodide=False)
    assert "completo" in aislamiento.describe()
    proceso = aislamiento.arranca(5)
    try:
        visto = lo_que_ve(proceso)
    finally:
        termina(proceso)
    assert PRIMER_USUARIO <= visto.pop("uid") < PRIMER_USUARIO + USUARIOS
    assert visto == {"repositorio": False, "red": False, "procesos": 1}


@pytest.mark.skipif(not es_root or not shutil.which("setpriv"), reason="hace falta root y setpriv")
def test_sin_root_se_encierra_igual_salvo_el_usuario():
    """Como nobody (un profesor sin root): espacio de usuario, sin red y sin ver el repositorio."""
    if not all(os.stat(p).st_mode & 0o005 for p in [RAIZ, *RAIZ.parents]) or not os.path.exists("/usr/bin/python3"):
        pytest.skip("el repositorio o /usr/bin/python3 no son legibles por nobody")
    hecho = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", PROGRAMA],
        capture_output=True,
        text=True,
        timeout=60,
        cwd="/",
    )
    if hecho.returncode != 0:
        pytest.skip("no se puede correr como nobody aquí: " + hecho.stderr[-200:])
    resultado = json.loads(hecho.stdout)
    if "PARCIAL, falta: usuario propio" not in resultado["describe"] or "espacios" in resultado["describe"]:
        pytest.skip("este núcleo no deja crear espacios de usuario sin root: " + resultado["describe"])
    assert resultado["visto"]["repositorio"] is False and resultado["visto"]["red"] is False
    assert resultado["visto"]["procesos"] == 1


@pytest.mark.skipif(not es_root, reason="sin root no hay montajes propios para el alumno")
def test_una_copia_del_curso_en_cualquier_carpeta_de_la_raiz_no_se_ve(tmp_path):
    """Se tapa todo lo que no hace falta para arrancar Python, no una lista de sitios conocidos."""
    copia = Path("/copia-del-curso-%d" % os.getpid())
    copia.mkdir()
    try:
        (copia / "ocultas.py").write_text("SECRETO = 1\n", encoding="utf-8")
        copia.chmod(0o755)
        (copia / "ocultas.py").chmod(0o644)
        proceso = detecta(pyodide=False).arranca(5)
        try:
            espia = ESPIA.replace(repr(str(RAIZ / "pyproject.toml")), repr(str(copia / "ocultas.py")))
            for mensaje in ({"modulos": [], "celdas": [espia]}, {"llama": "ejecutar", "args": [{}, None]}):
                proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
                proceso.stdin.flush()
                respuesta = json.loads(proceso.stdout.readline())
            visto = respuesta.get("devuelve", respuesta)
        finally:
            termina(proceso)
        assert visto["repositorio"] is False
    finally:
        shutil.rmtree(copia)


@pytest.mark.skipif(not es_root, reason="sin root el alumno es dueño de todo lo que ve")
def test_los_modulos_del_curso_no_se_pueden_cambiar_ni_borrar():
    """Si pudiera reescribir harness.py, la línea de carga del curso cargaría otro bucle."""
    intenta = (
        "import os\n"
        "def ejecutar(ll, entorno):\n"
        "    hecho = []\n"
        "    for intento in (lambda: open('harness.py', 'w'), lambda: os.remove('harness.py'),\n"
        "                    lambda: os.rename('harness.py', 'otro.py'), lambda: os.chmod('harness.py', 0o666)):\n"
        "        try:\n"
        "            intento()\n"
        "            hecho.append('sí')\n"
        "        except OSError:\n"
        "            hecho.append('no')\n"
        "    return hecho + [open('harness.py').read()]\n"
    )
    proceso = detecta(pyodide=False).arranca(5)
    try:
        for mensaje in (
            {"modulos": [["harness.py", "ORIGINAL = 1\n"]], "celdas": [intenta]},
            {"llama": "ejecutar", "args": [{}, None]},
        ):
            proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
            proceso.stdin.flush()
            respuesta = json.loads(proceso.stdout.readline())
    finally:
        termina(proceso)
    assert respuesta["devuelve"] == ["no", "no", "no", "no", "ORIGINAL = 1\n"]
