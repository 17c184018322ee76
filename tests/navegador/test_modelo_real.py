"""El modelo de verdad en el sitio, en Chromium: la CSP, la clave sólo en el worker y la página del laboratorio.

El modelo es `./curso modelo-guionizado` (cursos/modelo/servidor.py) en otro puerto de 127.0.0.1:
otro origen que el sitio, así que pasan de verdad la CSP y CORS. Un servidor pide clave (formato
anthropic), otro no (openai, como un Ollama local) y un tercero no está en el manifiesto.

El sitio es el construido (build/sitio) con las páginas vueltas a escribir para un manifiesto con
esos servidores: Pyodide y JupyterLite no cambian, y así no hace falta construir dos sitios.
"""

import base64
import dataclasses
import json
import secrets

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from cursos.manifiesto import ServidorDelModelo, leer_curso
from cursos.modelo import escenarios, inyecciones
from cursos.sitio import SITIO
from cursos.sitio import laboratorio_de_inyecciones as lab
from cursos.sitio.construir import construir
from cursos.sitio.servir import politica_de_contenido
from tests.ayudas import modelos_que_obedecen
from tests.navegador.ayudas import pestana, servido, sitio_con_servidores

from .ayudas import ESPERA, NUCLEO_LISTO, TODAS_EJECUTADAS, url_de_leccion

CLAVE = "sk-curso-prueba-" + secrets.token_hex(12)  # distinta en cada ejecución: no puede estar de antes


@pytest.fixture(scope="module")
def modelos():
    """Los tres servidores del modelo guionizado, con las respuestas del modelo obediente de cada escenario."""
    with modelos_que_obedecen(con_clave=CLAVE, sin_clave=None, fuera=None) as urls:
        yield urls


def _servidores(urls):
    return (
        ServidorDelModelo("El de pago", urls["con_clave"], "anthropic", "sordo", True),
        ServidorDelModelo("El local", urls["sin_clave"] + "/v1", "openai", "sordo", False),
    )


@pytest.fixture(scope="module")
def sitio_con_modelo(modelos, tmp_path_factory):
    curso = dataclasses.replace(leer_curso(), servidores_del_modelo=_servidores(modelos))
    if not SITIO.exists():
        construir(leer_curso())
    sitio = sitio_con_servidores(SITIO, tmp_path_factory.mktemp("con-modelo") / "sitio", curso)
    with servido(sitio, politica=politica_de_contenido(curso.servidores_del_modelo)) as url:
        yield url


def _prueba_de_conexion(contexto, urls):
    """En la página o en el worker: qué peticiones salen y cuáles bloquea la CSP (securitypolicyviolation)."""
    return contexto.evaluate(
        """async (urls) => {
      const bloqueadas = [];
      self.addEventListener("securitypolicyviolation", (e) => bloqueadas.push(e.blockedURI));
      const resultado = {};
      for (const [nombre, url] of Object.entries(urls)) {
        try {
          const r = await fetch(url, {method: "POST", body: "{}", headers: {"content-type": "application/json"}});
          resultado[nombre] = r.status;
        } catch (e) { resultado[nombre] = "no ha salido"; }
      }
      await new Promise((listo) => setTimeout(listo, 100));  // el evento llega tras el rechazo
      return {resultado, bloqueadas};
    }""",
        urls,
    )


@pytest.mark.con_problemas  # las peticiones bloqueadas salen en la consola: es lo que se prueba
def test_la_csp_deja_los_servidores_del_manifiesto_y_bloquea_los_demas(navegador, sitio_con_modelo, modelos):
    urls = {
        "listado": modelos["sin_clave"] + "/v1/chat/completions",
        "listado_otra_ruta": modelos["sin_clave"] + "/guiones",  # mismo servidor, fuera de la URL nombrada
        "no_listado": modelos["fuera"] + "/v1/chat/completions",
    }
    with pestana(navegador) as pagina:
        pagina.goto(sitio_con_modelo + "laboratorio/index.html")
        en_la_pagina = _prueba_de_conexion(pagina, urls)  # la <meta> (y la cabecera) de la página
        trabajador = next(w for w in pagina.workers if w.url.endswith("/trabajador.mjs"))
        en_el_worker = _prueba_de_conexion(trabajador, urls)  # la cabecera del script del worker
    for visto in (en_la_pagina, en_el_worker):
        # El servidor listado contesta (400: el cuerpo vacío no es una petición de la API), y CORS lo deja leer.
        assert visto["resultado"] == {"listado": 400, "listado_otra_ruta": "no ha salido", "no_listado": "no ha salido"}
        # (en la página, una vez por política: la de la <meta> y la de la cabecera)
        assert set(visto["bloqueadas"]) == {urls["listado_otra_ruta"], urls["no_listado"]}, (
            "las dos las bloquea la CSP, no la red"
        )


def _todo_lo_guardado(pagina) -> str:
    """localStorage, sessionStorage, cookies, IndexedDB entera y las cachés (también las del service worker)."""
    return pagina.evaluate("""async () => {
      const partes = [JSON.stringify({...localStorage}), JSON.stringify({...sessionStorage}), document.cookie];
      for (const { name } of await indexedDB.databases()) {
        const db = await new Promise((ok, mal) => { const p = indexedDB.open(name); p.onsuccess = () => ok(p.result);
                                                     p.onerror = () => mal(p.error); });
        for (const almacen of db.objectStoreNames) {
          const todo = await new Promise((ok) => { const p = db.transaction(almacen).objectStore(almacen).getAll();
                                                   p.onsuccess = () => ok(p.result); });
          partes.push(name + "/" + almacen + ":" + JSON.stringify(todo));
        }
        db.close();
      }
      for (const nombre of await caches.keys()) {
        const cache = await caches.open(nombre);
        for (const peticion of await cache.keys()) {
          partes.push(peticion.url, await (await cache.match(peticion)).text());
        }
      }
      return partes.join("\\n");
    }""")


def _lleva_la_clave(texto: str) -> bool:
    """La clave tal cual o dentro de un base64 (así guarda JupyterLite lo que escribe el núcleo en el
    Drive): en cada una de las tres alineaciones, sin los caracteres del borde, que dependen de lo de al lado."""
    formas = [CLAVE]
    for desplazamiento in range(3):
        codificada = base64.b64encode(b"\0" * desplazamiento + CLAVE.encode()).decode().rstrip("=")
        formas.append(codificada[4 if desplazamiento else 0 : -2])
    return any(forma in texto for forma in formas)


ESCENARIOS = escenarios.escenarios()
TOTAL = inyecciones.total_de(ESCENARIOS, 1)  # sin, con y, si la defensa pregunta, con quien lo aprueba todo


def _referencia(veces=1):
    """Las filas de la tabla del laboratorio con el modelo obediente, en CPython: las que tiene que dar la página."""
    ejecuciones = inyecciones.ejecuta_laboratorio(ESCENARIOS, veces)
    resultado = inyecciones.para_la_pagina(ejecuciones, inyecciones.cabecera_de(inyecciones.sordo, veces))
    campos = ("titulo", "defensa", "propuesta", "ejecutada", "tarea")
    return [
        [f[c] for c in campos] + ["%d de %d" % (f["errores"], f["veces"])]
        for s in resultado["secciones"]
        for f in s["filas"]
    ]


def _resumen(veces=1):
    return inyecciones.resumen(inyecciones.tabla(inyecciones.ejecuta_laboratorio(ESCENARIOS, veces))).splitlines()


def test_la_clave_solo_vive_en_el_worker(pagina, sitio_con_modelo, tmp_path):
    consola = []
    pagina.on("console", lambda m: consola.append(m.text))
    pagina.on("worker", lambda w: w.on("console", lambda m: consola.append(m.text)))
    pagina.goto(sitio_con_modelo + "laboratorio/index.html")
    pagina.select_option("#servidor", "1")
    assert not pagina.locator(".campo-clave").is_visible(), "un modelo local no pide clave"
    pagina.select_option("#servidor", "0")
    assert pagina.locator(".campo-clave").is_visible(), "el servidor de pago pide la clave"
    pagina.fill("#clave", CLAVE)
    pagina.fill("#veces", "1")
    pagina.click(".ejecutar-laboratorio")
    assert pagina.input_value("#clave") == "", "la página vacía el campo al mandarla al worker"
    pagina.wait_for_function(
        "() => document.querySelector('.estado-laboratorio').textContent.startsWith('Hecho')", timeout=ESPERA * 3
    )
    # La clave ha llegado al servidor (que sin ella contesta 401 y la tabla saldría con errores).
    filas = pagina.eval_on_selector_all(
        ".tabla-laboratorio tbody tr:has(td)", "filas => filas.map((f) => [...f.cells].map((c) => c.textContent))"
    )
    assert filas == _referencia(), "una tabla de verdad, con los títulos y los números de la orden"
    region = pagina.locator(".tabla-laboratorio")
    assert region.get_attribute("tabindex") == "0" and region.get_attribute("aria-label")
    caja = pagina.evaluate(
        "() => [document.querySelector('.tabla-laboratorio').getBoundingClientRect().right, "
        "document.querySelector('article.laboratorio').getBoundingClientRect().right]"
    )
    assert caja[0] <= caja[1] + 1, "la tabla cabe en su caja (y si no, se desplaza dentro de ella)"
    assert pagina.locator(".grafico-laboratorio svg rect").count() > 18
    # La barra de progreso ha contado cada ejecución.
    assert pagina.eval_on_selector(".progreso-laboratorio", "p => [p.value, p.max]") == [TOTAL, TOTAL]
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.click(".descargar-ejecuciones")
    conversaciones = tmp_path / "conversaciones.json"
    espera.value.save_as(conversaciones)
    descargado = json.loads(conversaciones.read_text(encoding="utf-8"))
    assert len(descargado["ejecuciones"]) == TOTAL and descargado["cabecera"]["modelo"] == "sordo"
    dom_del_laboratorio = pagina.content() + json.dumps(
        pagina.eval_on_selector_all("input", "cajas => cajas.map((c) => c.value)")
    )
    url_del_laboratorio = pagina.url

    # La entrega de un desafío, en el mismo navegador después de usar la clave.
    leccion = next(lc for lc in leer_curso().lecciones if lc.desafio)
    pagina.goto(url_de_leccion(sitio_con_modelo, leccion))
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled", timeout=ESPERA)
    pagina.fill("#desafio input.identificador", "ana")
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.click("#desafio button.entregar-desafio")
    entrega = tmp_path / "entrega.ipynb"
    espera.value.save_as(entrega)

    lugares = {
        "almacenamiento (localStorage, sessionStorage, cookies, IndexedDB, cachés)": _todo_lo_guardado(pagina),
        "cookies del contexto": json.dumps(pagina.context.cookies()),
        "la descarga de las conversaciones": conversaciones.read_text(encoding="utf-8"),
        "la entrega": entrega.read_text(encoding="utf-8"),
        "la consola": "\n".join(consola),
        "la URL del laboratorio": url_del_laboratorio,
        "el DOM del laboratorio tras usarla": dom_del_laboratorio,
        "la URL de la lección": pagina.url,
    }
    for donde, texto in lugares.items():
        assert not _lleva_la_clave(texto), f"la clave está en {donde}"
    assert "ana" in lugares["la entrega"], "la entrega se ha leído de verdad"


# Cada celda de código del cuaderno abierto: su código y el texto de sus salidas, del modelo de JupyterLab.
_CELDAS_DEL_CUADERNO = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter((c) => c.model.type === "code")
  .map((c) => [c.model.sharedModel.getSource(), c.model.outputs.toJSON().map((s) =>
     s.text ?? JSON.stringify(s.data ?? s)).join("")])"""


def test_el_cuaderno_del_laboratorio_en_jupyterlite(pagina, sitio_con_modelo):
    """El mismo laboratorio como cuaderno: la clave por getpass, la defensa a 0 y la clave en ningún sitio."""
    ruta = f"{lab.CARPETA_LITE}/{lab.CUADERNO}"
    pagina.goto(f"{sitio_con_modelo}lite/notebooks/index.html?path={ruta}")
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    # Una repetición (como en la prueba de la página) y el servidor que pide clave (el 0).
    pagina.evaluate("""() => { for (const c of window.jupyterapp.shell.currentWidget.content.widgets) {
        const m = c.model.sharedModel; m.setSource(m.getSource().replace("VECES = 5", "VECES = 1")); } }""")
    # Sin esperar a la promesa de run-all-cells: con getpass pendiente, esperarla desde Playwright
    # hacía que la petición de stdin del núcleo volviera vacía (getpass daba None).
    pagina.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    caja = pagina.wait_for_selector("input.jp-Stdin-input", timeout=ESPERA * 2)
    assert caja.get_attribute("type") == "password", "getpass: la caja no enseña la clave"
    caja.fill(CLAVE)
    caja.press("Enter")
    # Todas ejecutadas o una con error (JupyterLite no ejecuta las que quedan): que el fallo diga cuál.
    try:
        pagina.wait_for_function(
            f"() => ({TODAS_EJECUTADAS})() || !!document.querySelector('.jp-OutputArea-output[data-mime-type*=error]')",
            timeout=ESPERA * 4,
        )
    except PlaywrightTimeoutError:
        pytest.fail(f"el cuaderno no ha terminado; sus celdas: {pagina.evaluate(_CELDAS_DEL_CUADERNO)}")
    celdas = dict(pagina.evaluate(_CELDAS_DEL_CUADERNO))

    def salida(empieza):
        return next(texto for codigo, texto in celdas.items() if codigo.lstrip().startswith(empieza))

    assert all("Traceback" not in t and "Error" not in t for t in celdas.values()), celdas
    assert all(linea in salida("ensayo =") for linea in _resumen()), salida("ensayo =")
    assert "La clave está en la memoria del intérprete." in salida("from getpass")
    # Contra el servidor, por XMLHttpRequest desde el núcleo y con la clave: lo mismo que en CPython.
    ejecucion = salida("import ipywidgets")
    assert all(linea in ejecucion for linea in _resumen()), ejecucion
    assert "han fallado" not in ejecucion
    assert pagina.locator(".jp-OutputArea-output .jupyter-widgets").count() > 0, "la barra, pintada"
    # JupyterLab pinta el SVG como <img src="data:…">: pintado, con su anchura.
    grafico = pagina.locator(".jp-OutputArea-output[data-mime-type='image/svg+xml'] img")
    assert grafico.count() == 1 and grafico.evaluate("(i) => i.complete && i.naturalWidth") == 760, "el gráfico"
    assert salida("propuestas =").startswith("La receta que cancela la cena, con defensa:")
    assert f"{TOTAL} ejecuciones guardadas" in salida("import json")

    pagina.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    guardados = pagina.evaluate(
        """async (rutas) => Promise.all(rutas.map(async (r) => {
             const c = (await window.jupyterapp.serviceManager.contents.get(r, {content: true})).content;
             return typeof c === "string" ? c : JSON.stringify(c);
           }))""",
        [ruta, f"{lab.CARPETA_LITE}/{lab.RESULTADOS}"],
    )
    assert "Ataque, con defensa: ejecutada 0 de 10" in guardados[0] and not _lleva_la_clave(guardados[0])
    resultados = guardados[1] if guardados[1].startswith("{") else base64.b64decode(guardados[1]).decode()
    assert len(json.loads(resultados)["ejecuciones"]) == TOTAL and not _lleva_la_clave(resultados)
    assert not _lleva_la_clave(_todo_lo_guardado(pagina)), "ni en IndexedDB (el Drive), localStorage o las cachés"
    assert not _lleva_la_clave(pagina.content()), "ni en la página"
