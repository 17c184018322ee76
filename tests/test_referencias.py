"""Cada referencia que una lección hace a otra apunta a una lección que existe y está donde dice.

Se leen todas las lecciones del manifiesto (la prosa, las preguntas y el enunciado de su
desafío) y se buscan las referencias: «la lección anterior», «la lección siguiente», «la
próxima lección», «el bloque siguiente» o «anterior», «la lección sobre …», «la lección de …»,
un título entre comillas latinas («Permisos y confianza») y las frases de FRASES. Cada una se
resuelve con el manifiesto, el único esquema del curso: su orden, sus bloques, sus títulos y los
`temas` de cada lección (cómo la citan las demás). Una lección nueva queda cubierta en cuanto
entra en el manifiesto, sin tocar esta prueba.

Una referencia falla si no apunta a nada del curso o si apunta a otro sitio («la lección
siguiente, sobre los errores» desde una lección cuya siguiente es otra). DICE, para algunas
referencias, lo que la lección citada tiene que contener para que la frase sea verdad.
"""

import re
import tomllib

import pytest

from cursos import RAIZ
from cursos.manifiesto import leer_curso

# Frases que nombran una lección sin las formas de arriba.
FRASES = {"el primer agente del bloque": "el-primer-agente"}

# Lo que dice de la lección citada la que la cita, y que por tanto la citada tiene que contener.
DICE = {
    ("permisos-y-confianza", "el-primer-agente"): ["Observación:"],  # «con su Observación: delante»
    ("permisos-y-confianza", "las-cuatro-herramientas"): ["forma"],  # «el esquema mira la forma»
    ("permisos-y-confianza", "los-errores"): ["no se ha ejecutado"],
    # «ejecutar y el bucle no se han movido de como los dejó la lección anterior»
    ("permisos-y-confianza", "la-especificacion"): ["def ejecutar", "def bucle"],
    # «En «Cadenas peligrosas» verás una regla que vigila esa pareja: leer un secreto y enviarlo fuera»
    ("permisos-y-confianza", "cadenas-peligrosas"): ["permiso", "secret_read", "external_send"],
    ("el-primer-agente", "las-cuatro-herramientas"): ["tool_use", "tool_result", "listar", "buscar", "escribir"],
    ("el-primer-agente", "los-errores"): ["ejecutar"],
    ("las-cuatro-herramientas", "el-primer-agente"): ["Acción: leer agenda.txt", "lee_accion"],
    ("las-cuatro-herramientas", "los-errores"): ["no se ha ejecutado"],
    ("las-cuatro-herramientas", "permisos-y-confianza"): ["harness.py", "permiso"],
    ("cadenas-peligrosas", "permisos-y-confianza"): ["def permiso"],
    # «a partir de la lección siguiente se carga de harness.py»; «mete en el harness una decisión»
    ("la-especificacion", "permisos-y-confianza"): ["harness.py", "def permiso"],
    ("los-errores", "la-especificacion"): ["def bucle"],
    ("la-propuesta-no-es-el-permiso", "permisos-y-confianza"): ["CLASES"],
    ("identidad-delegada", "permisos-y-confianza"): ["PERMISOS"],
}

CURSO = leer_curso()


def _normal(texto: str) -> str:
    return re.sub(r"\s+", " ", texto).strip().lower()


def _corto(titulo: str) -> str:
    """El título de una lección sin lo que va detrás de los dos puntos: como se cita."""
    return _normal(titulo.split(":")[0])


# El plan del curso es el manifiesto: su orden, sus bloques, sus títulos y los temas de cada lección.
ORDEN = [lec.slug for lec in CURSO.lecciones]
BLOQUE_DE = {lec.slug: lec.bloque for lec in CURSO.lecciones}
BLOQUES = [b.slug for b in CURSO.bloques]
TITULOS = {_normal(lec.titulo): lec.slug for lec in CURSO.lecciones}
TITULOS.update({_corto(lec.titulo): lec.slug for lec in CURSO.lecciones})
TITULOS_DE_BLOQUE = {_normal(b.titulo): "bloque:" + b.slug for b in CURSO.bloques}
TEMAS = sorted(
    ((_normal(tema), lec.slug) for lec in CURSO.lecciones for tema in (*lec.temas, _corto(lec.titulo))),
    key=lambda par: -len(par[0]),
)  # el tema más largo que encaje

ARTICULO = r"(?:el|la|los|las|un|una)\s+[^.,;:«»()\[\]*`]+"
RELATIVA = re.compile(
    r"\blecci[oó]n\s+(anterior|siguiente)\b|\b(pr[oó]xima|anterior|siguiente)\s+lecci[oó]n\b", re.IGNORECASE
)
APOSICION = re.compile(r"\s*,\s*(?:(?:sobre|de)\s+(" + ARTICULO + r")|«([^«»]+)»)", re.IGNORECASE)
DE_BLOQUE = re.compile(r"\bbloque\s+(anterior|siguiente)\b|\b(pr[oó]ximo|siguiente|anterior)\s+bloque\b", re.IGNORECASE)
TEMA = re.compile(r"\bla\s+lecci[oó]n\s+(?:sobre|de)\s+(" + ARTICULO + ")", re.IGNORECASE)
ENTRE_COMILLAS = re.compile(r"«([^«»]{2,80})»")
ANTES_DE_UN_TITULO = re.compile(r"\b(lecci[oó]n|bloque)\s*$", re.IGNORECASE)


def por_tema(frase: str) -> str | None:
    frase = _normal(frase)
    return next((leccion for tema, leccion in TEMAS if frase.startswith(tema)), None)


def vecina(slug: str, paso: int) -> str | None:
    """La lección del curso que va paso lugares después (o antes) de slug."""
    n = ORDEN.index(slug) + paso
    return ORDEN[n] if 0 <= n < len(ORDEN) else None


def bloque_vecino(slug: str, paso: int) -> str | None:
    n = BLOQUES.index(BLOQUE_DE[slug]) + paso
    return "bloque:" + BLOQUES[n] if 0 <= n < len(BLOQUES) else None


def referencias(slug: str, texto: str) -> list[tuple[str, str | None, str | None]]:
    """[(la frase, a qué apunta: una lección o "bloque:<slug>", el problema o None)] de un texto de slug."""
    texto = re.sub(r"\s+", " ", texto)
    encontradas = []
    for m in RELATIVA.finditer(texto):
        palabra = (m.group(1) or m.group(2)).lower()
        destino = vecina(slug, -1 if palabra == "anterior" else 1)
        frase, problema = m.group(0), None if destino else "no hay ninguna lección %s en el curso" % palabra
        aposicion = APOSICION.match(texto, m.end())
        if aposicion and destino:
            frase += aposicion.group(0)
            dicha = por_tema(aposicion.group(1)) if aposicion.group(1) else TITULOS.get(_normal(aposicion.group(2)))
            if dicha != destino:
                problema = "dice «%s», pero la lección %s es %s" % (aposicion.group(0).strip(" ,"), palabra, destino)
        encontradas.append((frase, destino, problema))
    for m in DE_BLOQUE.finditer(texto):
        palabra = (m.group(1) or m.group(2)).lower()
        destino = bloque_vecino(slug, -1 if palabra == "anterior" else 1)
        encontradas.append((m.group(0), destino, None if destino else "no hay ningún bloque %s" % palabra))
    for m in TEMA.finditer(texto):
        destino = por_tema(m.group(1))
        encontradas.append(
            (m.group(0), destino, None if destino else "ninguna lección del curso trata de «%s»" % m.group(1).strip())
        )
    for m in ENTRE_COMILLAS.finditer(texto):
        nombre = _normal(m.group(1))
        destino = TITULOS.get(nombre) or TITULOS_DE_BLOQUE.get(nombre)
        if destino and destino != slug:
            encontradas.append((m.group(0), destino, None))
        elif not destino and ANTES_DE_UN_TITULO.search(texto[: m.start()]):
            encontradas.append((m.group(0), None, "ninguna lección ni bloque del curso se llama «%s»" % m.group(1)))
    for frase, destino in FRASES.items():
        encontradas += [(frase, destino, None)] * _normal(texto).count(frase)
    return encontradas


def textos_de(leccion) -> dict[str, str]:
    """{fichero: texto} de todo lo que la lección le dice al alumno."""
    textos = {"leccion.md": leccion.fuente.read_text(encoding="utf-8")}
    if leccion.preguntas.exists():
        preguntas = tomllib.loads(leccion.preguntas.read_text(encoding="utf-8")).get("pregunta", [])
        textos["preguntas.toml"] = "\n".join(
            [p["enunciado"] for p in preguntas]
            + [o[k] for p in preguntas for o in p["opcion"] for k in ("texto", "explicacion")]
        )
    if leccion.desafio:
        textos["enunciado.md"] = (RAIZ / "desafios" / leccion.desafio / "enunciado.md").read_text(encoding="utf-8")
    return textos


def todas() -> list[tuple[str, str, str, str | None, str | None]]:
    """(lección, fichero, frase, destino, problema) de todo el curso."""
    return [
        (lec.slug, fichero, *ref)
        for lec in CURSO.lecciones
        for fichero, texto in textos_de(lec).items()
        for ref in referencias(lec.slug, texto)
    ]


# --- El curso ------------------------------------------------------------------------------


def problemas_de(slug: str, textos: dict[str, str]) -> list[str]:
    """Lo que está mal en las referencias de los textos de una lección, una línea por referencia."""
    problemas = []
    for fichero, texto in textos.items():
        for frase, destino, problema in referencias(slug, texto):
            donde = "%s/%s: «%s»" % (slug, fichero, frase.strip())
            if problema:
                problemas.append("%s: %s" % (donde, problema))
            elif RELATIVA.fullmatch(frase.strip()) and (slug, destino) not in DICE:
                # «la lección anterior» a secas sólo es verdad por lo que dice de ella: hay que declararlo.
                problemas.append(
                    "%s apunta a %s: di en DICE qué tiene que contener %s para que la frase sea "
                    "verdad" % (donde, destino, destino)
                )
            else:
                fuente = CURSO.leccion(destino).fuente.read_text(encoding="utf-8") if destino in ORDEN else ""
                problemas += [
                    "%s: %s no dice «%s»" % (donde, destino, dicho)
                    for dicho in DICE.get((slug, destino), [])
                    if dicho not in fuente
                ]
    return problemas


@pytest.mark.parametrize("leccion", CURSO.lecciones, ids=lambda lec: lec.slug)
def test_cada_referencia_apunta_a_su_sitio(leccion):
    problemas = problemas_de(leccion.slug, textos_de(leccion))
    assert not problemas, "\n".join(problemas)


def test_las_anteriores_y_siguientes_escritas_son_vecinas_en_el_manifiesto():
    """«anterior» y «siguiente» son las vecinas en el manifiesto, también desde el enunciado y las preguntas."""
    slugs = [lec.slug for lec in CURSO.lecciones]
    for origen, _, frase, destino, problema in todas():
        if problema or destino not in ORDEN or not RELATIVA.search(frase):
            continue
        paso = -1 if re.search("anterior", frase, re.IGNORECASE) else 1
        assert slugs[slugs.index(origen) + paso] == destino, "%s: «%s» no es %s en el manifiesto" % (
            origen,
            frase,
            destino,
        )


def test_dice_habla_de_lecciones_del_curso():
    for origen, destino in DICE:
        assert origen in BLOQUE_DE and destino in BLOQUE_DE, (origen, destino)


# --- El lector de referencias, con textos hechos a mano ----------------------------------------


@pytest.mark.parametrize(
    "slug, texto, esperado",
    [
        ("permisos-y-confianza", "Como en la lección anterior, sin tocar.", [("la-especificacion", None)]),
        ("las-cuatro-herramientas", "La lección siguiente, sobre los errores, la completa.", [("los-errores", None)]),
        (
            "el-primer-agente",
            "En la próxima\nlección, «Las cuatro herramientas», hay bloques.",
            [("las-cuatro-herramientas", None), ("las-cuatro-herramientas", None)],
        ),
        ("permisos-y-confianza", "Lo verá el bloque siguiente.", [("bloque:comandos-y-red", None)]),
        ("permisos-y-confianza", "Es lo que aprendió en la lección de los errores.", [("los-errores", None)]),
        ("cadenas-peligrosas", "En «Permisos y confianza» el harness aprendió.", [("permisos-y-confianza", None)]),
        ("identidad-delegada", "Lo hacía el primer agente del bloque.", [("el-primer-agente", None)]),
        ("identidad-delegada", "Ni «Cena cancelada.» ni la lección es una referencia.", []),
    ],
)
def test_lee_las_referencias_bien_hechas(slug, texto, esperado):
    assert [(destino, problema) for _, destino, problema in referencias(slug, texto)] == esperado


@pytest.mark.parametrize(
    "slug, texto, motivo",
    [
        ("permisos-y-confianza", "Como vimos en la lección sobre los gatos.", "ninguna lección del curso trata de"),
        ("permisos-y-confianza", "Como dice la lección «Cadenas peligrosa».", "ninguna lección ni bloque del curso"),
        (
            "las-cuatro-herramientas",
            "La lección siguiente, sobre la memoria, lo arregla.",
            "pero la lección siguiente es los-errores",
        ),
        ("el-primer-agente", "Como en la lección anterior.", "no hay ninguna lección anterior"),
        ("identidad-delegada", "Lo verás en el bloque siguiente.", "no hay ningún bloque siguiente"),
        (
            "las-cuatro-herramientas",
            "En la lección anterior, «Permisos y confianza», se vio.",
            "pero la lección anterior es el-primer-agente",
        ),
    ],
)
def test_una_referencia_a_nada_o_a_otro_sitio_se_dice(slug, texto, motivo):
    problemas = [problema for _, _, problema in referencias(slug, texto) if problema]
    assert problemas and motivo in problemas[0], problemas


def test_una_anterior_sin_decir_que_contiene_no_basta():
    """«En la lección anterior el harness aprendió…», desde Cadenas peligrosas, es La propuesta: hay que declararlo."""
    [problema] = problemas_de("cadenas-peligrosas", {"leccion.md": "En la lección anterior el harness aprendió."})
    assert "apunta a la-propuesta-no-es-el-permiso: di en DICE" in problema


def test_una_citada_que_no_dice_lo_que_se_le_atribuye(monkeypatch):
    monkeypatch.setitem(DICE, ("las-cuatro-herramientas", "el-primer-agente"), ["Acción: escribir"])
    [problema] = problemas_de("las-cuatro-herramientas", {"leccion.md": "Como en la lección anterior."})
    assert problema.endswith("el-primer-agente no dice «Acción: escribir»")
