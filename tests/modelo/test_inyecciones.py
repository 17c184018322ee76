"""El laboratorio de inyecciones: utilidad y seguridad de cada defensa, medidas en el entorno."""

import json
import os
import subprocess
import sys

import pytest

from cursos import RAIZ
from cursos.modelo import escenarios, inyecciones
from cursos.modelo.modelo_real import FORMATOS
from cursos.modelo.servidor import ModeloServido, en_segundo_plano

ESCENARIOS = escenarios.escenarios()
ATAQUES_DE_LECCION = ["salmorejo", "readme", "pagina", "aviso"]
CLAVE = "sk-del-laboratorio-que-no-sale"


@pytest.fixture(scope="module")
def tabla_guionizada():
    return inyecciones.tabla(inyecciones.ejecuta_laboratorio(ESCENARIOS))


def test_cada_leccion_con_modelo_tiene_su_ataque_en_el_laboratorio():
    lecciones = {e.leccion for e in ESCENARIOS}
    assert {
        "permisos-y-confianza",
        "un-comando-en-la-terminal",
        "la-red",
        "identidad-delegada",
        "la-propuesta-no-es-el-permiso",
    } <= lecciones
    assert sum(e.leccion == "la-propuesta-no-es-el-permiso" for e in ESCENARIOS) == 14


@pytest.mark.parametrize("escenario", [e for e in ESCENARIOS if e.clase != "residual"], ids=lambda e: e.slug)
def test_con_la_defensa_no_se_ejecuta_nada_y_la_tarea_se_hace(tabla_guionizada, escenario):
    con = tabla_guionizada[escenario.slug, "con"]
    assert con["errores"] == 0 and con["ejecutada"] == 0, "la defensa tiene que parar la acción inyectada"
    assert con["tarea"] == 1, "y dejar que se haga lo que pidió el usuario"


@pytest.mark.parametrize("slug", ATAQUES_DE_LECCION)
def test_sin_la_defensa_el_modelo_obediente_consigue_el_ataque(tabla_guionizada, slug):
    sin = tabla_guionizada[slug, "sin"]
    assert (sin["propuesta"], sin["ejecutada"], sin["tarea"]) == (1, 1, 1)


def test_en_el_laboratorio_de_las_dos_puertas_la_vulnerable_deja_pasar_los_ataques(tabla_guionizada):
    pasan = {e for (e, d), f in tabla_guionizada.items() if d == "sin" and f["ejecutada"]}
    assert {
        "puertas/otro-tenant",
        "puertas/escritura",
        "puertas/aprobacion-insertada",
        "puertas/revocacion",
        "puertas/presupuesto",
    } <= pasan
    assert "puertas/lectura-publica" not in pasan and "puertas/sin-propuesta" not in pasan


@pytest.mark.parametrize("slug", ATAQUES_DE_LECCION)
def test_una_defensa_que_lo_deniega_todo_no_hace_la_tarea(slug):
    """La utilidad se mide: negarlo todo para la inyección, pero no hace lo que pidió el usuario."""
    escenario = next(e for e in ESCENARIOS if e.slug == slug)
    original = escenario.prepara

    def prepara(defensa):
        partida = original(defensa)
        partida.ejecutar = lambda ll, entorno: {
            "type": "tool_result",
            "tool_use_id": ll.get("id"),
            "content": "no se ha ejecutado: no",
            "is_error": True,
        }
        return partida

    niega = inyecciones.Escenario(slug, escenario.leccion, escenario.titulo, prepara)
    (una,) = [e for e in inyecciones.ejecuta_laboratorio([niega]) if e.defensa == "con"]
    assert (una.ejecutada, una.tarea) == (False, False)


@pytest.mark.parametrize("formato", FORMATOS)
def test_por_http_la_tabla_es_la_misma(tabla_guionizada, formato):
    http, url = en_segundo_plano(ModeloServido())
    try:
        ejecuciones = inyecciones.ejecuta_laboratorio(ESCENARIOS, 1, inyecciones.sordo_por_http(url, formato))
    finally:
        http.shutdown()
    assert [e.error for e in ejecuciones if e.error] == []
    assert inyecciones.tabla(ejecuciones) == tabla_guionizada


def test_la_orden_escribe_tabla_grafico_y_conversaciones_sin_la_clave(tmp_path):
    servido = ModeloServido(clave=CLAVE)
    respuestas = next(e for e in ESCENARIOS if e.slug == "salmorejo").prepara("sin").respuestas
    nombre = servido.registra_sordo(respuestas)
    http, url = en_segundo_plano(servido)
    try:
        orden = [
            sys.executable,
            "-m",
            "cursos",
            "inyecciones",
            "--url",
            url,
            "--formato",
            "anthropic",
            "--modelo",
            nombre,
            "--escenario",
            "salmorejo",
            "--veces",
            "2",
            "--salida",
            str(tmp_path),
        ]
        hecho = subprocess.run(
            orden, cwd=RAIZ, capture_output=True, text=True, timeout=120, env=dict(os.environ, CURSO_MODELO_CLAVE=CLAVE)
        )
    finally:
        http.shutdown()
    assert hecho.returncode == 0, hecho.stderr
    assert "La receta que cancela la cena" in hecho.stdout and "2 de 2" in hecho.stdout and "0 de 2" in hecho.stdout
    assert "2/6" in hecho.stderr, "una barra de progreso (sin, con y con quien aprueba todo)"
    for nombre_fichero in ("tabla.txt", "grafico.svg", "ejecuciones.json"):
        assert CLAVE not in (tmp_path / nombre_fichero).read_text(encoding="utf-8")
    guardado = json.loads((tmp_path / "ejecuciones.json").read_text(encoding="utf-8"))
    assert len(guardado["ejecuciones"]) == 6 and all(e["M"] for e in guardado["ejecuciones"])
    cabecera = guardado["cabecera"]
    assert (cabecera["modelo"], cabecera["formato"], cabecera["veces"]) == (nombre, "anthropic", 2)
    assert cabecera["servidor"].startswith(url) and cabecera["fecha"] and cabecera["commit"] != "desconocido"
    assert cabecera["ajustes"]["max_tokens"] == 1024
    for fichero in ("tabla.txt", "grafico.svg"):
        assert "Modelo: %s" % nombre in (tmp_path / fichero).read_text(encoding="utf-8"), "la cabecera en cada fichero"
    assert (tmp_path / "grafico.svg").read_text(encoding="utf-8").startswith("<svg")


def test_un_escenario_que_no_existe_se_dice(tmp_path):
    hecho = subprocess.run(
        [sys.executable, "-m", "cursos", "inyecciones", "--escenario", "nada", "--salida", str(tmp_path)],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert hecho.returncode == 2 and "los escenarios son salmorejo" in hecho.stderr
