"""Las pistas de los desafíos: cada desafío tiene las suyas, se leen, no regalan la solución
y no contradicen el enunciado: quien las sigue al pie de la letra saca la nota entera ([sigue]).

El formato de [sigue] y por qué: docs/decisiones/pistas-comprobadas-siguiendolas.md.
"""

import re
import tomllib

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso
from cursos.sitio.paginas import pistas_de
from tests.ayudas import puntos_en_el_banco as puntos

# Los desafíos que ya tienen que traer [sigue]. Los demás, mientras no lo traigan, salen como xfail
# con su nombre (pytest -rx); cuando todos lo tengan, SIGUE_OBLIGATORIO = True y la falta es un fallo.
CON_SIGUE = {"permiso-en-ejecutar", "compacta", "comprobar-la-especificacion"}
SIGUE_OBLIGATORIO = True

# Una línea de la solución más corta que esto (return None, continue…) no es la solución.
LINEA_MINIMA = 16


def desafios() -> list[str]:
    """Los del manifiesto y cualquier carpeta de desafios/ con su desafio.toml, sin repetir."""
    del_manifiesto = [lc.desafio for lc in leer_curso().lecciones if lc.desafio]
    en_disco = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))
    return list(dict.fromkeys(del_manifiesto + en_disco))


def lineas_de_la_solucion(fuente: str) -> list[str]:
    """Las líneas de la región BEGIN/END SOLUTION, sin sangría ni comentario final."""
    lineas, dentro = [], False
    for linea in fuente.splitlines():
        if "### BEGIN SOLUTION" in linea:
            dentro = True
        elif "### END SOLUTION" in linea:
            dentro = False
        elif dentro:
            codigo = re.sub(r"\s+#\s.*$", "", linea).strip()
            if len(codigo) >= LINEA_MINIMA:
                lineas.append(codigo)
    return lineas


def citadas(pistas: list[str], lineas: list[str]) -> list[str]:
    """Las líneas de la solución que aparecen tal cual en alguna pista (sin contar `…` ni saltos de línea)."""
    textos = [re.sub(r"\s+", " ", p.replace("`", "")) for p in pistas]
    return [linea for linea in lineas if any(re.sub(r"\s+", " ", linea) in t for t in textos)]


def test_todos_los_desafios_del_manifiesto_estan_en_disco():
    assert set(desafios()) == {p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml")}


@pytest.mark.parametrize("slug", desafios())
def test_cada_desafio_tiene_pistas_validas(slug):
    ruta = RAIZ / "desafios" / slug / "pistas.toml"
    assert ruta.exists(), f"falta {ruta.relative_to(RAIZ)}"
    assert len(pistas_de(slug)) >= 3, "hacen falta al menos tres pistas, de menos a más"


@pytest.mark.parametrize("slug", desafios())
def test_ninguna_pista_copia_la_solucion(slug):
    pistas = [
        p["texto"]
        for p in tomllib.loads((RAIZ / "desafios" / slug / "pistas.toml").read_text(encoding="utf-8"))["pista"]
    ]
    lineas = lineas_de_la_solucion((RAIZ / "desafios" / slug / "solucion.py").read_text(encoding="utf-8"))
    assert lineas, "la solución de referencia no tiene región ### BEGIN SOLUTION"
    assert citadas(pistas, lineas) == []


def test_se_nota_una_pista_que_copia_una_linea():
    fuente = (
        "def f(x):\n    ### BEGIN SOLUTION\n    if isinstance(x, bool):  # True es un int\n"
        "        return False\n    return x in (1, 2)\n    ### END SOLUTION\n"
    )
    lineas = lineas_de_la_solucion(fuente)
    assert lineas == ["if isinstance(x, bool):", "return x in (1, 2)"]
    assert citadas(["Piensa en `isinstance(x, bool)` antes que en el `int`."], lineas) == []  # un trozo no es la línea
    assert citadas(["Empieza con `if isinstance(x,\nbool):` y sigue."], lineas) == ["if isinstance(x, bool):"]
    assert citadas(["Escribe `return x in\n(1, 2)`."], lineas) == ["return x in (1, 2)"]


# --- Seguir las pistas al pie de la letra lleva a la nota entera ------------------------------------


def lee_pistas(slug: str) -> dict:
    return tomllib.loads((RAIZ / "desafios" / slug / "pistas.toml").read_text(encoding="utf-8"))


def codigo_que_sigue(slug: str, datos: dict) -> str:
    """El código de [sigue], comprobado: un texto que usa cada pista (un «# pista N» por pista)."""
    donde = f"desafios/{slug}/pistas.toml"
    sigue = datos["sigue"]
    assert isinstance(sigue, dict) and set(sigue) == {"codigo"} and isinstance(sigue["codigo"], str), (
        f'{donde}: [sigue] es una tabla con una sola clave, codigo = """…""" (el código de la celda)'
    )
    comentarios = " ".join(re.findall(r"#(.*)$", sigue["codigo"], re.M))
    usadas = {int(n) for n in re.findall(r"\bpista (\d+)", comentarios)}
    faltan = [n for n in range(1, len(datos["pista"]) + 1) if n not in usadas]
    assert not faltan, f"{donde}: [sigue] no dice dónde usa las pistas {faltan} (un comentario «# pista N»)"
    return sigue["codigo"]


@pytest.mark.parametrize("slug", desafios())
def test_seguir_las_pistas_saca_la_nota_entera(slug):
    datos = lee_pistas(slug)
    if "sigue" not in datos:
        if SIGUE_OBLIGATORIO or slug in CON_SIGUE:
            pytest.fail(f"desafios/{slug}/pistas.toml no tiene [sigue]: añade la solución que sigue las pistas")
        pytest.xfail(f"desafios/{slug}/pistas.toml no tiene [sigue] todavía")
    ganados, maximo, fallos = puntos(slug, codigo_que_sigue(slug, datos))
    assert ganados == maximo, (
        f"quien sigue las pistas de {slug} saca {ganados} de {maximo}: alguna pista lleva lejos del "
        f"enunciado. No pasan: {fallos}"
    )


# Lo que escribía quien seguía las pistas de antes de permiso-en-ejecutar («tiene tres valores
# posibles»; «sólo si contesta False devuelve el error»): sacaba 6 de 10, y desde que las partes ocultas
# del salmorejo traen usuarios que no contestan True ni False, 4 (deja correr la escritura inyectada).
SIGUE_LAS_VIEJAS = """
def ejecutar(ll, entorno):
    id = ll.get("id") if isinstance(ll, dict) else None
    problema = problema_de_llamada(ll)
    if problema:
        return error(id, NO_EJECUTADA + problema)
    decision = permiso(ll)
    if decision == "denegar":
        return error(id, NO_EJECUTADA + "permiso denegado")
    if decision == "preguntar" and preguntar(ll) is False:
        return error(id, NO_EJECUTADA + "el usuario no lo ha permitido")
    funcion = HERRAMIENTAS[ll["name"]]["funcion"]
    try:
        return resultado(id, funcion(entorno, **ll["input"]))
    except Exception as e:
        return error(id, "%s: %s" % (type(e).__name__, e))
"""


def test_la_prueba_nota_unas_pistas_que_contradicen_el_enunciado():
    ganados, maximo, fallos = puntos("permiso-en-ejecutar", SIGUE_LAS_VIEJAS)
    assert (ganados, maximo) == (4, 10) and {"denegar", "nadie", "salmorejo", "variaciones"} <= set(fallos)


@pytest.mark.parametrize(
    "sigue, motivo",
    [
        ("codigo = 3\n", "una sola clave, codigo"),
        ('codigo = "x = 1"\notro = 2\n', "una sola clave, codigo"),
        ('codigo = "x = 1  # pista 1"\n', r"no dice dónde usa las pistas \[2\]"),
        ('codigo = "x = 1  # pista 3 y pista 1"\n', r"no dice dónde usa las pistas \[2\]"),
        ("codigo = \"print('pista 2')  # pista 1\"\n", r"no dice dónde usa las pistas \[2\]"),  # fuera de un comentario
    ],
)
def test_un_sigue_mal_escrito_dice_que_corregir(sigue, motivo):
    datos = tomllib.loads('[[pista]]\ntexto = "a"\n[[pista]]\ntexto = "b"\n[sigue]\n' + sigue)
    with pytest.raises(AssertionError, match=motivo):
        codigo_que_sigue("x", datos)
