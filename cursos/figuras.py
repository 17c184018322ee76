"""`python -m cursos.figuras`: dibuja en PNG las figuras SVG de las lecciones.

Las figuras se escriben en SVG (se editan como texto y se leen bien en un diff), pero la lección
usa su PNG: JupyterLab no muestra un SVG adjunto a una celda de Markdown (su saneador no deja
pasar SVG en data:), y el cuaderno necesita la figura adjunta porque JupyterLite no resuelve
rutas relativas en el Markdown. El PNG se guarda en el repositorio junto al SVG; esta orden lo
regenera con el Chromium de Debian (cursos/chromium.py, el de las pruebas), a doble resolución.
"""

import re
import sys
from pathlib import Path

from cursos.chromium import lanza
from cursos.manifiesto import leer_curso


def dibuja(svg: Path) -> Path:
    from playwright.sync_api import sync_playwright

    ancho, alto = (int(float(x)) for x in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg.read_text()).groups())
    png = svg.with_suffix(".png")
    with sync_playwright() as p:
        navegador = lanza(p)
        pagina = navegador.new_page(viewport={"width": ancho, "height": alto}, device_scale_factor=2)
        pagina.goto(svg.resolve().as_uri())
        pagina.screenshot(path=str(png), omit_background=False)
        navegador.close()
    return png


def main() -> int:
    for leccion in leer_curso().lecciones:
        for svg in sorted(leccion.carpeta.glob("*.svg")):
            print("dibujada", dibuja(svg).relative_to(leccion.carpeta.parent.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
