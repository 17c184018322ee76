"""Las pruebas visibles de los tres desafíos del bloque 3 tienen partes ocultas (decisión 015).

Una trampa que repite las respuestas de las pruebas visibles (por número de llamada, o con una tabla
copiada del cuaderno) sacaba todos los puntos visibles, porque sólo la prueba «variaciones» tenía
casos ocultos. Aquí se graban las respuestas de la solución de referencia en las pruebas visibles,
se escriben las dos trampas con ellas y se comprueba, en este mismo proceso (como el banco del
cuaderno, pero con las partes ocultas del calificador), que cada prueba visible les da 0 puntos.
Sin las partes ocultas, las mismas trampas sí sacan puntos: son trampas de verdad.
"""

import json

import pytest

from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio
from tests.ayudas import respuestas_visibles

DESAFIOS = ("puerta-corregida", "acumulador-de-hechos", "identidad-delegada")


def espacio(slug, codigo, ocultas=True):
    """El espacio de pruebas del desafío con el código del alumno cargado; sin partes ocultas si se pide."""
    g = espacio_de_pruebas(Desafio(slug))
    if not ocultas:
        g.pop("PARTES_OCULTAS")
    exec(codigo, g)
    return g


def puntos_visibles(slug, codigo, ocultas=True):
    """{prueba visible: puntos} con el código dado, en este proceso."""
    g = espacio(slug, codigo, ocultas)
    puntos = {}
    for nombre, (valor, prueba) in g["PRUEBAS"].items():
        if nombre == "variaciones":
            continue
        try:
            prueba(g["BancoLocal"]())
            puntos[nombre] = valor
        except Exception:  # un Fallo, o lo que lance la trampa: la prueba no da puntos
            puntos[nombre] = 0
    return puntos


def clave(*args):
    return json.dumps(args, sort_keys=True, ensure_ascii=False, default=repr)


def graba(slug, funcion, al_volver=None):
    """[(clave de los argumentos, lo que devolvió o la excepción)] de la referencia en las pruebas visibles."""
    return [
        (clave(*args), respuesta)
        for args, respuesta in respuestas_visibles(slug, funcion, forma="vuelve_o_lanza", al_volver=al_volver)
    ]


@pytest.mark.parametrize("slug", DESAFIOS)
def test_cada_prueba_visible_tiene_su_parte_oculta(slug):
    g = espacio(slug, "")
    visibles = set(g["PRUEBAS"]) - {"variaciones"}
    assert set(g["PARTES_OCULTAS"]) == visibles
    assert all(g["PARTES_OCULTAS"][n] for n in visibles)


@pytest.mark.parametrize("slug", DESAFIOS)
def test_la_referencia_pasa_las_partes_ocultas(slug):
    codigo = Desafio(slug).lee("solucion.py")
    g = espacio(slug, codigo)
    assert sum(puntos_visibles(slug, codigo).values()) == sum(
        p for n, (p, _) in g["PRUEBAS"].items() if n != "variaciones"
    )


# --- Las trampas de cada desafío ---------------------------------------------------------------


def trampas_de_la_puerta():
    vistas = graba("puerta-corregida", "puerta")
    respuestas = [valor for _, (_, valor) in vistas]
    tabla = {k: valor for k, (_, valor) in vistas}
    comun = "import json\n"
    return {
        "por_numero_de_llamada": comun
        + "RESPUESTAS = %r\nVEZ = [0]\n" % respuestas
        + (
            "def puerta(ll, sesion, admitidas):\n    VEZ[0] += 1\n"
            "    return RESPUESTAS[(VEZ[0] - 1) % len(RESPUESTAS)]\n"
        ),
        "tabla_que_admite": comun
        + "TABLA = %r\n" % tabla
        + (
            "def puerta(ll, sesion, admitidas):\n"
            "    return TABLA.get(json.dumps([ll, sesion, admitidas], sort_keys=True, ensure_ascii=False))\n"
        ),
        "tabla_que_deniega": comun
        + "TABLA = %r\n" % tabla
        + (
            "def puerta(ll, sesion, admitidas):\n"
            "    return TABLA.get(json.dumps([ll, sesion, admitidas], sort_keys=True, ensure_ascii=False),"
            " 'permission_denied')\n"
        ),
    }


def trampas_del_acumulador():
    def despues(args, valor):
        return [valor, args[0]["tools"], args[0]["operaciones"]]

    vistas = graba("acumulador-de-hechos", "anota_llamada", despues)
    respuestas = [valor for _, (_, valor) in vistas]
    tabla = {k: valor for k, (_, valor) in vistas}
    aplica = (
        "    devuelto, tools, operaciones = json.loads(json.dumps(respuesta))\n"
        "    ejecucion['tools'], ejecucion['operaciones'] = tools, operaciones\n    return devuelto\n"
    )
    firma = "def anota_llamada(ejecucion, ll, obs, registro, aprobacion=None):\n"
    return {
        "por_numero_de_llamada": "import json\nRESPUESTAS = %r\nVEZ = [0]\n" % respuestas
        + firma
        + ("    VEZ[0] += 1\n    respuesta = RESPUESTAS[(VEZ[0] - 1) % len(RESPUESTAS)]\n")
        + aplica,
        "tabla_copiada": "import json\nTABLA = %r\n" % tabla
        + firma
        + (
            "    k = json.dumps([ejecucion, ll, obs, registro, aprobacion], sort_keys=True, ensure_ascii=False)\n"
            "    if k not in TABLA:\n        return False\n    respuesta = TABLA[k]\n"
        )
        + aplica,
    }


def trampas_de_identidad():
    def resultado(args, valor):
        return valor if isinstance(valor, dict) and "iss" in valor else None

    validas = graba("identidad-delegada", "validar_token", resultado)
    sesiones = graba("identidad-delegada", "abrir_sesion", lambda args, valor: args[0].get("sub"))
    g = espacio("identidad-delegada", "", ocultas=False)
    perfiles = dict(g["PERFILES_DE_LA_LECCION"])
    crear = (
        "PERFILES_COPIADOS = %r\n" % perfiles + "def crear_herramienta_perfil(id_usuario_autenticado):\n"
        "    return lambda: PERFILES_COPIADOS.get(id_usuario_autenticado, {'error': 'usuario no encontrado'})\n"
    )
    contesta = (
        "def contesta(respuesta, ok):\n"
        "    if respuesta[0] == 'lanza':\n        raise PermissionError(respuesta[2])\n"
        "    return ok(respuesta[1])\n"
    )
    sesion = (
        "def sesion_de(sub):\n    return {'leer': LEER, 'leer_mi_perfil': herramienta("
        "crear_herramienta_perfil(sub), '', {})}\n"
    )
    tabla = (
        "import json\nVALIDAR = %r\nSESIONES = %r\n" % (dict(validas), dict(sesiones))
        + crear
        + contesta
        + sesion
        + "def validar_token(token, audiencia, alcance, ahora):\n"
        "    k = json.dumps([token, audiencia, alcance, ahora], sort_keys=True, ensure_ascii=False)\n"
        "    return contesta(VALIDAR.get(k, ('lanza', '', 'emisor desconocido')), lambda t: t)\n"
        "def abrir_sesion(token, ahora):\n"
        "    k = json.dumps([token, ahora], sort_keys=True, ensure_ascii=False)\n"
        "    return contesta(SESIONES.get(k, ('lanza', '', 'no')), sesion_de)\n"
    )
    por_numero = (
        "VALIDAR = %r\nSESIONES = %r\nVEZ = {'v': 0, 's': 0}\n" % ([v for _, v in validas], [v for _, v in sesiones])
        + crear
        + contesta
        + sesion
        + "def siguiente(lista, cual):\n    VEZ[cual] += 1\n    return lista[(VEZ[cual] - 1) % len(lista)]\n"
        "def validar_token(token, audiencia, alcance, ahora):\n"
        "    return contesta(siguiente(VALIDAR, 'v'), lambda t: t)\n"
        "def abrir_sesion(token, ahora):\n"
        "    return contesta(siguiente(SESIONES, 's'), sesion_de)\n"
    )
    return {"por_numero_de_llamada": por_numero, "tabla_copiada": tabla}


TRAMPAS = {
    "puerta-corregida": trampas_de_la_puerta,
    "acumulador-de-hechos": trampas_del_acumulador,
    "identidad-delegada": trampas_de_identidad,
}


# Lo que saca, sin saber nada, la respuesta por omisión de la trampa de la tabla que admite: una puerta
# que lo admite todo pasa la prueba de la lectura legítima (2 puntos), y la tabla no le añade ninguno.
POR_OMISION = {("puerta-corregida", "tabla_que_admite"): "def puerta(ll, sesion, admitidas):\n    return None\n"}


@pytest.mark.parametrize("slug", DESAFIOS)
def test_repetir_las_respuestas_visibles_no_da_ningun_punto_visible(slug):
    for nombre, codigo in TRAMPAS[slug]().items():
        assert sum(puntos_visibles(slug, codigo, ocultas=False).values()) > 0, (
            "%s: sin las partes ocultas la trampa saca puntos (por eso hacen falta)" % nombre
        )
        base = POR_OMISION.get((slug, nombre))
        esperado = puntos_visibles(slug, base) if base else dict.fromkeys(puntos_visibles(slug, codigo), 0)
        assert puntos_visibles(slug, codigo) == esperado, nombre


# --- Decisión 2: ninguna celda de la lección ni ningún módulo servido regala el desafío -----------------

LECCIONES = {
    "puerta-corregida": "la-propuesta-no-es-el-permiso",
    "acumulador-de-hechos": "cadenas-peligrosas",
    "identidad-delegada": "identidad-delegada",
}


def puntos(slug, codigo):
    """Los puntos de todas las pruebas (también las variaciones y las partes ocultas), en este proceso."""
    try:
        g = espacio(slug, codigo)
    except Exception:  # el código no carga: no saca nada
        return 0
    total = 0
    for nombre, (valor, prueba) in g["PRUEBAS"].items():
        try:
            prueba(g["BancoLocal"](), *((g["VARIACIONES"],) if nombre == "variaciones" else ()))
            total += valor
        except Exception:
            pass
    return total


@pytest.mark.parametrize("slug", DESAFIOS)
def test_ninguna_celda_ni_modulo_servido_saca_la_nota_entera(slug, capsys):
    from cursos import RAIZ
    from cursos.carga import sin_cargas
    from cursos.celdas import celdas_de_codigo
    from cursos.manifiesto import leer_curso

    candidatos = {
        "celda %d" % n: sin_cargas(codigo)
        for n, (codigo, _) in enumerate(celdas_de_codigo(RAIZ / "lecciones" / LECCIONES[slug] / "leccion.md"), 1)
    }
    curso = leer_curso()
    candidatos.update({m: curso.modulo(m).read_text(encoding="utf-8") for m in curso.modulos})
    notas = {nombre: puntos(slug, codigo) for nombre, codigo in candidatos.items()}
    capsys.readouterr()  # lo que imprimen las celdas no interesa aquí
    assert puntos(slug, Desafio(slug).lee("solucion.py")) == 10
    assert max(notas.values()) < 10, {n: p for n, p in notas.items() if p >= 10}


# Lo que un alumno pegaría para hacer pasar la función de la lección por la suya.
ALIAS = {"puerta-corregida": "\npuerta = puerta_corregida\n", "acumulador-de-hechos": "", "identidad-delegada": ""}


@pytest.mark.parametrize("slug", DESAFIOS)
def test_lo_servido_con_la_funcion_de_la_leccion_renombrada_no_saca_la_nota_entera(slug, capsys):
    """Cada módulo tal como se sirve junto al cuaderno del desafío (y cada celda), más el alias, saca < 10.

    `exec(laboratorio_puerta.py)` y `puerta = puerta_corregida` sacaría 10 si el módulo servido trajera la
    puerta de la lección: se sirve con ella cambiada por una que lanza (quitar), y eso es lo que se prueba.
    """
    from cursos import RAIZ
    from cursos.carga import sin_cargas
    from cursos.celdas import celdas_de_codigo

    desafio = Desafio(slug)
    servidos = dict(desafio.modulos())
    for nombre in desafio.quitar:  # lo quitado no llega al alumno, ni en el texto del módulo
        assert any("en el desafío, %s la escribes tú" % nombre in t for t in servidos.values()), nombre
    candidatos = {"servido " + m: t + ALIAS[slug] for m, t in servidos.items()}
    candidatos.update(
        {
            "celda %d" % n: sin_cargas(codigo) + ALIAS[slug]
            for n, (codigo, _) in enumerate(celdas_de_codigo(RAIZ / "lecciones" / LECCIONES[slug] / "leccion.md"), 1)
        }
    )
    notas = {nombre: puntos(slug, codigo) for nombre, codigo in candidatos.items()}
    capsys.readouterr()
    assert max(notas.values()) < 10, {n: p for n, p in notas.items() if p >= 10}


def test_identidad_una_validacion_que_rechaza_exp_menor_o_igual_deja_pasar_nan():
    """La referencia de main rechazaba «exp <= ahora»: con exp NaN aceptaba el token. Ya no saca la nota."""
    solucion = Desafio("identidad-delegada").lee("solucion.py")
    assert puntos("identidad-delegada", solucion) == 10
    al_reves = solucion.replace("and exp > ahora", "and not exp <= ahora")
    assert al_reves != solucion and puntos("identidad-delegada", al_reves) < 10
    sin_objetos = solucion.replace("campos = token if isinstance(token, dict) else {}", "campos = token")
    assert sin_objetos != solucion and puntos("identidad-delegada", sin_objetos) < 10
