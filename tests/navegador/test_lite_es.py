"""JupyterLite como lo ve un alumno: en español, las lecciones en el orden del curso, la celda de
preparación oculta y ni un error en la consola (tampoco el de la figura adjunta, que el vigilante
deja pasar en las demás pruebas y aquí no)."""

from cursos.manifiesto import leer_curso
from cursos.sitio.lite import carpeta_de, url_del_cuaderno

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida


def test_menu_en_espanol_y_celda_de_preparacion_oculta(pagina, url_raiz):
    leccion = (
        next(lc for lc in CURSO.lecciones if lc.imagenes)
        if any(lc.imagenes for lc in CURSO.lecciones)
        else CURSO.lecciones[0]
    )
    pagina.goto(url_raiz + url_del_cuaderno(CURSO, leccion))
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    menus = pagina.locator(".lm-MenuBar-itemLabel").all_inner_texts()
    assert {"Archivo", "Editar", "Ver"} <= set(menus), menus
    assert "File" not in menus and "Edit" not in menus, menus
    preparacion = pagina.locator(".jp-Notebook .jp-CodeCell").first
    # Código oculto: la barra plegada de JupyterLab, no el código técnico encima del título.
    assert preparacion.locator(".jp-InputPlaceholder").count() == 1
    assert preparacion.locator(".jp-InputPlaceholder").inner_text().strip().startswith("# Preparación")
    assert "os.path.exists" not in preparacion.inner_text()
    if leccion.imagenes:  # la figura se ve, sin un intento fallido de cargar attachment:…
        pagina.wait_for_function(
            "() => [...document.querySelectorAll('.jp-RenderedMarkdown img')]"
            ".some(i => i.complete && i.naturalWidth > 0)",
            timeout=ESPERA,
        )
    pagina.evaluate("0")  # ida y vuelta: los errores de consola anteriores ya han llegado
    assert pagina.vigilante.perdonados == []  # lo demás lo comprueba el vigilante al cerrar la pestaña


def test_explorador_en_el_orden_del_curso(pagina, url_raiz):
    pagina.goto(url_raiz + "lite/tree/index.html")
    pagina.wait_for_selector(".jp-DirListing-item", timeout=ESPERA)
    nombres = pagina.locator(".jp-DirListing-item .jp-DirListing-itemText").all_inner_texts()
    esperado = [carpeta_de(CURSO, lc) for lc in CURSO.lecciones]
    assert [n for n in nombres if n in esperado] == esperado
    assert nombres[: len(esperado)] == esperado, "las lecciones primero, en orden"
