"""`curso construir`: del manifiesto y las fuentes de las lecciones a un sitio estático.

Se construye en una carpeta nueva y sólo al final sustituye a la anterior, así que un
servidor en marcha nunca sirve un sitio a medias.
"""

import hashlib
import json
import re
import shutil
import time
from pathlib import Path

from cursos import RAIZ
from cursos.desafio import Desafio
from cursos.manifiesto import Curso
from cursos.profesor.reparto import prepara, version_del_alumno
from cursos.pyodide.distribucion import instala_pyodide, ruta_en_el_sitio
from cursos.sitio import RECURSOS, SITIO
from cursos.sitio.codemirror import modulo_del_editor
from cursos.sitio.comprimir import comprime_pyodide, comprime_sitio, tamanos
from cursos.sitio.laboratorio_de_inyecciones import escribe_codigo as escribe_codigo_del_laboratorio
from cursos.sitio.lite import construye_lite
from cursos.sitio.paginas import (
    LABORATORIO,
    css_del_resaltado,
    pagina_de_inicio,
    pagina_de_leccion,
    pagina_del_laboratorio,
)
from cursos.sitio.servir import escribe_politica, politica_de_contenido


def huella_de_las_fuentes(curso: Curso) -> str:
    """Cambia si cambia cualquier cosa de la que sale el sitio."""
    ficheros = [RAIZ / "pyproject.toml", *(curso.modulo(m) for m in curso.modulos)]
    for carpeta in ("lecciones", "desafios", "cursos"):  # cursos/: manifiesto, cuadernos, sitio
        ficheros += sorted(p for p in (RAIZ / carpeta).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    h = hashlib.sha256()
    for ruta in ficheros:
        h.update(str(ruta.relative_to(RAIZ)).encode() + b"\0" + ruta.read_bytes())
    return h.hexdigest()


def _sello(destino: Path) -> Path:
    return destino.with_name(destino.name + ".huella")


def hace_falta_construir(curso: Curso, destino: Path = SITIO) -> bool:
    sello = _sello(destino)
    return not sello.exists() or sello.read_text() != huella_de_las_fuentes(curso)


def construir(curso: Curso, destino: Path = SITIO) -> float:
    """Construye el sitio en destino. Devuelve los segundos que ha tardado."""
    inicio = time.monotonic()
    nuevo = destino.with_name(destino.name + ".nuevo")
    shutil.rmtree(nuevo, ignore_errors=True)
    nuevo.mkdir(parents=True)
    pyodide = ruta_en_el_sitio()
    print("» Pyodide y las ruedas fijadas…")
    instala_pyodide(nuevo)
    print("» Copias comprimidas de Pyodide (Brotli 11 y gzip; la primera vez, ~1 min)…")
    comprime_pyodide(nuevo / pyodide)  # antes que las páginas: dicen cuánto se descarga
    print("» Los desafíos tal como se reparten (nbgrader generate_assignment; se guardan)…")
    prepara([Desafio(lc.desafio) for lc in curso.lecciones if lc.desafio])
    print("» Páginas…")
    _escribe_paginas(curso, nuevo, pyodide)
    huella = huella_de_las_fuentes(curso)[:16]
    print("» JupyterLite…")
    escribe_lite(curso, nuevo, pyodide, destino.with_name("lite-trabajo"), huella)
    print("» Service workers (fuera de línea)…")
    escribe_service_worker(nuevo, pyodide, huella, curso)
    print("» Copias comprimidas del resto (Brotli y gzip)…")
    comprime_sitio(nuevo)
    shutil.rmtree(destino, ignore_errors=True)
    nuevo.rename(destino)
    escribe_politica(destino, politica_de_contenido(curso.servidores_del_modelo))  # la de `curso servir`
    _sello(destino).write_text(huella_de_las_fuentes(curso))
    return time.monotonic() - inicio


# Un <script> en línea, sin src ni type (los de datos JSON no se ejecutan y la CSP los deja).
_SCRIPT_EN_LINEA = re.compile(r"<script>(.*?)</script>", re.S)


def scripts_de_lite_aparte(lite: Path) -> None:
    """Cada <script> en línea de las páginas de JupyterLite, a un fichero al lado: la CSP del sitio
    (script-src 'self') no deja ejecutar código en línea. Al lado, para que lo relativo que importa
    (../config-utils.js) se resuelva igual; con la huella en el nombre, se cachea para siempre."""
    for pagina in sorted(lite.rglob("*.html")):
        html = pagina.read_text(encoding="utf-8")

        def aparte(m: re.Match, carpeta: Path = pagina.parent) -> str:
            nombre = f"arranque.{hashlib.sha256(m.group(1).encode()).hexdigest()[:16]}.js"
            (carpeta / nombre).write_text(m.group(1), encoding="utf-8")
            return f'<script src="{nombre}"></script>'

        nuevo = _SCRIPT_EN_LINEA.sub(aparte, html)
        if nuevo != html:
            pagina.write_text(nuevo, encoding="utf-8")


SERVICE_WORKER = "sw.js"
# Los dos ficheros que son casi toda la primera descarga (pyodide.asm.mjs, comprimido, 0,2 MB).
DESCARGA_MEDIDA = ["pyodide.asm.wasm", "python_stdlib.zip"]
# Lo que nunca cambia en la misma URL: las mismas reglas que el servidor (servir.politica_de_cache).
INMUTABLES = [r"^pyodide/.*(?<!pyodide-lock\.json)$", r"\.[0-9a-f]{16,}\.(js|css)$", r"^recursos-[0-9a-f]{12}/"]
# Peticiones del núcleo a su service worker (ficheros del cuaderno, input()): las contesta el de JupyterLite.
DE_JUPYTERLITE = ["lite/api/drive", "lite/api/stdin", "api/service-worker-heartbeat"]


def _ficheros(sitio: Path, carpeta: str, excepto: tuple[str, ...] = ()) -> list[str]:
    return sorted(
        p.relative_to(sitio).as_posix()
        for p in (sitio / carpeta).rglob("*")
        if p.is_file() and not p.name.endswith(excepto)
    )


def _service_worker(config: dict) -> str:
    return f"const CONFIG = {json.dumps(config, indent=1)};\n" + (RECURSOS / SERVICE_WORKER).read_text(encoding="utf-8")


def escribe_lite(curso: Curso, sitio: Path, pyodide: str, trabajo: Path, huella: str) -> None:
    """sitio/lite: JupyterLite con los cuadernos, sin scripts en línea y con su service worker."""
    construye_lite(curso, pyodide, sitio, trabajo)
    scripts_de_lite_aparte(sitio / "lite")
    escribe_service_worker_de_lite(sitio, huella, curso)


def escribe_service_worker(sitio: Path, pyodide: str, huella: str, curso: Curso) -> None:
    """sw.js en la raíz: páginas, módulos y Pyodide (lite/ tiene el suyo, escribe_service_worker_de_lite).

    Al instalarse, el de la raíz sólo pide lo ligero que comparten las lecciones (portada, recursos
    menos el editor, módulos, cargador de Pyodide: unos 100 KB), para no sumar bytes a la primera
    visita; páginas, figuras y Pyodide se guardan cuando se usan, y lo que el navegador bajó antes de
    que él existiera lo copia de la caché HTTP, sin red, cuando la página le dice qué bajó (al irse,
    y el worker de la lección con Python listo). Sin red, lo no visitado es una página «Sin conexión»
    con las lecciones guardadas. Ver recursos/sw.js y docs/decisiones/alumno-sin-conexion-y-barrido.md.
    """
    carpeta_de_recursos = next(sitio.glob("recursos-*")).name
    recursos = _ficheros(sitio, carpeta_de_recursos)
    # El editor (~360 KB) no va en la precarga: competía con Pyodide en la primera visita. Se
    # guarda cuando Python ya está listo (tardia) o cuando alguien edita.
    tardia = [r for r in recursos if r.endswith("/codemirror.mjs")]
    modulos = sorted(p.relative_to(sitio).as_posix() for p in (sitio / "courses").glob("*/*.py"))
    ligero = [
        "index.html",
        *(r for r in recursos if r not in tardia),
        *modulos,
        f"{pyodide}pyodide.mjs",
        f"{pyodide}pyodide-lock.json",
    ]
    lecciones = _lecciones(curso)
    raiz = {
        "raiz": "./",
        "huella": huella,
        "inmutables": INMUTABLES,
        "excluir": ["lite/"],
        "precarga": ligero,
        "tardia": tardia,
        "barrido": ligero + tardia + _ficheros(sitio, "courses") + _ficheros(sitio, pyodide),
        # La página «Sin conexión» (sw.js): el título del curso, su hoja de estilo y las lecciones.
        "titulo": curso.titulo,
        "estilo": _estilo(sitio),
        "lecciones": lecciones,
    }
    (sitio / SERVICE_WORKER).write_text(_service_worker(raiz), encoding="utf-8")


def _lecciones(curso: Curso) -> list[dict]:
    return [
        {"ruta": f"courses/{curso.slug}/{lc.slug}/index.html", "titulo": f"{n}. {lc.titulo}"}
        for n, lc in enumerate(curso.lecciones, start=1)
    ]


def _estilo(sitio: Path) -> str:
    return f"{next(sitio.glob('recursos-*')).name}/estilo.css"


def escribe_service_worker_de_lite(sitio: Path, huella: str, curso: Curso) -> None:
    """JupyterLite: su propio service worker (ámbito lite/) controla sus páginas; se le antepone el
    mismo código que sw.js, que atiende todo salvo lo que sólo el suyo sabe contestar."""
    propio = sitio / "lite" / "service-worker.js"
    # Sin precarga ni barrido: JupyterLite registra su service worker al arrancar y éste toma la
    # página antes de crear el núcleo, así que Pyodide y las ruedas ya pasan por él; lo poco que se
    # bajó antes (la aplicación) sale sin red de la caché HTTP. Barrer sus ~800 ficheros al irse
    # retrasaba 1 s la visita siguiente (bench/sitio.py --perfil).
    lite = {
        "raiz": "../",
        "huella": huella,
        "inmutables": INMUTABLES,
        "excluir": DE_JUPYTERLITE,
        "precarga": [],
        "tardia": [],
        "barrido": [],
        "titulo": curso.titulo,
        "estilo": _estilo(sitio),
        "lecciones": _lecciones(curso),  # «Sin conexión» en lite/ enlaza también las lecciones guardadas
    }
    propio.write_text(
        _service_worker(lite) + "\n// --- service worker de JupyterLite ---\n" + propio.read_text(encoding="utf-8"),
        encoding="utf-8",
    )


def _escribe_recursos(sitio: Path) -> str:
    """Copia css, js y ejecutor.py a recursos-<huella>/ y devuelve esa ruta.

    Con la huella del contenido en la ruta se pueden cachear para siempre: la página, que
    sí se revalida, es la que apunta a la versión nueva. Así una visita repetida no espera
    a revalidar cada fichero antes de arrancar Python.
    """
    temporal = sitio / "recursos"
    # sw.js no va aquí: se sirve desde la raíz (escribe_service_worker), para que su ámbito sea todo el sitio.
    shutil.copytree(RECURSOS, temporal, ignore=shutil.ignore_patterns("__pycache__", SERVICE_WORKER))
    (temporal / "resaltado.css").write_text(css_del_resaltado(), encoding="utf-8")
    shutil.copy2(modulo_del_editor(), temporal / "codemirror.mjs")  # el editor: sólo lo pide quien edita
    h = hashlib.sha256()
    for ruta in sorted(temporal.iterdir()):
        h.update(ruta.name.encode() + b"\0" + ruta.read_bytes())
    nombre = f"recursos-{h.hexdigest()[:12]}"
    temporal.rename(sitio / nombre)
    return nombre + "/"


def escribe_laboratorio(curso: Curso, sitio: Path, pyodide: str, recursos: str) -> None:
    """La página del laboratorio de inyecciones y lo que su worker importa: el mismo Python que
    `./curso inyecciones`, con el código de partida y las soluciones de los desafíos en fuentes.json."""
    carpeta = sitio / LABORATORIO
    carpeta.mkdir(parents=True, exist_ok=True)
    (carpeta / "index.html").write_text(pagina_del_laboratorio(curso, pyodide, recursos), encoding="utf-8")
    escribe_codigo_del_laboratorio(carpeta)


def _escribe_paginas(curso: Curso, sitio: Path, pyodide: str) -> None:
    recursos = _escribe_recursos(sitio)
    (sitio / "index.html").write_text(pagina_de_inicio(curso, recursos), encoding="utf-8")
    if curso.servidores_del_modelo:  # sin servidores, ni la página ni ninguna opción de modelo
        escribe_laboratorio(curso, sitio, pyodide, recursos)
    carpeta_del_curso = sitio / "courses" / curso.slug
    carpeta_del_curso.mkdir(parents=True)
    # Lo que pesa la primera ejecución, con y sin comprimir: la barra de progreso de la celda.
    descarga = {n: tamanos(sitio / pyodide / n) for n in DESCARGA_MEDIDA if (sitio / pyodide / n).exists()}
    for nombre in curso.modulos:
        shutil.copy2(curso.modulo(nombre), carpeta_del_curso / nombre)
    for leccion in curso.lecciones:
        pagina = carpeta_del_curso / leccion.slug / "index.html"
        pagina.parent.mkdir()
        pagina.write_text(pagina_de_leccion(curso, leccion, pyodide, recursos, descarga), encoding="utf-8")
        svgs = [i.with_suffix(".svg") for i in leccion.imagenes if i.with_suffix(".svg").exists()]
        for imagen in leccion.imagenes + svgs:  # el SVG, para «Ampliar la figura»
            shutil.copy2(imagen, pagina.parent / imagen.name)
        if leccion.desafio:
            # El cuaderno repartido, al lado de la página: «Descargar para entregar» lo rellena.
            desafio = Desafio(leccion.desafio)
            shutil.copy2(version_del_alumno(desafio) / desafio.cuaderno, pagina.parent / desafio.cuaderno)
