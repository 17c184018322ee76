"""Entregas tramposas, todas en un mismo lote: ninguna gana un punto que no merece y el lote termina.

Cubre las trampas que dieron puntos con `nbgrader autograde` en esta máquina
(DESIGN.md) y otras. Cada una va sobre un ejecutar que no hace nada útil, así
que cualquier punto sería regalado. Los caminos que tocan son los del curso de
usar y tirar, nunca los del repositorio.
"""

import copy
import os
import sqlite3
from pathlib import Path

import nbformat
import pytest

from cursos import RAIZ
from tests.calificador.conftest import (
    DESAFIO,
    SOLUCION,
    califica_lote,
    con_solucion,
    curso_nuevo,
    entrega,
    escucha_la_red,
)

NADA = "def ejecutar(ll, entorno):\n    return None\n"
MARCA = "MARCA-SECRETA-4242"
CUADERNO = DESAFIO.cuaderno


def trampas(curso: Path, puerto: int) -> dict[str, str]:
    """alumno: el código de su celda de solución."""
    fuente = curso / "source" / DESAFIO.slug
    otro = curso / "submitted" / "aa_honesta" / DESAFIO.slug / CUADERNO
    return {
        "t01_helper_redefinido": NADA + (
            "def comprueba(*a, **k):\n    print('✔ todo bien')\n"
            "exige = lambda *a, **k: None\nclass Fallo(Exception):\n    pass\n"),
        "t02_eq_siempre_true": (
            "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
            "    def __ne__(self, otro):\n        return False\n"
            "def ejecutar(ll, entorno):\n    return Siempre()\n"),
        "t03_open_parcheado": NADA + (
            "import builtins, io\n_open = builtins.open\n"
            "def open(ruta, *a, **k):\n"
            "    if 'harness' in str(ruta) or 'pruebas' in str(ruta):\n"
            "        return io.StringIO('def bucle(*a):\\n    return \"fin\", \"\", []\\n')\n"
            "    return _open(ruta, *a, **k)\n"
            "builtins.open = open\n"),
        "t04_harness_sobrescrito": NADA + (
            "for ruta in ['harness.py', %r]:\n"
            "    try:\n"
            "        with open(ruta, 'w') as f:\n"
            "            f.write('def bucle(*a):\\n    return \"fin\", \"\", []\\n')\n"
            "    except OSError:\n        pass\n") % str(fuente / "harness.py"),
        "t05_transformador_ipython": NADA + (
            "try:\n    get_ipython().input_transformers_cleanup.append(lambda lineas: [])\n"
            "except NameError:\n    pass\n"),
        "t06_displayhook": NADA + "import sys\nsys.displayhook(5.0)\nraise RuntimeError('y ahora fallo')\n",
        "t07_sql_manual_score": NADA + (
            "import sqlite3\ntry:\n"
            "    c = sqlite3.connect(%r)\n"
            "    c.execute('UPDATE grade SET manual_score = 10')\n    c.commit()\n"
            "except Exception:\n    pass\n") % str(curso / "gradebook.db"),
        "t08_envenena_source": NADA + (
            "try:\n    with open(%r, 'a') as f:\n"
            "        f.write('\\ndef bucle(*a):\\n    return \"fin\", \"\", []\\n')\n"
            "except OSError:\n    pass\n") % str(fuente / "harness.py"),
        "t09_mata_al_padre": "import os, signal\n"
                             "def ejecutar(ll, entorno):\n    os.kill(os.getppid(), signal.SIGKILL)\n"
                             "    os.killpg(0, signal.SIGKILL)\n",
        "t10_os_exit": "import os\ndef ejecutar(ll, entorno):\n    os._exit(0)\n",
        "t11_setsid_sobrevive": NADA + (
            "import subprocess\nsubprocess.Popen(['sleep', '7777'], start_new_session=True)\n"),
        "t12_memoria": "def ejecutar(ll, entorno):\n    x = bytearray(8 << 30)\n    return None\n",
        "t13_bucle_infinito": "def ejecutar(ll, entorno):\n    while True:\n        pass\n",
        "t14_bomba_fork": NADA + (
            "import os, time\nfor _ in range(200):\n    try:\n        if os.fork() == 0:\n"
            "            time.sleep(30)\n            os._exit(0)\n    except OSError:\n        break\n"),
        "t15_red": NADA + (
            "import socket\ntry:\n    s = socket.create_connection(('127.0.0.1', %d), timeout=1)\n"
            "    s.sendall(b'fuga')\nexcept OSError:\n    pass\n") % puerto,
        "t16_lee_las_pruebas_ocultas": (
            "def ejecutar(ll, entorno):\n    try:\n        return open(%r).read()\n"
            "    except OSError as e:\n        return str(e)\n") % str(RAIZ / "desafios" / DESAFIO.slug / "ocultas.py"),
        "t17_lee_otra_entrega": (
            "def ejecutar(ll, entorno):\n    try:\n        return open(%r).read()[-3000:]\n"
            "    except OSError as e:\n        return str(e)\n") % str(otro),
        "t18_canal_falso": NADA + (
            "import os\nfor fd in range(3, 12):\n    try:\n"
            "        os.write(fd, b'{\"nota\": 10, \"listo\": true}\\n{\"devuelve\": null}\\n')\n"
            "    except OSError:\n        pass\n"),
        "t19_print_json": (
            "import sys\ndef ejecutar(ll, entorno):\n"
            "    print('{\"devuelve\": {\"type\": \"tool_result\"}}')\n"
            "    sys.stdout.write('{\"nota\": 10}\\n')\n    return None\n"),
        "t20_json_parcheado": NADA + "import json\njson.dumps = lambda *a, **k: '{\"devuelve\": 1}'\n",
        "t21_hilo_inunda_el_canal": NADA + (
            "import os, threading\n"
            "def inunda():\n    for _ in range(2000):\n        try:\n            os.write(3, b'x' * 65536)\n"
            "        except OSError:\n            return\n"
            "threading.Thread(target=inunda, daemon=True).start()\n"),
        "t22_mata_pid1": "import os\ndef ejecutar(ll, entorno):\n    os.kill(1, 9)\n",
        "t23_excepcion_malvada": (
            "class Mala(Exception):\n    def __str__(self):\n        raise Mala()\n"
            "def ejecutar(ll, entorno):\n    raise Mala()\n"),
        "t24_sys_exit": "import sys\ndef ejecutar(ll, entorno):\n    sys.exit(0)\n",
        "t25_fichero_enorme": NADA + (
            "try:\n    with open('/tmp/grande', 'wb') as f:\n        f.write(b'x' * (100 << 20))\n"
            "except Exception:\n    pass\n"),
        "t26_permiso_y_preguntar_propios": NADA + (
            "def permiso(ll):\n    return 'permitir'\npreguntar = lambda ll: True\n"),
        "t28_no_lee_el_canal": NADA + (
            "import os, time\nos.write(3, b'{\"listo\": true}\\n' + b'{\"devuelve\": null}\\n' * 3000)\n"
            "time.sleep(100)\n"),
        "t29_mata_al_grupo_al_cargar": NADA + "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
        "t30_sustituto_suelto": "def ejecutar(ll, entorno):\n    raise ValueError('\\ud800')\n",
        "t31_lista_enorme": "def ejecutar(ll, entorno):\n    return [[]] * 200000\n",
        "t32_escribe_mucho": (
            "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
            "    for i in range(150):\n        f(entorno, 'x%d.txt' % i, 'x' * 900000)\n"),
        "t27_ctypes_setuid": NADA + (
            "import ctypes\ntry:\n    ctypes.CDLL(None).setuid(0)\nexcept Exception:\n    pass\n"),
    }


def cuadernos_tramposos(cuaderno) -> dict[str, nbformat.NotebookNode]:
    """Trampas en el cuaderno mismo: metadatos y celdas de prueba."""
    def cambia(funcion):
        nb = con_solucion(cuaderno, NADA)
        funcion(nb)
        return nb

    def celda(nb, gid):
        return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == gid)

    def prueba_editada(nb):
        celda(nb, "prueba_salmorejo").source = "print('✔ salmorejo')"

    def prueba_borrada(nb):
        nb.cells.remove(celda(nb, "prueba_denegar"))

    def prueba_movida(nb):
        c = celda(nb, "prueba_nadie")
        nb.cells.remove(c)
        nb.cells.insert(1, c)

    def prueba_retipada(nb):
        c = celda(nb, "prueba_bucle")
        c.cell_type = "markdown"
        c.pop("outputs", None)
        c.pop("execution_count", None)

    def puntos_inflados(nb):
        extra = copy.deepcopy(celda(nb, "prueba_bucle"))
        extra.metadata["nbgrader"].update(grade_id="prueba_extra", points=100)
        extra.source, extra.id = "pass", "extra"
        nb.cells.append(extra)
        celda(nb, "ejecutar").metadata["nbgrader"].update(grade=True, points=50)

    def repetida_con(gid):
        def cambia_(nb):  # dos celdas del alumno con el mismo grade_id, que el motivo cita
            for texto in ("1", "2"):
                nb.cells.append(nbformat.v4.new_code_cell(texto, metadata={"nbgrader": {"grade_id": gid}}))
        return cambia_

    html_en_el_tipo = repetida_con("<img src=x onerror=alert(1)>")
    markdown_en_el_tipo = repetida_con("![r](http://fuera.invalid/p.png) [enlace](http://fuera.invalid)")

    return {"n07_html_en_el_tipo": cambia(html_en_el_tipo), "n08_markdown_en_el_tipo": cambia(markdown_en_el_tipo),
            "n01_prueba_editada": cambia(prueba_editada), "n02_prueba_borrada": cambia(prueba_borrada),
            "n03_prueba_movida": cambia(prueba_movida), "n04_prueba_retipada": cambia(prueba_retipada),
            "n05_puntos_inflados": cambia(puntos_inflados)}


def procesos_con(texto: str) -> list[int]:
    encontrados = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if texto.encode() in f.read().replace(b"\0", b" "):
                    encontrados.append(int(pid))
        except OSError:
            pass
    return encontrados


@pytest.fixture(scope="module")
def lote(release, tmp_path_factory):
    curso = curso_nuevo(release, tmp_path_factory.mktemp("trampas") / "curso")
    _, cuaderno = release
    entrega(curso, "aa_honesta", con_solucion(cuaderno, SOLUCION + "\n# " + MARCA + "\n"))
    with escucha_la_red() as red:
        codigos = trampas(curso, red["puerto"])
        for alumno, codigo in codigos.items():
            entrega(curso, alumno, con_solucion(cuaderno, codigo))
        for alumno, nb in cuadernos_tramposos(cuaderno).items():
            entrega(curso, alumno, nb)
        enlace = curso / "submitted" / "n06_enlace_a_otra" / DESAFIO.slug
        enlace.mkdir(parents=True)
        (enlace / CUADERNO).symlink_to(curso / "submitted" / "aa_honesta" / DESAFIO.slug / CUADERNO)
        rara = os.path.join(os.fsencode(curso / "submitted"), b"m\xff", os.fsencode(DESAFIO.slug))
        os.makedirs(rara)
        nbformat.write(con_solucion(cuaderno, SOLUCION), os.path.join(os.fsdecode(rara), CUADERNO))
        entrega(curso, "zz_honesta_despues", con_solucion(cuaderno, SOLUCION))
        fuente = (curso / "source" / DESAFIO.slug / "harness.py").read_text(encoding="utf-8")
        filas = califica_lote(curso, DESAFIO)
    return {"curso": curso, "filas": filas, "alumnos": [*codigos, *cuadernos_tramposos(cuaderno),
                                                        "n06_enlace_a_otra"],
            "conexion": red["conexion"], "fuente": fuente}


def test_hay_al_menos_25_trampas(lote):
    assert len(lote["alumnos"]) >= 25


def test_el_lote_termina_con_todos(lote):
    assert set(lote["filas"]) == {*lote["alumnos"], "aa_honesta", "zz_honesta_despues"}


def test_las_honestas_siguen_teniendo_la_nota_entera(lote):
    """Ni el que envenena source/ ni el que mata procesos cambian la nota de los demás."""
    for alumno in ("aa_honesta", "zz_honesta_despues"):
        assert lote["filas"][alumno]["puntos"] == 10, lote["filas"][alumno]["motivo"]


def test_ninguna_trampa_gana_puntos(lote):
    regaladas = {a: lote["filas"][a] for a in lote["alumnos"] if lote["filas"][a]["puntos"] != 0}
    assert not regaladas, regaladas
    assert all(f["maximo"] == 10 for f in lote["filas"].values())


def test_cada_entrega_invalida_dice_por_que(lote):
    motivos = {a: lote["filas"][a]["motivo"] for a in lote["alumnos"] if a.startswith("n")}
    # Editar, borrar, mover o cambiar de tipo una celda bloqueada: se restaura y se dice (como nbgrader).
    for alumno, gid in (("n01_prueba_editada", "prueba_salmorejo"), ("n02_prueba_borrada", "prueba_denegar"),
                        ("n03_prueba_movida", "prueba_nadie"), ("n04_prueba_retipada", "prueba_bucle")):
        assert f"«{gid}»" in motivos[alumno] and "restaurado" in motivos[alumno], motivos[alumno]
    assert "repetida" in motivos["n07_html_en_el_tipo"]
    assert "enlace simbólico" in motivos["n06_enlace_a_otra"]


def test_nada_compartido_cambia(lote):
    """Ni el libro (manual_score), ni source/, ni la red, ni procesos que sobrevivan."""
    curso = lote["curso"]
    with sqlite3.connect(curso / "gradebook.db") as db:
        assert db.execute("SELECT COUNT(*) FROM grade WHERE manual_score IS NOT NULL").fetchone()[0] == 0
    assert (curso / "source" / DESAFIO.slug / "harness.py").read_text(encoding="utf-8") == lote["fuente"]
    assert lote["conexion"] is None, "el código de un alumno ha llegado a la red"
    assert procesos_con("sleep 7777") == [], "un proceso del alumno ha sobrevivido a la calificación"


def calificado(lote, alumno: str) -> str:
    return (lote["curso"] / "autograded" / alumno / DESAFIO.slug / CUADERNO).read_text(encoding="utf-8")


def test_no_se_lee_nada_de_fuera(lote):
    """Lo que el alumno intenta leer (pruebas ocultas, otras entregas) no existe para él."""
    for alumno in ("t16_lee_las_pruebas_ocultas", "t17_lee_otra_entrega"):
        texto = calificado(lote, alumno)
        assert "No such file or directory" in texto
        assert "VARIACIONES" not in texto and "azafrán" not in texto and MARCA not in texto


def test_la_respuesta_de_las_ocultas_no_las_desvela(lote):
    texto = calificado(lote, "t01_helper_redefinido")
    assert "variación oculta 1 de 4 no pasa" in texto
    assert "gazpacho" not in texto.lower() and "g1" not in texto


def test_lo_que_cita_la_entrega_no_entra_como_html(lote):
    """El motivo cita el cell_type de la entrega: en la respuesta de nbgrader se lee, no se ejecuta."""
    import subprocess
    import sys

    from cursos.calificador.fuente import con_herramientas_del_venv

    con_herramientas_del_venv()
    for alumno in ("n07_html_en_el_tipo", "n08_markdown_en_el_tipo"):
        subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", DESAFIO.slug, "--student",
                        alumno, "--log-level=ERROR"], cwd=lote["curso"], check=True)
    feedback = lote["curso"] / "feedback"
    texto = (feedback / "n07_html_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "la celda «&lt;img src=x onerror=alert(1)&gt;» está repetida" in texto
    assert "<img" not in texto.replace("&lt;img", ""), "el HTML del alumno ha entrado tal cual"
    texto = (feedback / "n08_markdown_en_el_tipo" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "fuera.invalid" in texto  # se lee…
    assert "<img" not in texto and 'href="http://fuera.invalid' not in texto  # …pero no es imagen ni enlace


def test_una_carpeta_con_nombre_no_utf8_no_para_el_lote(lote):
    assert lote["filas"]["zz_honesta_despues"]["puntos"] == 10
    assert not any(alumno.startswith("m") and not alumno.isascii() for alumno in lote["filas"])


def test_lo_que_manda_el_alumno_tiene_tope(lote):
    """Ni una lista enorme ni 150 ficheros de 900 KB: se cortan en el canal, con su motivo."""
    filas = lote["filas"]
    assert "más de 20000 elementos" in filas["t31_lista_enorme"]["motivo"]
    assert "más de 16 MB en total" in filas["t32_escribe_mucho"]["motivo"]
    calificado = lote["curso"] / "autograded" / "t32_escribe_mucho" / DESAFIO.slug / CUADERNO
    assert calificado.stat().st_size < 1 << 20
