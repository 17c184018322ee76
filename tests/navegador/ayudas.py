"""Lo que comparten las pruebas del navegador (las pruebas no se importan unas de otras)."""

from cursos.manifiesto import leer_curso
from cursos.salidas import afirmaciones, fallos

CURSO = leer_curso()
ESPERA = 180_000  # ms; sólo un techo para no colgarse: los tiempos están en bench/


def url_de_leccion(base, leccion):
    return f"{base}courses/{CURSO.slug}/{leccion.slug}/index.html"


def espera_celdas(pagina):
    """Hasta que ninguna celda esté sin ejecutar o ejecutándose."""
    pagina.wait_for_function(
        "() => [...document.querySelectorAll('.celda')].every(c => ['hecha', 'error'].includes(c.dataset.estado))",
        timeout=ESPERA,
    )


def escribe_codigo(pagina, caja: str, codigo: str) -> None:
    """Como un alumno: «Editar» (o clic en el editor ya abierto), seleccionarlo todo y pegar `codigo`.

    `caja` es el selector de la celda o del desafío. Espera a que lo escrito esté guardado.
    """
    # El editor llega aparte (editor.mjs, después de los botones de ejecutar): hasta entonces no hay «Editar».
    pagina.wait_for_selector(f"{caja} button.editar:visible, {caja} .cm-content", timeout=ESPERA)
    editar = pagina.locator(f"{caja} button.editar")
    if editar.is_visible():
        editar.click()
    else:
        pagina.locator(f"{caja} .cm-content").click()
    pagina.wait_for_selector(f"{caja} .codigo-editable[data-modo=editando] .cm-content:focus")
    pagina.keyboard.press("Control+a")
    pagina.keyboard.insert_text(codigo)
    pagina.wait_for_function(
        "([caja, codigo]) => document.querySelector(caja).codigoActual() === codigo", arg=[caja, codigo]
    )


def codigo_de(pagina, caja: str) -> str:
    """El código que ahora se ejecutaría en la celda o el desafío (editado o no)."""
    pagina.wait_for_function("caja => document.querySelector(caja).codigoActual", arg=caja)
    return pagina.evaluate("caja => document.querySelector(caja).codigoActual()", caja)


def salidas(pagina) -> dict[int, tuple[str, str]]:
    """{número de celda: (estado, texto de su salida)}."""
    return {
        int(c.get_attribute("data-celda")): (c.get_attribute("data-estado"), c.locator(".salida").inner_text())
        for c in pagina.locator(".celda").all()
    }


def comprueba_afirmaciones(leccion, vistas, afirmadas=None):
    """Lo que afirma su salidas.toml, en las salidas vistas. Una lección de otra raíz (la copia de
    la guía de autores) trae sus afirmaciones ya leídas en afirmadas."""
    afirmadas = afirmaciones(leccion) if afirmadas is None else afirmadas
    for numero, lineas in afirmadas.items():
        assert fallos(vistas[numero][1], lineas) == [], f"celda {numero} de {leccion.slug}"


# En el desafío de la página.


def montado(pagina):
    """Tras abrir o recargar: el gancho ha puesto el código guardado y activado los botones."""
    pagina.wait_for_selector("#desafio button.comprobar-desafio:enabled")


def comprueba(pagina) -> str:
    """Pulsa «Comprobar» y espera al resultado; devuelve lo que dice."""
    pagina.click("button.comprobar-desafio")
    pagina.wait_for_function(
        "() => ['todas', 'faltan', 'error'].includes(document.querySelector('#desafio').dataset.resultado)",
        timeout=ESPERA,
    )
    return pagina.locator(".resultado-desafio").inner_text()


# En JupyterLite.

# El núcleo está listo cuando contesta a kernel_info; el indicador de la barra miente (recetas).
NUCLEO_LISTO = """async () => {
  const contexto = window.jupyterapp.shell.currentWidget.sessionContext;
  await contexto.ready;
  await contexto.session.kernel.info;
}"""
# La celda de preparación lleva el código plegado y JupyterLab no pinta su número: se mira el resto.
TODAS_EJECUTADAS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
  .filter(c => !c.querySelector('.jp-InputPlaceholder'))
  .every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt').textContent))"""
