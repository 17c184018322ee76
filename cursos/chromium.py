"""El Chromium de Debian con el que el proyecto prueba, mide y dibuja (Playwright no descarga navegadores).

Las mismas opciones en las pruebas (tests/navegador), el banco (bench/sitio.py) y las figuras
(cursos/figuras.py): así lo que se mide es lo que se prueba.
"""

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
