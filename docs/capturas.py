"""Las dos capturas de las guías (docs/alumnos.md, docs/profesores.md): la entrega en la página y
`curso recoger` + `curso calificar`.

    .venv/bin/python docs/capturas.py

Con el Chromium de Debian (cursos/chromium.py), contra el sitio construido. La segunda es la
salida real de las órdenes, pintada en una página sólo para fotografiarla.
"""

import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from cursos import RAIZ
from cursos.chromium import lanza
from cursos.desafio import Desafio
from cursos.manifiesto import leer_curso
from cursos.profesor.reparto import version_del_alumno
from cursos.sitio import SITIO
from cursos.sitio.construir import construir, hace_falta_construir
from cursos.sitio.servir import crea_servidor, url_de

DOCS = Path(__file__).parent
CURSO = leer_curso()
LECCION = CURSO.lecciones[0]
DESAFIO = Desafio(LECCION.desafio)


def captura_de_la_pagina(navegador, base: str, descargas: Path) -> None:
    pagina = navegador.new_page(viewport={"width": 900, "height": 900}, device_scale_factor=2)
    pagina.goto(f"{base}courses/{CURSO.slug}/{LECCION.slug}/index.html")
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled")
    pagina.fill("#desafio input.identificador", "ana.garcia")
    pagina.click("#desafio button.editar")  # el editor (CodeMirror) se carga al empezar a editar
    pagina.wait_for_selector("#desafio .cm-content:focus")
    pagina.keyboard.press("Control+a")
    pagina.keyboard.insert_text(DESAFIO.lee("solucion.py"))
    with pagina.expect_download(timeout=180_000) as espera:
        pagina.click("#desafio button.entregar-desafio")
    espera.value.save_as(descargas / "ana.garcia" / DESAFIO.cuaderno)
    pagina.locator("#desafio .resultado-desafio").evaluate("e => e.scrollIntoView()")
    caja = pagina.evaluate("""() => {
        const a = document.querySelector('#desafio .acciones-desafio').getBoundingClientRect();
        const b = document.querySelector('#desafio .estado-entrega').getBoundingClientRect();
        return {x: a.x - 16, y: a.y + scrollY - 12, width: b.right - a.x + 32, height: b.bottom - a.y + 24};
    }""")
    pagina.screenshot(path=DOCS / "entregar-un-desafio.png", clip=caja, full_page=True)
    pagina.close()


def orden(*args: str, donde: Path) -> str:
    hecho = subprocess.run(
        [sys.executable, "-m", "cursos", *args],
        cwd=RAIZ,
        capture_output=True,
        text=True,
        env=dict(os.environ, CURSO_DIRECTORIO=str(donde)),
    )
    return f"$ ./curso {' '.join(args)}\n{hecho.stdout}"


def captura_de_la_terminal(navegador, trabajo: Path, descargas: Path) -> None:
    # Junto a la de la página: una bajada de JupyterLite en su carpeta, la misma suelta y una de otro desafío.
    cuaderno = json.loads((descargas / "ana.garcia" / DESAFIO.cuaderno).read_text(encoding="utf-8"))
    del cuaderno["metadata"]["curso"]["alumno"], cuaderno["metadata"]["curso"]["descargado"]
    (descargas / "luis.perez").mkdir()
    (descargas / "luis.perez" / DESAFIO.cuaderno).write_text(json.dumps(cuaderno), encoding="utf-8")
    (descargas / f"{DESAFIO.slug} (1).ipynb").write_text(json.dumps(cuaderno), encoding="utf-8")
    otro = json.loads((descargas / "ana.garcia" / DESAFIO.cuaderno).read_text(encoding="utf-8"))
    otro["metadata"]["curso"].update(alumno="eva.ruiz", desafio="puerta-corregida")
    (descargas / "eva.ruiz").mkdir()
    (descargas / "eva.ruiz" / "puerta-corregida.ipynb").write_text(json.dumps(otro), encoding="utf-8")
    shutil.make_archive(str(trabajo / "entregas"), "zip", descargas)
    shutil.copytree(version_del_alumno(DESAFIO).parent.parent, trabajo / "nbgrader")
    texto = orden("recoger", "entregas.zip", "--desafio", DESAFIO.slug, "--nbgrader", "nbgrader", donde=trabajo)
    texto += "\n" + orden(
        "calificar", "--desafio", DESAFIO.slug, "--nbgrader", str(trabajo / "nbgrader"), donde=trabajo
    )
    texto = texto.replace(str(trabajo) + "/", "")
    pagina = navegador.new_page(viewport={"width": 1100, "height": 400}, device_scale_factor=2)
    pagina.set_content(f"""<body style="margin:0;background:#1d2330"><pre style="margin:0;padding:18px;
        color:#e8e6e1;font:13px/1.45 'DejaVu Sans Mono',monospace;white-space:pre-wrap">{html.escape(texto)}</pre>""")
    pagina.locator("pre").screenshot(path=DOCS / "recoger-y-calificar.png")
    pagina.close()


def main() -> None:
    if hace_falta_construir(CURSO):
        construir(CURSO)
    servidor = crea_servidor(SITIO, 0)
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        trabajo = Path(tmp)
        descargas = trabajo / "descargas"
        navegador = lanza(p)
        captura_de_la_pagina(navegador, url_de(servidor), descargas)
        captura_de_la_terminal(navegador, trabajo, descargas)
        navegador.close()
    servidor.shutdown()
    print("escritas", DOCS / "entregar-un-desafio.png", "y", DOCS / "recoger-y-calificar.png")


if __name__ == "__main__":
    main()
