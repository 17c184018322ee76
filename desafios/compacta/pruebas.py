"""Las pruebas del desafío «compacta(M, presupuesto)».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu compacta: te dicen al momento qué ha pasado
  en cada conversación. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu compacta recibe copias JSON de M y del
  presupuesto, y de vuelta llegan lo que devuelve y cómo han quedado sus argumentos.

Se cargan en el mismo espacio de nombres que las celdas 1 y 4 de la lección (GUION, tamaño,
retira, problema_de_pares...). Lo que se espera no se calcula con una compacta de referencia:
se comprueba la regla del enunciado sobre lo que devuelve la tuya. Sólo biblioteca estándar.
"""

import json


def _corto(valor, largo=120):
    texto = json.dumps(valor, ensure_ascii=False, default=repr)
    return texto if len(texto) <= largo else texto[:largo] + "…"


# --- Las conversaciones -------------------------------------------------------------


def _conversacion(peticion, respuestas, entorno, despues=()):
    """Una M como la del bucle: cada respuesta del modelo y, si tiene llamadas, sus observaciones."""
    copia, M = dict(entorno), [("sistema", SISTEMA_DE_PRUEBA), ("usuario", peticion)]
    for respuesta in respuestas:
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if llamadas:
            M.append(("usuario", [HERRAMIENTAS_DE_PRUEBA[ll["name"]](copia, ll) for ll in llamadas]))
    return M + list(despues)


def _observa(funcion):
    """La observación de una llamada con la herramienta de entorno.py (o su error, como ejecutar)."""

    def observacion(entorno, ll):
        try:
            return {"type": "tool_result", "tool_use_id": ll["id"], "content": funcion(entorno, **ll["input"])}
        except Exception as e:
            return {
                "type": "tool_result",
                "tool_use_id": ll["id"],
                "content": "%s: %s" % (type(e).__name__, e),
                "is_error": True,
            }

    return observacion


SISTEMA_DE_PRUEBA = "Trabajas con los ficheros del usuario mediante tus herramientas."
HERRAMIENTAS_DE_PRUEBA = {
    "leer": _observa(leer),
    "listar": _observa(listar),
    "buscar": _observa(buscar),
    "escribir": _observa(escribir),
}


def _compra(turno):
    """La M que recibe el modelo en ese turno de la tarea de la compra de la lección."""
    return GUION[turno - 1]["espera"]


def _varias_llamadas():
    """Tres lecturas en un turno (una con error), una búsqueda y un listado, una escritura y el final."""
    return _conversacion(
        "Prepárame la cena del sábado con lo que haya en casa.",
        [
            [
                texto("Miro las notas, la agenda y la cena."),
                llamada("v1", "leer", ruta="notas.txt"),
                llamada("v2", "leer", ruta="agenda.txt"),
                llamada("v3", "leer", ruta="cena.txt"),
            ],
            [llamada("v4", "buscar", texto="patatas"), llamada("v5", "listar", carpeta="")],
            [llamada("v6", "leer", ruta="recetas/tortilla.txt")],
            [llamada("v7", "escribir", ruta="notas.txt", contenido="Sábado, cuatro a cenar: tortilla.")],
            [texto("Cena del sábado: tortilla para cuatro.")],
        ],
        ENTORNO,
    )


def _y_despues():
    """Una conversación terminada, una pregunta más del usuario y la lectura que la contesta."""
    return _conversacion(
        "¿Qué tengo el martes?",
        [
            [llamada("a1", "leer", ruta="agenda.txt"), llamada("a2", "leer", ruta="recetas/tortilla.txt")],
            [texto("El martes, dentista a las 17:30.")],
        ],
        ENTORNO,
        despues=[
            ("usuario", "¿Y el jueves?"),
            ("asistente", [llamada("a3", "leer", ruta="agenda.txt")]),
            ("usuario", [{"type": "tool_result", "tool_use_id": "a3", "content": ENTORNO["agenda.txt"]}]),
        ],
    )


# --- Lo que se mira de lo que devuelve tu compacta ------------------------------------


def _ultimo_turno(M):
    asistente = [n for n, (rol, _) in enumerate(M) if rol == "asistente"]
    return asistente[-1] if asistente else len(M)


def _retirables(M):
    """(mensaje, bloque) de lo que se puede retirar, de lo más viejo a lo más nuevo."""
    return [
        (n, i)
        for n, (_, contenido) in enumerate(M[: _ultimo_turno(M)])
        if isinstance(contenido, list)
        for i, b in enumerate(contenido)
        if b.get("type") == "tool_result" and tamaño(retira(b)) < tamaño(b)
    ]


def _con_retiradas(M, posiciones):
    return [
        [
            rol,
            [retira(b) if (n, i) in posiciones else b for i, b in enumerate(contenido)]
            if isinstance(contenido, list)
            else contenido,
        ]
        for n, (rol, contenido) in enumerate(M)
    ]


def _quien(M, n, i):
    """«t5 (leer {"ruta": "recetas/croquetas.txt"})»: la observación por su llamada."""
    id = M[n][1][i].get("tool_use_id")
    for _, contenido in M:
        for b in contenido if isinstance(contenido, list) else []:
            if b.get("type") == "tool_use" and b.get("id") == id:
                return "%s (%s %s)" % (id, b.get("name"), _corto(b.get("input"), 60))
    return str(id)


def _retiradas_en(caso, M, R):
    """Las posiciones que tu M ha retirado; un Fallo si ha cambiado algo más o de otra manera."""
    exige(
        isinstance(R, list) and len(R) == len(M),
        "en %s, compacta debía devolver una lista con los %d mensajes de M y ha devuelto %s",
        caso,
        len(M),
        _corto(R),
    )
    retiradas = []
    for n, ((rol, contenido), mensaje) in enumerate(zip(M, R, strict=True)):
        exige(
            isinstance(mensaje, list) and len(mensaje) == 2 and mensaje[0] == rol,
            "en %s, el mensaje %d debía ser un par (%s, contenido) y es %s",
            caso,
            n,
            rol,
            _corto(mensaje),
        )
        nuevo = mensaje[1]
        if not isinstance(contenido, list):
            exige(
                nuevo == contenido,
                "en %s, el mensaje %d (%s) ha cambiado: era %s y es %s",
                caso,
                n,
                rol,
                _corto(contenido),
                _corto(nuevo),
            )
            continue
        exige(
            isinstance(nuevo, list) and len(nuevo) == len(contenido),
            "en %s, el mensaje %d (%s) debía tener sus %d bloques, y tiene %s",
            caso,
            n,
            rol,
            len(contenido),
            _corto(nuevo),
        )
        for i, (antes, ahora) in enumerate(zip(contenido, nuevo, strict=True)):
            if ahora == antes:
                continue
            exige(
                antes.get("type") == "tool_result" and ahora == retira(antes),
                "en %s, el mensaje %d (%s), bloque %d, ha cambiado: un bloque sólo puede quedar igual o, "
                "si es una observación, como retira(bloque).\n  era: %s\n  es:  %s",
                caso,
                n,
                rol,
                i,
                _corto(antes),
                _corto(ahora),
            )
            retiradas.append((n, i))
    problema = problema_de_pares(R)
    exige(problema is None, "en %s, tu M rompe un par llamada/observación: %s", caso, problema)
    return retiradas


def _cabe(caso, M, presupuesto, R, retiradas):
    quedan = [p for p in _retirables(M) if p not in retiradas]
    exige(
        tamaño(R) <= presupuesto or not quedan,
        "en %s, tu M ocupa %d caracteres y el presupuesto es %d, y aún se podía retirar %s",
        caso,
        tamaño(R),
        presupuesto,
        ", ".join(_quien(M, *p) for p in quedan[:3]),
    )


def _protegidos(caso, M, R, retiradas):
    ultimo = _ultimo_turno(M)
    for n, i in retiradas:
        exige(
            n < ultimo,
            "en %s, has retirado %s, que es del último turno (desde el mensaje %d): el modelo aún no la ha leído",
            caso,
            _quien(M, n, i),
            ultimo,
        )
    peticion = next((n for n, (rol, _) in enumerate(M) if rol == "usuario"), None)
    exige(
        peticion is None or R[peticion][1] == M[peticion][1],
        "en %s, la petición del usuario (mensaje %d) ha cambiado",
        caso,
        peticion,
    )


def _las_justas(caso, M, presupuesto, R, retiradas):
    retirables = _retirables(M)
    for p in retiradas:
        exige(
            p in retirables,
            "en %s, has retirado %s, que retirada no ocupa menos (%d caracteres frente a %d)",
            caso,
            _quien(M, *p),
            tamaño(retira(M[p[0]][1][p[1]])),
            tamaño(M[p[0]][1][p[1]]),
        )
    k = len(retiradas)
    exige(
        retiradas == retirables[:k],
        "en %s, había que retirar de la más vieja a la más nueva: has retirado %s, y antes iba %s",
        caso,
        ", ".join(_quien(M, *p) for p in retiradas if p not in retirables[:k])[:300],
        ", ".join(_quien(M, *p) for p in retirables[:k] if p not in retiradas)[:300],
    )
    if k:
        sin_la_ultima = tamaño(_con_retiradas(M, retirables[: k - 1]))
        exige(
            sin_la_ultima > presupuesto,
            "en %s, retiras %d observaciones y bastaban %d: sin retirar %s, M ocupa %d y el presupuesto es %d",
            caso,
            k,
            k - 1,
            _quien(M, *retirables[k - 1]),
            sin_la_ultima,
            presupuesto,
        )


def _tu_compacta(banco, caso, M, presupuesto):
    """Lo que devuelve tu compacta y cómo han quedado sus argumentos."""
    try:
        return banco.llama_con_argumentos("compacta", [M, presupuesto])
    except Fallo:
        raise
    except Exception as e:
        raise Fallo("en %s, tu compacta ha lanzado %s: %s" % (caso, type(e).__name__, e)) from None


def comprueba_caso(banco, caso, M, presupuesto, *partes):
    """Tu compacta en una conversación: la forma y los pares siempre; lo demás, las partes que se piden."""
    M = copia_json(M)
    R, despues = _tu_compacta(banco, caso, M, presupuesto)
    retiradas = _retiradas_en(caso, M, R)
    _cabe(caso, M, presupuesto, R, retiradas)
    if "protegidos" in partes:
        _protegidos(caso, M, R, retiradas)
    if "justas" in partes:
        _protegidos(caso, M, R, retiradas)
        _las_justas(caso, M, presupuesto, R, retiradas)
    if "sin_tocar" in partes:
        exige(despues == [M, presupuesto], "en %s, tu compacta ha cambiado la M que recibe: construye una nueva", caso)
    return R


def con_su_parte_oculta(banco, nombre, pista):
    """En el calificador, los casos ocultos de esta prueba (PARTES_OCULTAS, en ocultas.py): otras
    conversaciones y otros presupuestos. En tu cuaderno, ninguno. Así, repetir las respuestas de lo
    visible (por cuántas llamadas van, o de una tabla) no da los puntos de la prueba."""
    casos = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, (caso, M, presupuesto, partes) in enumerate(casos, 1):
        with oculta(n, len(casos), pista):
            R = comprueba_caso(banco, caso, M, presupuesto, *partes)
            if "igual" in partes:  # ya cabe, o no hay nada que retirar: vuelve la misma M
                exige(R == copia_json(M), "en %s no había que retirar nada", caso)
            if "dos_veces" in partes:
                exige(
                    R == comprueba_caso(banco, caso, M, presupuesto, *partes),
                    "con la misma M y el mismo presupuesto, tu compacta ha devuelto dos cosas distintas",
                )


# --- Las pruebas ----------------------------------------------------------------------


def prueba_cabe(banco):
    """La compra, en tres turnos y con tres presupuestos, cabe; sólo cambian observaciones, y como retira."""
    for turno, presupuesto in ((8, 4000), (6, 3000), (4, 1500)):
        comprueba_caso(banco, "la compra, turno %d, presupuesto %d" % (turno, presupuesto), _compra(turno), presupuesto)
    con_su_parte_oculta(banco, "cabe", "¿Retiras observaciones con retira hasta que tamaño(M) cabe?")


def prueba_pares(banco):
    """Varias llamadas por turno, un texto junto a las llamadas y un error: ningún par se rompe."""
    M = _varias_llamadas()
    for presupuesto in (tamaño(M) - 200, tamaño(M) - 600):
        comprueba_caso(banco, "varias llamadas, presupuesto %d" % presupuesto, M, presupuesto)
    con_su_parte_oculta(
        banco, "pares", "¿Dejas cada bloque en su sitio, y cambias sólo el contenido de las observaciones?"
    )


def prueba_protegidos(banco):
    """La petición del usuario y el último turno quedan enteros, aunque no quepa."""
    comprueba_caso(banco, "la compra, turno 8, presupuesto 1000", _compra(8), 1000, "protegidos")
    M = _y_despues()
    comprueba_caso(banco, "una pregunta después del final, presupuesto 500", M, 500, "protegidos")
    con_su_parte_oculta(
        banco,
        "protegidos",
        "¿Buscas el último mensaje del asistente y no tocas nada de ahí en adelante, ni la petición?",
    )


def prueba_las_justas(banco):
    """De la más vieja a la más nueva, sólo las que ahorran y ni una más de las que hacen falta."""
    M = _compra(8)
    for menos in (1, 600, 1500, 2400):
        comprueba_caso(
            banco, "la compra, turno 8, presupuesto %d" % (tamaño(M) - menos), M, tamaño(M) - menos, "justas"
        )
    retirables = _retirables(copia_json(M))
    justo = tamaño(_con_retiradas(copia_json(M), retirables[:3]))  # cabe justo con tres
    comprueba_caso(banco, "la compra, turno 8, presupuesto %d (justo)" % justo, M, justo, "justas")
    con_su_parte_oculta(
        banco,
        "las_justas",
        "¿Miras si ya cabe antes de retirar cada una, de la más vieja a la más nueva, y saltas las que no ahorran?",
    )


def prueba_sin_tocar(banco):
    """No cambia M, y la misma entrada da la misma salida, también con otra llamada en medio."""
    M, otra = _compra(7), _varias_llamadas()
    primera = comprueba_caso(banco, "la compra, turno 7, presupuesto 2500", M, 2500, "sin_tocar")
    comprueba_caso(banco, "varias llamadas, presupuesto 900", otra, 900, "sin_tocar")
    segunda = comprueba_caso(banco, "la compra, turno 7, presupuesto 2500 (otra vez)", M, 2500, "sin_tocar")
    exige(primera == segunda, "con la misma M y el mismo presupuesto, tu compacta ha devuelto dos cosas distintas")
    con_su_parte_oculta(banco, "sin_tocar", "¿Construyes listas nuevas, sin cambiar M ni sus bloques?")


def prueba_limites(banco):
    """Si ya cabe, nada; sin asistente, nada; lo ya retirado y lo que no ahorra se queda; is_error se queda."""
    M = _compra(5)
    R = comprueba_caso(banco, "la compra, turno 5, presupuesto %d (ya cabe)" % tamaño(M), M, tamaño(M), "justas")
    exige(R == copia_json(M), "con la compra en el turno 5, que ya cabe, no había que retirar nada")
    comprueba_caso(banco, "sólo la petición, presupuesto 10", _compra(1), 10, "justas")
    comprueba_caso(banco, "la compra ya compactada, presupuesto 2000", compacta_todo(_compra(8)), 2000, "justas")
    comprueba_caso(banco, "varias llamadas, presupuesto 100", _varias_llamadas(), 100, "justas")
    con_su_parte_oculta(
        banco, "limites", "¿Devuelves M tal cual si ya cabe o no hay asistente, y no vuelves a retirar lo retirado?"
    )


def prueba_variaciones(banco, variaciones):
    """Otras conversaciones y otros presupuestos: todo lo anterior a la vez."""
    for n, (M, presupuestos) in enumerate(variaciones, 1):
        pista = (
            "¿Miras sólo el tamaño con tamaño, retiras con retira de la más vieja a la más nueva y "
            "paras en cuanto cabe, sin nada fijo de las conversaciones visibles?"
        )
        with oculta(n, len(variaciones), pista):
            for presupuesto in presupuestos:
                comprueba_caso(banco, "la variación %d" % n, M, presupuesto, "justas", "sin_tocar")


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "cabe": (1, prueba_cabe),
    "pares": (1, prueba_pares),
    "protegidos": (1, prueba_protegidos),
    "las_justas": (2, prueba_las_justas),
    "sin_tocar": (1, prueba_sin_tocar),
    "limites": (1, prueba_limites),
    "variaciones": (3, prueba_variaciones),
}
