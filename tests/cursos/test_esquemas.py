"""El lector de los TOML: cada fichero con su esquema, y una errata es un error que nombra fichero y clave."""

import dataclasses
import re

import pytest

from cursos import esquemas
from cursos.errores import ErrorDelCurso
from cursos.sitio import lite


class ErrorDePrueba(ErrorDelCurso):
    pass


@esquemas.esquema
class Hoja:
    nombre: str = esquemas.campo("cómo se llama")
    veces: int = esquemas.campo("cuántas veces", 1)
    lista: tuple[str, ...] = esquemas.campo("unos textos", ())
    tabla: dict[str, str] = esquemas.campo("una tabla de textos", None)


ESQUEMAS = [
    v
    for k, v in vars(esquemas).items()
    if not k.startswith("_") and isinstance(v, type) and dataclasses.is_dataclass(v)
]


def lee(tmp_path, texto: str):
    (tmp_path / "f.toml").write_text(texto, encoding="utf-8")
    return esquemas.lee_toml(tmp_path / "f.toml", Hoja, ErrorDePrueba, "f.toml")


def test_rellena_lo_que_falta_y_convierte_las_listas(tmp_path):
    assert lee(tmp_path, 'nombre = "a"\nlista = ["x"]\n') == Hoja(nombre="a", veces=1, lista=("x",), tabla=None)


@pytest.mark.parametrize(
    "texto, dice",
    [
        ('nombre = "a"\nnombres = "b"\n', "f.toml: la clave «nombres» no existe; las que hay son: nombre, veces"),
        ("veces = 2\n", "f.toml: falta la clave «nombre» (cómo se llama); añádela"),
        ('nombre = "a"\nveces = true\n', "f.toml: la clave «veces» tiene que ser un número entero"),
        ('nombre = "a"\nveces = "2"\n', "la clave «veces» tiene que ser un número entero (cuántas veces), no '2'"),
        ("nombre = 3\n", "la clave «nombre» tiene que ser un texto"),
        ('nombre = " "\n', "la clave «nombre» está vacía"),
        ('nombre = "a"\nlista = ["x", 3]\n', "la clave «lista» tiene que ser una lista de textos"),
        ('nombre = "a"\n[tabla]\nx = 1\n', "la clave «tabla.x» tiene que ser un texto"),
        ("nombre = \n", "f.toml no es TOML válido"),
    ],
)
def test_una_errata_es_un_error_del_fichero_que_nombra_la_clave(tmp_path, texto, dice):
    with pytest.raises(ErrorDePrueba, match=re.escape(dice)):
        lee(tmp_path, texto)


@pytest.mark.parametrize("esquema", ESQUEMAS, ids=lambda e: e.__name__)
def test_cada_campo_de_cada_esquema_dice_que_es(esquema):
    assert all(que.strip() for que in esquemas.claves(esquema).values())
    assert dataclasses.fields(esquema) and esquema.__dataclass_params__.frozen


def test_la_traduccion_de_jupyterlite_se_lee_con_su_esquema():
    traduccion = esquemas.lee_toml(lite.TRADUCCION, esquemas.Traduccion, lite.ErrorDeTraduccion)
    assert traduccion.menus["File"] == "Archivo"
    assert all(len(formas) == 2 for formas in traduccion.plurales.values())
