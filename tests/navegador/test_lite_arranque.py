"""El núcleo de JupyterLite arranca con la aplicación, no cuando el cuaderno ya está pintado
(cursos/sitio/arranque/remoteEntry.js): el cuaderno se conecta a esa sesión, hay un solo núcleo y
éste ve los ficheros de la carpeta del cuaderno."""

import json

from cursos.manifiesto import leer_curso
from cursos.sitio.lite import ruta_del_cuaderno
from tests.navegador.ayudas import NUCLEO_LISTO

CURSO = leer_curso()
ESPERA = 240_000  # ms; techo para no colgarse, no una medida (las medidas están en bench/)

# Lo que el núcleo del cuaderno ve: su carpeta y lo que hay en ella (los módulos de la lección).
DONDE_ESTA = """async () => {
  const nucleo = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const salida = [];
  const futuro = nucleo.requestExecute({ code: "import json, os; print(json.dumps([os.getcwd(), os.listdir()]))" });
  futuro.onIOPub = (m) => m.header.msg_type === "stream" && salida.push(m.content.text);
  await futuro.done;
  return salida.join("");
}"""
EN_MARCHA = """async () => {
  const { sessions, kernels } = window.jupyterapp.serviceManager;
  await sessions.refreshRunning();
  await kernels.refreshRunning();
  return { sesiones: [...sessions.running()].map(s => s.path), nucleos: [...kernels.running()].length };
}"""


def _workers_del_nucleo(pagina) -> list:
    workers = []
    pagina.on("worker", lambda w: "pyodide-kernel-extension" in w.url and workers.append(w.url))
    return workers


def test_el_cuaderno_usa_la_sesion_abierta_al_arrancar(pagina, url_raiz):
    leccion = CURSO.lecciones[0]
    ruta = ruta_del_cuaderno(CURSO, leccion)
    workers = _workers_del_nucleo(pagina)
    pagina.goto(f"{url_raiz}lite/notebooks/index.html?path={ruta}")
    # La extensión deja dicho qué sesión abrió; null sería que no la abrió ella.
    arranque = pagina.wait_for_function("() => window.arranqueDelNucleo", timeout=ESPERA).json_value()
    assert arranque["ruta"] == ruta
    assert arranque["sesion"], "la extensión no abrió la sesión del cuaderno"
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session", timeout=ESPERA)
    pagina.evaluate(NUCLEO_LISTO)
    # El cuaderno no abrió otra: se conectó a la de la extensión.
    sesion = pagina.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.id")
    assert sesion == arranque["sesion"]
    assert pagina.evaluate(EN_MARCHA) == {"sesiones": [ruta], "nucleos": 1}
    assert len(workers) == 1, workers
    # Arrancado antes de que el service worker sirva los ficheros, el núcleo no los vería.
    carpeta, ficheros = json.loads(pagina.evaluate(DONDE_ESTA))
    assert carpeta == f"/drive/{ruta.rsplit('/', 1)[0]}"
    assert f"{leccion.slug}.ipynb" in ficheros
    assert [f for f in ficheros if f.endswith(".py")], ficheros  # los módulos que la lección importa


def test_sin_cuaderno_en_la_url_no_arranca_ningun_nucleo(pagina, url_raiz):
    workers = _workers_del_nucleo(pagina)
    pagina.goto(f"{url_raiz}lite/tree/index.html")
    pagina.wait_for_selector(".jp-DirListing-item", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.started", timeout=ESPERA)
    assert pagina.evaluate(EN_MARCHA) == {"sesiones": [], "nucleos": 0}
    assert pagina.evaluate("() => window.arranqueDelNucleo") is None
    assert workers == []
