"""Las formas legítimas de escribir las funciones de cada desafío: todas sacan la nota entera.

El calificador juzga lo que hace el código, no cómo se escribe. En los cuatro desafíos
(permiso-en-ejecutar, puerta-corregida, identidad-delegada, acumulador-de-hechos), cada
función que pide el desafío se puede escribir:

1. con `def`, como en la solución de referencia;
2. con un decorador propio (que envuelve la función con `functools.wraps`);
3. como un objeto con `__call__` ligado a ese nombre;
4. como un `functools.partial`;
5. como una `lambda` que llama a una función auxiliar;
6. en una celda nueva, debajo de la celda de la solución, que se deja como en el enunciado;
7. dentro de una celda `%%capture` (o con `%time` en una línea), y junto a celdas con órdenes
   de IPython (`%load_ext`, `!ls`, `nombre?` para ver la ayuda);
8. con una expresión entre paréntesis que sigue en la línea siguiente con `% (…)` (formato con %);
9. llamando a `display(...)`, mirando `In` y `Out`, y con `print` de depuración;
10. con una celda de borrador que no es Python válido (no define nada: no cuesta nada);
11. en un cuaderno que el navegador ha renombrado (`<desafío> (1).ipynb`, `Untitled.ipynb`);
12. en un cuaderno en el que se ha editado una celda bloqueada (se restaura y se dice) o se ha
    pegado una copia de una celda bloqueada sin sus metadatos.
13. escribiendo un fichero con `%%writefile` y corriéndolo con `%run`, y con
    `from IPython.core.display import …`;
14. con lo que sólo trae el Python del navegador (un f-string de PEP 701, `def f[T]`).

En el primero, además, el `ejecutar` puede usar el entorno que recibe como el diccionario que
es (`len`, `in`, `[]`, `get`, `keys`, `values`, `items`, iterarlo, compararlo, `bool`, `repr`,
`copy`, `dict(...)`) y llamar a la función de la herramienta con el entorno por posición o
por nombre (`funcion(entorno, **entrada)`, `funcion(entorno=entorno, **entrada)`,
`funcion(entorno, *entrada.values())`), como en la lección.
"""

import copy
import re

import nbformat
import pytest

from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from tests.calificador.ayudas import con_solucion, curso_del_desafio, entrega, por_alumno

DESAFIOS = ["permiso-en-ejecutar", "puerta-corregida", "identidad-delegada", "acumulador-de-hechos"]


def _renombra(solucion: str, funciones) -> str:
    """La solución con cada función llamada _<nombre>_impl (a la que se ligará el nombre de verdad)."""
    for f in funciones:
        solucion = re.sub(rf"^def {f}\(", f"def _{f}_impl(", solucion, flags=re.M)
    return solucion


def estilos(desafio: Desafio) -> dict[str, list[str]]:
    """alumno: las celdas de código que añade (la primera va en la celda de la solución)."""
    sol, fs = desafio.lee("solucion.py"), desafio.funciones
    impl = _renombra(sol, fs)
    decorada = (
        "import functools\ndef _anota(f):\n    @functools.wraps(f)\n    def envuelta(*a, **k):\n"
        "        return f(*a, **k)\n    return envuelta\n"
        + re.sub(rf"^(def (?:{'|'.join(fs)})\()", r"@_anota\n\1", sol, flags=re.M)
    )
    objeto = (
        impl + "\nclass _Llamable:\n    def __init__(self, f):\n        self.f = f\n"
        "    def __call__(self, *a, **k):\n        return self.f(*a, **k)\n"
        + "".join(f"{f} = _Llamable(_{f}_impl)\n" for f in fs)
    )
    parcial = "import functools\n" + impl + "".join(f"{f} = functools.partial(_{f}_impl)\n" for f in fs)
    lambdas = impl + "".join(f"{f} = lambda *a, **k: _{f}_impl(*a, **k)\n" for f in fs)
    formato = '_nota = ("%s de %s"\n         % (1, 2))\n' + sol
    return {
        "e01_def": [sol],
        "e02_decorada": [decorada],
        "e03_objeto_llamable": [objeto],
        "e04_partial": [parcial],
        "e05_lambda": [lambdas],
        "e06_en_otra_celda": [desafio.esqueleto(), sol],
        "e07_magias": [
            "%load_ext autoreload\n!ls\n%time x = 1\n" + sol,
            f"{fs[0]}?",
            "%%capture\n" + sol,
            "%time _y = 2\n%pip install nada\n_z = !pwd",
            f"_guarda = {fs[0]}\ndel {fs[0]}\n%timeit -n 1 -r 1 _nada = 1\n"
            f"%time _cronometrada = _guarda\n{fs[0]} = _cronometrada",
        ],
        "e08_formato_en_dos_lineas": [formato],
        "e09_display_in_out": [sol + f"\ndisplay({fs[0]})\ndisplay('listo', len(In), Out)\nprint({fs[0]})\n"],
        "e10_borrador_invalido": [sol, "def a_medias(:\n    pass", "esto no es python"],
        "e11_writefile_y_run": [
            "%%writefile ayuda.py\n_VALOR = 41\n",
            "%run ayuda.py\n_VALOR += 1\n",
            "from IPython.core.display import HTML, display\ndisplay(HTML('<b>hola</b>'))\nassert _VALOR == 42\n" + sol,
        ],
        "e12_python_del_navegador": [
            '_ETIQUETAS = {"a": "1"}\nassert f"{_ETIQUETAS["a"]}" == "1"\n'
            "def _igual[T](x: T) -> T:\n    return x\n" + sol
        ],
    }


ENTORNO_COMO_DICT = """    _vistas = (len(entorno), list(entorno)[:1], entorno.get("no-existe.txt"),
               "lista.txt" in entorno,
               dict(entorno) == entorno, bool(entorno), repr(entorno)[:0], entorno.copy() == entorno,
               sorted(entorno.items())[:1], list(entorno.values())[:1], list(entorno.keys())[:1],
               [r for r in entorno][:1], entorno == dict(entorno))
    print("depuración:", len(entorno), _vistas[0])
"""


def estilos_de_ejecutar(desafio: Desafio) -> dict[str, list[str]]:
    """Lo propio del primer desafío: el entorno como diccionario y la herramienta con sus argumentos."""
    sol = desafio.lee("solucion.py")
    llamada = 'resultado(id, funcion(entorno, **ll["input"]))'
    assert llamada in sol
    por_nombre = 'resultado(id, funcion(entorno=entorno, **ll["input"]))'
    por_posicion = 'resultado(id, funcion(entorno, *ll["input"].values()))'
    return {
        "p01_entorno_como_dict": [sol.replace("    id = ll.get", ENTORNO_COMO_DICT + "    id = ll.get", 1)],
        "p02_entorno_por_nombre": [sol.replace(llamada, por_nombre)],
        "p03_argumentos_por_posicion": [sol.replace(llamada, por_posicion)],
        "p04_lee_el_fichero_antes": [
            sol.replace(
                "    funcion = HERRAMIENTAS",
                '    if ll["name"] == "leer" and '
                'll["input"]["ruta"] in entorno:\n        _antes = entorno['
                'll["input"]["ruta"]]\n    funcion = HERRAMIENTAS',
            )
        ],
    }


def cuaderno_con(cuaderno, celdas: list[str], desafio: Desafio):
    """El cuaderno repartido con la primera celda en la solución y las demás justo debajo."""
    nb = con_solucion(cuaderno, celdas[0], desafio)
    i = nb.cells.index(celda(nb, desafio.celda_solucion))
    for n, codigo in enumerate(celdas[1:], 1):
        nb.cells.insert(i + n, nbformat.v4.new_code_cell(codigo))
    return nb


def celda(nb, gid):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == gid)


@pytest.fixture(scope="module", params=DESAFIOS)
def lote(request, tmp_path_factory):
    desafio = Desafio(request.param)
    curso, cuaderno = curso_del_desafio(tmp_path_factory, desafio)
    sol = desafio.lee("solucion.py")
    todos = {**estilos(desafio), **(estilos_de_ejecutar(desafio) if desafio.slug == "permiso-en-ejecutar" else {})}
    for alumno, celdas in todos.items():
        entrega(curso, alumno, cuaderno_con(cuaderno, celdas, desafio), desafio)
    # Artefactos del navegador: otro nombre, celdas bloqueadas editadas, una copia sin metadatos.
    for alumno, nombre in (("n01_renombrado", f"{desafio.slug} (1).ipynb"), ("n02_untitled", "Untitled.ipynb")):
        carpeta = curso / "submitted" / alumno / desafio.slug
        carpeta.mkdir(parents=True)
        nbformat.write(con_solucion(cuaderno, sol, desafio), carpeta / nombre)
    editado = con_solucion(cuaderno, sol, desafio)
    celda(editado, "partida").source += "\nprint('lo he tocado')"
    primera = next(iter(desafio.puntos()))
    celda(editado, f"prueba_{primera}").source = "# me estorbaba"
    entrega(curso, "n03_bloqueadas_editadas", editado, desafio)
    copia = con_solucion(cuaderno, sol, desafio)
    pegada = copy.deepcopy(celda(copia, f"prueba_{primera}"))
    pegada.metadata = {}
    pegada.id = "pegada"
    copia.cells.append(pegada)
    entrega(curso, "n04_copia_de_una_prueba", copia, desafio)
    filas = por_alumno(califica(curso, desafio, plazo=5.0, progreso=False))
    return {
        "desafio": desafio,
        "curso": curso,
        "filas": filas,
        "alumnos": [*todos, "n01_renombrado", "n02_untitled", "n03_bloqueadas_editadas", "n04_copia_de_una_prueba"],
    }


def test_cada_estilo_honesto_saca_la_nota_entera(lote):
    mal = {a: lote["filas"][a]["motivo"] for a in lote["alumnos"] if lote["filas"][a]["puntos"] != 10}
    assert not mal, mal
    assert len(lote["alumnos"]) >= 14


def test_lo_que_se_arregla_se_dice(lote):
    desafio, filas = lote["desafio"], lote["filas"]
    motivo = filas["n03_bloqueadas_editadas"]["motivo"]
    primera = next(iter(desafio.puntos()))
    assert "«partida»" in motivo and f"«prueba_{primera}»" in motivo and "restaurado" in motivo
    assert "no es Python válido para el calificador" in filas["e10_borrador_invalido"]["motivo"]
    calificado = lote["curso"] / "autograded" / "n03_bloqueadas_editadas" / desafio.slug / desafio.cuaderno
    assert "Nota del calificador" in calificado.read_text(encoding="utf-8")
    for alumno in ("e01_def", "n01_renombrado", "e06_en_otra_celda"):
        assert filas[alumno]["motivo"] == "", filas[alumno]["motivo"]
