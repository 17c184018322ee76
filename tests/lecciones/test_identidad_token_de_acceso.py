"""En «Identidad delegada», el token del sujeto es un token de acceso, y la igualdad exacta de
`aud` se dice una simplificación.

Antes, la petición de intercambio presentaba como `id_token` un token con `scope` y audiencia propia, que es
un token de acceso; y la lección decía que RFC 8707 graba «una sola audiencia», cuando deja pedir varios
`resource` y el `aud` de un JWT puede ser una lista.
"""

import os

import pytest

from cursos.manifiesto import leer_curso
from tests.ayudas import celdas_de_codigo, ejecuta

LECCION = leer_curso().leccion("identidad-delegada")
ACCESO = "urn:ietf:params:oauth:token-type:access_token"


@pytest.fixture(scope="module")
def g():
    antes = os.environ.get("FACTURACION_API_KEY")
    espacio = {}
    for codigo in celdas_de_codigo(LECCION):
        ejecuta(codigo, espacio)
    yield espacio
    if antes is None:
        os.environ.pop("FACTURACION_API_KEY", None)
    else:
        os.environ["FACTURACION_API_KEY"] = antes


def test_el_intercambio_presenta_tokens_de_acceso(g):
    peticion = g["peticion_de"](g["TOKEN_USUARIO"], g["TOKEN_ORQUESTADOR"], g["API_PEDIDOS"], "pedidos:leer")
    assert peticion["subject_token_type"] == peticion["actor_token_type"] == ACCESO
    # El del sujeto lo es: trae alcance y una audiencia que no es el cliente de un inicio de sesión, sino el
    # orquestador, el recurso al que el usuario llama.
    assert "scope" in g["TOKEN_USUARIO"] and g["TOKEN_USUARIO"]["aud"] == "orquestador-soporte"
    assert "id_token" not in LECCION.fuente.read_text(encoding="utf-8").replace("*ID token*", "")


def test_la_igualdad_exacta_de_aud_se_dice_simplificacion():
    texto = " ".join(LECCION.fuente.read_text(encoding="utf-8").split())
    assert "una sola audiencia, y la especificación" not in texto
    assert "`validar_token` la compara con igualdad exacta. Es una simplificación" in texto
    assert "deja pedir un token con varios `resource`" in texto and "el `aud` puede ser una lista" in texto
