"""El Chromium de Debian con el que el proyecto prueba, mide y dibuja (Playwright no descarga navegadores).

Las mismas opciones en las pruebas (tests/navegador), el banco (bench/sitio.py) y las figuras
(cursos/figuras.py): así lo que se mide es lo que se prueba. Y la misma red lenta (frena) en el
banco y en las pruebas.
"""

import itertools
import json
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGUMENTOS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Un nombre que no sea 127.0.0.1 no se resuelve: si algo intenta salir, falla y se ve.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]


def lanza(playwright, **opciones):
    """Chromium sin ventana, con las opciones del proyecto."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGUMENTOS, **opciones)


def red_lenta(bajada_mbps: float, latencia_ms: float, subida_mbps: float | None = None) -> dict:
    """Las condiciones de Network.emulateNetworkConditions para una conexión de tantos Mbps (bytes/s en CDP)."""
    subida = bajada_mbps if subida_mbps is None else subida_mbps
    return {
        "offline": False,
        "latency": latencia_ms,
        "downloadThroughput": bajada_mbps * 1e6 / 8,
        "uploadThroughput": subida * 1e6 / 8,
    }


def frena(pagina, condiciones: dict) -> None:
    """La emulación de red de Chromium (CDP) en la página y en cada worker que cree, antes de que corra.

    Limitar sólo la página no frena a sus workers, y es un worker el que descarga Python. Por eso
    los workers se adjuntan parados (waitForDebuggerOnStart): se les pone la misma red y se sueltan.
    """
    cdp = pagina.context.new_cdp_session(pagina)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", condiciones)
    ids = itertools.count(1)

    def al_adjuntar(evento):
        for metodo, parametros in (
            ("Network.enable", {}),
            ("Network.emulateNetworkConditions", condiciones),
            ("Runtime.runIfWaitingForDebugger", {}),
        ):
            mensaje = json.dumps({"id": next(ids), "method": metodo, "params": parametros})
            cdp.send("Target.sendMessageToTarget", {"sessionId": evento["sessionId"], "message": mensaje})

    cdp.on("Target.attachedToTarget", al_adjuntar)
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})
