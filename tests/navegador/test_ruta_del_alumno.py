"""La ruta de un alumno por el curso, en Chromium (revisión docs: ../shared/revision/alumno.md).

Una prueba por cosa que el alumno nota: la página y JupyterLite son un solo curso; JupyterLite en
español y las instrucciones nombran sus menús como se leen; los fallos se dicen como son (sin red,
sin conexión); la portada le dice por dónde seguir; preguntas y entrega recuerdan lo que pasó; y la
primera salida no espera al editor ni el service worker barre a ciegas.
"""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from cursos import RAIZ
from cursos.desafio import Desafio
from cursos.preguntas import preguntas_de
from cursos.sitio import RECURSOS
from cursos.sitio.lite import ruta_del_desafio
from tests.navegador.ayudas import (
    CURSO,
    ESPERA,
    NUCLEO_LISTO,
    TODAS_EJECUTADAS,
    codigo_de,
    escribe_codigo,
    montado,
    pestana,
    sin_problemas,
    url_de_leccion,
)

PRIMERA = CURSO.lecciones[0]
CON_DESAFIO = next(lc for lc in CURSO.lecciones if lc.desafio)
CONTROLADA = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"


def _abre_el_desafio_en_lite(lite, desafio):
    lite.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    lite.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    lite.evaluate("() => window.jupyterapp.shell.currentWidget.context.ready")
    lite.wait_for_function(
        """id => window.jupyterapp.shell.currentWidget.content.widgets
        .some(c => c.model.getMetadata('nbgrader')?.grade_id === id)""",
        arg=desafio.celda_solucion,
        timeout=ESPERA,
    )


def _solucion_en_lite(lite, desafio) -> str:
    return lite.evaluate(
        """id => window.jupyterapp.shell.currentWidget.content.widgets
        .find(c => c.model.getMetadata('nbgrader')?.grade_id === id).model.sharedModel.getSource()""",
        desafio.celda_solucion,
    )


def test_la_pagina_y_jupyterlite_son_un_solo_curso(pagina, url_raiz):
    """Lo escrito en la página se abre en JupyterLite; allí «Ejecutar todas» enseña cada prueba sin
    tracebacks; Archivo › Descargar baja el mismo fichero con identificador y hora; y al volver, la
    página trae lo que se escribió en JupyterLite."""
    leccion, desafio = CON_DESAFIO, Desafio(CON_DESAFIO.desafio)
    pagina.goto(url_de_leccion(url_raiz, leccion))
    montado(pagina)
    pagina.fill("#desafio input.identificador", "ana.lab")
    pagina.dispatch_event("#desafio input.identificador", "change")
    en_la_pagina = "# escrito en la página: aún sin hacer\n" + desafio.esqueleto()
    escribe_codigo(pagina, "#desafio", en_la_pagina)
    pagina.evaluate("() => document.querySelector('#desafio').lite.listo")
    pagina.click("a.abrir-desafio-lite")
    _abre_el_desafio_en_lite(pagina, desafio)
    assert _solucion_en_lite(pagina, desafio) == en_la_pagina  # no el esqueleto sin tocar

    # «Ejecutar todas»: cada prueba visible se ejecuta y dice su resultado, como en la página.
    pagina.evaluate(NUCLEO_LISTO)
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(TODAS_EJECUTADAS, timeout=ESPERA)
    texto = "\n".join(pagina.locator(".jp-Notebook .jp-OutputArea").all_inner_texts())  # sólo las salidas
    visibles = [p for p in desafio.puntos() if p != "variaciones"]
    assert all(f"✘ {p}" in texto for p in visibles), texto[-3000:]
    assert "Traceback" not in texto and "Cell In" not in texto and "raise Fallo" not in texto, texto[-3000:]

    # Allí escribe la solución y la descarga: el nombre de nbgrader, su identificador y la hora.
    solucion = desafio.lee("solucion.py")
    pagina.evaluate(
        """([id, codigo]) => window.jupyterapp.shell.currentWidget.content.widgets
        .find(c => c.model.getMetadata('nbgrader')?.grade_id === id).model.sharedModel.setSource(codigo)""",
        [desafio.celda_solucion, solucion],
    )
    preguntado = []
    pagina.once("dialog", lambda d: (preguntado.append(d.default_value), d.accept(d.default_value)))
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.evaluate("() => window.jupyterapp.commands.execute('docmanager:download')")
    assert preguntado == ["ana.lab"]  # el identificador se ve (y se puede cambiar) antes de bajar
    assert espera.value.suggested_filename == desafio.cuaderno
    with open(espera.value.path(), encoding="utf-8") as f:
        bajado = json.load(f)
    assert bajado["metadata"]["curso"]["alumno"] == "ana.lab" and bajado["metadata"]["curso"]["desafio"] == desafio.slug
    assert datetime.fromisoformat(bajado["metadata"]["curso"]["descargado"].replace("Z", "+00:00"))
    solucion_bajada = next(
        c for c in bajado["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == desafio.celda_solucion
    )
    assert "".join(solucion_bajada["source"]) == solucion

    # De vuelta en la página: trae lo de JupyterLite, que es lo más reciente.
    pagina.goto(url_de_leccion(url_raiz, leccion))
    montado(pagina)
    pagina.evaluate("() => document.querySelector('#desafio').lite.listo")
    assert codigo_de(pagina, "#desafio") == solucion
    assert "JupyterLite" in pagina.locator("#desafio .estado-lite").inner_text()
    # Una sola instrucción de entrega, que nombra el mismo fichero y el menú de JupyterLite.
    ayuda = pagina.locator("#ayuda-entrega").inner_text()
    assert desafio.cuaderno in ayuda and "Archivo › Descargar" in ayuda and "Descargar para entregar" in ayuda


INGLES = re.compile(
    r"\b(Run|Kernel|Cell|Cells|Open|Rename|Download|Trusted|Checkpoint|Restart|Shut|Paste|"
    r"Copy|Cut|Delete|Move|Insert|Clear|Select|this|and|the)\b"
)
# Las instrucciones del curso que nombran un menú de JupyterLite: «Menú › Opción».
MENU = re.compile(
    r"\*?(Archivo|Editar|Ver|Ejecutar|Núcleo|Configuración|Ayuda) › "
    r"([^*.,;:)»\n]+?)\*?(?=[*.,;:)»\n]| y | o |$)"
)
FUENTES_CON_MENUS = [
    RAIZ / "docs" / "alumnos.md",
    RAIZ / "cursos" / "portada.py",
    *(RAIZ / "cursos" / "sitio" / "plantillas").glob("*.html"),
]


def test_jupyterlite_en_espanol_y_los_menus_como_se_leen(pagina, url_raiz):
    desafio = Desafio(CON_DESAFIO.desafio)
    pagina.goto(f"{url_raiz}lite/notebooks/index.html?path={ruta_del_desafio(CURSO, CON_DESAFIO)}")
    _abre_el_desafio_en_lite(pagina, desafio)
    pagina.evaluate(NUCLEO_LISTO)
    menus = pagina.evaluate("""() => {
      const menus = {};
      const recorre = (menu, ruta) => { for (const item of menu.items) {
        if (item.type === 'separator' || !item.label) continue;
        menus[ruta].push(item.label);
        if (item.submenu) { menus[item.label] = []; recorre(item.submenu, item.label); } } };
      for (const barra of window.jupyterapp.shell.widgets('menu')) for (const menu of barra.menus || []) {
        menus[menu.title.label] = []; recorre(menu, menu.title.label); }
      return menus;
    }""")
    assert {"Archivo", "Editar", "Ver", "Ejecutar", "Núcleo"} <= set(menus), list(menus)
    botones = pagina.evaluate("""() => [...document.querySelectorAll('.jp-Toolbar [title], .jp-cell-toolbar [title]')]
        .map(n => n.getAttribute('title'))""")
    cabecera = pagina.locator(".jp-NotebookTrustedStatus, #jp-title, .jp-NotebookCheckpoint").all_inner_texts()
    en_ingles = [t for t in [*menus, *(i for v in menus.values() for i in v), *botones, *cabecera] if INGLES.search(t)]
    # Lo que deja en inglés JupyterLab sin pasar por su traducción (el nombre del tipo de fichero).
    en_ingles = [t for t in en_ingles if "Notebook" not in t or INGLES.search(t.replace("Notebook", ""))]
    assert en_ingles == [], en_ingles
    # Cada instrucción del curso nombra el menú y la opción tal como se leen en JupyterLite.
    nombrados = {
        (m, o.strip()) for ruta in FUENTES_CON_MENUS for m, o in MENU.findall(ruta.read_text(encoding="utf-8"))
    }
    assert ("Archivo", "Descargar") in nombrados
    for menu, opcion in nombrados:
        assert opcion in menus.get(menu, []), f"«{menu} › {opcion}» no está en JupyterLite: {menus.get(menu)}"


@pytest.mark.con_problemas  # sin red fallan peticiones a propósito; lo que no puede haber se mira aquí
def test_los_fallos_se_dicen_como_son(navegador, url_raiz):
    """Sin red, la celda dice que no se ha podido descargar Python y «Comprobar» no culpa al código;
    ningún error sin atender en la página. Sin conexión, una lección no visitada es una página del
    curso que lo dice y enlaza las visitadas."""
    contexto = navegador.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        pagina = contexto.new_page()
        errores = []
        pagina.on("pageerror", lambda e: errores.append(str(e)))
        pagina.goto(url_de_leccion(url_raiz, CON_DESAFIO))
        montado(pagina)
        contexto.set_offline(True)
        pagina.click("#celda-1 button[data-accion=ejecutar]")
        pagina.wait_for_function("() => document.querySelector('#celda-1').dataset.estado === 'error'", timeout=ESPERA)
        salida = pagina.locator("#celda-1 .salida").inner_text()
        assert "No se ha podido descargar Python: revisa la conexión y vuelve a pulsar." in salida, salida
        assert "Failed to fetch" not in salida and "pyodide.asm" not in salida
        pagina.click("button.comprobar-desafio")
        pagina.wait_for_function(
            "() => document.querySelector('#desafio').dataset.resultado === 'sin-python'", timeout=ESPERA
        )
        resultado = pagina.locator(".resultado-desafio").inner_text()
        assert "No se ha comprobado tu código" in resultado and "corrige" not in resultado, resultado
        pagina.evaluate("0")
        assert errores == []
    finally:
        contexto.close()

    with pestana(navegador) as pagina:
        pagina.goto(url_de_leccion(url_raiz, PRIMERA))
        pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
        pagina.reload()  # ya controlada por el service worker: la página queda guardada
        pagina.wait_for_selector("button[data-accion=ejecutar-todo]")
        sin_problemas(pagina)
        pagina.context.set_offline(True)
        no_visitada = CURSO.lecciones[2]
        pagina.goto(url_de_leccion(url_raiz, no_visitada))
        assert pagina.locator("h1").inner_text() == "Sin conexión"
        enlaces = pagina.locator("main a").all_inner_texts()
        assert any(PRIMERA.titulo in e for e in enlaces), enlaces
        assert not any(no_visitada.titulo in e for e in enlaces)
        pagina.click(f"main a:has-text('{PRIMERA.titulo}')")
        pagina.wait_for_selector("button[data-accion=ejecutar-todo]")  # la visitada se abre sin red


@pytest.mark.parametrize("ancho,alto", [(1280, 900), (375, 800)])
def test_la_portada_dice_por_donde_seguir(navegador, url_raiz, ancho, alto):
    with pestana(navegador) as pagina:
        pagina.set_viewport_size({"width": ancho, "height": alto})
        pagina.goto(url_raiz + "index.html")
        ir = pagina.locator(".empieza .ir")
        assert ir.inner_text().startswith("Empieza por la lección 1")
        caja = pagina.locator(".empieza").bounding_box()
        assert caja["y"] + caja["height"] <= alto  # por encima del pliegue
        # Numeradas a lo largo del curso, y ninguna duración partida en dos líneas.
        numeros = pagina.evaluate("""() => [...document.querySelectorAll('ol.lecciones')].flatMap(ol =>
            [...ol.children].map((li, i) => ol.start + i))""")
        assert numeros == list(range(1, len(CURSO.lecciones) + 1))
        assert pagina.evaluate("""() => [...document.querySelectorAll('.minutos')]
            .every(m => m.getClientRects().length === 1)""")
        # Tras abrir una lección: «Sigue donde lo dejaste» y cuánto lleva del curso.
        tercera = CURSO.lecciones[2]
        pagina.goto(url_de_leccion(url_raiz, tercera))
        pagina.wait_for_selector("button[data-accion=ejecutar-todo]")
        pagina.wait_for_load_state("networkidle")  # sin descargas a medias al irse (saldrían como fallidas)
        pagina.goto(url_raiz + "index.html")
        assert ir.inner_text() == f"Sigue donde lo dejaste: lección 3, {tercera.titulo} →"
        assert "Llevas 0 de" in pagina.locator(".empieza .progreso-total").inner_text()
        caja = pagina.locator(".empieza").bounding_box()
        assert caja["y"] + caja["height"] <= alto
        ir.click()
        pagina.wait_for_url(re.compile(re.escape(tercera.slug)))
        sin_problemas(pagina)


def espera_python(pagina):
    """Python, ya en caché, arranca al abrir: que acabe antes de recargar o cerrar (si no, descargas cortadas)."""
    pagina.wait_for_function(
        "() => document.querySelector('.estado').textContent === 'Python está listo.'", timeout=ESPERA
    )


def _correctas(pregunta):
    return [i for i, o in enumerate(pregunta["opcion"]) if o["correcta"]]


def test_lo_que_pasa_se_recuerda_la_solucion_vista_y_la_entrega(pagina, url_raiz):
    leccion = next(lc for lc in CURSO.lecciones if lc.desafio and preguntas_de(lc))
    pregunta = preguntas_de(leccion)[0]
    pagina.goto(url_de_leccion(url_raiz, leccion))
    pagina.wait_for_selector("#preguntas button.comprobar")
    grupo = pagina.locator(f"#pregunta-{pregunta['id']}")
    grupo.locator("button.ver-solucion").click()
    for i in _correctas(pregunta):
        pagina.check(f"#pregunta-{pregunta['id']}-{i}")
    grupo.locator("button.comprobar").click()
    assert "no cuenta" in grupo.locator(".correccion").inner_text()
    assert "Has acertado 0 de" in pagina.locator(".resumen-preguntas").inner_text()

    # La entrega: el identificador se ve en el botón, y tras recargar se sabe cuándo se descargó.
    montado(pagina)
    pagina.fill("#desafio input.identificador", "luis")
    assert pagina.locator("#desafio button.entregar-desafio").inner_text() == "Descargar para entregar como «luis»"
    with pagina.expect_download(timeout=ESPERA):
        pagina.click("#desafio button.entregar-desafio")
    pagina.wait_for_function(
        "() => document.querySelector('#desafio').dataset.entrega.startsWith('descargada')", timeout=ESPERA
    )
    espera_python(pagina)
    pagina.reload()
    pagina.wait_for_selector("#preguntas button.comprobar")
    assert "no cuenta" in pagina.locator(f"#pregunta-{pregunta['id']} .correccion").inner_text()
    assert "Has acertado 0 de" in pagina.locator(".resumen-preguntas").inner_text()
    montado(pagina)
    entrega = pagina.locator("#desafio .estado-entrega").inner_text()
    hoy = datetime.now().strftime("%Y")
    assert entrega.startswith("Descargado para entregar el") and "«luis»" in entrega and hoy in entrega, entrega
    assert pagina.input_value("#desafio input.identificador") == "luis"

    # Un ordenador compartido: pasadas unas horas, el identificador se vuelve a pedir (y no se enseña).
    horas = int(re.search(r"HORAS_DEL_IDENTIFICADOR = (\d+)", (RECURSOS / "desafio.mjs").read_text()).group(1))
    antes = (datetime.now(UTC) - timedelta(hours=horas, minutes=5)).isoformat()
    pagina.evaluate("([c, t]) => localStorage.setItem(`curso-agentes-llm:${c}:alumno-usado`, t)", [CURSO.slug, antes])
    espera_python(pagina)
    pagina.reload()
    montado(pagina)
    assert pagina.input_value("#desafio input.identificador") == ""
    assert "Vuelve a escribir tu identificador" in pagina.locator("#desafio .aviso-identificador").inner_text()
    assert "luis" not in pagina.locator("#desafio .aviso-identificador").inner_text()
    espera_python(pagina)


def test_la_primera_salida_no_espera_al_editor_y_el_barrido_no_falla(navegador, url_raiz):
    """Con el editor, las preguntas y el desafío sin llegar nunca, la celda se ejecuta igual. Y al
    irse de la primera visita, el service worker guarda lo bajado sin cientos de peticiones fallidas."""
    with pestana(navegador) as pagina:
        pagina.route(re.compile(r"/(editor|ganchos)\.mjs$"), lambda ruta: None)  # nunca contestan
        pagina.goto(url_de_leccion(url_raiz, PRIMERA), wait_until="domcontentloaded")
        pagina.click("#celda-1 button[data-accion=ejecutar]")
        pagina.wait_for_function("() => document.querySelector('#celda-1').dataset.estado === 'hecha'", timeout=ESPERA)
        assert pagina.locator("#celda-1 .salida").inner_text().strip()

    with pestana(navegador) as pagina:
        fallidas = []
        pagina.context.on("requestfailed", lambda p: fallidas.append(p.url))
        pagina.goto(url_de_leccion(url_raiz, PRIMERA))
        pagina.click("#celda-1 button[data-accion=ejecutar]")  # Pyodide baja antes que el service worker
        pagina.wait_for_function("() => document.querySelector('#celda-1').dataset.estado === 'hecha'", timeout=ESPERA)
        pagina.wait_for_function(CONTROLADA, timeout=ESPERA)
        pagina.goto(url_raiz + "index.html")  # al irse: el barrido
        pyodide = json.loads(
            pagina.context.request.get(url_de_leccion(url_raiz, PRIMERA))
            .text()
            .split('id="python">')[1]
            .split("</script>")[0]
        )["pyodide"]
        pagina.wait_for_function(
            """async (url) => !!(await (await caches.open('curso-inmutable')).match(url))""",
            arg=f"{url_raiz}{pyodide}pyodide.asm.wasm",
            timeout=ESPERA,
        )
        assert len(fallidas) <= 5, fallidas[:20]
