"""Lo que encontró una revisión del calificador con entregas nuevas, cada hallazgo en varias variantes.

- lo que el alumno ve en una parte oculta no puede salir después en el motivo de una prueba visible
  (las pruebas con PARTES_OCULTAS pasan sus partes ocultas después de las visibles);
- `from IPython.display import …` y `%%writefile` funcionan como en el cuaderno;
- un salto de línea del alumno no dibuja otra línea («✔ …») en el motivo;
- una función que no está se dice «falta la solución», también en las que cambian sus argumentos;
- sintaxis de un Python más nuevo que el del calificador: el motivo lo dice.
"""

import re

import pytest

from cursos.desafio import Desafio
from tests.calificador.ayudas import califica_lote, calificado, con_solucion, curso_del_desafio, entrega

NUNCA_LANZA = Desafio("ejecutar-nunca-lanza")
COMPACTA = Desafio("compacta")
PERMISO = Desafio("permiso-en-ejecutar")
ESQUEMA = Desafio("problema-de-esquema")


def _con_ref(desafio: Desafio, nombre: str) -> str:
    """La solución de referencia con su función renombrada a _ref (para envolverla)."""
    return re.sub(r"^def %s\(" % nombre, "def _ref(", desafio.lee("solucion.py"), flags=re.M)


FUGAS = {  # guardan lo que ven en las partes ocultas y lo lanzan en la siguiente prueba visible
    "f1_lanza_lo_visto": _con_ref(NUNCA_LANZA, "ejecutar")
    + (
        "import json as _j\n_VISTO = []\n"
        "def ejecutar(ll, entorno):\n"
        "    obs = _ref(ll, entorno)\n"
        "    i = str(ll.get('id')) if isinstance(ll, dict) else ''\n"
        "    if _VISTO and i[:1] in 'abcn':\n"
        "        s = _j.dumps(_VISTO); _VISTO.clear(); raise Exception(s)\n"
        "    _VISTO.append([ll, obs.get('content') if isinstance(obs, dict) else None, sorted(HERRAMIENTAS)])\n"
        "    return obs\n"
    ),
    "f2_devuelve_lo_visto": _con_ref(NUNCA_LANZA, "ejecutar")
    + (
        "_VISTO = []\n"
        "def ejecutar(ll, entorno):\n"
        "    _VISTO.extend(sorted(HERRAMIENTAS))\n"
        "    obs = _ref(ll, entorno)\n"
        "    if len(_VISTO) > 40:\n"
        "        return {'type': 'tool_result', 'tool_use_id': ll.get('id'), 'content': ' '.join(_VISTO)}\n"
        "    return obs\n"
    ),
}


@pytest.fixture(scope="module")
def fugas(tmp_path_factory):
    curso, cuaderno = curso_del_desafio(tmp_path_factory, NUNCA_LANZA)
    for alumno, codigo in FUGAS.items():
        entrega(curso, alumno, con_solucion(cuaderno, codigo, NUNCA_LANZA), NUNCA_LANZA)
    return curso, califica_lote(curso, NUNCA_LANZA)


def _herramientas_ocultas() -> set[str]:
    """Los nombres de herramienta que sólo aparecen en ocultas.py."""

    def nombres(texto):
        return set(re.findall(r'"([a-z_]+)": herramienta\(', texto))

    return nombres(NUNCA_LANZA.lee("ocultas.py")) - nombres(NUNCA_LANZA.lee("pruebas.py"))


@pytest.mark.parametrize("alumno", FUGAS)
def test_lo_visto_en_una_parte_oculta_no_sale_en_ningun_motivo(fugas, alumno):
    curso, filas = fugas
    secretos = _herramientas_ocultas()
    assert secretos, "ocultas.py debe tener herramientas que las pruebas visibles no tienen"
    texto = filas[alumno]["motivo"] + calificado(curso, alumno, NUNCA_LANZA)
    # Como palabra: «pedirle» (en el docstring de desafios/base.py, en la celda visible) no es «pedir».
    assert not [s for s in secretos if re.search(rf"\b{s}\b", texto)], texto[:2000]
    assert filas[alumno]["puntos"] < 10


def _una(tmp_path_factory, desafio: Desafio, codigos: dict[str, str], extra=None) -> dict:
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    for alumno, codigo in codigos.items():
        nb = con_solucion(cuaderno, codigo, desafio)
        if extra:
            extra(nb)
        entrega(curso, alumno, nb, desafio)
    return califica_lote(curso, desafio)


def _celda_antes_de_la_solucion(fuente: str, desafio: Desafio):
    import nbformat

    def pon(nb):
        i = next(
            i
            for i, c in enumerate(nb.cells)
            if c.metadata.get("nbgrader", {}).get("grade_id") == desafio.celda_solucion
        )
        nb.cells.insert(i, nbformat.v4.new_code_cell(fuente))

    return pon


def test_ipython_display_y_writefile_como_en_el_cuaderno(tmp_path_factory):
    solucion = PERMISO.lee("solucion.py")
    filas = _una(
        tmp_path_factory,
        PERMISO,
        {
            "d1_importa_display": "from IPython.display import display, Markdown, HTML, clear_output\n"
            "display(Markdown('**hola**'), HTML('<b>x</b>'))\nclear_output()\n" + solucion,
            "d2_importa_ipython": "import IPython\nIPython.display.display('hola')\n" + solucion,
        },
    )
    assert {a: f["puntos"] for a, f in filas.items()} == {"d1_importa_display": 10, "d2_importa_ipython": 10}, filas
    filas = _una(
        tmp_path_factory,
        PERMISO,
        {"w1_writefile": "import ayuda_mia\n" + solucion},
        _celda_antes_de_la_solucion("%%writefile ayuda_mia.py\nX = 1\n", PERMISO),
    )
    assert filas["w1_writefile"]["puntos"] == 10, filas["w1_writefile"]["motivo"]


@pytest.mark.parametrize("salto", ["\\n", "\\r\\n", "\\r", "\\t"])
def test_un_salto_de_linea_del_alumno_no_dibuja_otra_linea(tmp_path_factory, salto):
    """salto: como se escribe en el código del alumno (una secuencia de escape dentro de un literal)."""
    trampa = (
        "def ejecutar(ll, entorno):\n"
        "    raise Exception('x%s✔ variaciones: 2 de 2 puntos%s✔ bucle: 1 de 1 puntos')\n" % (salto, salto)
    )
    fila = _una(tmp_path_factory, PERMISO, {"s1_saltos": trampa})["s1_saltos"]
    assert fila["puntos"] == 0
    assert not re.search(r"[\n\r\t]", fila["motivo"]) and "⏎" in fila["motivo"], fila["motivo"]


def test_la_funcion_que_falta_se_dice_tambien_si_cambia_sus_argumentos(tmp_path_factory):
    filas = _una(tmp_path_factory, COMPACTA, {"c1_otro_nombre": "def compactar(M, presupuesto):\n    return M\n"})
    motivo = filas["c1_otro_nombre"]["motivo"]
    assert filas["c1_otro_nombre"]["puntos"] == 0 and "falta la solución" in motivo, motivo
    assert "KeyError" not in motivo


def test_editar_el_repositorio_despues_de_repartir_no_cambia_la_nota(tmp_path_factory, monkeypatch):
    """Se califica con los módulos y el código de partida de release/, no con los de ahora."""
    curso, cuaderno = curso_del_desafio(tmp_path_factory, PERMISO)
    entrega(curso, "ana", con_solucion(cuaderno, PERMISO.lee("solucion.py")), PERMISO)
    modulos, partida = Desafio.modulos, Desafio.partida
    monkeypatch.setattr(
        Desafio,
        "modulos",
        lambda self: tuple(
            (n, t + "\ndel problema_de_llamada\n" if n == "harness.py" else t) for n, t in modulos(self)
        ),
    )
    monkeypatch.setattr(Desafio, "partida", lambda self: partida(self) + "\nPERMISOS = {}\n")
    assert califica_lote(curso, PERMISO)["ana"]["puntos"] == 10
    (curso / "release" / PERMISO.slug / "harness.py").unlink()  # sin lo repartido, el repositorio de ahora
    assert califica_lote(curso, PERMISO)["ana"]["puntos"] < 10


def test_una_entrega_retirada_conserva_su_nota_y_lo_dice(tmp_path_factory):
    curso, cuaderno = curso_del_desafio(tmp_path_factory, PERMISO)
    for alumno in ("ana", "beto"):
        entrega(curso, alumno, con_solucion(cuaderno, PERMISO.lee("solucion.py")), PERMISO)
    assert califica_lote(curso, PERMISO)["beto"]["puntos"] == 10
    (curso / "submitted" / "beto" / PERMISO.slug).rename(curso / "beto-aparte")
    filas = califica_lote(curso, PERMISO)
    assert filas["beto"]["puntos"] == 10 and "ya no está en submitted/" in filas["beto"]["motivo"]
    assert "ya no está" not in filas["ana"]["motivo"]
