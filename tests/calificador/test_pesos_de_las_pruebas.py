"""El peso de cada prueba sigue lo que su lección dice que importa, y CALIFICACION.md dice por qué.

- Cada desafío explica sus pesos en una sección «Por qué estos pesos» de su CALIFICACION.md.
- «problema-de-esquema»: `enum`, que la lección no enseña, sólo decide
  los puntos de su prueba; una entrega perfecta en lo demás no pierde además «tipos» ni las variaciones.
"""

import pytest

from cursos import RAIZ
from cursos.desafio import Desafio
from tests.ayudas import puntos_en_el_banco

DESAFIOS = sorted(p.name for p in (RAIZ / "desafios").iterdir() if (p / "desafio.toml").is_file())
ESQUEMA = "problema-de-esquema"
SOLUCION_ESQUEMA = Desafio(ESQUEMA).lee("solucion.py")
COMPARA_ENUM = "    if permitidos is not None and not any(igual_en_json(valor, p) for p in permitidos):\n"
SIN_ENUM = SOLUCION_ESQUEMA.replace(COMPARA_ENUM, "    if False:\n")
# Compara enum por el texto JSON: «2.0» no es «2», pero true tampoco es 1.
ENUM_POR_TEXTO = SOLUCION_ESQUEMA.replace(
    COMPARA_ENUM,
    "    if permitidos is not None and json.dumps(valor) not in [json.dumps(p) for p in permitidos]:\n",
)


@pytest.mark.parametrize("slug", DESAFIOS)
def test_calificacion_dice_por_que_pesa_cada_prueba(slug):
    texto = (RAIZ / "desafios" / slug / "CALIFICACION.md").read_text("utf-8")
    assert "\n### Por qué estos pesos\n" in texto, f"desafios/{slug}/CALIFICACION.md no dice por qué pesa cada prueba"
    seccion = texto.split("\n### Por qué estos pesos\n")[1].split("\n## ")[0]
    assert len(seccion.split()) >= 40, f"desafios/{slug}/CALIFICACION.md: «Por qué estos pesos» es demasiado corta"


@pytest.mark.parametrize("codigo", [SIN_ENUM, ENUM_POR_TEXTO], ids=["sin_enum", "enum_por_texto"])
def test_enum_solo_decide_su_prueba(codigo):
    assert codigo != SOLUCION_ESQUEMA
    puntos, maximo, fallos = puntos_en_el_banco(ESQUEMA, codigo)
    assert set(fallos) == {"enum"} and (puntos, maximo) == (7, 10), fallos
