"""Ningún desafío se regala: nada de lo que el curso ya le da al alumno saca 10 por sí solo.

Para cada uno de los desafíos, se entrega como solución, de una en una:
- cada celda de código de su lección (la que lo precede en el curso);
- cada módulo del curso (los del manifiesto, tal como se sirven en el sitio y se copian junto a
  los cuadernos, enteros: harness.py incluido, aunque el desafío reciba una versión recortada).

Cada entrega es el cuaderno repartido con el texto pegado debajo del esqueleto de la solución: lo
más generoso con quien copia (conserva lo que el esqueleto ya trae, como conversa o TIPOS_JSON).
Ninguna puede sacar 10: si una celda o un módulo saca la nota entera, el desafío está resuelto en
la lección o en el harness y el alumno no tiene nada que hacer. Tampoco una copia con otro
nombre, armada con varias celdas (tests/calificador/copias.py: la función más parecida, con los
nombres normalizados). Lo que la lección enseña puede dar puntos; la nota entera exige lo que el
enunciado pide además.
"""

import pytest

from cursos import RAIZ, celdas
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from tests.ayudas import puntos_en_el_banco
from tests.calificador.ayudas import califica_lote, curso_del_desafio, entrega_codigos
from tests.calificador.copias import copia_renombrada, mas_parecidas, normalizada, parecido

CURSO = leer_curso()
DESAFIOS = sorted(p.parent.name for p in (RAIZ / "desafios").glob("*/desafio.toml"))

# Los desafíos de otras lecciones que hoy todavía se regalan: los arregla quien lleva su lección.
# strict: en cuanto dejen de regalarse, esta marca falla y hay que quitarlos de aquí.
TODAVIA_SE_REGALAN: dict[str, str] = {}


def regalos(desafio: Desafio) -> dict[str, str]:
    """{alumno: código} con cada celda de la lección y cada módulo del curso pegados bajo el esqueleto."""
    esqueleto = desafio.esqueleto()
    leccion = CURSO.leccion(desafio.leccion).fuente
    pegados = {f"celda_{n:02d}": fuente for n, (fuente, _) in enumerate(celdas.celdas_de_codigo(leccion), 1)}
    for nombre in CURSO.modulos:
        pegados["modulo_" + nombre.replace(".", "_")] = CURSO.modulo(nombre).read_text(encoding="utf-8")
    return {alumno: esqueleto + "\n\n\n" + codigo + "\n" for alumno, codigo in pegados.items()}


def _marcas(slug: str) -> list:
    if slug in TODAVIA_SE_REGALAN:
        return [pytest.mark.xfail(strict=True, reason=TODAVIA_SE_REGALAN[slug])]
    return []


@pytest.mark.parametrize("slug", [pytest.param(s, marks=_marcas(s)) for s in DESAFIOS])
def test_ninguna_celda_ni_modulo_saca_la_nota_entera(tmp_path_factory, slug):
    desafio = Desafio(slug)
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    entregas = regalos(desafio)
    entrega_codigos(curso, cuaderno, entregas, desafio)
    filas = califica_lote(curso, desafio)
    print(slug, {alumno: filas[alumno]["puntos"] for alumno in entregas})  # con -s: lo que saca cada regalo
    enteras = sorted(alumno for alumno in entregas if filas[alumno]["puntos"] >= 10)
    assert not enteras, f"{slug}: sacan 10 copiando lo que ya da el curso: {', '.join(enteras)}"


@pytest.mark.parametrize("slug", ["el-bucle-de-texto", "problema-de-esquema", "ejecutar-nunca-lanza"])
def test_tampoco_la_leccion_entera_ni_el_harness_con_ella(tmp_path_factory, slug):
    """En los tres primeros desafíos, ni todas las celdas de la lección juntas, ni con harness.py detrás."""
    desafio = Desafio(slug)
    leccion = "\n\n".join(f for f, _ in celdas.celdas_de_codigo(CURSO.leccion(desafio.leccion).fuente))
    harness = (RAIZ / "harness.py").read_text(encoding="utf-8")
    entregas = {"leccion_entera": leccion, "leccion_y_harness": leccion + "\n\n" + harness}
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    entrega_codigos(curso, cuaderno, {a: desafio.esqueleto() + "\n\n\n" + c for a, c in entregas.items()}, desafio)
    filas = califica_lote(curso, desafio)
    print(slug, {a: filas[a]["puntos"] for a in entregas})  # con -s
    assert all(filas[a]["puntos"] < 10 for a in entregas), {a: filas[a]["puntos"] for a in entregas}


def test_los_regalos_cubren_la_leccion_y_los_modulos():
    """La prueba de arriba entrega de verdad cada celda y cada módulo (y harness.py entero)."""
    entregas = regalos(Desafio("ejecutar-nunca-lanza"))
    leccion = CURSO.leccion("los-errores").fuente
    assert sum(a.startswith("celda_") for a in entregas) == len(celdas.celdas_de_codigo(leccion)) > 3
    harness = (RAIZ / "harness.py").read_text(encoding="utf-8")
    assert harness in entregas["modulo_harness_py"] and "def ejecutar(ll, entorno):" in harness
    assert all(a.startswith("modulo_") for a in entregas if not a.startswith("celda_"))


# Copias con otro nombre: la función de la lección (o de su módulo) que más se parece a la
# de referencia, con el nombre y los parámetros de la del alumno, detrás de las celdas que la definen.
# Se califica en el banco del cuaderno (el código es del curso): un fallo al cargar vale 0.
# Ninguna hoy: puerta-corregida pedía la puerta de la lección y ahora pide permisos por acción.
COPIA_CON_OTRO_NOMBRE_TODAVIA_PASA: dict[str, str] = {}


def _puntos_de_la_copia(slug: str) -> int:
    desafio = Desafio(slug)
    try:
        return puntos_en_el_banco(slug, desafio.esqueleto() + "\n\n\n" + copia_renombrada(desafio))[0]
    except Exception:  # la copia no carga (una celda que depende de otra): no saca nada
        return 0


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param(s, marks=[pytest.mark.xfail(strict=True, reason=COPIA_CON_OTRO_NOMBRE_TODAVIA_PASA[s])])
        if s in COPIA_CON_OTRO_NOMBRE_TODAVIA_PASA
        else s
        for s in DESAFIOS
    ],
)
def test_una_copia_renombrada_de_la_leccion_no_saca_la_nota_entera(slug):
    assert _puntos_de_la_copia(slug) < 10


def test_renombrar_no_esconde_la_copia():
    """El parecido se mide con los nombres normalizados: cambiar nombres y comentarios no lo baja."""
    original = "def f(a, b):\n    '''Suma.'''\n    total = a + b  # la suma\n    return max(total, 0)\n"
    renombrada = "def g(x, y):\n    t = x + y\n    return max(t, 0)\n"
    assert normalizada(original) == normalizada(renombrada)
    assert parecido(original, "def h(x):\n    return [x]\n") < 0.6
    # La puerta del laboratorio es la función más parecida a la de referencia de «puerta-corregida».
    elegida, valor = mas_parecidas(Desafio("puerta-corregida"))["puerta"]
    assert elegida == "puerta_corregida" and valor > 0.8


def test_la_copia_junta_varias_celdas_con_otro_nombre():
    """En «identidad-delegada» la copia toma funciones de dos celdas distintas y las pone con su nombre."""
    copia = copia_renombrada(Desafio("identidad-delegada"))
    elegidas = {n: e for n, (e, _) in mas_parecidas(Desafio("identidad-delegada")).items()}
    assert elegidas["crear_herramienta_perfil"] == "crear_herramienta_perfil"
    assert elegidas["validar_token"] == "validar_token"
    assert "def abrir_sesion(" in copia and "def %s(" % elegidas["abrir_sesion"] in copia


# La lección siguiente también da código: «Estado y memoria» vuelve a poner la tabla de permisos con
# con_permiso(ejecutar, permiso, usuario), que sigue el orden y los mensajes de «Permisos y confianza».
# Adaptada (con el permiso y el usuario del desafío, y su preguntar), es una respuesta
# entera de permiso-en-ejecutar, y no se puede evitar sin cambiar el contrato: la lección 6 tiene que
# traer ese ejecutar para enseñar cómo para la tabla una memoria envenenada. Su CALIFICACION.md pide
# cerrar el desafío antes de publicar la lección 6. strict: si deja de regalarse, la nota sobra.
LA_LECCION_6_REGALA_EL_DESAFIO_5 = (
    "«Estado y memoria» construye sobre la respuesta de permiso-en-ejecutar: "
    "desafios/permiso-en-ejecutar/CALIFICACION.md pide cerrarlo antes de publicarla"
)


def adaptada_de_estado_y_memoria() -> str:
    """El con_permiso de «Estado y memoria», tal cual, puesto sobre el ejecutar de harness.py con el
    permiso y el usuario del desafío (los del banco de cada prueba)."""
    import ast

    celda = next(
        f for f, _ in celdas.celdas_de_codigo(CURSO.leccion("estado-y-memoria").fuente) if "def con_permiso(" in f
    )
    con_permiso = next(n for n in ast.parse(celda).body if isinstance(n, ast.FunctionDef) and n.name == "con_permiso")
    return (
        'exec(open("harness.py", encoding="utf-8").read())  # como la celda de la lección\n'
        + ast.unparse(con_permiso)
        + "\n\nejecutar = con_permiso(ejecutar, lambda ll: permiso(ll), lambda ll: preguntar(ll))\n"
    )


@pytest.mark.xfail(strict=True, reason=LA_LECCION_6_REGALA_EL_DESAFIO_5)
def test_la_leccion_siguiente_no_regala_permiso_en_ejecutar():
    desafio = Desafio("permiso-en-ejecutar")
    ganados, maximo, fallos = puntos_en_el_banco(
        desafio.slug, desafio.esqueleto() + "\n\n\n" + adaptada_de_estado_y_memoria()
    )
    assert ganados < maximo, "la celda de «Estado y memoria», adaptada, saca la nota entera"


def test_la_adaptacion_de_la_leccion_6_es_la_de_la_leccion():
    """La prueba de arriba entrega de verdad el con_permiso de la lección, y no otro: con la celda cambiada
    para que falle en abierto (sólo «denegar» para), la adaptación ya no saca la nota entera."""
    adaptada = adaptada_de_estado_y_memoria()
    assert "def con_permiso(ejecutar_sin_permiso, permiso, usuario):" in adaptada
    abierta = adaptada.replace("if decision not in ('permitir', 'preguntar'):", "if decision == 'denegar':")
    assert abierta != adaptada
    desafio = Desafio("permiso-en-ejecutar")
    ganados, maximo, _ = puntos_en_el_banco(desafio.slug, desafio.esqueleto() + "\n\n\n" + abierta)
    assert ganados < maximo
