"""Lo que comparten las pruebas de fuera del navegador (las pruebas no se importan unas de otras)."""

import ast
import contextlib
import functools
import io
import os
import re
from pathlib import Path
from urllib.parse import unquote

import nbformat

from cursos import RAIZ
from cursos.manifiesto import Curso, leer_curso
from cursos.portada import NOMBRE, titulo_del_desafio

# Las dos celdas de «Permisos y confianza» tal como las publica el curso, con su sangría.
SEMILLA = RAIZ / "tests" / "semilla"


def modulos_compartidos() -> tuple[str, ...]:
    """Los módulos que comparten todas las lecciones, sacados del manifiesto (su única fuente).

    Son los que viven en la raíz del repositorio; los laboratorios de una lección, que el
    manifiesto también nombra, viven en la carpeta de su lección.
    """
    curso = leer_curso()
    return tuple(nombre for nombre in curso.modulos if curso.modulo(nombre).parent == RAIZ)


MODULOS = modulos_compartidos()


def carga_modulos() -> dict:
    """Los módulos compartidos cargados como en las lecciones: exec en un mismo espacio de nombres."""
    espacio = {"__name__": "__leccion__"}
    for nombre in MODULOS:
        exec((RAIZ / nombre).read_text(encoding="utf-8"), espacio)
    return espacio


def celdas_de_codigo(leccion):
    return [c.fuente for c in leccion.celdas() if c.es_codigo]


def ejecuta(codigo: str, espacio: dict) -> str:
    """Ejecuta una celda en el espacio del cuaderno, desde la raíz, y devuelve lo que imprime."""
    salida, antes = io.StringIO(), os.getcwd()
    os.chdir(RAIZ)
    try:
        with contextlib.redirect_stdout(salida):
            exec(codigo, espacio)
    finally:
        os.chdir(antes)
    return salida.getvalue()


# La portada de los cuadernos (00-portada.ipynb), en la carpeta de ./curso cuadernos o en la de JupyterLite.

ENLACE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def comprueba_portada(carpeta: Path, curso: Curso) -> list[tuple[str, str]]:
    """Comprueba la portada de la carpeta y devuelve sus enlaces (texto, ruta) en orden."""
    cuaderno = nbformat.read(carpeta / NOMBRE, as_version=4)
    nbformat.validate(cuaderno)
    assert {c.cell_type for c in cuaderno.cells} == {"markdown"}, "la portada es sólo Markdown"
    texto = "\n".join(c.source for c in cuaderno.cells)
    # Lo mismo que la portada del sitio: del manifiesto.
    for parte in (curso.titulo, curso.descripcion, *curso.presentacion.values()):
        assert " ".join(parte.split()) in " ".join(texto.split())
    assert "Python básico" in texto and "Qué corre dónde" in texto
    assert f"unos {sum(lc.minutos for lc in curso.lecciones)} minutos" in texto
    enlaces = ENLACE.findall(texto)
    for _, ruta in enlaces:
        assert not ruta.startswith(("/", "http")), f"{ruta}: el enlace debe ser relativo"
        assert (carpeta / unquote(ruta)).is_file(), f"la portada enlaza a {ruta}, que no está en {carpeta}"
    # Cada lección, en el orden del manifiesto, con sus minutos y el enlace a su propio cuaderno.
    a_lecciones = [(t, r) for t, r in enlaces if t in {lc.titulo for lc in curso.lecciones}]
    assert [t for t, _ in a_lecciones] == [lc.titulo for lc in curso.lecciones]
    for (_, ruta), leccion in zip(a_lecciones, curso.lecciones, strict=True):
        assert Path(unquote(ruta)).name == f"{leccion.slug}.ipynb"
        assert nbformat.read(carpeta / unquote(ruta), as_version=4).metadata["curso"]["leccion"] == leccion.slug
        linea = next(x for x in texto.splitlines() if f"({ruta})" in x)
        assert f" · {leccion.minutos} min" in linea
        if leccion.desafio:
            assert titulo_del_desafio(leccion) in linea
    posiciones = [
        texto.index(f"Bloque {n} · {b.titulo}")
        for n, b in enumerate((b for b in curso.bloques if any(lc.bloque == b.slug for lc in curso.lecciones)), 1)
    ]
    assert posiciones == sorted(posiciones)
    return enlaces


def puntos_en_el_banco(slug: str, codigo: str) -> tuple[int, int, dict]:
    """(puntos, máximo, {prueba: por qué no pasa}) de un código en el banco del desafío, en este proceso.

    Cuenta todo lo de la nota: las partes ocultas (PARTES_OCULTAS) y las variaciones. Es el banco del
    cuaderno (BancoLocal), no el calificador aislado: sirve para código de confianza (el del curso).
    """
    from cursos.calificador.banco import espacio_de_pruebas
    from cursos.desafio import Desafio

    g = espacio_de_pruebas(Desafio(slug))
    antes = os.getcwd()
    os.chdir(RAIZ)  # hay pruebas que leen harness.py de al lado, como en el cuaderno
    try:
        exec(compile(codigo, f"<código para {slug}>", "exec"), g)
        ganados, maximo, fallos = 0, 0, {}
        for nombre, (valor, prueba) in g["PRUEBAS"].items():
            maximo += valor
            try:
                prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
                ganados += valor
            except Exception as e:  # el Fallo de la prueba, o lo que lance el código: no pasa
                fallos[nombre] = str(e)[:300]
    finally:
        os.chdir(antes)
    return ganados, maximo, fallos


def respuestas_visibles(
    slug: str, funcion: str | None = None, codigo: str | None = None, *, forma: str = "valor", al_volver=None
) -> list[tuple[list, object]]:
    """[(argumentos, respuesta)] de cada llamada a la función en las pruebas visibles, en orden: lo que
    apuntaría quien copia las respuestas del cuaderno (sólo lo visible, sin las partes ocultas).

    funcion: la primera de desafio.toml si no se dice; codigo: la solución de referencia si no se da.
    argumentos: una copia JSON de los de la llamada, tomada antes (lo que no es JSON, como su repr).
    forma="valor": la respuesta es lo que devuelve; si lanza, la excepción sigue su camino.
    forma="vuelve_o_lanza": ("vuelve", lo que devuelve) o ("lanza", tipo, texto), y la prueba sigue.
    al_volver(args, valor): lo que se apunta en lugar de lo que devuelve (ve los argumentos como han quedado).
    Lo apuntado es una copia JSON: lo que cruzaría al calificador.
    """
    import json

    from cursos.calificador.banco import espacio_de_pruebas
    from cursos.desafio import Desafio

    if forma not in ("valor", "vuelve_o_lanza"):
        raise ValueError("forma: «valor» o «vuelve_o_lanza», no %r" % forma)
    desafio = Desafio(slug)
    g = espacio_de_pruebas(desafio)
    g.pop("PARTES_OCULTAS", None)  # como en el cuaderno: sólo lo visible
    exec(desafio.lee("solucion.py") if codigo is None else codigo, g)
    nombre = funcion or desafio.funciones[0]
    original, vistas = g[nombre], []

    def copia(valor):
        return json.loads(json.dumps(valor, default=repr))

    def apunta(*args):
        antes = copia(list(args))
        try:
            devuelto = original(*args)
        except Exception as e:
            if forma == "valor":
                raise
            vistas.append((antes, ("lanza", type(e).__name__, str(e))))
            raise
        valor = copia(devuelto if al_volver is None else al_volver(args, devuelto))
        vistas.append((antes, valor if forma == "valor" else ("vuelve", valor)))
        return devuelto

    g[nombre] = apunta
    antes = os.getcwd()
    os.chdir(RAIZ)  # hay pruebas que leen harness.py de al lado, como en el cuaderno
    try:
        for prueba, (_, funcion_de_prueba) in g["PRUEBAS"].items():
            if prueba != "variaciones":
                funcion_de_prueba(g["BancoLocal"]())
    finally:
        os.chdir(antes)
    return vistas


def trampas_que_repiten(slug: str, si_no_la_sabe: str) -> dict[str, str]:
    """Dos trampas que repiten las respuestas de las pruebas visibles: por cuántas llamadas van,
    y de una tabla copiada del cuaderno (si la entrada no está en la tabla, devuelven si_no_la_sabe).

    Con partes ocultas en cada prueba visible, las dos sacan 0.
    """
    import ast
    import json

    from cursos.desafio import Desafio

    desafio = Desafio(slug)
    nombre = desafio.funciones[0]
    definicion = next(
        n for n in ast.parse(desafio.lee("solucion.py")).body if isinstance(n, ast.FunctionDef) and n.name == nombre
    )
    parametros = [a.arg for a in definicion.args.args]
    firma = "def %s(%s):\n    args = [%s]\n" % (nombre, ", ".join(parametros), ", ".join(parametros))
    datos = "import json\n_VISTAS = json.loads(%r)\n" % json.dumps(respuestas_visibles(slug), ensure_ascii=False)
    return {
        "r01_repite_por_numero_de_llamada": datos
        + "_VAN = [0]\n"
        + firma
        + "    _VAN[0] += 1\n    return _VISTAS[(_VAN[0] - 1) % len(_VISTAS)][1]\n",
        "r02_repite_de_una_tabla_copiada": datos
        + "_TABLA = {json.dumps(a, sort_keys=True): r for a, r in _VISTAS}\n"
        + firma
        + "    return _TABLA.get(json.dumps(args, sort_keys=True), %s)\n" % si_no_la_sabe,
    }


@contextlib.contextmanager
def modelos_que_obedecen(**claves):
    """Un `./curso modelo-guionizado` por nombre (su clave, o None si no pide), en segundo plano,
    con las respuestas del modelo que obedece a la inyección en cada escenario del laboratorio.
    Da {nombre: URL base}; al salir, los apaga."""
    from cursos.modelo import escenarios
    from cursos.modelo.servidor import ModeloServido, en_segundo_plano

    servidos = {nombre: ModeloServido(clave=clave) for nombre, clave in claves.items()}
    for escenario in escenarios.escenarios():
        partida = escenario.prepara("sin")
        peticion = next(c for rol, c in partida.inicio if rol == "usuario")
        for servido in servidos.values():
            servido.registra_sordo(partida.respuestas, peticion)
    http = {nombre: en_segundo_plano(servido) for nombre, servido in servidos.items()}
    try:
        yield {nombre: url for nombre, (_, url) in http.items()}
    finally:
        for servidor, _ in http.values():
            servidor.shutdown()
            servidor.server_close()


# Las capas de las pruebas (las pone tests/conftest.py; tests/test_capas.py las comprueba). La capa
# sale de lo que una prueba usa, no de su carpeta: una unidad de Python puro de tests/calificador/ o de
# tests/navegador/ es de las rápidas.

# Fixtures que traen su capa a la prueba que los usa (también a través de otro fixture), viva donde viva.
CAPA_DEL_FIXTURE = {
    "navegador": "navegador",
    "sitio": "navegador",
    "pagina": "navegador",
    "url_raiz": "navegador",
    "release": "calificador",
    "postgres": "calificador",
    "bases_postgres": "calificador",
    "lote": "calificador",
    "lote_calificado": "calificador",
}
# Fixtures caros: califican los lotes de todos los desafíos (minutos).
FIXTURES_LENTOS = {"lote_calificado", "lote"}
# Lo caro que una prueba usa sin fixture, {(módulo, nombre): capa}: el fichero que lo importa (en lo
# alto o dentro de una prueba) es todo de esa capa. Califican (nbgrader y la caja), arrancan la caja,
# Pyodide bajo Node o un núcleo de Jupyter, o abren Chromium.
CARO = {
    **dict.fromkeys(
        [
            ("cursos.profesor.calificar", "califica"),
            ("cursos.calificador.califica", "califica_entrega"),
            ("cursos.calificador.aislamiento", "detecta"),
            ("cursos.calificador.aislamiento", "termina"),
            ("cursos.profesor.fuente", "genera_version_del_alumno"),
            ("tests.pyodide_node", "ejecuta_en_pyodide"),
            ("nbclient", "NotebookClient"),
            *(
                ("tests.calificador.ayudas", nombre)
                for nombre in (
                    "genera",
                    "curso_nuevo",
                    "curso_del_desafio",
                    "califica_lote",
                    "entrega_el_lote",
                    "ejecuta_cuaderno",
                    "formgrader",
                    "exporta",
                    "curso_con_penalizacion_por_hora",
                    "servidor_postgres",
                )
            ),
        ],
        "calificador",
    ),
    ("playwright.sync_api", "sync_playwright"): "navegador",
    ("playwright.sync_api", "expect"): "navegador",
}
# Ficheros cuya capa se dice a mano, y por qué (ruta desde tests/): manda sobre la de CARO. () es de
# las rápidas a sabiendas.
CAPAS_DEL_FICHERO = {
    "test_guia_de_autores.py": ("lento", "calificador"),  # ~100 s: sigue la guía en una copia y califica
    "navegador/test_entrega.py": ("lento", "navegador"),  # ~2–3 min: cada desafío, de la página al libro
    "test_capas.py": ("lento",),  # ~20–50 s: pytest recoge cuatro veces una muestra con las capas de .ci/run
    # nbgrader de verdad sin calificar: cada prueba crea un libro de notas o un curso (4–6 s cada una).
    "profesor/test_importa_alumnos.py": ("calificador",),
    "profesor/test_orden_curso.py": ("calificador",),
    # La primera prueba de una lección: un núcleo por lección (~17 s) y Pyodide bajo Node (~9 s).
    "lecciones/test_lecciones.py": (),
    "lecciones/test_laboratorio_pyodide.py": (),
    "lecciones/test_comandos_y_red_pyodide.py": (),
    "lecciones/test_seguridad_en_produccion_pyodide.py": (),
    "modelo/test_cuaderno_del_laboratorio.py": (),
    "modelo/test_modelo_real.py": (),
}


@functools.cache
def capas_por_lo_que_importa(ruta: Path) -> frozenset[str]:
    """Las capas de lo caro (CARO) que importa el fichero de pruebas."""
    capas = set()
    for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
        if isinstance(nodo, ast.ImportFrom):
            capas.update(CARO.get((nodo.module, alias.name), "") for alias in nodo.names)
    return frozenset(capas - {""})


def capas_de(item) -> set[str]:
    """Las capas de una prueba: las de su fichero (a mano o por lo caro que importa) y las de sus fixtures."""
    if not item.path.is_relative_to(RAIZ / "tests"):
        return set()  # una prueba de fuera de tests/ (pytest la recoge si se le da su ruta): sin capa
    ruta = item.path.relative_to(RAIZ / "tests").as_posix()
    capas = set(CAPAS_DEL_FICHERO[ruta] if ruta in CAPAS_DEL_FICHERO else capas_por_lo_que_importa(item.path))
    fixtures = set(getattr(item, "fixturenames", ()))
    capas.update(CAPA_DEL_FIXTURE[f] for f in fixtures & CAPA_DEL_FIXTURE.keys())
    if fixtures & FIXTURES_LENTOS:
        capas.add("lento")
    return capas


# Qué paquete de cursos/ puede importar de cuál: lo vigila tests/test_importaciones.py en el código
# y tests/test_documentacion.py en la columna «importa de» de docs/arquitectura.md.
PUEDE_IMPORTAR = {
    "cursos.ordenes": {"*"},
    "cursos.sitio": {"cursos.modelo", "cursos.pyodide", "cursos.profesor"},  # de profesor/, sólo reparto
    "cursos.profesor": {"cursos.calificador", "cursos.pyodide"},
    "cursos.calificador": {"cursos.pyodide"},
    "cursos.modelo": set(),
    "cursos.pyodide": set(),
    "cursos.widgets": set(),
}
