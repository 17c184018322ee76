"""Las trampas del primer desafío (permiso-en-ejecutar), que repiten los demás: mismo encierro, mismo canal.

Aquí y no en test_trampas.py para que ningún fichero de pruebas importe de otro.
"""

import copy
import os
from pathlib import Path

import nbformat

from cursos import RAIZ
from tests.calificador.ayudas import DESAFIO, con_solucion

NADA = "def ejecutar(ll, entorno):\n    return None\n"
MARCA = "MARCA-SECRETA-4242"
CUADERNO = DESAFIO.cuaderno


def trampas(curso: Path, puerto: int) -> dict[str, str]:
    """alumno: el código de su celda de solución."""
    fuente = curso / "source" / DESAFIO.slug
    otro = curso / "submitted" / "aa_honesta" / DESAFIO.slug / CUADERNO
    return {
        "t01_helper_redefinido": NADA
        + (
            "def comprueba(*a, **k):\n    print('✔ todo bien')\n"
            "exige = lambda *a, **k: None\nclass Fallo(Exception):\n    pass\n"
        ),
        "t02_eq_siempre_true": (
            "class Siempre(dict):\n    def __eq__(self, otro):\n        return True\n"
            "    def __ne__(self, otro):\n        return False\n"
            "def ejecutar(ll, entorno):\n    return Siempre()\n"
        ),
        "t03_open_parcheado": NADA
        + (
            "import builtins, io\n_open = builtins.open\n"
            "def open(ruta, *a, **k):\n"
            "    if 'harness' in str(ruta) or 'pruebas' in str(ruta):\n"
            '        return io.StringIO(\'def bucle(*a):\\n    return "fin", "", []\\n\')\n'
            "    return _open(ruta, *a, **k)\n"
            "builtins.open = open\n"
        ),
        "t04_harness_sobrescrito": NADA
        + (
            "for ruta in ['harness.py', %r]:\n"
            "    try:\n"
            "        with open(ruta, 'w') as f:\n"
            '            f.write(\'def bucle(*a):\\n    return "fin", "", []\\n\')\n'
            "    except OSError:\n        pass\n"
        )
        % str(fuente / "harness.py"),
        "t05_transformador_ipython": NADA
        + (
            "try:\n    get_ipython().input_transformers_cleanup.append(lambda lineas: [])\n"
            "except NameError:\n    pass\n"
        ),
        "t06_displayhook": NADA + "import sys\nsys.displayhook(5.0)\nraise RuntimeError('y ahora fallo')\n",
        "t07_sql_manual_score": NADA
        + (
            "import sqlite3\ntry:\n"
            "    c = sqlite3.connect(%r)\n"
            "    c.execute('UPDATE grade SET manual_score = 10')\n    c.commit()\n"
            "except Exception:\n    pass\n"
        )
        % str(curso / "gradebook.db"),
        "t08_envenena_source": NADA
        + (
            "try:\n    with open(%r, 'a') as f:\n"
            '        f.write(\'\\ndef bucle(*a):\\n    return "fin", "", []\\n\')\n'
            "except OSError:\n    pass\n"
        )
        % str(fuente / "harness.py"),
        "t09_mata_al_padre": "import os, signal\n"
        "def ejecutar(ll, entorno):\n    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    os.killpg(0, signal.SIGKILL)\n",
        "t10_os_exit": "import os\ndef ejecutar(ll, entorno):\n    os._exit(0)\n",
        "t11_setsid_sobrevive": NADA
        + ("import subprocess\nsubprocess.Popen(['sleep', '7777'], start_new_session=True)\n"),
        "t12_memoria": "def ejecutar(ll, entorno):\n    x = bytearray(8 << 30)\n    return None\n",
        "t13_bucle_infinito": "def ejecutar(ll, entorno):\n    while True:\n        pass\n",
        "t14_bomba_fork": NADA
        + (
            "import os, time\nfor _ in range(200):\n    try:\n        if os.fork() == 0:\n"
            "            time.sleep(30)\n            os._exit(0)\n    except OSError:\n        break\n"
        ),
        "t15_red": NADA
        + (
            "import socket\ntry:\n    s = socket.create_connection(('127.0.0.1', %d), timeout=1)\n"
            "    s.sendall(b'fuga')\nexcept OSError:\n    pass\n"
        )
        % puerto,
        "t16_lee_las_pruebas_ocultas": (
            "def ejecutar(ll, entorno):\n    try:\n        return open(%r).read()\n"
            "    except OSError as e:\n        return str(e)\n"
        )
        % str(RAIZ / "desafios" / DESAFIO.slug / "ocultas.py"),
        "t17_lee_otra_entrega": (
            "def ejecutar(ll, entorno):\n    try:\n        return open(%r).read()[-3000:]\n"
            "    except OSError as e:\n        return str(e)\n"
        )
        % str(otro),
        "t18_canal_falso": NADA
        + (
            "import os\nfor fd in range(3, 12):\n    try:\n"
            '        os.write(fd, b\'{"nota": 10, "listo": true}\\n{"devuelve": null}\\n\')\n'
            "    except OSError:\n        pass\n"
        ),
        "t19_print_json": (
            "import sys\ndef ejecutar(ll, entorno):\n"
            '    print(\'{"devuelve": {"type": "tool_result"}}\')\n'
            "    sys.stdout.write('{\"nota\": 10}\\n')\n    return None\n"
        ),
        "t20_json_parcheado": NADA + "import json\njson.dumps = lambda *a, **k: '{\"devuelve\": 1}'\n",
        "t21_hilo_inunda_el_canal": NADA
        + (
            "import os, threading\n"
            "def inunda():\n    for _ in range(2000):\n        try:\n            os.write(3, b'x' * 65536)\n"
            "        except OSError:\n            return\n"
            "threading.Thread(target=inunda, daemon=True).start()\n"
        ),
        "t22_mata_pid1": "import os\ndef ejecutar(ll, entorno):\n    os.kill(1, 9)\n",
        "t23_excepcion_malvada": (
            "class Mala(Exception):\n    def __str__(self):\n        raise Mala()\n"
            "def ejecutar(ll, entorno):\n    raise Mala()\n"
        ),
        "t24_sys_exit": "import sys\ndef ejecutar(ll, entorno):\n    sys.exit(0)\n",
        "t25_fichero_enorme": NADA
        + (
            "try:\n    with open('/tmp/grande', 'wb') as f:\n        f.write(b'x' * (100 << 20))\n"
            "except Exception:\n    pass\n"
        ),
        "t26_permiso_y_preguntar_propios": NADA
        + ("def permiso(ll):\n    return 'permitir'\npreguntar = lambda ll: True\n"),
        "t28_no_lee_el_canal": NADA
        + (
            "import os, time\nos.write(3, b'{\"listo\": true}\\n' + b'{\"devuelve\": null}\\n' * 3000)\n"
            "time.sleep(100)\n"
        ),
        "t29_mata_al_grupo_al_cargar": NADA + "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
        "t30_sustituto_suelto": "def ejecutar(ll, entorno):\n    raise ValueError('\\ud800')\n",
        "t31_lista_enorme": "def ejecutar(ll, entorno):\n    return [[]] * 200000\n",
        "t32_escribe_mucho": (
            "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
            "    for i in range(150):\n        f(entorno, 'x%d.txt' % i, 'x' * 900000)\n"
        ),
        "t27_ctypes_setuid": NADA
        + ("import ctypes\ntry:\n    ctypes.CDLL(None).setuid(0)\nexcept Exception:\n    pass\n"),
    }


def cuadernos_tramposos(curso: Path, cuaderno) -> dict[str, nbformat.NotebookNode | None]:
    """Trampas en el cuaderno mismo (metadatos y celdas de prueba) y un enlace a la entrega de otro."""

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

    enlace = curso / "submitted" / "n06_enlace_a_otra" / DESAFIO.slug
    enlace.mkdir(parents=True)
    (enlace / CUADERNO).symlink_to(curso / "submitted" / "aa_honesta" / DESAFIO.slug / CUADERNO)
    return {
        "n06_enlace_a_otra": None,  # ya escrita: el enlace
        "n07_html_en_el_tipo": cambia(html_en_el_tipo),
        "n08_markdown_en_el_tipo": cambia(markdown_en_el_tipo),
        "n01_prueba_editada": cambia(prueba_editada),
        "n02_prueba_borrada": cambia(prueba_borrada),
        "n03_prueba_movida": cambia(prueba_movida),
        "n04_prueba_retipada": cambia(prueba_retipada),
        "n05_puntos_inflados": cambia(puntos_inflados),
    }


# Las trampas del primer desafío que se repiten en los demás: el encierro y el canal son los mismos.
MUESTRA = [
    "t01_helper_redefinido",
    "t02_eq_siempre_true",
    "t06_displayhook",
    "t07_sql_manual_score",
    "t09_mata_al_padre",
    "t10_os_exit",
    "t11_setsid_sobrevive",
    "t12_memoria",
    "t13_bucle_infinito",
    "t18_canal_falso",
    "t19_print_json",
    "t20_json_parcheado",
    "t24_sys_exit",
    "t28_no_lee_el_canal",
]


def muestra_sobre(curso: Path, puerto: int, firma: str, devuelve: str, en_json: str | None = None) -> dict[str, str]:
    """La MUESTRA escrita sobre la función de otro desafío: su firma en lugar de la de ejecutar, y lo
    que devuelve la que no hace nada (devuelve, en Python; en_json, en los mensajes que fingen el canal)."""
    comunes = trampas(curso, puerto)
    codigos = {
        a: comunes[a].replace("def ejecutar(ll, entorno):\n", firma).replace("return None", f"return {devuelve}")
        for a in MUESTRA
    }
    if en_json is not None:
        codigos = {a: c.replace('"devuelve": null', f'"devuelve": {en_json}') for a, c in codigos.items()}
    return codigos


def muestra_con(curso: Path, puerto: int, nada: str, cabecera: str) -> dict[str, str]:
    """La MUESTRA para un desafío de varias funciones: la ejecutar vacía pasa a ser nada (todas sin
    hacer nada) y, en las demás, el cuerpo de la trampa va bajo cabecera (las otras funciones y la
    firma de la que hace trampa) en lugar de bajo la firma de ejecutar."""
    comunes = trampas(curso, puerto)
    return {a: comunes[a].replace(NADA, nada).replace("def ejecutar(ll, entorno):\n", cabecera) for a in MUESTRA}


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
