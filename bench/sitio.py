"""Banco de medidas del sitio (no es una prueba): tiempo hasta la primera salida de una celda.

    .venv/bin/python bench/sitio.py [--veces 3] [--leccion permisos-y-confianza]
    .venv/bin/python bench/sitio.py --perfil [--veces 3]   # fases del arranque del núcleo de JupyterLite
    .venv/bin/python bench/sitio.py --casos suelo lite --antes OTRO_SITIO   # y el JupyterLite de otro sitio
    .venv/bin/python bench/sitio.py --perfil --antes OTRO_SITIO             # las fases de los dos
    .venv/bin/python bench/sitio.py --lenta --casos suelo leccion --veces 1  # a 1,6 Mbps y 150 ms

En una sola ejecución y con el mismo servidor mide, en frío (perfil de Chromium nuevo, caché
vacía) y en templado (otra visita con el mismo perfil):
  suelo     una página mínima que sólo carga Pyodide en un worker de módulo e imprime;
  lección   la página de la lección, pulsando «Ejecutar todo» nada más cargar;
  lite      la lección en JupyterLite, «Run all» nada más abrir el cuaderno;
  antes     (con --antes CARPETA) lo mismo en otro sitio ya construido, servido aparte en la misma
            vuelta: para comparar un cambio con lo de antes en las mismas condiciones de la máquina.
El tiempo va desde el inicio de la navegación hasta que aparece la primera salida (reloj
de la página, performance.now()); la pulsación llega en cuanto la página es interactiva
(DOMContentLoaded). Los bytes son los que el servidor ha enviado hasta ese
momento. Imprime medianas y la razón de cada caso con el suelo medido en la misma vuelta.
Con --lenta, la red de la página y de sus workers (donde se descarga Python) va limitada con la
emulación de red de Chromium (cursos.chromium.frena, la misma que usan las pruebas): limitar
sólo la página no frena al worker.
"""

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from cursos.chromium import ARGUMENTOS, CHROMIUM, frena, red_lenta
from cursos.manifiesto import leer_curso
from cursos.pyodide.distribucion import ruta_en_el_sitio
from cursos.sitio import SITIO
from cursos.sitio.construir import construir, hace_falta_construir
from cursos.sitio.lite import ruta_del_cuaderno
from cursos.sitio.servir import crea_servidor, url_de

ESPERA = 300_000

# El suelo: lo mínimo que hace falta para ver una salida de Python con Pyodide en un worker.
# El script de la página va en un fichero: la CSP del sitio (la que manda `curso servir`) no deja
# ejecutar scripts en línea.
SUELO_HTML = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>suelo</title>
<pre id="salida"></pre>
<script type="module" src="./pagina.mjs"></script>"""
SUELO_PAGINA = """const w = new Worker(new URL("./suelo.mjs", import.meta.url), { type: "module" });
w.onmessage = ({ data }) => { document.getElementById("salida").textContent = data; };
"""
SUELO_MJS = """const { loadPyodide } = await import("../{pyodide}pyodide.mjs");
const py = await loadPyodide({ indexURL: new URL("../{pyodide}", import.meta.url).href });
py.setStdout({ batched: (s) => self.postMessage(s) });
py.runPython("print('hola desde Pyodide')");
"""

NUCLEO_LISTO = """async () => {
  const contexto = window.jupyterapp.shell.currentWidget.sessionContext;
  await contexto.ready;
  await contexto.session.kernel.info;
}"""
PRIMERA_SALIDA = {
    "suelo": "() => document.getElementById('salida')?.textContent ? performance.now() : false",
    "leccion": "() => [...document.querySelectorAll('.celda .salida')].some(s => s.textContent)"
    " ? performance.now() : false",
    "lite": "() => [...document.querySelectorAll('.jp-CodeCell .jp-OutputArea-output')]"
    ".some(s => s.textContent.trim()) ? performance.now() : false",
}
PRIMERA_SALIDA["antes"] = PRIMERA_SALIDA["lite"]


def escribe_suelo(sitio: Path) -> Path:
    carpeta = sitio / "banco-suelo"
    carpeta.mkdir(exist_ok=True)
    (carpeta / "index.html").write_text(SUELO_HTML, encoding="utf-8")
    (carpeta / "pagina.mjs").write_text(SUELO_PAGINA, encoding="utf-8")
    (carpeta / "suelo.mjs").write_text(SUELO_MJS.replace("{pyodide}", ruta_en_el_sitio()), encoding="utf-8")
    return carpeta


# Una conexión lenta: 1,6 Mbps de bajada, 750 kbps de subida, 150 ms de latencia.
LENTA = red_lenta(1.6, 150, subida_mbps=0.75)


def arranca(pagina, caso: str) -> None:
    """Lo que haría quien abre la página: pedir la ejecución en cuanto puede."""
    if caso == "leccion":
        # element.click(): el mismo evento que un clic, sin las comprobaciones de Playwright
        # (desplazar, esperar a que sea estable), que añadían ~0,1 s que no son de la página.
        pagina.evaluate("() => document.querySelector('button[data-accion=ejecutar-todo]').click()")
    elif caso in ("lite", "antes"):
        # «Run all» antes de que el núcleo exista no encola nada: se espera a que conteste,
        # como espera quien ve el indicador del núcleo; ese arranque cuenta en el tiempo.
        pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
        pagina.evaluate(NUCLEO_LISTO)
        pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


def mide(contexto, servidor, url: str, caso: str, red: dict | None = None) -> tuple[float, int]:
    """(segundos hasta la primera salida, bytes enviados hasta entonces); red: las condiciones (LENTA)."""
    viejas = list(contexto.pages)
    pagina = contexto.new_page()
    for vieja in viejas:  # después de abrir la nueva: sin ventanas, Chromium se cerraría
        vieja.close()
    if red:
        frena(pagina, red)
    servidor.bytes_enviados = 0
    pagina.goto(url, wait_until="domcontentloaded")  # cuando ya se puede pulsar
    arranca(pagina, caso)
    ms = pagina.wait_for_function(PRIMERA_SALIDA[caso], timeout=ESPERA, polling=20).json_value()
    return ms / 1000, servidor.bytes_enviados


def mide_frio_y_templado(p, servidor, url, caso, medidas, red=None) -> None:
    perfil = tempfile.mkdtemp(prefix="banco-perfil-")
    contexto = p.chromium.launch_persistent_context(
        perfil, executable_path=str(CHROMIUM), headless=True, args=ARGUMENTOS
    )
    try:
        frio, enviados = mide(contexto, servidor, url, caso, red)
        templado, enviados_t = mide(contexto, servidor, url, caso, red)
    finally:
        contexto.close()
        shutil.rmtree(perfil, ignore_errors=True)
    for clave, valor in (("frio", frio), ("templado", templado), ("bytes", enviados), ("bytes_t", enviados_t)):
        medidas[caso, clave].append(valor)


# Fases del arranque de JupyterLite, vistas desde fuera: la primera petición que abre cada fase
# (la del worker del núcleo, la de Pyodide…) o la última que la cierra (la última rueda).
FASES = [
    ("DOMContentLoaded", None),
    ("worker del núcleo creado", r"/pyodide-kernel-extension/static/comlink\.worker\."),
    ("loadPyodide empieza (pyodide.mjs)", r"/pyodide\.mjs$"),
    ("intérprete descargado (python_stdlib.zip)", r"/python_stdlib\.zip$"),
    ("primera rueda pedida", r"\.whl$"),
    ("última rueda recibida", r"\.whl$"),
]


def perfil(contexto, url: str) -> dict[str, float]:
    """Segundos desde la navegación hasta cada fase del arranque del cuaderno en JupyterLite."""
    viejas = list(contexto.pages)
    pagina = contexto.new_page()
    for vieja in viejas:
        vieja.close()
    inicio, marcas = time.monotonic(), {}
    ahora = lambda: round(time.monotonic() - inicio, 2)  # noqa: E731

    def peticion(p):
        for fase, patron in FASES[1:5]:
            if patron and re.search(patron, p.url) and fase not in marcas:
                marcas[fase] = ahora()

    def terminada(p):
        if p.url.endswith(".whl"):
            marcas["última rueda recibida"] = ahora()

    contexto.on("request", peticion)
    contexto.on("requestfinished", terminada)
    pagina.goto(url, wait_until="domcontentloaded")
    marcas["DOMContentLoaded"] = ahora()
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    marcas["cuaderno pintado"] = ahora()
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    marcas["sesión del cuaderno creada"] = ahora()
    pagina.evaluate(NUCLEO_LISTO)
    marcas["núcleo listo (kernel_info)"] = ahora()
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(PRIMERA_SALIDA["lite"], timeout=ESPERA, polling=20)
    marcas["primera salida"] = ahora()
    contexto.remove_listener("request", peticion)
    contexto.remove_listener("requestfinished", terminada)
    return marcas


def perfila(p, sitios: dict[str, str], veces: int) -> None:
    """El perfil de cada sitio (lite y, con --antes, el otro), intercalados en cada vuelta."""
    medidas = {(s, t): [] for s in sitios for t in ("frío", "templado")}
    for vuelta in range(veces):
        orden = list(sitios)[vuelta % len(sitios) :] + list(sitios)[: vuelta % len(sitios)]  # como en main()
        for sitio in orden:
            url = sitios[sitio]
            carpeta = tempfile.mkdtemp(prefix="banco-perfil-")
            contexto = p.chromium.launch_persistent_context(
                carpeta, executable_path=str(CHROMIUM), headless=True, args=ARGUMENTOS
            )
            try:
                medidas[sitio, "frío"].append(perfil(contexto, url))
                medidas[sitio, "templado"].append(perfil(contexto, url))
            finally:
                contexto.close()
                shutil.rmtree(carpeta, ignore_errors=True)
    primero = next(iter(sitios))
    fases = list(dict.fromkeys(f for m in medidas[primero, "frío"] for f in m))
    columnas = [(s, t) for s in sitios for t in ("frío", "templado")]
    print(f"\nArranque del cuaderno en JupyterLite, mediana de {veces} (s desde la navegación)")
    print("| fase | " + " | ".join(f"{s} {t} (s)" for s, t in columnas) + " |")
    print("|---|" + "--:|" * len(columnas))
    for fase in sorted(fases, key=lambda f: statistics.median(m.get(f, 0) for m in medidas[primero, "frío"])):
        valores = [statistics.median([m[fase] for m in medidas[c] if fase in m] or [float("nan")]) for c in columnas]
        print(f"| {fase} | " + " | ".join(f"{v:.2f}" for v in valores) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--veces", type=int, default=3, help="repeticiones de cada medida (3)")
    parser.add_argument("--leccion", help="slug de la lección (la primera del curso)")
    casos = ["suelo", "leccion", "lite"]
    parser.add_argument(
        "--casos",
        nargs="+",
        default=casos,
        choices=casos,
        help="qué medir (los tres; el suelo hace falta para las razones)",
    )
    parser.add_argument("--antes", type=Path, help="otro sitio construido: mide también su JupyterLite (caso antes)")
    parser.add_argument("--perfil", action="store_true", help="sólo las fases del arranque de JupyterLite")
    parser.add_argument("--lenta", action="store_true", help="red de la página y sus workers a 1,6 Mbps / 150 ms")
    args = parser.parse_args()
    curso = leer_curso()
    leccion = curso.leccion(args.leccion) if args.leccion else curso.lecciones[0]
    if hace_falta_construir(curso):
        print(f"(construido en {construir(curso):.1f} s)")
    suelo = escribe_suelo(SITIO)
    servidor = crea_servidor(SITIO, 0)
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    base = url_de(servidor)
    todas = {
        "suelo": f"{base}banco-suelo/index.html",
        "leccion": f"{base}courses/{curso.slug}/{leccion.slug}/index.html",
        "lite": f"{base}lite/notebooks/index.html?path={ruta_del_cuaderno(curso, leccion)}",
    }
    urls = {caso: todas[caso] for caso in todas if caso in args.casos}
    otro = None
    if args.antes:
        otro = crea_servidor(args.antes, 0)
        threading.Thread(target=otro.serve_forever, daemon=True).start()
        urls["antes"] = todas["lite"].replace(base, url_de(otro), 1)
    medidas = {(c, m): [] for c in urls for m in ("frio", "templado", "bytes", "bytes_t")}
    try:
        with sync_playwright() as p:
            if args.perfil:
                perfila(p, {c: urls[c] for c in ("lite", "antes") if c in urls}, args.veces)
                return 0
            for vuelta in range(args.veces):
                # Intercalados y en orden rotado: el ruido de la máquina les toca a todos por igual.
                orden = list(urls)[vuelta % len(urls) :] + list(urls)[: vuelta % len(urls)]
                for caso in orden:
                    url = urls[caso]
                    red = LENTA if args.lenta else None
                    mide_frio_y_templado(p, otro if caso == "antes" else servidor, url, caso, medidas, red)
                    print(
                        f"  vuelta {vuelta + 1} {caso:8} frío {medidas[caso, 'frio'][-1]:5.2f} s  "
                        f"templado {medidas[caso, 'templado'][-1]:5.2f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        servidor.shutdown()
        if otro:
            otro.shutdown()
        shutil.rmtree(suelo, ignore_errors=True)
    imprime_tabla(medidas, leccion.slug, args.veces)
    return 0


def imprime_tabla(medidas, slug, veces) -> None:
    mediana = {k: statistics.median(v) for k, v in medidas.items()}
    print(f"\nPrimera salida, mediana de {veces} (lección {slug}); razón = caso / suelo")
    print(
        f"| {'caso':8} | frío (s) | templado (s) | ×suelo frío | ×suelo templado | MB frío | MB templado "
        "| KB frío más que el suelo |"
    )
    print("|----------|---------:|-------------:|------------:|----------------:|--------:|------------:|-------:|")
    for caso in dict.fromkeys(k[0] for k in medidas):
        frio, templado = mediana[caso, "frio"], mediana[caso, "templado"]
        print(
            f"| {caso:8} | {frio:8.2f} | {templado:12.2f} | {frio / mediana['suelo', 'frio']:11.2f} | "
            f"{templado / mediana['suelo', 'templado']:15.2f} | {mediana[caso, 'bytes'] / 1e6:7.1f} | "
            f"{mediana[caso, 'bytes_t'] / 1e6:11.2f} | "
            f"{(mediana[caso, 'bytes'] - mediana['suelo', 'bytes']) / 1e3:6.0f} |"
        )


if __name__ == "__main__":
    sys.exit(main())
