"""Las celdas se nombran por etiqueta: una etiqueta que falta o está repetida es un error, no otra celda."""

import tomllib
from types import SimpleNamespace

import pytest

from cursos import RAIZ
from cursos.celdas import ErrorDeEtiqueta, celdas_de_codigo, fuente, numero, repetidas
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones

CURSO = leer_curso()
LECCION = """# Prueba

```python tags=["partida-x"]
a = 1
```

Texto.

```python
b = 2
```

```python tags=["salida-1", "partida-y"]
print(a + b)
```
"""


@pytest.fixture
def leccion(tmp_path):
    ruta = tmp_path / "leccion.md"
    ruta.write_text(LECCION, encoding="utf-8")
    return ruta


def test_la_etiqueta_nombra_su_celda_aunque_se_inserten_otras(leccion):
    assert (numero(leccion, "salida-1"), fuente(leccion, "partida-x")) == (3, "a = 1")
    leccion.write_text(LECCION.replace("Texto.", "Texto.\n\n```python\nnueva = 0\n```"), encoding="utf-8")
    assert (numero(leccion, "salida-1"), fuente(leccion, "partida-y")) == (4, "print(a + b)")


def test_una_etiqueta_que_falta_es_un_error_que_dice_como_ponerla(leccion):
    falta = 'ninguna celda de código tiene la etiqueta «salida-2».*tags=\\["salida-2"\\]'
    with pytest.raises(ErrorDeEtiqueta, match=falta):
        numero(leccion, "salida-2")


def test_una_etiqueta_repetida_es_un_error_que_dice_donde(leccion):
    leccion.write_text(LECCION.replace("```python\nb = 2", '```python tags=["partida-x"]\nb = 2'), encoding="utf-8")
    assert repetidas(leccion) == ["partida-x"]
    with pytest.raises(ErrorDeEtiqueta, match="«partida-x» está en las celdas de código 1, 2"):
        fuente(leccion, "partida-x")


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lc: lc.slug)
def test_en_el_curso_ninguna_etiqueta_se_repite_y_cada_salida_nombra_una(leccion):
    assert repetidas(leccion.fuente) == []
    etiquetas = {e for _, es in celdas_de_codigo(leccion.fuente) for e in es}
    pedidas = [c["celda"] for c in tomllib.loads(leccion.salidas.read_text(encoding="utf-8"))["celda"]]
    assert set(pedidas) <= etiquetas and len(afirmaciones(leccion)) == len(pedidas)


@pytest.mark.parametrize("slug", sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml")))
def test_cada_celda_de_partida_esta_en_su_leccion_una_vez(slug):
    desafio = Desafio(slug)
    ruta = CURSO.leccion(desafio.leccion).fuente
    fuentes = [fuente(ruta, e) for e in desafio.celdas_de_partida]
    assert desafio.partida().startswith(fuentes[0]) and all(f in desafio.partida() for f in fuentes)


@pytest.mark.parametrize(
    "texto, dice",
    [
        ('[[celda]]\ncelda = "salida-1"\ncontine = ["3"]\n', "«salida-1»: la clave «contine» no existe"),
        ('[[celda]]\ncelda = "salida-1"\ncontiene = "3"\n', "tiene que ser una lista"),
        (
            '[[celda]]\ncelda = "salida-1"\ncontiene = ["3"]\n[[celda]]\ncelda = "salida-1"\ncontiene = ["4"]\n',
            "está dos veces",
        ),
        ('[[celdas]]\ncelda = "salida-1"\ncontiene = ["3"]\n', "la clave «celdas» no existe; las que hay son: celda"),
        ('[[celda]]\ncelda = 3\ncontiene = ["3"]\n', "la etiqueta de la celda"),
        ('[[celda]]\ncelda = "salida-1"\ncontiene = []\n', "«contiene» está vacía"),
        ("[[celda]\n", "no es TOML válido"),
    ],
)
def test_un_salidas_toml_mal_escrito_es_un_error_que_dice_que_corregir(leccion, texto, dice):
    """Una errata no deja una celda sin comprobar en silencio."""
    salidas = leccion.with_name("salidas.toml")
    salidas.write_text(texto, encoding="utf-8")
    falsa = SimpleNamespace(slug="prueba", fuente=leccion, salidas=salidas)
    with pytest.raises(ErrorDeEtiqueta, match=dice):
        afirmaciones(falsa)
    salidas.write_text('[[celda]]\ncelda = "salida-1"\ncontiene = ["3"]\n', encoding="utf-8")
    assert afirmaciones(falsa) == {3: ["3"]}
