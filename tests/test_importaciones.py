"""Las importaciones de cursos/: sin ciclos (ni arriba del todo ni dentro de una función), y en su dirección.

Cada paquete tiene un papel, y la carpeta dice quién puede importar a quién:

- cursos/calificador/ (el núcleo de confianza y la caja) no importa nada de cursos/profesor/ ni de
  cursos/sitio/: una nota no depende del flujo de nbgrader ni de cómo se construye el sitio;
- cursos/sitio/ importa de cursos/profesor/ sólo reparto.py (el desafío repartido va al sitio);
- el Pyodide fijado está en cursos/pyodide/, que no importa ninguno de los otros tres: el sitio y
  el calificador lo toman de allí;
- las órdenes de ./curso (cursos/ordenes/, una por módulo) pueden importar de todo, y a ellas sólo
  las importa cursos/cli.py: nada del curso depende de la línea de órdenes;
- el laboratorio de inyecciones (cursos/modelo/) no importa ningún paquete: corre también en el
  navegador; y la caja (cursos/calificador/caja/) no importa nada de fuera de ella;
- los módulos de arriba (cursos/*.py: el manifiesto, el desafío, los errores…) no importan ningún
  paquete: son la base de todos (PUEDE_IMPORTAR, la columna «importa de» de docs/arquitectura.md);
- y dos paquetes nunca se importan el uno al otro, ni en un ciclo más largo.
"""

import ast

from cursos import RAIZ
from tests.ayudas import PUEDE_IMPORTAR


def _modulo(ruta) -> str:
    partes = ruta.relative_to(RAIZ).with_suffix("").parts
    return ".".join(partes[:-1] if partes[-1] == "__init__" else partes)


def grafo() -> dict[str, set[str]]:
    """{módulo: módulos de cursos que importa}, contando también las importaciones perezosas."""
    rutas = {_modulo(r): r for r in (RAIZ / "cursos").rglob("*.py") if "recursos" not in r.parts}
    aristas = {}
    for nombre, ruta in rutas.items():
        importados = set()
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.ImportFrom) and nodo.module and nodo.module.startswith("cursos"):
                # from cursos.profesor import fuente: el submódulo si lo es, si no el paquete
                importados |= {
                    f"{nodo.module}.{a.name}" if f"{nodo.module}.{a.name}" in rutas else nodo.module for a in nodo.names
                }
            elif isinstance(nodo, ast.Import):
                importados |= {a.name for a in nodo.names if a.name.startswith("cursos")}
        aristas[nombre] = {m for m in importados if m in rutas and m != nombre}
    return aristas


def ciclos(aristas: dict[str, set[str]]) -> list[list[str]]:
    encontrados, estado = [], {}

    def visita(nodo, camino):
        estado[nodo] = "abierto"
        for siguiente in sorted(aristas[nodo]):
            if estado.get(siguiente) == "abierto":
                encontrados.append(camino[camino.index(siguiente) :] + [siguiente])
            elif siguiente not in estado:
                visita(siguiente, camino + [siguiente])
        estado[nodo] = "cerrado"

    for nodo in sorted(aristas):
        if nodo not in estado:
            visita(nodo, [nodo])
    return encontrados


def test_no_hay_ciclos_de_importacion():
    assert ciclos(grafo()) == []


def test_el_detector_ve_un_ciclo():
    assert ciclos({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b", "a"]]


def paquete(modulo: str) -> str | None:
    """cursos.profesor.libro → cursos.profesor; un módulo de arriba (cursos.desafio) no es de ningún paquete."""
    partes = modulo.split(".")
    return ".".join(partes[:2]) if len(partes) > 2 or (RAIZ / "cursos" / partes[-1]).is_dir() else None


def entre_paquetes(aristas: dict[str, set[str]]) -> dict[tuple[str, str], set[str]]:
    """{(paquete, paquete que importa): las importaciones que lo hacen, «módulo → módulo»}."""
    cruces = {}
    for origen, destinos in aristas.items():
        for destino in destinos:
            de, a = paquete(origen), paquete(destino)
            if de and a and de != a:
                cruces.setdefault((de, a), set()).add(f"{origen} → {destino}")
    return cruces


def test_el_calificador_no_importa_ni_al_profesor_ni_al_sitio():
    cruces = entre_paquetes(grafo())
    prohibidas = {k: v for k, v in cruces.items() if k[0] == "cursos.calificador" and k[1] != "cursos.pyodide"}
    assert not prohibidas, prohibidas


def test_el_sitio_importa_del_profesor_solo_el_reparto():
    cruces = entre_paquetes(grafo()).get(("cursos.sitio", "cursos.profesor"), set())
    assert {c.split(" → ")[1] for c in cruces} <= {"cursos.profesor.reparto"}, cruces


def test_el_pyodide_fijado_no_importa_a_quien_lo_usa():
    cruces = entre_paquetes(grafo())
    assert not [v for k, v in cruces.items() if k[0] == "cursos.pyodide"], cruces
    # Y los dos que lo usan lo toman de allí: nadie fuera de cursos/pyodide/ lee fijado.toml.
    assert ("cursos.calificador", "cursos.pyodide") in cruces and ("cursos.sitio", "cursos.pyodide") in cruces
    fuera = [
        str(r.relative_to(RAIZ))
        for r in (RAIZ / "cursos").rglob("*.py")
        if "pyodide" not in r.relative_to(RAIZ).parts[:2]
        and any(
            isinstance(n, ast.Constant) and n.value == "fijado.toml" for n in ast.walk(ast.parse(r.read_text("utf-8")))
        )
    ]
    assert not fuera, fuera


def fuera_de_cli_y_ordenes(aristas: dict[str, set[str]]) -> list[str]:
    """Las importaciones de cursos.ordenes desde otro sitio que cursos.cli o el propio paquete."""
    return sorted(
        f"{origen} → {destino}"
        for origen, destinos in aristas.items()
        for destino in destinos
        if paquete(destino) == "cursos.ordenes" and origen != "cursos.cli" and paquete(origen) != "cursos.ordenes"
    )


def test_a_las_ordenes_solo_las_importa_cli():
    aristas = grafo()
    assert fuera_de_cli_y_ordenes(aristas) == []
    # Y cli.py las importa de verdad (si no, la regla no vería nada).
    assert {d for d in aristas["cursos.cli"] if paquete(d) == "cursos.ordenes"} >= {
        "cursos.ordenes.calificar",
        "cursos.ordenes.pruebas",
    }


def test_la_regla_de_las_ordenes_ve_quien_las_importa():
    aristas = {
        "cursos.cli": {"cursos.ordenes.calificar"},
        "cursos.ordenes.calificar": {"cursos.ordenes.opciones", "cursos.profesor.calificar"},
        "cursos.profesor.calificar": {"cursos.ordenes.opciones"},
        "cursos.ordenes.opciones": set(),
    }
    assert fuera_de_cli_y_ordenes(aristas) == ["cursos.profesor.calificar → cursos.ordenes.opciones"]


# Los paquetes que puede importar cada paquete de cursos/ (los módulos de arriba, cursos/*.py, los
# importa cualquiera); «*»: todos. Es la columna «importa de» del mapa de docs/arquitectura.md.


def fuera_de_su_columna(aristas: dict[str, set[str]]) -> list[str]:
    """Las importaciones entre paquetes que no permite PUEDE_IMPORTAR, y las de un módulo de arriba a
    un paquete (salvo cli.py → ordenes/): los módulos de arriba son la base de todos."""
    malas = [
        cruce
        for (de, a), cruces in entre_paquetes(aristas).items()
        if "*" not in PUEDE_IMPORTAR.get(de, set()) and a not in PUEDE_IMPORTAR.get(de, set())
        for cruce in cruces
    ]
    malas += [
        f"{origen} → {destino}"
        for origen, destinos in aristas.items()
        if paquete(origen) is None and origen not in ("cursos", "cursos.__main__")
        for destino in destinos
        if paquete(destino) and not (origen == "cursos.cli" and paquete(destino) == "cursos.ordenes")
    ]
    return sorted(malas)


def test_cada_paquete_importa_solo_lo_que_dice_el_mapa():
    aristas = grafo()
    assert fuera_de_su_columna(aristas) == []
    assert {paquete(m) for m in aristas} - {None} == set(PUEDE_IMPORTAR), "cada paquete, con su regla"


def test_la_regla_del_mapa_ve_quien_se_sale_de_su_columna():
    aristas = {
        "cursos.modelo.inyecciones": {"cursos.sitio.paginas", "cursos.desafio"},
        "cursos.manifiesto": {"cursos.profesor.reparto"},
        "cursos.cli": {"cursos.ordenes.calificar"},
        "cursos.ordenes.calificar": {"cursos.profesor.calificar"},
        "cursos.desafio": set(),
        "cursos.sitio.paginas": set(),
        "cursos.profesor.reparto": set(),
        "cursos.profesor.calificar": set(),
    }
    assert fuera_de_su_columna(aristas) == [
        "cursos.manifiesto → cursos.profesor.reparto",
        "cursos.modelo.inyecciones → cursos.sitio.paginas",
    ]


def test_la_caja_no_importa_nada_de_fuera_de_la_caja():
    """hijo.py y protocolo.py corren en la caja, que no ve el repositorio: sólo se importan entre ellos."""
    aristas = grafo()
    caja = {m for m in aristas if m.startswith("cursos.calificador.caja")}
    assert caja >= {"cursos.calificador.caja.hijo", "cursos.calificador.caja.protocolo"}
    assert {d for m in caja for d in aristas[m]} <= caja


def test_ningun_paquete_importa_a_otro_que_lo_importa():
    paquetes = {}
    for de, a in entre_paquetes(grafo()):
        paquetes.setdefault(de, set()).add(a)
        paquetes.setdefault(a, set())
    assert ciclos(paquetes) == []


def test_las_reglas_ven_una_importacion_al_reves():
    aristas = {"cursos.calificador.banco": {"cursos.profesor.libro"}, "cursos.profesor.libro": set()}
    assert entre_paquetes(aristas) == {
        ("cursos.calificador", "cursos.profesor"): {"cursos.calificador.banco → cursos.profesor.libro"}
    }


def test_ninguna_prueba_importa_otra_prueba():
    """Lo compartido va en un módulo de ayudas (tests/ayudas.py, el ayudas.py de cada carpeta) y las
    fixtures, en conftest.py: importar un test_*.py lo ejecutaría dos veces (y sus fixtures también)."""
    culpables = []
    for ruta in (RAIZ / "tests").rglob("*.py"):
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            nombres = (
                [nodo.module or ""] + [a.name for a in nodo.names]
                if isinstance(nodo, ast.ImportFrom)
                else [a.name for a in nodo.names]
                if isinstance(nodo, ast.Import)
                else []
            )
            if any(n.rsplit(".", 1)[-1].startswith("test_") for n in nombres):
                culpables.append(f"{ruta.relative_to(RAIZ)}:{nodo.lineno}")
    assert not culpables, culpables
