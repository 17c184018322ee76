"""La lección 1 en un móvil (375 px de ancho), como la usa un alumno con el pulgar o un teclado.

- La página no se desliza a lo ancho: lo ancho (el código, una salida) se desliza dentro de su caja.
- Cada caja de código que no cabe lo dice debajo («Hay más a la derecha») y se desliza también con
  las flechas; la que cabe no lleva aviso.
- Cada botón está dentro de la pantalla y nada lo tapa: se puede pulsar. También después de ejecutar.
"""

from tests.navegador.ayudas import CURSO, ESPERA, montado, url_de_leccion

PRIMERA = CURSO.lecciones[0]
ANCHO = 375

# Cada caja de código o de salida con contenido: si desborda, si su borde queda dentro de la
# pantalla, si se desliza sola, si lleva el aviso debajo y si se alcanza con el teclado.
CAJAS = """() => [...document.querySelectorAll('article pre.codigo, article .cm-scroller, article pre.salida')]
  .filter((c) => c.offsetParent && c.textContent.trim())
  .map((c) => {
    const debajo = (c.closest('.cm-editor') ?? c).nextElementSibling;
    const caja = c.getBoundingClientRect();
    return {
      donde: (c.closest('section')?.id ?? '?') + ' ' + c.className,
      desborda: c.scrollWidth > c.clientWidth + 1,
      dentro: caja.left >= 0 && caja.right <= innerWidth,
      seDesliza: ['auto', 'scroll'].includes(getComputedStyle(c).overflowX),
      aviso: !!debajo?.classList.contains('aviso-desborde') && debajo.textContent.includes('Hay más a la derecha'),
      teclado: c.tabIndex >= 0 || !!c.querySelector('[contenteditable]'),
    };
  })"""

# Los botones visibles que no están dentro de la pantalla o que tapa otra cosa en su centro.
INALCANZABLES = """async () => {
  const fuera = [];
  for (const b of document.querySelectorAll('main button')) {
    if (!b.offsetParent) continue;  // oculto a propósito (hidden), no es de pulsar ahora
    b.scrollIntoView({ block: 'center', inline: 'nearest' });
    await new Promise(requestAnimationFrame);
    const r = b.getBoundingClientRect();
    const encima = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.left < 0 || r.right > innerWidth || !(encima === b || b.contains(encima))) {
      const nombre = b.getAttribute('aria-label') ?? b.textContent.trim();
      fuera.push(`${nombre} (${Math.round(r.left)}–${Math.round(r.right)} px)`);
    }
  }
  return fuera;
}"""


def _ancho_de_la_pagina(pagina) -> int:
    return pagina.evaluate("() => document.documentElement.scrollWidth")


def _avisos_puestos(pagina):
    """Hasta que cada caja que desborda tiene su aviso (el editor llega aparte)."""
    pagina.wait_for_function(f"() => ({CAJAS})().every((c) => !c.desborda || c.aviso)", timeout=ESPERA)


def test_la_leccion_1_a_375_px(pagina, url_raiz):
    pagina.set_viewport_size({"width": ANCHO, "height": 800})
    pagina.goto(url_de_leccion(url_raiz, PRIMERA))
    montado(pagina)
    _avisos_puestos(pagina)
    assert _ancho_de_la_pagina(pagina) <= ANCHO
    cajas = pagina.evaluate(CAJAS)
    anchas = [c for c in cajas if c["desborda"]]
    assert anchas, "a 375 px alguna caja de código de la lección 1 no cabe: si no, la prueba no mira nada"
    for caja in cajas:
        assert caja["dentro"], caja
        assert caja["aviso"] == caja["desborda"], caja  # el aviso, sólo donde hay más a la derecha
        if caja["desborda"]:
            assert caja["seDesliza"] and caja["teclado"], caja
    assert pagina.evaluate(INALCANZABLES) == []

    # Con el teclado: una caja ancha se desliza con la flecha, y la página sigue quieta.
    ancha = pagina.locator("article pre.codigo[tabindex='0']").first
    ancha.focus()
    pagina.keyboard.press("ArrowRight")
    pagina.wait_for_function("(c) => c.scrollLeft > 0", arg=ancha.element_handle())
    assert pagina.evaluate("() => scrollX") == 0

    # Al editar, el editor (CodeMirror) tampoco ensancha la página y lleva su aviso.
    pagina.click("#celda-1 button.editar")
    pagina.wait_for_selector("#celda-1 .cm-content:focus")
    _avisos_puestos(pagina)
    assert _ancho_de_la_pagina(pagina) <= ANCHO
    editor = next(c for c in pagina.evaluate(CAJAS) if c["donde"].startswith("celda-1 cm-scroller"))
    assert editor["desborda"] and editor["aviso"] and editor["dentro"], editor
    pagina.keyboard.press("Escape")

    # Ejecutar todo: con las salidas escritas, lo mismo.
    pagina.click("button[data-accion=ejecutar-todo]")
    pagina.wait_for_function(
        "() => [...document.querySelectorAll('.celda')].every((c) => c.dataset.estado === 'hecha')", timeout=ESPERA
    )
    _avisos_puestos(pagina)
    assert _ancho_de_la_pagina(pagina) <= ANCHO
    assert all(c["dentro"] for c in pagina.evaluate(CAJAS))
    assert pagina.evaluate(INALCANZABLES) == []
