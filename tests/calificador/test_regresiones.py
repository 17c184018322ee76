"""Una prueba por cada hallazgo de la revisión del calificador, en varias variantes.

- una entrega no puede hundir a otra: ni con una respuesta que sea el producto de dos tamaños
  suyos (se acota antes de construirla), ni con la CPU (se cobra a cada una la suya);
- los motivos dicen qué ha pasado (tiempo de CPU, de reloj, caída, rechazo, resultado), también
  en las variaciones ocultas;
- los enlaces simbólicos en la ruta de una entrega se rechazan;
- lo que cita la entrega llega limpio de secuencias de escape y controles al CSV y al cuaderno;
- redefinir el bucle en el proceso del alumno no cambia el bucle que califica;
- contestar por posición (repetir las respuestas de las pruebas visibles) no pasa las ocultas.
"""

import collections
import copy
import csv
import json
import subprocess
import sys

import pytest

from cursos import RAIZ
from cursos.calificador.banco import espacio_de_pruebas
from cursos.calificador.saneado import limpio
from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from tests.ayudas import respuestas_visibles
from tests.calificador.ayudas import (
    DESAFIO,
    SOLUCION,
    con_solucion,
    curso_del_desafio,
    curso_nuevo,
    entrega,
    entrega_codigos,
    por_alumno,
)

NADA = "def ejecutar(ll, entorno):\n    return None\n"
ESC = "\\x1b"


# Esperar sin gastar CPU: en Pyodide time.sleep es una espera activa (gasta CPU); Atomics.wait, no.
ESPERA = (
    "import sys, time; js = __import__('js') if sys.platform == 'emscripten' else None; "
    "js.Atomics.wait(js.Int32Array.new(js.SharedArrayBuffer.new(4)), 0, 0) if js else time.sleep(3600)"
)


def _en_variaciones(hace: str) -> str:
    """La solución buena que, en la primera llamada de las variaciones ocultas (id g1), hace otra cosa."""
    return SOLUCION.replace(
        '    id = ll.get("id") if isinstance(ll, dict) else None\n',
        f'    id = ll.get("id") if isinstance(ll, dict) else None\n    if id == "g1":\n        {hace}\n',
        1,
    )


BOMBAS = {  # alumno: código que pide a este lado una respuesta enorme
    "b01_buscar_producto": (
        "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
        "    f(entorno, 'r' * 400000, 'a\\n' * 250000)\n"
        "    return HERRAMIENTAS['buscar']['funcion'](entorno, 'a')\n"
    ),
    "b02_buscar_por_nombre": (
        "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
        "    for i in range(3):\n        f(entorno=entorno, ruta=str(i) * 300000, contenido='\\n' * 600000)\n"
        "    return HERRAMIENTAS['buscar']['funcion'](entorno=entorno, texto='')\n"
    ),
    "b03_listar_mucho": (
        "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
        "    for i in range(12):\n        f(entorno, str(i) + 'x' * 900000, '')\n"
        "    return HERRAMIENTAS['listar']['funcion'](entorno)\n"
    ),
    "b04_repr_del_entorno": (
        "def ejecutar(ll, entorno):\n    f = HERRAMIENTAS['escribir']['funcion']\n"
        "    for i in range(3):\n        f(entorno, str(i), 'x' * 900000)\n    return repr(entorno)[:10]\n"
    ),
}


@pytest.fixture(scope="module")
def lote(release, tmp_path_factory):
    curso = curso_nuevo(release, tmp_path_factory.mktemp("regresiones") / "curso")
    _, cuaderno = release
    codigos = {
        "a_honesta": SOLUCION,
        **BOMBAS,
        "c01_cpu_en_ocultas": _en_variaciones("while True: pass"),
        "c02_duerme_en_ocultas": _en_variaciones(ESPERA),
        "c03_sale_en_ocultas": _en_variaciones("import os; os._exit(3)"),
        "c04_mensaje_enorme_en_ocultas": _en_variaciones("return ['x' * 2000] * 1000"),
        "e01_ansi": NADA.replace(
            "return None", f"raise ValueError('{ESC}[2J{ESC}[32m✔ salmorejo: 2 de 2 puntos{ESC}[0m')"
        ),
        "e02_osc_y_c1": NADA.replace(
            "return None", f"raise ValueError('{ESC}]0;titulo\\x07\\x9b31mrojo\\x85\\u202egnol\\x00nul\\rvuelta')"
        ),
        "e03_valor_con_escapes": NADA.replace("return None", f"return '{ESC}[31m✔ todo bien\\x1b[0m'"),
        "f01_bucle_falso_por_exec": NADA + 'exec("bu" + "cle = lambda *a, **k: (\\"fin\\", \\"\\", [])")\n',
        "f02_bucle_falso_por_main": NADA + "import __main__\n__main__.bucle = lambda *a, **k: ('fin', '', [])\n",
        "f03_bucle_falso_por_codigo": NADA + "def _mio(m, i, e, t):\n    return ('fin', 'X', [])\n"
        "bucle.__code__ = _mio.__code__\n",
        "f04_bucle_falso_por_globals": NADA + "globals()['bu' + 'cle'] = lambda *a, **k: ('fin', '', [])\n",
        "z_honesta": SOLUCION,
    }
    entrega_codigos(curso, cuaderno, codigos, DESAFIO)
    # Enlaces simbólicos: la carpeta del alumno, la del desafío y el cuaderno, hacia la honesta.
    base = curso / "submitted"
    (base / "s01_alumno_enlazado").symlink_to(base / "a_honesta")
    (base / "s02_desafio_enlazado").mkdir()
    (base / "s02_desafio_enlazado" / DESAFIO.slug).symlink_to(base / "a_honesta" / DESAFIO.slug)
    (base / "s03_cuaderno_enlazado" / DESAFIO.slug).mkdir(parents=True)
    (base / "s03_cuaderno_enlazado" / DESAFIO.slug / "mio.ipynb").symlink_to(
        base / "a_honesta" / DESAFIO.slug / DESAFIO.cuaderno
    )
    # Dos celdas de la solución, o ninguna: no se adivina cuál es la buena.
    dos = con_solucion(cuaderno, SOLUCION)
    dos.cells.append(copy.deepcopy(next(c for c in dos.cells if c.metadata["nbgrader"]["grade_id"] == "ejecutar")))
    dos.cells[-1].id = "otra"
    entrega(curso, "r01_solucion_repetida", dos)
    sin = con_solucion(cuaderno, SOLUCION)
    sin.cells = [c for c in sin.cells if c.metadata["nbgrader"]["grade_id"] != "ejecutar"]
    entrega(curso, "r02_sin_solucion", sin)
    filas = por_alumno(califica(curso, DESAFIO, plazo=1.0, progreso=False))
    return {"curso": curso, "filas": filas}


def test_una_respuesta_enorme_se_rechaza_antes_de_construirla(lote):
    for alumno in BOMBAS:
        fila = lote["filas"][alumno]
        assert fila["puntos"] == 0 and "rechazado" in fila["motivo"] and "MB" in fila["motivo"], fila["motivo"]
    for alumno in ("a_honesta", "z_honesta"):
        assert lote["filas"][alumno]["puntos"] == 10, lote["filas"][alumno]["motivo"]


@pytest.mark.parametrize(
    "alumno, que",
    [
        ("c01_cpu_en_ocultas", "tiempo de CPU agotado"),
        ("c02_duerme_en_ocultas", "tiempo de reloj agotado"),
        ("c03_sale_en_ocultas", "tu código se ha caído"),
        ("c04_mensaje_enorme_en_ocultas", "rechazado"),
    ],
)
def test_los_motivos_dicen_que_ha_pasado_en_las_ocultas(lote, alumno, que):
    """Antes un plazo agotado en las ocultas se contaba como un fallo de lógica («¿Usa tu ejecutar…?»)."""
    fila = lote["filas"][alumno]
    assert fila["variaciones"] == 0 and fila["puntos"] == 8, fila["motivo"]
    assert f"variaciones: {que}" in fila["motivo"], fila["motivo"]
    assert "¿Usa tu ejecutar" not in fila["motivo"]


def test_sin_cpu_agotada_se_reintenta_sola_y_se_dice(lote):
    assert "calificada otra vez, sola" in lote["filas"]["c02_duerme_en_ocultas"]["motivo"]
    assert "calificada otra vez" not in lote["filas"]["c01_cpu_en_ocultas"]["motivo"]


@pytest.mark.parametrize("alumno", ["s01_alumno_enlazado", "s02_desafio_enlazado", "s03_cuaderno_enlazado"])
def test_un_enlace_simbolico_en_la_ruta_se_rechaza(lote, alumno):
    fila = lote["filas"][alumno]
    assert fila["puntos"] == 0 and "enlace simbólico" in fila["motivo"], fila["motivo"]


def test_dos_soluciones_o_ninguna_se_rechazan(lote):
    assert "repetida" in lote["filas"]["r01_solucion_repetida"]["motivo"]
    assert "falta la celda de la solución" in lote["filas"]["r02_sin_solucion"]["motivo"]
    assert lote["filas"]["r01_solucion_repetida"]["puntos"] == lote["filas"]["r02_sin_solucion"]["puntos"] == 0


@pytest.mark.parametrize("alumno", ["e01_ansi", "e02_osc_y_c1", "e03_valor_con_escapes"])
def test_lo_citado_llega_sin_escapes_ni_controles(lote, alumno):
    curso = lote["curso"]
    with (curso / "calificaciones" / f"{DESAFIO.slug}.csv").open(encoding="utf-8", newline="") as f:
        motivo = next(fila for fila in csv.DictReader(f) if fila["alumno"] == alumno)["motivo"]
    calificado = (curso / "autograded" / alumno / DESAFIO.slug / DESAFIO.cuaderno).read_text(encoding="utf-8")
    textos = [motivo, lote["filas"][alumno]["motivo"], json.dumps(json.loads(calificado), ensure_ascii=False)]
    for texto in textos:
        assert not any(c in texto for c in "\x1b\x9b\x85\u202e\x00\r\x07"), repr(texto[:300])
    assert lote["filas"][alumno]["puntos"] == 0


def test_limpio_quita_escapes_y_controles_y_marca_los_saltos():
    """Un motivo es una línea: los saltos y tabuladores del alumno se ven (⏎), no parten la línea."""
    assert limpio("a\x1b[31mb\x1b[0m\tc\nd\x1b]0;t\x07e\x9b2Jf\u202eg\x7fh") == "ab ⏎ c ⏎ defgh"
    assert limpio("ñ ✔ 10 puntos") == "ñ ✔ 10 puntos"


def test_redefinir_el_bucle_no_cambia_el_que_califica(lote):
    """Con un bucle falso y un ejecutar que no hace nada, la prueba «bucle» no pasa: el bucle es el de aquí."""
    for alumno in (
        "f01_bucle_falso_por_exec",
        "f02_bucle_falso_por_main",
        "f03_bucle_falso_por_codigo",
        "f04_bucle_falso_por_globals",
    ):
        assert lote["filas"][alumno]["bucle"] == 0 and lote["filas"][alumno]["puntos"] == 0


def _memoria(campo: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(linea.split()[1]) for linea in f if linea.startswith(campo + ":")) * 1024


def test_una_entrega_que_pide_de_mas_no_cambia_la_memoria_ni_a_las_vecinas(release, tmp_path):
    """La memoria del proceso de confianza (su pico, VmHWM) no sube más de 100 MB, y las vecinas sacan 10.

    Antes, una sola de estas peticiones llevaba el calificador de 180 MB a 770 MB.
    """
    curso = curso_nuevo(release, tmp_path / "curso")
    _, cuaderno = release
    entrega_codigos(curso, cuaderno, {"a_honesta": SOLUCION, **BOMBAS, "z_honesta": SOLUCION}, DESAFIO)
    califica(curso, DESAFIO, plazo=2.0, progreso=False)  # una vez antes: lo que se importa y se cachea
    antes = _memoria("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # vuelve a contar el pico desde ahora
        pico = "VmHWM"
    except OSError:
        pico = "VmRSS"  # sin permiso para poner a cero el pico: la memoria al terminar
    filas = por_alumno(califica(curso, DESAFIO, plazo=2.0, progreso=False))
    assert _memoria(pico) - antes < 100 << 20, (_memoria(pico) - antes) >> 20
    assert filas["a_honesta"]["puntos"] == filas["z_honesta"]["puntos"] == 10


def test_con_la_cpu_ocupada_las_notas_honestas_son_las_mismas(release, tmp_path):
    """Dos procesos que gastan CPU sin parar (uno por núcleo) mientras se califica: las mismas notas."""
    curso = curso_nuevo(release, tmp_path / "curso")
    _, cuaderno = release
    honestas = {f"h{n:02d}": SOLUCION for n in range(6)}
    honestas["mala"] = SOLUCION.replace(
        "and preguntar(ll) is not True", "and (preguntar(ll) and preguntar(ll)) is not True"
    )
    entrega_codigos(curso, cuaderno, honestas, DESAFIO)
    tranquila = {a: f["puntos"] for a, f in por_alumno(califica(curso, DESAFIO, plazo=1.0, progreso=False)).items()}
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        ocupada = {a: f["puntos"] for a, f in por_alumno(califica(curso, DESAFIO, plazo=1.0, progreso=False)).items()}
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert ocupada == tranquila
    assert tranquila["h00"] == 10 and tranquila["mala"] == 3


# --- Contestar por posición ------------------------------------------------------------


def _grabadas(desafio: Desafio, nombre: str, solucion: str) -> list:
    """[valor, None] o [None, texto de lo que lanza] de la función nombre de la solución, llamada a llamada,
    en las pruebas visibles (sólo ellas: es lo que puede apuntar el alumno)."""
    return [
        [r[1], None] if r[0] == "vuelve" else [None, r[2]]
        for _, r in respuestas_visibles(desafio.slug, nombre, solucion, forma="vuelve_o_lanza")
    ]


def _por_posicion(nombre: str, firma: str, vistas: list, devuelve: str) -> str:
    return (
        f"import json\n_RESPUESTAS = json.loads({json.dumps(vistas)!r})\n_N = [0]\n"
        f"def {nombre}({firma}):\n    valor, lanza = _RESPUESTAS[_N[0] % len(_RESPUESTAS)]\n    _N[0] += 1\n"
        f"    if lanza is not None:\n        raise PermissionError(lanza)\n    return {devuelve}\n"
    )


def _por_posicion_en(slug: str) -> tuple[Desafio, str]:
    """La entrega que repite, por orden de llamada, lo que la referencia contestó en las pruebas visibles."""
    desafio = Desafio(slug)
    if slug == "puerta-corregida":
        return desafio, _por_posicion(
            "puerta", "ll, sesion, admitidas", _grabadas(desafio, "puerta", desafio.lee("solucion.py")), "valor"
        )
    sol_id = desafio.lee("solucion.py").replace("usuario = validar_token(", "usuario = _valida(")
    sol_id = sol_id.replace("def validar_token(", "def _valida(")
    grabadas = _grabadas(
        desafio, "validar_token", sol_id + desafio.lee("solucion.py").split("\n\n\ndef abrir_sesion")[0]
    )
    return desafio, sol_id + _por_posicion("validar_token", "token, audiencia, alcance, ahora", grabadas, "token")


# slug: (las pruebas que llaman a la función repetida, lo que puede sacar como mucho la entrega entera).
# En la puerta todo es la puerta: sólo queda la lectura legítima (2), que también saca quien lo admite todo.
# En identidad sólo se repite validar_token: el resto de la entrega es la referencia y saca lo suyo (6).
POR_POSICION = {
    "puerta-corregida": (
        ("tenant", "permisos", "herramienta", "esquema", "presupuesto", "revocacion", "variaciones"),
        2,
    ),
    "identidad-delegada": (("validar", "variaciones"), 6),
}


@pytest.mark.parametrize("slug", POR_POSICION)
def test_contestar_por_posicion_no_pasa_las_ocultas(tmp_path_factory, slug):
    """Repetir, por orden de llamada, las respuestas de las pruebas visibles, en el calificador de verdad:
    las pruebas que llaman a la función repetida no dan ningún punto (sus partes ocultas no pasan)."""
    desafio, codigo = _por_posicion_en(slug)
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    entrega_codigos(curso, cuaderno, {"por_posicion": codigo}, desafio)
    fila = por_alumno(califica(curso, desafio, plazo=3.0, progreso=False))["por_posicion"]
    a_cero, como_mucho = POR_POSICION[slug]
    assert all(fila[n] == 0 for n in a_cero) and fila["puntos"] <= como_mucho, (fila["puntos"], fila["motivo"])


def _repite(nombre: str, vistas: list, por: str) -> str:
    """La función nombre, que contesta lo apuntado (("vuelve", v) o ("lanza", tipo, texto)) de las visibles:
    por posición (cuántas llamadas van) o por tabla (los mismos argumentos; si no, lanza)."""
    if por == "posicion":
        elige = "    r = _R[_N[0] % len(_R)][1]\n    _N[0] += 1\n"
    else:
        elige = "    r = _T.get(_j.dumps(list(args), default=repr, sort_keys=True), ['lanza', 'Exception', 'no'])\n"
    return (
        "import builtins as _b, json as _j\n_R = _j.loads(%r)\n_N = [0]\n" % json.dumps(vistas)
        + "_T = {_j.dumps(a, sort_keys=True): r for a, r in _R}\n"
        + "def %s(*args):\n" % nombre
        + elige
        + "    if r[0] == 'lanza':\n        raise getattr(_b, r[1], Exception)(r[2])\n    return r[1]\n"
    )


def _puntos_por_prueba(desafio: Desafio, codigo: str) -> dict[str, int]:
    """{prueba: puntos} con las partes ocultas, en este proceso (el orden y el recuento de una pasada del
    calificador con ellas: un solo espacio, las pruebas en orden)."""
    espacio = espacio_de_pruebas(desafio)
    exec(codigo, espacio)
    puntos = {}
    for nombre, (valor, prueba) in espacio["PRUEBAS"].items():
        try:
            prueba(espacio["BancoLocal"](), *((espacio["VARIACIONES"],) if nombre == "variaciones" else ()))
            puntos[nombre] = valor
        except Exception:  # el Fallo de la prueba, o lo que lance la copia: no pasa
            puntos[nombre] = 0
    return puntos


@pytest.mark.parametrize("slug", sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/pruebas.py")))
def test_repetir_lo_visible_no_saca_mas_que_no_contestar(slug):
    """En los once desafíos, cada función del alumno cambiada por una que repite lo que contestó la referencia
    en las pruebas visibles (por posición, o de una tabla con sus argumentos) no saca, con las partes
    ocultas, ni un punto más en ninguna prueba que la misma función cambiada por una que no sabe nada:
    que siempre lanza, o que contesta siempre lo que más contestó la referencia."""
    desafio = Desafio(slug)
    referencia = desafio.lee("solucion.py")
    for nombre in desafio.funciones:
        vistas = respuestas_visibles(slug, nombre, forma="vuelve_o_lanza")
        mas_vista = collections.Counter(json.dumps(r) for _, r in vistas).most_common(1)[0][0]
        sin_saber = [
            _puntos_por_prueba(desafio, referencia + "\n" + _repite(nombre, [[[], json.loads(r)]], "posicion"))
            for r in ('["lanza", "Exception", "no"]', mas_vista)
        ]
        for por in ("posicion", "tabla"):
            repite = _puntos_por_prueba(desafio, referencia + "\n" + _repite(nombre, vistas, por))
            assert all(repite[n] <= max(p[n] for p in sin_saber) for n in repite), (nombre, por, repite, sin_saber)


def test_las_ocultas_de_validar_no_repiten_el_orden_de_las_visibles():
    """En identidad, lo que se acepta y se rechaza (y por qué) en cada parte oculta de «validar» no es ningún
    tramo seguido de lo visible, dando la vuelta: ni por posición, ni empezando en otra llamada, ni contando
    sólo los tokens que son objetos (quien rechaza bien los demás y repite el resto) se acierta. Y son
    varias, cada una con otra cuenta: no hay un orden oculto que aprender."""
    g = espacio_de_pruebas(Desafio("identidad-delegada"))

    def respuestas(casos, no_objetos, con_no_objetos=True):
        return ["emisor desconocido"] * len(no_objetos) * con_no_objetos + [m for _, _, _, m in casos]

    partes = g["PARTES_OCULTAS"]["validar"]
    assert len(partes) >= 2
    for con_no_objetos in (True, False):
        visibles = respuestas(g["CASOS_DE_VALIDAR"], g["NO_OBJETOS"], con_no_objetos)
        ocultas = [respuestas(p["casos_de_validar"], p["no_objetos"], con_no_objetos) for p in partes]
        assert len({len(o) for o in ocultas} | {len(visibles)}) == len(ocultas) + 1  # ninguna con la misma cuenta
        vuelta = visibles * 2
        for oculta in ocultas:
            assert not any(vuelta[k : k + len(oculta)] == oculta for k in range(len(visibles))), oculta
