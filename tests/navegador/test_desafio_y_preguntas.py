"""El desafío y las preguntas en la página de «Permisos y confianza», en Chromium.

El editor lleva el esqueleto del cuaderno repartido; «Comprobar» pasa las pruebas visibles
en el intérprete de la página; el código, las respuestas y la última comprobación sobreviven
a una recarga; la descarga del progreso lo lleva todo. Las preguntas se contestan con el
ratón y con el teclado.
"""

import json

import pytest

from cursos.calificador.fuente import Desafio
from cursos.preguntas import preguntas_de
from tests.navegador.test_paginas import CURSO, ESPERA, espera_celdas, url_de_leccion

LECCION = next(lec for lec in CURSO.lecciones if lec.slug == "permisos-y-confianza")
DESAFIO = Desafio(LECCION.desafio)
PREGUNTAS = preguntas_de(LECCION)


def montado(pagina):
    """Tras abrir o recargar: el gancho ha puesto el código guardado y activado los botones."""
    pagina.wait_for_selector("#desafio button.comprobar-desafio:enabled")


def comprueba(pagina) -> str:
    """Pulsa «Comprobar» y espera al resultado; devuelve lo que dice."""
    pagina.click("button.comprobar-desafio")
    pagina.wait_for_function(
        "() => ['todas', 'faltan', 'error'].includes(document.querySelector('#desafio').dataset.resultado)",
        timeout=ESPERA)
    return pagina.locator(".resultado-desafio").inner_text()


def descarga(pagina) -> dict:
    with pagina.expect_download() as espera:
        pagina.click("button.descargar-progreso")
    with open(espera.value.path(), encoding="utf-8") as f:
        return json.load(f)


def test_el_desafio_se_comprueba_en_la_pagina_y_no_se_pierde(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    editor = pagina.locator("#desafio textarea.editor")
    assert editor.input_value() == DESAFIO.esqueleto()
    assert "calificador del profesor" in pagina.locator("#desafio .aviso-calificacion").inner_text()
    # El esqueleto, sin tocar: cada prueba dice en español por qué no pasa.
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "faltan"
    assert "✘ salmorejo" in texto and "NotImplementedError: Escribe aquí tu solución" in texto
    assert "ejecutar nunca lanza" in texto and "0 de 7 pruebas visibles pasan" in texto
    # La solución de referencia, escrita en el editor, sobrevive a una recarga y pasa todas.
    editor.fill(DESAFIO.lee("solucion.py"))
    pagina.reload()
    montado(pagina)
    assert editor.input_value() == DESAFIO.lee("solucion.py")
    assert "0 de 7" in pagina.locator(".resultado-desafio").inner_text()  # la última comprobación, guardada
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "todas", texto
    assert all(f"✔ {p}" in texto for p in DESAFIO.puntos() if p != "variaciones")
    assert "7 de 7 pruebas visibles pasan" in texto
    # Un error de sintaxis se ve como traceback y no llega a las pruebas.
    editor.fill("def ejecutar(ll, entorno)\n    pass\n")
    texto = comprueba(pagina)
    assert "SyntaxError" in texto and "no ha llegado a las pruebas" in texto
    # Restaurar pregunta antes: si se cancela, el código se queda; si se acepta, vuelve el esqueleto.
    pagina.once("dialog", lambda d: d.dismiss())
    pagina.click("button.restaurar-desafio")
    assert editor.input_value().startswith("def ejecutar(ll, entorno)\n    pass")
    pagina.once("dialog", lambda d: d.accept())
    pagina.click("button.restaurar-desafio")
    assert editor.input_value() == DESAFIO.esqueleto()
    pagina.reload()
    montado(pagina)
    assert editor.input_value() == DESAFIO.esqueleto()
    assert pagina.vigilante.problemas == []


def test_las_pruebas_ocultas_no_salen_al_sitio(sitio):
    """Ninguna línea propia de ocultas.py está en un fichero de texto del sitio."""
    for leccion in CURSO.lecciones:
        if not leccion.desafio:
            continue
        desafio = Desafio(leccion.desafio)
        visibles = desafio.pruebas() + desafio.partida()
        propias = {linea.strip() for linea in desafio.lee("ocultas.py").splitlines()
                   if len(linea.strip()) > 25 and linea.strip() not in visibles}
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
    assert pagina.get_by_role("group", name=segunda["enunciado"][:40]).count() == 1  # la leyenda nombra el grupo
    assert grupo.get_by_role("checkbox", name=segunda["opcion"][0]["texto"]).count() == 1
    assert grupo.locator(".correccion").get_attribute("role") == "status"
    # Con el ratón, una respuesta equivocada: lo dice y explica cada opción.
    mal = [i for i in range(len(primera["opcion"])) if i not in correctas(primera)][:1]
    elige(pagina, primera, mal, teclado=False)
    zona = pagina.locator(f"#pregunta-{primera['id']} .correccion")
    assert "No es correcto" in zona.inner_text()
    assert all(o["explicacion"] in zona.inner_text() for o in primera["opcion"])
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
    pagina.locator("#desafio textarea.editor").fill("# mi intento\n" + DESAFIO.esqueleto())
    progreso = descarga(pagina)
    assert progreso["leccion"] == LECCION.slug and set(progreso["preguntas"]) == {p["id"] for p in PREGUNTAS[:3]}
    assert progreso["preguntas"][segunda["id"]]["acierto"] is True
    assert progreso["desafio"] == {"desafio": DESAFIO.slug, "codigo": "# mi intento\n" + DESAFIO.esqueleto(),
                                   "ultima_comprobacion": None}
    # Borrar pide confirmación y deja las preguntas sin contestar, también tras recargar.
    pagina.once("dialog", lambda d: d.accept())
    pagina.click("button.borrar-respuestas")
    assert f"Has acertado 0 de {len(PREGUNTAS)}" in pagina.locator(".resumen-preguntas").inner_text()
    pagina.reload()
    pagina.wait_for_selector("#preguntas button.comprobar")
    assert pagina.locator("#preguntas input:checked").count() == 0
    assert pagina.locator("#preguntas .correccion:not(:empty)").count() == 0
    assert descarga(pagina)["preguntas"] == {}
    assert pagina.vigilante.problemas == []


@pytest.mark.parametrize("leccion", [lec for lec in CURSO.lecciones if lec.desafio and lec is not LECCION],
                         ids=lambda lec: lec.slug)
def test_los_otros_desafios_pasan_con_su_solucion(pagina, url_raiz, leccion):
    """Sus ficheros (el laboratorio sin la puerta corregida) van aparte de los de la lección."""
    desafio = Desafio(leccion.desafio)
    pagina.goto(url_de_leccion(url_raiz, leccion))
    montado(pagina)
    pagina.locator("#desafio textarea.editor").fill(desafio.lee("solucion.py"))
    texto = comprueba(pagina)
    assert pagina.locator("#desafio").get_attribute("data-resultado") == "todas", texto
    visibles = [p for p in desafio.puntos() if p != "variaciones"]
    assert f"{len(visibles)} de {len(visibles)} pruebas visibles pasan" in texto
    # La última celda de la lección sigue funcionando después, con sus propios ficheros.
    pagina.locator(".celda").last.locator("button[data-accion=ejecutar]").click()
    espera_celdas(pagina)
    assert pagina.locator(".celda").last.get_attribute("data-estado") == "hecha"
    assert pagina.vigilante.problemas == []


def test_un_bucle_sin_fin_se_puede_detener(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    pagina.locator("#celda-1 button[data-accion=ejecutar]").click()
    pagina.wait_for_selector("#celda-1[data-estado=hecha]", timeout=180_000)
    editor = pagina.locator("#desafio textarea.editor")
    editor.fill("def ejecutar(ll, entorno):\n    while True:\n        pass\n")
    pagina.click("button.comprobar-desafio")
    pagina.click("button.detener-desafio")  # aparece a los 3 s; click espera a que se vea
    pagina.wait_for_selector("#desafio[data-resultado=error]")
    assert "Has detenido Python" in pagina.locator(".resultado-desafio").inner_text()
    # La celda ejecutada conserva su salida, marcada como de un intérprete que ya no existe.
    assert pagina.locator("#celda-1").get_attribute("data-estado") == "anterior"
    assert "Python ya detenido" in pagina.evaluate(
        "getComputedStyle(document.querySelector('#celda-1 .numero'), '::after').content")
    assert pagina.locator("button.detener-desafio").is_hidden()
    # El intérprete vuelve a arrancar y comprueba como siempre.
    editor.fill(DESAFIO.lee("solucion.py"))
    assert "7 de 7 pruebas visibles pasan" in comprueba(pagina)
    assert pagina.vigilante.problemas == []


def test_el_editor_sangra_como_python_y_se_sale_con_esc_tab(pagina, url_raiz):
    pagina.goto(url_de_leccion(url_raiz, LECCION))
    montado(pagina)
    editor = pagina.locator("#desafio textarea.editor")
    editor.fill("")
    editor.focus()
    teclado = pagina.keyboard
    teclado.type("def f(x):")
    teclado.press("Enter")          # tras «:», cuatro espacios más
    teclado.type("if x:")
    teclado.press("Enter")          # y cuatro más
    teclado.type("return 1")
    teclado.press("Enter")          # la misma sangría
    teclado.press("Shift+Tab")      # quita un nivel
    teclado.type("return 0")
    teclado.press("Enter")
    teclado.press("Tab")            # Tab escribe, no sale
    escrito = "def f(x):\n    if x:\n        return 1\n    return 0\n        "
    assert editor.input_value() == escrito
    assert pagina.evaluate("document.activeElement.classList.contains('editor')")
    teclado.press("Control+z")      # se deshace y se rehace como cualquier escritura
    deshecho = editor.input_value()
    assert deshecho != escrito and escrito.startswith(deshecho)
    teclado.press("Control+Shift+z")
    assert editor.input_value() == escrito
    teclado.press("Backspace")      # (Retroceso borra un espacio; el resto de la sangría, Mayús+Tab)
    teclado.press("Shift+Tab")
    # Varias líneas seleccionadas: Tab las sangra todas y Mayús+Tab lo deshace.
    editor.evaluate("e => e.setSelectionRange(0, e.value.length)")
    teclado.press("Tab")
    assert editor.input_value().startswith("    def f(x):\n        if x:")
    teclado.press("Shift+Tab")
    assert editor.input_value() == escrito[:-4]
    # Esc suelta el editor: el Tab siguiente va al botón de comprobar.
    teclado.press("Escape")
    teclado.press("Tab")
    assert pagina.evaluate("document.activeElement.className") == "comprobar-desafio"
    # Quien llega a «Comprobar» va a necesitar Python: ya arranca (y se espera, para no cortarlo).
    pagina.wait_for_selector(".estado:has-text('Python está listo')", timeout=180_000)
    # Lo escrito con el teclado se guarda igual que lo pegado.
    pagina.reload()
    montado(pagina)
    assert editor.input_value() == escrito[:-4]
    assert pagina.vigilante.problemas == []
