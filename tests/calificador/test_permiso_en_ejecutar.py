"""Entregas honestas (bien, a medias, mal), entradas rotas, recalificación y el libro de nbgrader.

Aquí se declara el lote del primer desafío: estas honestas y rotas y las trampas de test_trampas.py.
"""

import json

import nbformat
import pytest
from nbgrader.api import Gradebook

from cursos.profesor.calificar import califica
from cursos.profesor.libro import url_del_libro
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, entrega, formgrader, por_alumno
from tests.calificador.lotes import Lote
from tests.calificador.trampas import MARCA, cuadernos_tramposos, trampas

ORIGINAL = SOLUCION.split("    ### BEGIN SOLUTION")[0] + SOLUCION.split("    ### END SOLUTION\n")[1]


def con_region(region: str) -> str:
    """La solución con otra región entre BEGIN y END SOLUTION."""
    return SOLUCION.split("    ### BEGIN SOLUTION\n")[0] + region + SOLUCION.split("    ### END SOLUTION\n")[1]


# Fallar en abierto: sólo «denegar» y un no del usuario paran la llamada; una errata de la tabla o None
# la dejan correr. Es la solución de referencia de antes. Pierde «denegar» y, porque deja correr la
# escritura inyectada, la conversación del salmorejo y las variaciones (5 de 10).
FALLA_EN_ABIERTO = con_region(
    '    decision = permiso(ll)\n    if decision == "denegar":\n'
    '        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    if decision == "preguntar" and preguntar(ll) is not True:\n'
    '        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
)
# Lo que no reconoce se lo pregunta al usuario: con un sí, corre lo que nadie ha clasificado. También 5.
PREGUNTA_LO_DESCONOCIDO = con_region(
    '    decision = permiso(ll)\n    if decision == "denegar":\n'
    '        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    if decision != "permitir" and preguntar(ll) is not True:\n'
    '        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
)
# Bien en este punto, escrito de otra forma: la nota entera. Lo imprevisto lleva el mensaje de denegar,
# que el enunciado fija; con otro motivo («otro_motivo») las conversaciones se separan del guion.
SOLO_PERMITIR_PASA = con_region(
    "    decision = permiso(ll)\n"
    '    if decision == "permitir" or (decision == "preguntar" and preguntar(ll) is True):\n        pass\n'
    '    elif decision == "preguntar":\n        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
    '    elif decision == "denegar":\n        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    '    else:\n        return error(id, NO_EJECUTADA + "permiso denegado")\n'
)
OTRO_MOTIVO = SOLO_PERMITIR_PASA.replace(
    '    else:\n        return error(id, NO_EJECUTADA + "permiso denegado")\n',
    '    else:\n        return error(id, NO_EJECUTADA + "valor de permiso desconocido: %r" % (decision,))\n',
)
RUIDOSA = (
    "import sys, warnings\nwarnings.warn('cuidado')\nprint('hola', file=sys.stderr)\n"
    "class Ruido:\n    def __del__(self):\n        sys.stderr.write('adiós\\n')\n"
    "_r = Ruido()\n"
    + SOLUCION.replace(
        "    decision = permiso(ll)\n",
        '    decision = permiso(ll)\n    print("decido", decision, file=sys.stderr)\n'
        '    warnings.warn("una llamada")\n    Ruido()\n',
    )
)
HONESTAS = {  # alumno: (código, puntos esperados)
    "bien": (SOLUCION, 10),
    "bien_con_ruido": (RUIDOSA, 10),
    "bien_con_magias": (
        "%load_ext autoreload\n!ls\n"
        + SOLUCION.replace("    decision = permiso(ll)\n", "    decision = permiso(ll)\n    %time 1\n"),
        10,
    ),
    "bien_y_la_prueba_a_mano": (
        SOLUCION + "\nprint(ejecutar(llamada('t9', 'escribir', ruta='notas.txt', "
        "contenido='x'), dict(ENTORNO)))\nexec(open('harness.py').read())\n" + SOLUCION,
        10,
    ),
    "sin_permisos": (ORIGINAL, 2),  # lo ejecuta todo: sólo esquema y bucle
    "falla_en_abierto": (FALLA_EN_ABIERTO, 5),
    "pregunta_lo_desconocido": (PREGUNTA_LO_DESCONOCIDO, 5),
    "solo_permitir_pasa": (SOLO_PERMITIR_PASA, 10),
    "otro_motivo": (OTRO_MOTIVO, 5),
    "deniega_todo": (SOLUCION.replace("    decision = permiso(ll)\n", '    decision = "denegar"\n'), 0),
    "pregunta_todo": (SOLUCION.replace("    decision = permiso(ll)\n", '    decision = "preguntar"\n'), 0),
    "none_es_si": (SOLUCION.replace("preguntar(ll) is not True", "preguntar(ll) is False"), 5),
    # Un sí es cualquier cosa que un if da por verdadera (el texto "no" también): pierde «nadie», el
    # salmorejo y las variaciones, como tomar None por un sí (revisión del bloque 1, N1: sacaba 9).
    "texto_es_si": (SOLUCION.replace("preguntar(ll) is not True", "not preguntar(ll)"), 5),
    "pregunta_dos_veces": (
        SOLUCION.replace("and preguntar(ll) is not True", "and (preguntar(ll) and preguntar(ll)) is not True"),
        3,
    ),
    "permiso_antes_del_esquema": (
        SOLUCION.replace(
            "    problema = problema_de_llamada(ll)\n    if problema:\n"
            "        return error(id, NO_EJECUTADA + problema)\n",
            "",
        ).replace(
            "    ### END SOLUTION\n",
            "    ### END SOLUTION\n    problema = problema_de_llamada(ll)\n"
            "    if problema:\n        return error(id, NO_EJECUTADA + problema)\n",
        ),
        7,
    ),
    "salmorejo_fijo": (
        SOLUCION.replace(
            "    decision = permiso(ll)\n",
            '    decision = {"leer": "permitir", "escribir": "preguntar"}.get(ll["name"], "denegar")\n',
        ),
        0,
    ),
    # Redefinir el bucle en el proceso del alumno, por el camino que sea, no toca el que califica (corre en
    # el proceso de confianza): con un ejecutar correcto la nota es la entera, y con uno que sólo funciona
    # con el bucle falso, 0 (test_bucle.py). Antes se miraba una lista de construcciones y tenía huecos.
    "bucle_por_exec": (SOLUCION + '\nexec("bu" + "cle = lambda *a, **k: (\\"fin\\", \\"\\", [])")\n', 10),
    "bucle_por_main": (SOLUCION + "\nimport __main__\n__main__.bucle = __main__.bucle\n", 10),
    "bucle_por_globals": (SOLUCION + "\nglobals()['bu' + 'cle'] = None\n", 10),
    "bucle_por_builtins": (SOLUCION + "\nimport builtins\nbuiltins.exec('bu' + 'cle = None')\n", 10),
    "bucle_por_alias": (SOLUCION + "\nfrom builtins import exec as corre\ncorre('bu' + 'cle = None')\n", 10),
    "bucle_por_marco": (SOLUCION + "\nimport sys\ngetattr(sys._getframe(0), 'f_' + 'globals')['bu' + 'cle'] = 1\n", 10),
    "bucle_por_codigo": (
        SOLUCION + "\ndef _mio(m, i, e, t):\n    return ('fin', 'X', [])\nbucle.__code__ = _mio.__code__\n",
        10,
    ),
    "bucle_por_modulo": (
        SOLUCION + "\nimport sys\nsys.path.insert(0, '.')\n"
        "open('m.py', 'w').write('def bucle(*a):\\n    return 1\\n')\n"
        "from m import *\n",
        10,
    ),
    # Reescribir harness.py para volver a cargarlo: el fichero es de sólo lectura, no cambia nada.
    "bucle_por_fichero": (
        SOLUCION + "\nopen('harness.py', 'w').write('def bucle(*a):\\n    return 1\\n')\n"
        "exec(open('harness.py').read())\n",
        10,
    ),
    "lanza": ("def ejecutar(ll, entorno):\n    raise ValueError('todavía no')\n", 0),
    "falla_al_cargar": ("def ejecutar(ll, entorno):\n    return None\nprint(no_existe)\n", 0),
}


def decisiones_visibles() -> list[tuple[str, str]]:
    """(id, decisión) de cada llamada bien formada que las pruebas visibles le pasan a ejecutar, en orden:
    lo que apuntaría quien copia del cuaderno qué se ejecuta, qué se pregunta y qué se deniega."""
    from cursos.calificador.banco import espacio_de_pruebas

    g = espacio_de_pruebas(DESAFIO)
    g.pop("PARTES_OCULTAS", None)  # como en el cuaderno: sólo lo visible
    exec(SOLUCION, g)
    original, vistas = g["ejecutar"], []

    def apunta(ll, entorno):
        if g["problema_de_llamada"](ll) is None:
            decision = g["permiso"](ll)
            vistas.append((ll["id"], decision if decision in ("permitir", "preguntar") else "denegar"))
        return original(ll, entorno)

    g["ejecutar"] = apunta
    for nombre, (_, prueba) in g["PRUEBAS"].items():
        if nombre != "variaciones":
            prueba(g["BancoLocal"]())
    return vistas


def trampas_que_repiten() -> dict[str, str]:
    """Dos trampas que no miran permiso: repiten lo apuntado de las pruebas visibles, por el id
    de la llamada o por cuántas llamadas van. Con las partes ocultas de cada prueba, sacan 0."""
    decide = (
        '    if que == "preguntar" and preguntar(ll) is not True:\n'
        '        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")\n'
        '    if que == "denegar":\n        return error(id, NO_EJECUTADA + "permiso denegado")\n'
    )
    vistas = decisiones_visibles()
    por_id = con_region("    que = _APUNTADAS.get(id, 'denegar')\n" + decide)
    por_numero = con_region("    _VAN[0] += 1\n    que = _EN_ORDEN[(_VAN[0] - 1) % len(_EN_ORDEN)]\n" + decide)
    return {
        "r01_repite_por_id": "_APUNTADAS = %r\n" % dict(vistas) + por_id,
        "r02_repite_por_numero_de_llamada": "_EN_ORDEN = %r\n_VAN = [0]\n" % [d for _, d in vistas] + por_numero,
    }


def rotas(curso, cuaderno) -> dict:
    """Entradas rotas o raras, que no son trampas: {alumno: lo que entrega, o None si ya está escrita}."""
    (curso / "submitted" / "x_carpeta_vacia" / DESAFIO.slug).mkdir(parents=True)
    otro = curso / "submitted" / "x_otro_nombre" / DESAFIO.slug
    otro.mkdir(parents=True)
    nbformat.write(con_solucion(cuaderno, SOLUCION), otro / "mi-desafio.ipynb")
    dos = curso / "submitted" / "x_dos_cuadernos" / DESAFIO.slug
    dos.mkdir(parents=True)
    for nombre in (DESAFIO.cuaderno, "Untitled.ipynb"):
        nbformat.write(con_solucion(cuaderno, SOLUCION), dos / nombre)
    return {
        "x_json_roto": '{"cells": [',
        "x_no_utf8": json.dumps(con_solucion(cuaderno, SOLUCION + "# ñ\n"))
        .encode("latin-1")
        .replace(b"\\u00f1", "ñ".encode("latin-1")),
        "x_50mb": b'{"cells": [], "x": "' + b"a" * (50 << 20) + b'"}',
        "x_no_es_cuaderno": "[1, 2, 3]",
        "x_sintaxis": con_solucion(cuaderno, "def ejecutar(ll, entorno)\n    return 1\n"),
        "x_carpeta_vacia": None,
        "x_otro_nombre": None,
        "x_dos_cuadernos": None,
    }


# Un solo lote para el primer desafío: estas honestas y rotas, y las trampas de trampas.py (test_trampas.py).
# Plazo de 3 s: el de las honestas, más ruidosas que las de los otros desafíos.
def trampas_del_lote(curso, puerto: int) -> dict[str, str]:
    """Las de trampas.py y las dos que repiten lo visible."""
    return dict(trampas(curso, puerto), **trampas_que_repiten())


LOTE = Lote(
    DESAFIO,
    dict(HONESTAS, aa_honesta=(SOLUCION + "\n# " + MARCA + "\n", 10)),
    trampas_del_lote,
    minimo=27,
    cuadernos_tramposos=cuadernos_tramposos,
    otras=rotas,
    escucha=True,
    plazo=3.0,
    # No «VARIACIONES»: desafios/base.py, que va en la celda de pruebas visible, nombra la tabla.
    lee_ocultas=("t16_lee_las_pruebas_ocultas", ("GAZPACHO", "azafrán")),
)


@pytest.fixture
def filas(lote):
    return lote["filas"]


@pytest.fixture
def curso(lote):
    return lote["curso"]


def test_un_cuaderno_con_otro_nombre_se_califica(filas):
    """El navegador renombra la descarga («… (1).ipynb»): si es el único cuaderno, se califica."""
    assert filas["x_otro_nombre"]["puntos"] == 10, filas["x_otro_nombre"]["motivo"]


def test_fallar_en_abierto_cuesta_la_prueba_denegar(filas):
    """Lo que no es permitir ni preguntar se deniega: dejarlo correr (o preguntarlo) pierde «denegar», y
    también las conversaciones en que así corre la escritura inyectada."""
    for alumno in ("falla_en_abierto", "pregunta_lo_desconocido"):
        # El motivo empieza por la primera que no pasa (el salmorejo); el de «denegar» nombra la errata
        # (tests/calificador/test_revision_37_permiso_en_ejecutar.py).
        assert filas[alumno]["denegar"] == 0 and "salmorejo" in filas[alumno]["motivo"], filas[alumno]["motivo"]
        assert filas[alumno]["salmorejo"] == 0 and filas[alumno]["variaciones"] == 0, filas[alumno]["motivo"]
    assert filas["solo_permitir_pasa"]["denegar"] == 1


def test_denegar_preguntar_o_ejecutar_todo_no_llega_a_la_nota_entera(filas):
    for alumno in ("sin_permisos", "deniega_todo", "pregunta_todo", "salmorejo_fijo"):
        assert filas[alumno]["puntos"] < 10
    # Una tabla fija no acierta ni la receta: sus partes ocultas traen una errata y otros usuarios.
    assert filas["salmorejo_fijo"]["salmorejo"] == 0 and filas["salmorejo_fijo"]["variaciones"] == 0


def test_repetir_lo_visible_no_da_ningun_punto(filas):
    """Cada prueba visible tiene partes ocultas (decisión 015); lo apuntado del cuaderno no las pasa."""
    for alumno in trampas_que_repiten():
        assert filas[alumno]["puntos"] == 0, filas[alumno]["motivo"]


@pytest.mark.parametrize(
    "alumno, motivo",
    [
        ("x_stub", "falta la solución"),
        ("x_json_roto", "no es JSON válido"),
        ("x_no_utf8", "UTF-8"),
        ("x_50mb", "el máximo es 5 MB"),
        ("x_no_es_cuaderno", "no un cuaderno"),
        ("x_sintaxis", "no es Python válido"),
        ("x_carpeta_vacia", "no tiene ningún cuaderno"),
        ("x_dos_cuadernos", "2 cuadernos"),
    ],
)
def test_una_entrega_rota_vale_0_con_su_motivo(filas, curso, alumno, motivo):
    assert filas[alumno]["puntos"] == 0 and motivo in filas[alumno]["motivo"]
    calificado = curso / "autograded" / alumno / DESAFIO.slug / DESAFIO.cuaderno
    assert motivo in calificado.read_text(encoding="utf-8")  # también en la respuesta al alumno


def test_el_csv_tiene_las_columnas_pedidas(filas, curso):
    cabecera = (curso / "calificaciones" / f"{DESAFIO.slug}.csv").read_text(encoding="utf-8").splitlines()[0]
    assert cabecera.startswith("alumno,puntos,maximo,motivo," + ",".join(DESAFIO.puntos()) + ",nombre,")
    assert (curso / "calificaciones" / f"{DESAFIO.slug}.png").stat().st_size > 1000


def test_las_notas_estan_en_el_libro_de_nbgrader(filas, curso):
    with Gradebook(url_del_libro(curso)) as libro:
        for alumno, f in filas.items():
            assert libro.find_submission(DESAFIO.slug, alumno).score == f["puntos"]


def test_el_formgrader_de_nbgrader_ve_las_notas(filas, curso):
    """El formgrader (la interfaz web de nbgrader) lee el libro que deja el calificador."""
    with formgrader(curso) as pide:
        assert DESAFIO.slug in pide("/formgrader/manage_submissions/" + DESAFIO.slug)
        vistas = {e["student"]: e["score"] for e in pide("/formgrader/api/submissions/" + DESAFIO.slug)}
    assert vistas == {alumno: f["puntos"] for alumno, f in filas.items()}


def test_recalificar_no_deja_notas_viejas_ni_borra_las_manuales(release, tmp_path):
    """En un curso propio: el del lote es de todos y no se recalifica."""
    curso = curso_nuevo(release, tmp_path / "curso")
    _, cuaderno = release
    for alumno in ("bien", "bien_con_ruido", "none_es_si"):
        entrega(curso, alumno, con_solucion(cuaderno, HONESTAS[alumno][0]))
    califica(curso, DESAFIO, plazo=3.0, progreso=False)
    with Gradebook(url_del_libro(curso)) as libro:  # el profesor corrige a mano a otro alumno
        nota = libro.find_grade("prueba_salmorejo", DESAFIO.slug, DESAFIO.slug, "none_es_si")
        nota.manual_score = 1.5
        libro.db.commit()
    entrega(curso, "bien", con_solucion(cuaderno, "import os\ndef ejecutar(ll, entorno):\n    os._exit(0)\n"))
    nuevas = por_alumno(califica(curso, DESAFIO, plazo=3.0, progreso=False))
    assert nuevas["bien"]["puntos"] == 0
    with Gradebook(url_del_libro(curso)) as libro:
        assert libro.find_submission(DESAFIO.slug, "bien").score == 0
        assert libro.find_grade("prueba_salmorejo", DESAFIO.slug, DESAFIO.slug, "none_es_si").manual_score == 1.5
        assert libro.find_submission(DESAFIO.slug, "bien_con_ruido").score == 10


def test_sin_espacios_de_nombres_tambien_califica():
    """El camino degradado (sin root ni unshare, p. ej. macOS): límites, plazo y grupo de procesos."""
    import sys

    from cursos.calificador.aislamiento import LIMITES, Aislamiento
    from cursos.calificador.banco import corre_pruebas, espacio_de_pruebas
    from cursos.calificador.cuaderno import Entrega

    plano = Aislamiento([], sys._base_executable, {"limites": LIMITES}, ["espacios de nombres"])
    assert "PARCIAL" in plano.describe()
    bien = corre_pruebas(plano, DESAFIO, espacio_de_pruebas(DESAFIO), Entrega([SOLUCION], SOLUCION), plazo=3).motivos()
    assert all(m is None for m in bien.values()), bien
    sale = "import os\ndef ejecutar(ll, entorno):\n    os._exit(0)\n"
    mal = corre_pruebas(plano, DESAFIO, espacio_de_pruebas(DESAFIO), Entrega([sale], sale), plazo=3).motivos()
    assert all(m is not None for m in mal.values())


def test_nbgrader_genera_la_respuesta_al_alumno(filas, curso):
    """generate_feedback de nbgrader funciona con lo que deja el calificador en autograded/."""
    import subprocess
    import sys

    from cursos.profesor.fuente import con_herramientas_del_venv

    con_herramientas_del_venv()
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_feedback", DESAFIO.slug, "--log-level=ERROR"],
        cwd=curso,
        check=True,
    )
    html = (curso / "feedback" / "none_es_si" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "✘ nadie" in html and "7" in html
    html = (curso / "feedback" / "x_stub" / DESAFIO.slug / f"{DESAFIO.slug}.html").read_text(encoding="utf-8")
    assert "falta la solución" in html


def test_se_compara_con_lo_repartido_aunque_la_leccion_cambie_despues(release, tmp_path):
    """Las celdas bloqueadas se comparan con release/, el cuaderno que tienen los alumnos."""
    curso = curso_nuevo(release, tmp_path / "curso")
    ruta = curso / "release" / DESAFIO.slug / DESAFIO.cuaderno
    repartido = nbformat.read(ruta, as_version=4)
    repartido.cells[1].source += "\n# una versión anterior de la lección"
    nbformat.write(repartido, ruta)
    entrega(curso, "con_lo_repartido", con_solucion(repartido, SOLUCION))
    entrega(curso, "con_otro_cuaderno", con_solucion(release[1], SOLUCION))
    filas = por_alumno(califica(curso, DESAFIO, plazo=3.0, progreso=False))
    assert filas["con_lo_repartido"]["puntos"] == 10, filas["con_lo_repartido"]["motivo"]
    # La celda de partida de la entrega no es la repartida sino la de la lección de ahora: se califica
    # con la repartida, y la nota dice que es un cambio del curso, no del alumno (revisión del profesor, m6).
    motivo = filas["con_otro_cuaderno"]["motivo"]
    assert filas["con_otro_cuaderno"]["puntos"] == 10, motivo
    assert "«partida»" in motivo and "versión del curso más nueva que la del reparto" in motivo
    assert "editado" not in motivo


def test_lo_que_falla_al_cargar_sale_en_el_motivo(filas):
    assert "al cargar tu código, celda 1: NameError" in filas["falla_al_cargar"]["motivo"]
