"""Las decisiones sobre un motivo las toma su tipo, nunca su texto: el texto lo puede escribir el alumno.

- de una parte oculta se enseña lo que escribe sólo el calificador (cuál variación y su pista, qué
  función falta, el plazo); lo que cita al alumno no, aunque empiece como un motivo de ésos;
- `curso recoger` dice «Nada nuevo» sólo si todo lo de la entrada ya estaba recogido;
- una nota que el libro no acepta sale igual en el CSV, como NO ANOTADA.
"""

import json

import pytest
from nbgrader.api import InvalidEntry

from cursos.calificador.aislamiento import detecta
from cursos.calificador.banco import OCULTO, corre_pruebas, espacio_de_pruebas
from cursos.calificador.cuaderno import Entrega
from cursos.calificador.resultado import QUE_PASO
from cursos.cli import main
from cursos.contrato import id_de_prueba, prueba_del_id
from cursos.cuaderno_del_desafio import cuaderno_fuente
from cursos.desafio import Desafio
from cursos.profesor import libro
from cursos.profesor.calificar import califica
from cursos.profesor.recoger import recoge
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, entrega, por_alumno

ESPECIFICACION = Desafio("comprobar-la-especificacion")  # con PARTES_OCULTAS
IMITA = "la variación oculta 1 de 3 no pasa. "  # cómo empieza lo que se enseña de una variación
SECRETO = "SECRETO-de-la-parte-oculta"
ESCONDIDO = "%s: %s" % (QUE_PASO["resultado"], OCULTO)

# Devuelve o lanza, según el modo, textos que imitan el encabezado de un motivo que sí se enseña.
IMITADORA = (
    "def incumplimientos(especificacion, antes, despues):\n"
    "    modo = especificacion.get('modo')\n"
    "    textos = {'variacion': %r, 'cpu': %r, 'falta': %r}\n"
    "    if modo == 'lanza':\n"
    "        raise ValueError(textos['variacion'])\n"
    "    return textos.get(modo, [])\n"
    % (IMITA + SECRETO, "%s: %s" % (QUE_PASO["cpu"], SECRETO), "%s: %s" % (QUE_PASO["falta"], SECRETO))
)


@pytest.fixture(scope="module")
def aislamiento():
    return detecta()


def _con_pruebas(desafio: Desafio, **pruebas) -> dict:
    """El espacio de pruebas del desafío con estas pruebas añadidas: {nombre: prueba(banco, espacio)}."""
    espacio = espacio_de_pruebas(desafio)
    for nombre, prueba in pruebas.items():
        espacio["PRUEBAS"][nombre] = (1, lambda banco, *datos, prueba=prueba: prueba(banco, espacio))
    return espacio


def _en_la_parte_oculta(banco, espacio, modo: str):
    """Sólo en la pasada con las partes ocultas: un Fallo que cuenta lo que ha dicho el alumno."""
    if "PARTES_OCULTAS" in espacio:
        raise espacio["Fallo"](banco.funcion("incumplimientos")({"modo": modo}, {}, {}))


def _variacion_de_verdad(banco, espacio):
    if "PARTES_OCULTAS" in espacio:
        with espacio["oculta"](2, 3, "la pista de siempre"):
            raise espacio["Fallo"]("el detalle que no se enseña: " + SECRETO)


def _falta(banco, espacio):
    if "PARTES_OCULTAS" in espacio:
        banco.funcion("no_la_ha_escrito")()


def _visible(banco, espacio):
    """Falla en las dos pasadas: su motivo es el de la pasada sin partes ocultas, entero."""
    raise espacio["Fallo"](banco.funcion("incumplimientos")({"modo": "variacion"}, {}, {}))


def test_una_parte_oculta_no_se_ensena_aunque_su_texto_imite_un_motivo_que_si(aislamiento):
    espacio = _con_pruebas(
        ESPECIFICACION,
        imita_una_variacion=lambda b, e: _en_la_parte_oculta(b, e, "variacion"),
        imita_el_plazo=lambda b, e: _en_la_parte_oculta(b, e, "cpu"),
        imita_la_que_falta=lambda b, e: _en_la_parte_oculta(b, e, "falta"),
        lanza_como_una_variacion=lambda b, e: _en_la_parte_oculta(b, e, "lanza"),
        variacion_de_verdad=_variacion_de_verdad,
        falta_de_verdad=_falta,
        visible=_visible,
    )
    assert espacio.get("PARTES_OCULTAS")
    motivos = corre_pruebas(aislamiento, ESPECIFICACION, espacio, Entrega([IMITADORA], IMITADORA), plazo=5).motivos()
    for nombre in ("imita_una_variacion", "imita_el_plazo", "imita_la_que_falta", "lanza_como_una_variacion"):
        assert motivos[nombre] == ESCONDIDO, (nombre, motivos[nombre])
    assert (
        motivos["variacion_de_verdad"]
        == "%s: la variación oculta 2 de 3 no pasa. la pista de siempre" % (QUE_PASO["resultado"])
    )
    assert motivos["falta_de_verdad"].startswith("%s: tu código no define «no_la_ha_escrito»" % QUE_PASO["falta"])
    # Lo que dice el alumno en una prueba visible (sin partes ocultas en su proceso) se cita entero.
    assert motivos["visible"] == "%s: %s%s" % (QUE_PASO["resultado"], IMITA, SECRETO)
    assert SECRETO not in json.dumps({n: m for n, m in motivos.items() if n != "visible"}, ensure_ascii=False)


@pytest.mark.parametrize("de_verdad", [False, True])
def test_las_variaciones_sin_partes_ocultas_tambien_deciden_por_el_tipo(aislamiento, de_verdad):
    """En un desafío sin PARTES_OCULTAS, de la prueba «variaciones» se enseña sólo el Fallo de oculta()."""
    codigo = "def ejecutar(ll, entorno):\n    return %r\n" % (IMITA + SECRETO)

    def variaciones(banco, espacio):
        dicho = banco.funcion("ejecutar")({}, {})
        if de_verdad:
            with espacio["oculta"](1, 3, "la pista"):
                raise espacio["Fallo"](dicho)
        raise espacio["Fallo"](dicho)

    espacio = _con_pruebas(DESAFIO, variaciones=variaciones)
    espacio.pop("PARTES_OCULTAS", None)  # un desafío sin partes ocultas (hoy todos las tienen: se quitan)
    motivo = corre_pruebas(aislamiento, DESAFIO, espacio, Entrega([codigo], codigo), plazo=5).motivos()["variaciones"]
    assert motivo == (
        "%s: la variación oculta 1 de 3 no pasa. la pista" % QUE_PASO["resultado"] if de_verdad else ESCONDIDO
    )


def test_el_id_de_la_celda_de_cada_prueba_va_y_vuelve():
    cuaderno = cuaderno_fuente(DESAFIO, ocultas=False)
    ids = [c.metadata["nbgrader"]["grade_id"] for c in cuaderno.cells if c.metadata["nbgrader"]["grade"]]
    assert [prueba_del_id(i) for i in ids] == list(DESAFIO.puntos())
    assert all(id_de_prueba(prueba_del_id(i)) == i for i in ids)
    otras = [c.metadata["nbgrader"]["grade_id"] for c in cuaderno.cells if not c.metadata["nbgrader"]["grade"]]
    assert otras and all(prueba_del_id(i) is None for i in otras)


def _recoger(curso, entrada, capsys) -> tuple[int, str]:
    codigo = main(["recoger", "--nbgrader", str(curso), str(entrada)])
    salida = capsys.readouterr()
    return codigo, salida.out + salida.err


def test_recoger_dos_veces_no_es_un_error_y_lo_nuevo_si_se_dice(release, tmp_path, capsys):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    entrada = tmp_path / "entregas"
    (entrada / "ana").mkdir(parents=True)
    (entrada / "ana" / DESAFIO.cuaderno).write_text(json.dumps(con_solucion(cuaderno, SOLUCION)), encoding="utf-8")
    assert _recoger(curso, entrada, capsys)[0] == 0
    [linea] = recoge(entrada, curso, {DESAFIO.slug})
    assert linea.ya_estaba and not linea.recogida
    codigo, texto = _recoger(curso, entrada, capsys)
    assert codigo == 0 and "ya estaba recogida" in texto and "Nada nuevo" in texto, texto
    # Con algo que no se recoge por otro motivo, ya no es «nada nuevo»: hay que corregirlo.
    (entrada / "ana" / "notas.txt").write_text("no es un cuaderno", encoding="utf-8")
    codigo, texto = _recoger(curso, entrada, capsys)
    assert codigo == 1 and "Nada nuevo" not in texto and "no se ha recogido ninguna entrega" in texto, texto


def test_una_nota_que_el_libro_no_acepta_sale_como_no_anotada(release, tmp_path, monkeypatch):
    _, cuaderno = release
    curso = curso_nuevo(release, tmp_path / "curso")
    for alumno in ("ana", "sin_libro"):
        entrega(curso, alumno, con_solucion(cuaderno, SOLUCION))
    anota = libro.anota

    def anota_salvo_uno(gradebook, desafio, alumno, *args, **kwargs):
        if alumno == "sin_libro":  # como una base de datos que no acepta el nombre
            raise InvalidEntry("el libro no acepta este nombre")
        return anota(gradebook, desafio, alumno, *args, **kwargs)

    monkeypatch.setattr(libro, "anota", anota_salvo_uno)
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False))
    assert filas["sin_libro"]["motivo"].startswith("NO ANOTADA EN EL LIBRO (InvalidEntry); ")
    assert filas["sin_libro"]["puntos"] == filas["ana"]["puntos"] == 10, filas
    assert not filas["ana"]["motivo"], filas["ana"]
