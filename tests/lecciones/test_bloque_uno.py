"""Lo que las primeras lecciones escriben en sus celdas es lo que el curso usa después.

«Las cuatro herramientas» escribe en sus celdas los bloques, muestra, llamadas_de, texto_de
y el bucle, y dice que son los de harness.py; ejecutar y problema_de_esquema los deja en una
primera versión, y lo dice. Aquí se comparan con harness.py sin contar docstrings ni comentarios.
"""

import ast
import re

from cursos import RAIZ
from cursos.manifiesto import leer_curso

CURSO = leer_curso()
IGUALES = ["llamada", "texto", "resultado", "muestra", "llamadas_de", "texto_de", "bucle"]
PRIMERAS_VERSIONES = ["ejecutar", "problema_de_esquema"]


def funciones(fuente: str) -> dict[str, str]:
    """{nombre: su árbol sin docstring}, de las funciones de primer nivel de un código."""
    encontradas = {}
    for nodo in ast.parse(fuente).body:
        if isinstance(nodo, ast.FunctionDef):
            if ast.get_docstring(nodo) is not None:
                nodo.body = nodo.body[1:]
            encontradas[nodo.name] = ast.dump(nodo)
    return encontradas


def celdas(slug: str) -> str:
    fuente = CURSO.leccion(slug).fuente.read_text(encoding="utf-8")
    return "\n".join(re.findall(r"```python[^\n]*\n(.*?)```", fuente, re.S))  # con o sin etiquetas


def test_las_cuatro_herramientas_escribe_las_piezas_de_harness():
    leccion, harness = funciones(celdas("las-cuatro-herramientas")), funciones((RAIZ / "harness.py").read_text("utf-8"))
    for nombre in IGUALES:
        assert leccion[nombre] == harness[nombre], "%s de la lección no es el de harness.py" % nombre


def test_y_dice_cuales_son_primeras_versiones():
    fuente = celdas("las-cuatro-herramientas")
    leccion, harness = funciones(fuente), funciones((RAIZ / "harness.py").read_text("utf-8"))
    for nombre in PRIMERAS_VERSIONES:
        assert leccion[nombre] != harness[nombre]
        docstring = re.search(r"def %s\(.*?\):\n\s+\"\"\"(.*?)\"\"\"" % nombre, fuente, re.S).group(1)
        assert docstring.startswith("Primera versión"), nombre


# --- El primer agente, Las cuatro herramientas, Los errores ---------------------------------------
#
# La regla del bloque: «Permisos y confianza» es la primera lección que carga harness.py. «Las
# cuatro herramientas» lo dice («a partir de «Permisos y confianza», se carga de un fichero»), y
# «Los errores» escribe en sus celdas lo que necesita, igual que harness.py.


def test_las_lecciones_uno_a_tres_no_cargan_el_harness():
    for slug in ("el-primer-agente", "las-cuatro-herramientas", "los-errores"):
        assert 'open("harness.py"' not in celdas(slug), f"{slug} carga harness.py; lo carga la lección 5"


def test_los_errores_escribe_lo_que_usa_igual_que_harness():
    """Lo que «Los errores» repite y lo que termina escribiendo (ejecutar) es lo de harness.py, sin cambios."""
    leccion, harness = funciones(celdas("los-errores")), funciones((RAIZ / "harness.py").read_text("utf-8"))
    usadas = IGUALES + ["error", "es_del_tipo", "problema_de_esquema", "problema_de_llamada", "ejecutar"]
    distintas = [n for n in usadas if leccion.get(n) != harness[n]]
    assert not distintas, f"«Los errores» no escribe igual que harness.py: {distintas}"
    assert re.search(r'^NO_EJECUTADA = "no se ha ejecutado: "$', celdas("los-errores"), re.M)


def test_el_primer_agente_no_carga_el_harness():
    """El primer agente construye su bucle en celdas: harness.py aún no existe para el alumno."""
    fuente = celdas("el-primer-agente")
    assert "harness.py" not in fuente and "def bucle_de_texto" in fuente and "def lee_accion" in fuente


# --- La especificación, Permisos y confianza, Estado y memoria -------------------------------------
#
# La regla del bloque: las lecciones 1 a 4 construyen el harness en sus celdas y «Permisos y
# confianza» es la primera que lo carga de harness.py. Esa lección dice «la única novedad es que
# vienen de un fichero»: es verdad si «La especificación» escribe en sus celdas todo harness.py, igual.


def test_la_especificacion_no_carga_el_harness():
    fuente = celdas("la-especificacion")
    assert "harness.py" not in fuente, "«La especificación» escribe el harness en sus celdas; lo carga la lección 5"
    assert 'exec(open("entorno.py"' in fuente  # el entorno sí viene de su fichero, como dice la lección 5


def test_la_especificacion_escribe_entero_el_harness_de_la_leccion_siguiente():
    """Cada función y cada constante de harness.py, en las celdas de la lección 4 y sin cambios."""
    harness_py = (RAIZ / "harness.py").read_text("utf-8")
    leccion, harness = funciones(celdas("la-especificacion")), funciones(harness_py)
    distintas = [n for n in harness if leccion.get(n) != harness[n]]
    assert not distintas, f"«La especificación» no escribe igual que harness.py: {distintas}. Cópialas de harness.py"
    for constante in ("NO_EJECUTADA", "TIPOS_JSON"):
        en_el_fichero = re.search(rf"^{constante} = .*$", harness_py, re.M).group(0)
        assert en_el_fichero in celdas("la-especificacion"), constante
    assert 'exec(open("harness.py"' in celdas("permisos-y-confianza")  # y la lección 5 lo carga


def _espacio_de_estado_y_memoria() -> dict:
    """Las celdas de «Estado y memoria» corridas en orden, como en el cuaderno."""
    from tests.ayudas import celdas_de_codigo, ejecuta

    espacio = {}
    for codigo in celdas_de_codigo(CURSO.leccion("estado-y-memoria")):
        ejecuta(codigo, espacio)
    return espacio


def test_el_ejecutar_con_permiso_de_estado_y_memoria_no_falla_en_abierto():
    """Lo que no es permitir ni preguntar se deniega, y sólo un True del usuario es un sí («Permisos y confianza»)."""
    g = _espacio_de_estado_y_memoria()
    ejecutar, tabla = g["ejecutar"], g["PERMISOS"]
    nota = g["llamada"]("x1", "escribir", ruta="notas.txt", contenido="Cena cancelada.")
    for valor in ("Permitir", None, "denegar", "", "permitir "):  # erratas y lo que nadie ha previsto
        tabla["escritura"] = valor
        entorno = dict(g["ENTORNO"])
        obs = ejecutar(nota, entorno)
        assert obs.get("is_error") and obs["content"].startswith("no se ha ejecutado: "), (valor, obs)
        assert entorno == g["ENTORNO"], f"con la tabla en {valor!r} la escritura ha corrido"
    # con_permiso(ejecutar de harness.py, permiso, usuario), como lo cuenta la lección
    base = {"HERRAMIENTAS": g["HERRAMIENTAS"]}
    exec((RAIZ / "harness.py").read_text("utf-8"), base)
    for respuesta in (None, False, 0, 1, "sí"):  # sólo True es un sí
        con_usuario = g["con_permiso"](base["ejecutar"], lambda ll: "preguntar", lambda ll, r=respuesta: r)
        entorno = dict(g["ENTORNO"])
        obs = con_usuario(g["llamada"]("x2", "escribir", ruta="lista.txt", contenido="x"), entorno)
        assert obs["content"] == "no se ha ejecutado: el usuario no lo ha permitido", (respuesta, obs)
        assert entorno == g["ENTORNO"]


def test_ninguna_celda_de_estado_y_memoria_resuelve_el_desafio_de_la_leccion_anterior():
    """La lección 6 enseña un ejecutar con permiso, pero copiarlo no da la nota de «Permisos y confianza»."""
    from tests.ayudas import celdas_de_codigo, puntos_en_el_banco

    anteriores = ""
    for codigo in celdas_de_codigo(CURSO.leccion("estado-y-memoria")):
        anteriores += "\n" + codigo
        ganados, maximo, _ = puntos_en_el_banco("permiso-en-ejecutar", anteriores)
        assert ganados < maximo, "las celdas de «Estado y memoria» hasta aquí sacan la nota entera:\n" + codigo[:300]


def test_estado_y_memoria_no_dice_que_otra_leccion_llamara_memoria_a_algo():
    """Su primera frase decía «Al agente le he llamado «memoria» a dos cosas»: ninguna lección lo hizo."""
    fuente = CURSO.leccion("estado-y-memoria").fuente.read_text(encoding="utf-8")
    primero = fuente.split("\n# ", 1)[1].split("\n\n", 2)[1]
    assert "he llamado" not in primero and "le he" not in primero
    for slug in ("el-primer-agente", "las-cuatro-herramientas", "los-errores", "la-especificacion"):
        assert "memoria" not in CURSO.leccion(slug).fuente.read_text(encoding="utf-8").lower(), slug


def _normal(texto: str) -> str:
    return " ".join(re.findall(r"[\wáéíóúüñ]+", texto.lower()))


def test_la_explicacion_de_una_opcion_mala_no_da_la_buena():
    """Decisión 6: quien falla lee por qué su opción no vale y qué releer, no el texto de la correcta."""
    import tomllib

    for slug in ("la-especificacion", "permisos-y-confianza", "estado-y-memoria"):
        datos = tomllib.loads((RAIZ / "lecciones" / slug / "preguntas.toml").read_text(encoding="utf-8"))
        for pregunta in datos["pregunta"]:
            buenas = [_normal(o["texto"]) for o in pregunta["opcion"] if o["correcta"]]
            for opcion in pregunta["opcion"]:
                if opcion["correcta"]:
                    continue
                explicacion = _normal(opcion["explicacion"])
                assert "la correcta" not in explicacion and "la respuesta es" not in explicacion, pregunta["id"]
                for buena in buenas:
                    assert len(buena.split()) < 4 or buena not in explicacion, (slug, pregunta["id"], buena)


def test_la_referencia_de_permiso_en_ejecutar_solo_ejecuta_con_un_true():
    """El enunciado: «con cualquier respuesta que no sea True, la llamada no se ejecuta». La referencia
    decía `not preguntar(ll)`: un texto "no" (lo que teclea el usuario) corría la escritura y sacaba 10."""
    from tests.ayudas import puntos_en_el_banco

    referencia = (RAIZ / "desafios" / "permiso-en-ejecutar" / "solucion.py").read_text(encoding="utf-8")
    assert puntos_en_el_banco("permiso-en-ejecutar", referencia)[:2] == (10, 10)
    cuerpo = referencia.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
    assert "is not True" in cuerpo, "la referencia compara la respuesta del usuario con True"
    lo_da_por_bueno = referencia.replace("preguntar(ll) is not True", "not preguntar(ll)")
    ganados, maximo, fallos = puntos_en_el_banco("permiso-en-ejecutar", lo_da_por_bueno)
    # también la del «no», y la conversación del salmorejo con un usuario que lo teclea
    assert ganados < maximo and set(fallos) == {"nadie", "salmorejo", "variaciones"}, fallos
    assert "'no', que no es True" in fallos["nadie"]  # y el mensaje dice por qué


def test_lo_que_permisos_dice_de_borrar_lo_enseña_la_leccion_de_los_errores():
    """«Permisos y confianza» no corre t5 por ejecutar (sus dos celdas son las de la semilla): dice que es
    «la misma llamada, borrar sobre notas.txt, y el mismo error que vi en la lección de los errores»."""
    import tomllib

    frase = "Es la misma llamada, `borrar`\nsobre `notas.txt`, y el mismo error que vi en la lección de los errores"
    assert frase in CURSO.leccion("permisos-y-confianza").fuente.read_text(encoding="utf-8")
    assert 'llamada("r1", "borrar", ruta="notas.txt")' in celdas("los-errores")
    salidas = tomllib.loads((RAIZ / "lecciones" / "los-errores" / "salidas.toml").read_text(encoding="utf-8"))
    afirmado = [linea for celda in salidas["celda"] for linea in celda.get("contiene", [])]
    assert 'error     r1 "no se ha ejecutado: no existe la herramienta «borrar»"' in afirmado


# Soluciones honestas escritas sólo con el enunciado, en otro estilo que la referencia: deben sacar 10.
# Si una pierde puntos, el enunciado calla algo que las pruebas exigen (o las pruebas piden de más).
OTROS_ESTILOS = {
    "comprobar-la-especificacion": """
def incumplimientos(especificacion, antes, despues):
    e = {"deben_cambiar": [], "pueden_cambiar": [], "deben_contener": {}, "no_deben_contener": {}}
    e.update(especificacion)
    def cambio(r):
        return (r in antes) != (r in despues) or antes.get(r) != despues.get(r)
    salida = ["no ha cambiado: %s" % r for r in e["deben_cambiar"] if not cambio(r)]
    for ruta in e["deben_contener"]:
        if ruta not in despues:
            salida.append(f"falta el fichero: {ruta}")
        else:
            salida.extend(f"falta «{t}» en {ruta}" for t in e["deben_contener"][ruta] if t not in despues[ruta])
    for ruta, ts in e["no_deben_contener"].items():
        salida.extend(f"sobra «{t}» en {ruta}" for t in ts if t in despues.get(ruta, ""))
    libres = set(e["deben_cambiar"]).union(e["pueden_cambiar"])
    for r in {*antes, *despues} - libres:
        if not cambio(r):
            continue
        if r not in antes:
            salida.append(f"se ha creado sin pedirlo: {r}")
        elif r not in despues:
            salida.append(f"se ha borrado sin pedirlo: {r}")
        else:
            salida.append(f"ha cambiado sin pedirlo: {r}")
    return salida
""",
    "compacta": """
import copy as _copy

def compacta(M, presupuesto):
    nueva = _copy.deepcopy([[rol, contenido] for rol, contenido in M])
    posiciones = [n for n, par in enumerate(nueva) if par[0] == "asistente"]
    if not posiciones:
        return nueva
    candidatas = []
    for n in range(posiciones[-1]):
        contenido = nueva[n][1]
        if isinstance(contenido, list):
            for i, b in enumerate(contenido):
                if b.get("type") == "tool_result" and tamaño(retira(b)) < tamaño(b):
                    candidatas.append((n, i))
    while candidatas and tamaño(nueva) > presupuesto:
        n, i = candidatas.pop(0)
        nueva[n][1][i] = retira(nueva[n][1][i])
    return nueva
""",
    # Guarda el ejecutar de harness.py y lo llama detrás del permiso; compara con != True.
    "permiso-en-ejecutar": """
_del_harness = ejecutar

def ejecutar(ll, entorno):
    if problema_de_llamada(ll) is not None:
        return _del_harness(ll, entorno)
    decision = permiso(ll)
    if decision == "permitir":
        return _del_harness(ll, entorno)
    if decision == "preguntar":
        if preguntar(ll) != True:
            return error(ll["id"], "no se ha ejecutado: el usuario no lo ha permitido")
        return _del_harness(ll, entorno)
    return error(ll["id"], "no se ha ejecutado: permiso denegado")
""",
}


def test_una_solucion_honesta_en_otro_estilo_saca_la_nota_entera():
    import pytest

    from tests.ayudas import puntos_en_el_banco

    for slug, codigo in OTROS_ESTILOS.items():
        ganados, maximo, fallos = puntos_en_el_banco(slug, codigo)
        if ganados != maximo:
            pytest.fail(f"{slug}: {ganados} de {maximo} con una solución honesta en otro estilo: {fallos}")
