"""El desafío y las preguntas en la página de «Permisos y confianza», en Chromium.

El editor lleva el esqueleto del cuaderno repartido; «Comprobar» pasa las pruebas visibles
en el intérprete de la página; el código, las respuestas y la última comprobación sobreviven
a una recarga; la descarga del progreso lo lleva todo. Las preguntas se contestan con el
ratón y con el teclado.
"""

import json

import pytest

from cursos.desafio import Desafio
from cursos.preguntas import preguntas_de
from tests.navegador.ayudas import (
    CURSO,
    ESPERA,
    codigo_de,
    comprueba,
    escribe_codigo,
    montado,
    url_de_leccion,
)

LECCION = next(lec for lec in CURSO.lecciones if lec.slug == "permisos-y-confianza")
DESAFIO = Desafio(LECCION.desafio)
PREGUNTAS = preguntas_de(LECCION)


def descarga(pagina) -> dict:
    with pagina.expect_download() as espera:
        pagina.click("button.descargar-progreso")
    with open(espera.value.path(), encoding="utf-8") as f:
        return json.load(f)


def test_el_desafio_se_comprueba_en_la_pagina_y_no_se_pierde(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    assert codigo_de(pagina, "#desafio") == DESAFIO.esqueleto()
    assert "calificador del profesor" in pagina.locator("#desafio .aviso-calificacion").inner_text()
    # El esqueleto, sin tocar: cada prueba dice en español por qué no pasa.
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "faltan"
    assert "✘ salmorejo" in texto and "NotImplementedError: Escribe aquí tu solución" in texto
    assert "ejecutar nunca lanza" in texto and "0 de 7 pruebas visibles pasan" in texto
    # La solución de referencia, escrita en el editor, sobrevive a una recarga y pasa todas.
    escribe_codigo(pagina, "#desafio", DESAFIO.lee("solucion.py"))
    pagina.reload()
    montado(pagina)
    assert codigo_de(pagina, "#desafio") == DESAFIO.lee("solucion.py")
    assert "0 de 7" in pagina.locator(".resultado-desafio").inner_text()  # la última comprobación, guardada
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "todas", texto
    assert all(f"✔ {p}" in texto for p in DESAFIO.puntos() if p != "variaciones")
    assert "7 de 7 pruebas visibles pasan" in texto
    # Un error de sintaxis se ve como traceback y no llega a las pruebas.
    escribe_codigo(pagina, "#desafio", "def ejecutar(ll, entorno)\n    pass\n")
    texto = comprueba(pagina)
    assert "SyntaxError" in texto and "no ha llegado a las pruebas" in texto
    # Restaurar pregunta antes: si se cancela, el código se queda; si se acepta, vuelve el esqueleto.
    pagina.once("dialog", lambda d: d.dismiss())
    pagina.click("button.restaurar-desafio")
    assert codigo_de(pagina, "#desafio").startswith("def ejecutar(ll, entorno)\n    pass")
    pagina.once("dialog", lambda d: d.accept())
    pagina.click("button.restaurar-desafio")
    assert codigo_de(pagina, "#desafio") == DESAFIO.esqueleto()
    assert pagina.locator("#desafio .cm-content").inner_text().startswith("def ejecutar(ll, entorno):")
    pagina.reload()
    montado(pagina)
    assert codigo_de(pagina, "#desafio") == DESAFIO.esqueleto()


def test_las_pruebas_ocultas_no_salen_al_sitio(sitio):
    """Ninguna línea propia de ocultas.py está en un fichero de texto del sitio.

    Propia: que no está también en lo que ya es público (las pruebas visibles, la partida y los
    módulos del curso; p. ej. `"herramientas": ["read_document"],` está en laboratorio_puerta.py)."""
    publicos = "".join(CURSO.modulo(nombre).read_text(encoding="utf-8") for nombre in CURSO.modulos)
    for leccion in CURSO.lecciones:
        if not leccion.desafio:
            continue
        desafio = Desafio(leccion.desafio)
        visibles = desafio.pruebas() + desafio.partida() + publicos
        propias = {
            linea.strip()
            for linea in desafio.lee("ocultas.py").splitlines()
            if len(linea.strip()) > 25 and linea.strip() not in visibles
        }
        assert propias
        for ruta in (sitio / "courses").rglob("*"):
            if ruta.is_file():
                texto = ruta.read_bytes().decode("utf-8", "replace")  # también las figuras (PNG)
                assert not [p for p in propias if p in texto], ruta


def elige(pagina, pregunta: dict, indices: list[int], *, teclado: bool):
    """Marca las opciones y pulsa «Comprobar», con el ratón o sólo con el teclado."""
    grupo = pagina.locator(f"#pregunta-{pregunta['id']}")
    if not teclado:
        for i in indices:
            grupo.get_by_label(pregunta["opcion"][i]["texto"], exact=True).check()
        grupo.get_by_role("button", name="Comprobar").click()
        return
    grupo.locator("input").first.focus()
    if pregunta["tipo"] == "varias":  # cada casilla es un tabulador; espacio la marca
        for i in range(len(pregunta["opcion"])):
            if i in indices:
                pagina.keyboard.press("Space")
            pagina.keyboard.press("Tab")
    else:  # un grupo de radios: las flechas eligen y un tabulador sale del grupo
        for _ in range(indices[0]):
            pagina.keyboard.press("ArrowDown")
        pagina.keyboard.press("Space")
        pagina.keyboard.press("Tab")
    assert pagina.evaluate("document.activeElement.textContent") == "Comprobar"
    pagina.keyboard.press("Enter")


def correctas(pregunta):
    return [i for i, o in enumerate(pregunta["opcion"]) if o["correcta"]]


def test_las_preguntas_con_raton_y_teclado_se_guardan_y_se_borran(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    pagina.wait_for_selector("#preguntas button.comprobar")
    primera, segunda, tercera = PREGUNTAS[:3]
    # Para el lector de pantalla: cada grupo dice su tipo y cada opción tiene su etiqueta.
    grupo = pagina.locator(f"#pregunta-{segunda['id']}")
    aviso = pagina.locator("#" + grupo.get_attribute("aria-describedby")).inner_text()
    assert "todo o nada" in aviso
    nombre = grupo.evaluate("g => g.querySelector('.enunciado').textContent.trim().slice(0, 40)")
    assert pagina.get_by_role("group", name="Pregunta 2 " + nombre).count() == 1  # leyenda y enunciado lo nombran
    assert grupo.get_by_role("checkbox", name=segunda["opcion"][0]["texto"]).count() == 1
    assert grupo.locator(".correccion").get_attribute("role") == "status"
    # Con el ratón, una respuesta equivocada: lo dice y explica lo que eligió, no la clave.
    mal = [i for i in range(len(primera["opcion"])) if i not in correctas(primera)][:1]
    elige(pagina, primera, mal, teclado=False)
    zona = pagina.locator(f"#pregunta-{primera['id']} .correccion")
    assert "No es correcto" in zona.inner_text()
    assert primera["opcion"][mal[0]]["explicacion"] in zona.inner_text()
    assert not any(primera["opcion"][i]["explicacion"] in zona.inner_text() for i in correctas(primera))
    # Con el teclado, las correctas (en una de varias, todas y sólo ellas).
    elige(pagina, segunda, correctas(segunda), teclado=True)
    elige(pagina, tercera, correctas(tercera), teclado=True)
    for p in (segunda, tercera):
        assert "✔ Correcto." in pagina.locator(f"#pregunta-{p['id']} .correccion").inner_text(), p["id"]
    assert f"Has acertado 2 de {len(PREGUNTAS)}" in pagina.locator(".resumen-preguntas").inner_text()
    # Se puede volver a intentar: ahora bien (es de verdadero o falso: marcar otra desmarca la anterior).
    assert primera["tipo"] == "verdadero_falso"
    elige(pagina, primera, correctas(primera), teclado=False)
    assert "✔ Correcto." in zona.inner_text()
    # Tras recargar, las respuestas y su corrección siguen ahí.
    pagina.reload()
    pagina.wait_for_selector("#preguntas button.comprobar")
    assert f"Has acertado 3 de {len(PREGUNTAS)}" in pagina.locator(".resumen-preguntas").inner_text()
    for p in (primera, segunda, tercera):
        marcadas = [pagina.locator(f"#pregunta-{p['id']}-{i}").is_checked() for i in range(len(p["opcion"]))]
        assert [i for i, m in enumerate(marcadas) if m] == correctas(p), p["id"]
    # La descarga lleva las preguntas y el desafío (el código del editor y su última comprobación).
    montado(pagina)
    escribe_codigo(pagina, "#desafio", "# mi intento\n" + DESAFIO.esqueleto())
    progreso = descarga(pagina)
    assert progreso["leccion"] == LECCION.slug and set(progreso["preguntas"]) == {p["id"] for p in PREGUNTAS[:3]}
    assert progreso["preguntas"][segunda["id"]]["acierto"] is True
    assert progreso["desafio"] == {
        "desafio": DESAFIO.slug,
        "codigo": "# mi intento\n" + DESAFIO.esqueleto(),
        "ultima_comprobacion": None,
        "comprobaciones": 0,
        "pistas_vistas": 0,
    }
    # Borrar pide confirmación y deja las preguntas sin contestar, también tras recargar.
    pagina.once("dialog", lambda d: d.accept())
    pagina.click("button.borrar-respuestas")
    assert f"Has acertado 0 de {len(PREGUNTAS)}" in pagina.locator(".resumen-preguntas").inner_text()
    pagina.reload()
    pagina.wait_for_selector("#preguntas button.comprobar")
    assert pagina.locator("#preguntas input:checked").count() == 0
    assert pagina.locator("#preguntas .correccion:not(:empty)").count() == 0
    assert descarga(pagina)["preguntas"] == {}


@pytest.mark.parametrize(
    "leccion", [lec for lec in CURSO.lecciones if lec.desafio and lec is not LECCION], ids=lambda lec: lec.slug
)
def test_los_otros_desafios_pasan_con_su_solucion(pagina, url_raiz, leccion):
    """Sus ficheros (el laboratorio sin la puerta corregida) van aparte de los de la lección."""
    desafio = Desafio(leccion.desafio)
    pagina.goto(url_de_leccion(url_raiz, leccion))
    montado(pagina)
    escribe_codigo(pagina, "#desafio", desafio.lee("solucion.py"))
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "todas", texto
    visibles = [p for p in desafio.puntos() if p != "variaciones"]
    assert f"{len(visibles)} de {len(visibles)} pruebas visibles pasan" in texto
    # La última celda de la lección sigue funcionando después, con sus propios ficheros.
    pagina.locator(".celda").last.locator("button[data-accion=ejecutar]").click()  # y las que necesita
    pagina.wait_for_function(
        "() => ['hecha', 'error'].includes([...document.querySelectorAll('.celda')].at(-1).dataset.estado)",
        timeout=ESPERA,
    )
    assert pagina.locator(".celda").last.get_attribute("data-estado") == "hecha"


def test_un_bucle_sin_fin_se_puede_detener(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    pagina.locator("#celda-1 button[data-accion=ejecutar]").click()
    pagina.wait_for_selector("#celda-1[data-estado=hecha]", timeout=180_000)
    escribe_codigo(pagina, "#desafio", "def ejecutar(ll, entorno):\n    while True:\n        pass\n")
    pagina.click("button.comprobar-desafio")
    pagina.click("button.detener-desafio")  # aparece a los 3 s de correr su código; click espera a que se vea
    pagina.wait_for_selector("#desafio[data-resultado=error]")
    texto = pagina.locator(".resultado-desafio").inner_text()
    # Habla de un posible bucle sin fin, no de un error que no hay.
    assert "Has detenido Python" in texto and "bucle sin fin" in texto and "error de arriba" not in texto
    # La celda ejecutada conserva su salida, marcada como de un intérprete que ya no existe.
    assert pagina.locator("#celda-1").get_attribute("data-estado") == "anterior"
    assert "Python ya detenido" in pagina.evaluate(
        "getComputedStyle(document.querySelector('#celda-1 .numero'), '::after').content"
    )
    assert pagina.locator("button.detener-desafio").is_hidden()
    # El intérprete vuelve a arrancar y comprueba como siempre.
    escribe_codigo(pagina, "#desafio", DESAFIO.lee("solucion.py"))
    assert "7 de 7 pruebas visibles pasan" in comprueba(pagina)


def test_el_editor_sangra_como_python_y_se_sale_con_esc_tab(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    escribe_codigo(pagina, "#desafio", "")
    teclado = pagina.keyboard
    teclado.type("def f(x):")
    teclado.press("Enter")  # tras «:», cuatro espacios más
    teclado.type("if x:")
    teclado.press("Enter")  # y cuatro más
    teclado.type("return 1")
    assert codigo_de(pagina, "#desafio") == "def f(x):\n    if x:\n        return 1"
    teclado.press("Shift+Tab")  # editando, Mayús+Tab quita un nivel a la línea
    assert codigo_de(pagina, "#desafio") == "def f(x):\n    if x:\n    return 1"
    teclado.press("Tab")  # y Tab lo pone: no sale del editor
    escrito = "def f(x):\n    if x:\n        return 1"
    assert codigo_de(pagina, "#desafio") == escrito
    assert pagina.evaluate("document.activeElement.classList.contains('cm-content')")
    teclado.press("Control+z")  # se deshace y se rehace (CodeMirror agrupa lo escrito seguido)
    assert codigo_de(pagina, "#desafio") != escrito
    for _ in range(10):
        teclado.press("Control+y")
    assert codigo_de(pagina, "#desafio") == escrito
    # Números de línea.
    assert pagina.locator("#desafio .cm-lineNumbers .cm-gutterElement").all_inner_texts()[-3:] == ["1", "2", "3"]
    # Esc deja de editar: el Tab siguiente sale del editor sin tocar el código.
    teclado.press("Escape")
    assert pagina.locator("#desafio .codigo-editable").get_attribute("data-modo") == "leyendo"
    teclado.press("Tab")
    assert not pagina.evaluate("document.activeElement.classList.contains('cm-content')")
    assert codigo_de(pagina, "#desafio") == escrito
    # El foco está ya en «Comprobar», que arranca Python: se espera, para no cortar sus descargas.
    assert pagina.evaluate("document.activeElement.className") == "comprobar-desafio"
    pagina.wait_for_selector(".estado:has-text('Python está listo')", timeout=ESPERA)
    # Lo escrito con el teclado se guarda.
    pagina.reload()
    montado(pagina)
    assert codigo_de(pagina, "#desafio") == escrito
