"""Lo común al lote de cada desafío (su LOTE, en su test_<desafío>.py), con el lote calificado una vez.

Las honestas sacan lo que merecen, ninguna trampa gana un punto, el cuaderno sin tocar vale 0,
la honesta del final, la nota entera, y la trampa que lee las pruebas ocultas no las ve ni las
desvela. Y cada desafío de desafios/ tiene su lote, registrado: un nombre equivocado lo dice.
"""

import pytest

from cursos import RAIZ
from tests.calificador.ayudas import EDITADA, calificado
from tests.calificador.lotes import LoteNoDeclarado, ficheros_con_lote, lote_de, lotes

LOTES = lotes()
DESAFIOS = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))
HONESTAS = [
    (slug, alumno)
    for slug, lote in LOTES.items()
    for alumno, (_, puntos) in lote.honestas.items()
    if puntos is not None
]


def test_cada_desafio_tiene_su_lote():
    sin_lote = [slug for slug in DESAFIOS if slug not in LOTES]
    assert not sin_lote, (
        f"sin lote de entregas: {', '.join(sin_lote)}. Declara LOTE = Lote(...) "
        "(tests/calificador/lotes.py) en su tests/calificador/test_<desafío>.py"
    )
    assert set(LOTES) <= set(DESAFIOS), set(LOTES) - set(DESAFIOS)


@pytest.mark.parametrize("slug, alumno", HONESTAS)
def test_las_honestas_sacan_lo_que_merecen(lote_calificado, slug, alumno):
    fila = lote_calificado(slug)["filas"][alumno]
    assert fila["puntos"] == LOTES[slug].honestas[alumno][1], fila["motivo"]


@pytest.mark.parametrize("slug", LOTES)
def test_ninguna_trampa_gana_puntos(lote_calificado, slug):
    """Al menos las trampas que pide el lote, y todas a 0 (salvo las que ganan lo visible a propósito)."""
    lote = lote_calificado(slug)
    assert LOTES[slug].con_puntos <= set(lote["trampas"]), LOTES[slug].con_puntos - set(lote["trampas"])
    a_cero = [a for a in lote["trampas"] if a not in LOTES[slug].con_puntos]
    assert len(a_cero) >= LOTES[slug].minimo
    regaladas = {a: lote["filas"][a] for a in a_cero if lote["filas"][a]["puntos"] != 0}
    assert not regaladas, regaladas


@pytest.mark.parametrize("slug", LOTES)
def test_el_cuaderno_sin_tocar_vale_0(lote_calificado, slug):
    fila = lote_calificado(slug)["filas"]["x_stub"]
    assert fila["puntos"] == 0, fila["motivo"]


@pytest.mark.parametrize("slug", LOTES)
def test_la_honesta_del_final_saca_la_nota_entera(lote_calificado, slug):
    """Va la última: el lote ha llegado hasta ella pese a las trampas."""
    fila = lote_calificado(slug)["filas"]["zz_honesta_despues"]
    assert fila["puntos"] == 10, fila["motivo"]


@pytest.mark.parametrize("slug", LOTES)
def test_una_prueba_bloqueada_editada_se_restaura(lote_calificado, slug):
    """La solución con su primera celda de prueba vaciada: se califica con la repartida, y se dice."""
    fila = lote_calificado(slug)["filas"][EDITADA]
    assert fila["puntos"] == 10 and "restaur" in fila["motivo"], fila["motivo"]


@pytest.mark.parametrize("slug", LOTES)
def test_leer_las_ocultas_no_las_desvela(lote_calificado, slug):
    """La trampa que abre el ocultas.py del desafío no lo encuentra, y lo que lee el alumno en su
    cuaderno calificado no cuenta nada de él."""
    declarado = LOTES[slug]
    assert declarado.lee_ocultas, (
        f"{slug}: declara en su LOTE lee_ocultas=(la trampa que lee ocultas.py, lo de ocultas.py que no debe salir)"
    )
    alumno, secretos = declarado.lee_ocultas
    ocultas = (declarado.desafio.carpeta / "ocultas.py").read_text(encoding="utf-8")
    assert secretos and all(s in ocultas for s in secretos), "cada secreto tiene que estar en ocultas.py"
    lote = lote_calificado(slug)
    assert alumno in lote["trampas"], alumno
    texto = calificado(lote["curso"], alumno, declarado.desafio)
    assert "No such file or directory" in texto
    desvelados = [s for s in secretos if s in texto]
    assert not desvelados, desvelados


def test_cada_lote_esta_en_el_fichero_de_su_desafio():
    """tests/calificador/test_<desafío>.py: quien busca las pruebas de un desafío las encuentra por su nombre."""
    ficheros = {ruta.stem for ruta in ficheros_con_lote()}
    assert ficheros == {"test_" + slug.replace("-", "_") for slug in LOTES}, ficheros


@pytest.mark.parametrize(
    "slug, dice",
    [
        ("permiso-en-ejecutarr", "falta tests/calificador/test_permiso_en_ejecutarr.py, con su LOTE = Lote(...)"),
        ("lotes", "tests/calificador/test_lotes.py no declara LOTE = Lote(...) para lotes"),
    ],
)
def test_un_lote_que_no_esta_donde_debe_lo_dice(slug, dice):
    with pytest.raises(LoteNoDeclarado) as error:
        lote_de(slug)
    assert dice in str(error.value)


def test_el_lote_de_un_desafio_es_el_de_su_fichero():
    assert {slug: lote.slug for slug, lote in LOTES.items()} == {slug: slug for slug in LOTES}
    assert lote_de("compacta") is LOTES["compacta"]
