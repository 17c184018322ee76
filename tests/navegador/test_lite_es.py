"""JupyterLite como lo ve un alumno: en español (también sus menús, el diálogo de reiniciar y lo que
lee un lector de pantalla), las lecciones en el orden del curso, la celda de preparación oculta y ni
un error en la consola (tampoco el de la figura adjunta, que el vigilante deja pasar en las demás
pruebas y aquí no)."""

import re

from cursos.manifiesto import leer_curso
from cursos.sitio.lite import carpeta_de, url_del_cuaderno
from tests.navegador.ayudas import NUCLEO_LISTO

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


# Palabras de la interfaz de JupyterLab en inglés que en español no se escriben: una basta para
# saber que un texto se ha quedado sin traducir («Skip to Main», «Guardar Notebook», «Kernel status»…).
INGLES = re.compile(
    r"\b(the|to|of|and|if|Skip|Main|Show|Save|More|commands|Kernel|Notebook|Connecting|Starting|"
    r"Restart|Restarting|Cancel|Confirm|Ok|Do|ask|again|toolbar|Cell|Click|Copy|Cut|Paste|Text|"
    r"status|checked|Trusted|Reload|Revert|Checkpoint|Dark|High|Contrast)\b"
)
# Lo que se ve o lee un lector de pantalla de la interfaz (no lo que escriben las celdas): el texto,
# los títulos, los nombres accesibles y los marcadores de posición.
TEXTOS_DE_LA_INTERFAZ = """() => {
  const contenido = '.jp-InputArea-editor, .jp-RenderedHTMLCommon, .jp-OutputArea, .jp-InputPlaceholder,'
    + ' noscript, script, style';
  const textos = new Set([document.title]);
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest(contenido)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) if (e.getAttribute(a)) textos.add(e.getAttribute(a));
    for (const n of e.childNodes) if (n.nodeType === 3 && n.textContent.trim()) textos.add(n.textContent.trim());
  }
  return [...textos];
}"""
# Cada texto que va enseñando el estado del núcleo (junto a los menús), desde que se abre la página.
ANOTA_EL_ESTADO_DEL_NUCLEO = """() => {
  window.__estados = [];
  new MutationObserver(() => {
    const estado = document.querySelector('.jp-NotebookKernelStatus')?.textContent.trim();
    if (estado && window.__estados.at(-1) !== estado) window.__estados.push(estado);
  }).observe(document, { childList: true, subtree: true, characterData: true });
}"""


def _abre_cada_menu(pagina) -> set[str]:
    """Los textos con cada menú de la barra abierto, y cada uno de sus submenús."""
    vistos = set()
    for i in range(pagina.locator(".lm-MenuBar-item").count()):
        pagina.locator(".lm-MenuBar-item").nth(i).click()
        pagina.wait_for_selector(".lm-Menu")
        vistos |= set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
        submenus = pagina.locator(".lm-Menu .lm-Menu-item[data-type=submenu]")
        for j in range(submenus.count()):
            submenus.nth(j).hover()
            pagina.wait_for_function("() => document.querySelectorAll('.lm-Menu').length > 1")
            vistos |= set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
        while pagina.locator(".lm-Menu").count():  # Esc cierra un menú cada vez: el submenú, después el suyo
            pagina.keyboard.press("Escape")
    return vistos


def test_nada_en_ingles_en_el_cuaderno_ni_en_sus_menus_ni_al_reiniciar(pagina, url_raiz):
    """Lo que vio un alumno en inglés: «Skip to Main», «More commands», «Guardar Notebook», «Show
    Herramientas…», el diálogo de reiniciar, «Kernel Connecting»… y lo demás de la misma interfaz."""
    pagina.add_init_script(f"({ANOTA_EL_ESTADO_DEL_NUCLEO})()")
    pagina.goto(url_raiz + url_del_cuaderno(CURSO, CURSO.lecciones[0], desafio=True))
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    vistos = set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    vistos |= set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
    vistos |= _abre_cada_menu(pagina)
    pagina.locator(".jp-Notebook .jp-Cell").nth(1).click(button="right")  # el menú de una celda
    pagina.wait_for_selector(".lm-Menu")
    vistos |= set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
    pagina.keyboard.press("Escape")
    pagina.evaluate("() => { window.jupyterapp.commands.execute('notebook:restart-kernel'); }")
    dialogo = pagina.locator(".jp-Dialog")
    dialogo.wait_for()
    vistos |= set(pagina.evaluate(TEXTOS_DE_LA_INTERFAZ))
    assert "Se perderán todas las variables" in dialogo.inner_text(), dialogo.inner_text()
    pagina.keyboard.press("Escape")
    estados = pagina.evaluate("() => window.__estados")
    vistos |= set(estados)

    en_ingles = sorted(t for t in vistos if INGLES.search(t))
    assert en_ingles == [], en_ingles
    assert "Conectando con el núcleo" in estados, estados  # lo que dice mientras arranca
    assert "Saltar al contenido" in vistos and "Guardar" in vistos
