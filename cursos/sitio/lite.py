"""JupyterLite dentro del sitio: los mismos cuadernos y los desafíos, con el Pyodide del sitio.

JupyterLite se construye con `jupyter lite build` en una carpeta de trabajo nueva cada vez:
una construcción incremental puede perder pyodideUrl de jupyter-lite.json, y entonces el núcleo
se queda colgado pidiendo Pyodide a una CDN, que la CSP del sitio no deja. Sale en <sitio>/lite/.
"""

import dataclasses
import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from cursos import esquemas
from cursos.cuadernos import escribe_cuadernos
from cursos.desafio import Desafio
from cursos.errores import ErrorDelCurso
from cursos.manifiesto import Curso, Leccion
from cursos.portada import DONDE_LITE, escribe_portada
from cursos.profesor.reparto import version_del_alumno
from cursos.sitio.laboratorio_de_inyecciones import CARPETA_LITE
from cursos.sitio.laboratorio_de_inyecciones import escribe_cuaderno as escribe_cuaderno_del_laboratorio

# Lo que el núcleo necesita al arrancar; pedirlo todo junto a loadPyodide lo descarga en paralelo,
# en vez de una rueda tras otra, a medida que el núcleo las va importando.
PAQUETES_DEL_NUCLEO = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "ipywidgets"]
APLICACIONES = ["lab", "notebooks", "tree"]
# Sólo estas extensiones: las demás de la .venv (jupytext, nbgrader) piden un servidor
# que en JupyterLite no existe y llenarían la consola de errores.
EXTENSIONES = ["@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"]
# En la aplicación Notebook (la que abren las lecciones) sobran estas extensiones: nadie las usa en
# un cuaderno del curso y cada una cuesta al arrancar (sus ajustes se validan, sus plugins se
# activan) antes de pintar el cuaderno (medido en docs/decisiones/006-extensiones-quitadas-del-cuaderno.md).
# Sólo ahí: JupyterLab (lite/lab/) y el explorador (lite/tree/) siguen completos.
SOBRAN_EN_EL_CUADERNO = [
    "@jupyterlab/console-extension",
    "@jupyter-notebook/console-extension",  # consolas
    "@jupyterlab/help-extension",
    "@jupyter-notebook/help-extension",  # ayuda y «acerca de»
    "@jupyterlab/logconsole-extension",  # registro de salidas de depuración
    "@jupyterlab/lsp-extension",  # servidores de lenguaje: no los hay en el navegador
    "@jupyterlab/toc-extension",  # índice del cuaderno
    "@jupyterlab/celltags-extension",
    "@jupyterlab/metadataform-extension",  # metadatos de celda
    "@jupyterlab/mermaid-extension",
    "@jupyterlab/vega5-extension",  # diagramas y gráficos que no hay
    "@jupyterlab/fileeditor-extension",  # el editor de ficheros está en el explorador (lite/tree/)
    "@jupyterlab/mathjax-extension",  # ningún cuaderno tiene fórmulas; MathJax bajaba ~20 trozos al pintar
    # y los plugins que sólo sirven para las de arriba (si no, fallan al activarse y lo dice la consola)
    "@jupyterlab/notebook-extension:toc",
    "@jupyterlab/notebook-extension:language-server",
    "@jupyterlab/notebook-extension:update-raw-mimetype",
    "@jupyterlite/application-extension:lsp-connection-manager",
    "@jupyterlab/tooltip-extension:consoles",
    "@jupyterlab/tooltip-extension:files",
]
# Y la nuestra, escrita a mano: abre la sesión del cuaderno al arrancar, mientras se pinta la
# interfaz, en vez de cuando el cuaderno ya está pintado (ver arranque/remoteEntry.js).
ARRANQUE = Path(__file__).with_name("arranque")


def configuracion(pyodide: str, curso: str = "") -> dict:
    """jupyter-lite.json.

    pyodideUrl relativa se resuelve desde la página de la aplicación (lite/notebooks/,
    lite/lab/...), que está siempre un nivel por debajo de lite/: de ahí el ../../.
    cursoAgentesLlm: el slug del curso, con el que la descarga del desafío (arranque/remoteEntry.js)
    encuentra el identificador que guarda la página en este navegador.
    """
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Agentes LLM",
            "cursoAgentesLlm": curso,
            # window.jupyterapp: las pruebas y el banco de medidas esperan al núcleo a través de él.
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "pyodideUrl": f"../../{pyodide}pyodide.mjs",
                    "disablePyPIFallback": True,  # nada de ir a buscar paquetes fuera del sitio
                    "loadPyodideOptions": {"packages": PAQUETES_DEL_NUCLEO},
                },
            },
        },
    }


# Sin ventanas virtuales, todas las celdas están en la página (cuadernos cortos; y las pruebas
# las encuentran todas). Y en español: el paquete de idioma oficial de JupyterLab
# (jupyterlab-language-pack-es-ES, fijado en pyproject.toml); `jupyter lite build` lo vuelca en
# lite/api/translations/es_ES.json y JupyterLite lo pide ahí según este ajuste.
IDIOMA = "es_ES"
AJUSTES = {
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    "@jupyterlab/translation-extension:plugin": {"locale": IDIOMA},
}
# jupyter lite build sólo lee los paquetes de idioma si no ignora sys.prefix; se ignora sólo para
# las extensiones (se pasan a mano, abajo) y los iconos.
CONFIGURACION_DE_LA_CONSTRUCCION = {"LiteBuildConfig": {"ignore_sys_prefix": ["federated_extensions", "icons"]}}


def carpeta_de(curso: Curso, leccion: Leccion) -> str:
    """La carpeta de la lección en JupyterLite: numerada, para que el explorador las ordene como el curso."""
    return f"{curso.lecciones.index(leccion) + 1:02d}-{leccion.slug}"


def ruta_del_cuaderno(curso: Curso, leccion: Leccion) -> str:
    return f"{carpeta_de(curso, leccion)}/{leccion.slug}.ipynb"


def url_del_cuaderno(curso: Curso, leccion: Leccion, desafio: bool = False) -> str:
    """El enlace desde una página (relativo a la raíz del sitio) que abre el cuaderno en JupyterLite.

    La aplicación Notebook (lite/notebooks/), no JupyterLab (lite/lab/): un solo cuaderno,
    sin explorador ni lanzador, es la que antes enseña el cuaderno (ver bench/sitio.py).
    """
    from urllib.parse import quote

    ruta = ruta_del_desafio(curso, leccion) if desafio else ruta_del_cuaderno(curso, leccion)
    return f"lite/notebooks/index.html?path={quote(ruta)}"


def ruta_del_desafio(curso: Curso, leccion: Leccion) -> str | None:
    """El cuaderno del desafío, en su carpeta junto al de la lección.

    En su propia carpeta porque sus ficheros no son los de la lección aunque se llamen
    igual (el laboratorio_puerta.py del desafío no trae puerta_corregida).
    """
    if not leccion.desafio:
        return None
    return f"{carpeta_de(curso, leccion)}/{leccion.desafio}/{Desafio(leccion.desafio).cuaderno}"


def escribe_contenidos(curso: Curso, contenidos: Path) -> None:
    """Una carpeta por lección, en orden: su cuaderno con lo que abre al lado y la carpeta del desafío,
    copia exacta de release/ (el cuaderno con la solución por hacer y los ficheros que carga).
    En la raíz, la portada (00-portada.ipynb), que enlaza a todos en orden. Con servidores del
    modelo en el manifiesto, también la carpeta del laboratorio de inyecciones, al final."""
    laboratorio = None
    if curso.servidores_del_modelo:  # como la página del laboratorio: sólo con servidores
        laboratorio = escribe_cuaderno_del_laboratorio(curso, contenidos / CARPETA_LITE)
    escribe_portada(
        curso,
        contenidos,
        lambda lc: (ruta_del_cuaderno(curso, lc), ruta_del_desafio(curso, lc)),
        DONDE_LITE,
        laboratorio=laboratorio and laboratorio.relative_to(contenidos).as_posix(),
    )
    for leccion in curso.lecciones:
        carpeta = contenidos / carpeta_de(curso, leccion)
        # Los módulos van junto a los cuadernos: el núcleo arranca en la carpeta del cuaderno.
        escribe_cuadernos(dataclasses.replace(curso, lecciones=[leccion]), carpeta)
        if leccion.desafio:
            shutil.copytree(version_del_alumno(Desafio(leccion.desafio)), carpeta / leccion.desafio)


def construye_lite(curso: Curso, pyodide: str, sitio: Path, trabajo: Path) -> Path:
    """Construye JupyterLite en sitio/lite con los cuadernos del curso y sus módulos al lado."""
    shutil.rmtree(trabajo, ignore_errors=True)
    contenidos = trabajo / "contenidos"
    escribe_contenidos(curso, contenidos)
    (trabajo / "jupyter-lite.json").write_text(
        json.dumps(configuracion(pyodide, curso.slug), indent=1), encoding="utf-8"
    )
    (trabajo / "overrides.json").write_text(json.dumps(AJUSTES, indent=1), encoding="utf-8")
    (trabajo / "jupyter_lite_config.json").write_text(json.dumps(CONFIGURACION_DE_LA_CONSTRUCCION), encoding="utf-8")
    salida = sitio / "lite"
    shutil.rmtree(salida, ignore_errors=True)
    orden = [
        str(Path(sys.executable).with_name("jupyter-lite")),
        "build",
        "--lite-dir",
        str(trabajo),
        "--contents",
        str(contenidos),
        "--output-dir",
        str(salida),
        "--no-sourcemaps",
        "--no-unused-shared-packages",
        *(f"--apps={a}" for a in APLICACIONES),
        *(
            f"--LiteBuildConfig.federated_extensions={e}"
            for e in [*map(_extension, EXTENSIONES), _extension_del_arranque(trabajo)]
        ),
    ]
    resultado = subprocess.run(orden, cwd=trabajo, capture_output=True, text=True)
    if resultado.returncode != 0:
        raise RuntimeError(f"jupyter lite build ha fallado:\n{resultado.stdout[-3000:]}{resultado.stderr[-3000:]}")
    _copia_iconos(salida)
    _declara_icono(salida)
    _quita_extensiones_del_cuaderno(salida)
    _importa_antes_de_entrar_en_el_drive(salida)
    _comprueba_idioma(salida)
    completa_la_traduccion(salida)
    traduce_lo_que_no_pasa_por_el_traductor(salida)
    return salida


# El worker del núcleo monta el Drive en /drive y entra en él (FS.chdir) antes de importar
# IPython, ipykernel y pyodide_kernel. Con '' (la carpeta actual) primero en sys.path, cada módulo
# de primer nivel que se busca hace stat de /drive, y el Drive lo contesta sin caché con una
# petición síncrona al service worker, que la pasa a la página: ~100 idas y vueltas mientras la
# página se pinta. Se entra en /drive después de los imports, justo antes de entrar en la carpeta
# del cuaderno. Un parche exacto sobre el worker fijado (jupyterlite-pyodide-kernel en
# pyproject.toml): si no encaja, la construcción falla y lo dice. El nombre del fichero (con su
# huella) no cambia: el parche es siempre el mismo para el mismo original.
_ENTRA_EN_EL_DRIVE = re.compile(r"(\w)\.mount\((\w),\{\},t\),\1\.chdir\(t\),")
_IMPORTA_Y_ENTRA = re.compile(
    r'(\w)\.push\("import pyodide_kernel"\),e\.mountDrive&&this\._localPath&&'
    r'\1\.push\("import os",`os\.chdir\("\$\{this\._localPath\}"\)`\)'
)


# Y, después de importar pyodide_kernel, que un Fallo de las pruebas de un desafío se vea como su
# motivo («✘ prueba (n p.): …»), igual que en la página, y no como un traceback que entra en las
# tripas de las pruebas. Se escribe en stderr (JupyterLab lo pinta en rojo) y la celda acaba sin
# error: JupyterLite cancela todo lo que queda en la cola del núcleo en cuanto una celda responde
# con error, sin mirar stop_on_error, y entonces «Ejecutar todas» se paraba en la primera prueba que
# no pasa. Cualquier otro error, con su traceback de siempre. Sólo en JupyterLite: el calificador
# ejecuta el cuaderno con su propio Jupyter y ahí un Fallo sigue siendo el error que quita los puntos.
_MOTIVO_SIN_TRAZA = r"""
def _motivo_del_fallo(shell, etype, value, tb, tb_offset=None):
    if etype.__name__ not in ("Fallo", "VariacionOculta"):
        return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    import sys
    print(str(value), file=sys.stderr)  # IPython no enseña lo que devuelve el manejador
pyodide_kernel.kernel_instance.interpreter.set_custom_exc((AssertionError,), _motivo_del_fallo)
del _motivo_del_fallo
"""


def _importa_antes_de_entrar_en_el_drive(salida: Path) -> None:
    carpeta = salida / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    workers = sorted(carpeta.glob("*.worker.*.js"))
    for worker in workers:
        js = worker.read_text(encoding="utf-8")
        js, montajes = _ENTRA_EN_EL_DRIVE.subn(r"\1.mount(\2,{},t),", js)
        js, imports = _IMPORTA_Y_ENTRA.subn(
            lambda m: (
                f'{m[1]}.push("import pyodide_kernel",{json.dumps(_MOTIVO_SIN_TRAZA)}),'
                f'e.mountDrive&&{m[1]}.push("import os",'
                f"'os.chdir(\"/drive\")'),e.mountDrive&&this._localPath&&"
                f'{m[1]}.push(`os.chdir("${{this._localPath}}")`)'
            ),
            js,
        )
        if montajes == 0 or imports != 1:
            raise RuntimeError(
                f"El worker del núcleo de JupyterLite ({worker.name}) ya no es el que se parchea "
                "(entrar en /drive después de los imports): revisa lite._importa_antes_de_entrar_"
                "en_el_drive con la versión de jupyterlite-pyodide-kernel de pyproject.toml."
            )
        worker.write_text(js, encoding="utf-8")
    if not workers:
        raise RuntimeError(
            f"No está el worker del núcleo de JupyterLite en {carpeta}: "
            "revisa jupyterlite-pyodide-kernel en pyproject.toml."
        )


def _quita_extensiones_del_cuaderno(salida: Path) -> None:
    """Añade SOBRAN_EN_EL_CUADERNO a disabledExtensions de la aplicación Notebook (JupyterLite junta
    las listas de lite/jupyter-lite.json y de la de la aplicación). Cada una ha de estar en la
    aplicación: si una versión nueva la quita o la renombra, la construcción lo dice."""
    aplicacion = salida / "notebooks"
    extensiones = json.loads((aplicacion / "package.json").read_text(encoding="utf-8"))["jupyterlab"]
    presentes = {*extensiones["extensions"], *extensiones["mimeExtensions"]}
    if faltan := [e for e in SOBRAN_EN_EL_CUADERNO if e.split(":")[0] not in presentes]:
        raise RuntimeError(
            f"La aplicación Notebook de JupyterLite ya no trae {', '.join(faltan)}: "
            "quítalas de lite.SOBRAN_EN_EL_CUADERNO."
        )
    configuracion_json = aplicacion / "jupyter-lite.json"
    config = json.loads(configuracion_json.read_text(encoding="utf-8"))
    datos = config.setdefault("jupyter-config-data", {})
    datos["disabledExtensions"] = [*datos.get("disabledExtensions", []), *SOBRAN_EN_EL_CUADERNO]
    configuracion_json.write_text(json.dumps(config, indent=1), encoding="utf-8")


TRADUCCION = Path(__file__).with_name("traduccion-es.toml")


class ErrorDeTraduccion(ErrorDelCurso):
    """traduccion-es.toml no se puede usar; el mensaje dice qué clave y qué hacer."""


def traduccion_propia() -> esquemas.Traduccion:
    return esquemas.lee_toml(TRADUCCION, esquemas.Traduccion, ErrorDeTraduccion)


# Los dominios que piden los paquetes de la aplicación Notebook: JupyterLab, Notebook, JupyterLite y widgets.
DOMINIOS = ("jupyterlab", "notebook", "jupyterlite", "jupyterlab_widgets")


def completa_la_traduccion(salida: Path) -> None:
    """Añade a lite/api/translations/es_ES.json lo que le falta al paquete de idioma (traduccion-es.toml).

    JupyterLab busca cada texto en el dominio del paquete que lo pide (gettext: {texto: [traducción]},
    y «contexto\\x04texto» para los títulos de los menús); lo que no encuentra sale en inglés.
    """
    ruta = salida / "api" / "translations" / f"{IDIOMA}.json"
    traduccion = json.loads(ruta.read_text(encoding="utf-8"))
    propias = traduccion_propia()
    nuestras = {texto: [es] for texto, es in propias.cadenas.items()}
    nuestras |= {f"menu\x04{texto}": [es] for texto, es in propias.menus.items()}
    # [singular, plural]: JupyterLab sólo usa el plural si hay dos formas.
    nuestras |= {texto: list(formas) for texto, formas in propias.plurales.items()}
    datos = traduccion["data"]
    del_paquete = {k: v for k, v in datos["jupyterlab"].items() if k}
    for dominio in DOMINIOS:
        cabecera = datos.get(dominio, {}).get("", {**datos["jupyterlab"][""], "domain": dominio})
        datos[dominio] = {"": cabecera, **del_paquete, **datos.get(dominio, {}), **nuestras}
    ruta.write_text(json.dumps(traduccion, ensure_ascii=False), encoding="utf-8")


# Lo que JupyterLite escribe sin pasar por el traductor de la aplicación, y sale en inglés aunque
# traduccion-es.toml lo traduzca: el enlace «Skip to Main» lleva el texto tal cual, y las barras de
# herramientas («More commands» y los nombres que lee un lector de pantalla), las celdas de Markdown
# y el nombre del núcleo mientras arranca piden el suyo a un traductor nulo (no les llega el de la
# aplicación). En los scripts fijados (jupyterlite-core en pyproject.toml) se cambia el texto inglés
# por su traducción, que así sale con traductor o sin él.
SIN_TRADUCTOR = [
    "Skip to Main",
    "More commands",
    "Cell toolbar",
    "main area toolbar",
    "Responsive popup toolbar",
    "Markdown Cell Content",
    "No Kernel",
]
_FORMAS_SIN_TRADUCTOR = ('.text="{}"', '.__("{}")')


def _cambios_sin_traductor(cadenas: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """{texto en inglés: [(como está en los scripts, como queda)]}."""
    cambios = {
        ingles: [(forma.format(ingles), forma.format(_en_js(cadenas[ingles]))) for forma in _FORMAS_SIN_TRADUCTOR]
        for ingles in SIN_TRADUCTOR
    }
    # Y «Show» + el título de un panel (menú Ver de la aplicación Notebook), escrito en una plantilla.
    cambios["Show %1"] = [("`Show ${", f"`{_en_js(cadenas['Show %1'].split('%1')[0])}${{")]
    return cambios


def _en_js(texto: str) -> str:
    """`texto` dentro de una cadena de JavaScript entre comillas."""
    return json.dumps(texto, ensure_ascii=False)[1:-1]


def traduce_lo_que_no_pasa_por_el_traductor(salida: Path) -> None:
    """Cambia en lite/build/*.js cada texto de SIN_TRADUCTOR por su traducción. Cada uno ha de estar
    en algún script: si una versión nueva lo cambia (o ya lo traduce), la construcción lo dice."""
    cadenas = traduccion_propia().cadenas
    sin_traducir = [ingles for ingles in [*SIN_TRADUCTOR, "Show %1"] if ingles not in cadenas]
    if sin_traducir:
        raise ErrorDeTraduccion(
            f"{TRADUCCION.name} no traduce {', '.join(sin_traducir)}, que lite.SIN_TRADUCTOR cambia en los "
            "scripts de JupyterLite: añade su traducción en [cadenas]."
        )
    cambios = _cambios_sin_traductor(cadenas)
    vistos = dict.fromkeys(cambios, 0)
    for script in sorted((salida / "build").glob("*.js")):
        original = js = script.read_text(encoding="utf-8")
        for ingles, formas in cambios.items():
            for viejo, nuevo in formas:
                vistos[ingles] += js.count(viejo)
                js = js.replace(viejo, nuevo)
        if js != original:
            script.write_text(js, encoding="utf-8")
    if faltan := [ingles for ingles, veces in vistos.items() if not veces]:
        raise RuntimeError(
            f"Los scripts de JupyterLite ya no escriben {', '.join(faltan)} como espera lite.SIN_TRADUCTOR: "
            "revísalo con la versión de jupyterlite-core de pyproject.toml."
        )


def _comprueba_idioma(salida: Path) -> None:
    traduccion = salida / "api" / "translations" / f"{IDIOMA}.json"
    if not traduccion.exists() or "Archivo" not in traduccion.read_text(encoding="utf-8"):
        raise RuntimeError(
            f"JupyterLite sin español: falta {traduccion.name}. Instala las dependencias fijadas "
            "(jupyterlab-language-pack-es-ES en pyproject.toml): borra .venv y vuelve a construir."
        )


def _copia_iconos(salida: Path) -> None:
    """La interfaz Notebook pide static/favicons/*.ico (ocupado, libre), que en Jupyter sirve
    jupyter_server y que JupyterLite no trae: sin ellos, cada cambio de estado es un 404.
    Y sus páginas no declaran icono, así que el navegador pide /favicon.ico a la raíz."""
    import jupyter_server

    estaticos = Path(jupyter_server.__file__).parent / "static"
    shutil.copytree(estaticos / "favicons", salida / "static" / "favicons")
    shutil.copy2(estaticos / "favicon.ico", salida.parent / "favicon.ico")


def _extension(nombre: str) -> Path:
    return Path(sys.prefix) / "share" / "jupyter" / "labextensions" / nombre


def _extension_del_arranque(trabajo: Path) -> Path:
    """La extensión del arranque, como la espera `jupyter lite build` (package.json y static/),
    con la huella del contenido en el nombre del script, como las demás: así el navegador y el
    service worker la guardan sin volver a preguntar (INMUTABLES en construir.py)."""
    script = (ARRANQUE / "remoteEntry.js").read_bytes()
    nombre = f"static/remoteEntry.{hashlib.sha256(script).hexdigest()[:16]}.js"
    paquete = json.loads((ARRANQUE / "package.json").read_text(encoding="utf-8"))
    paquete["jupyterlab"]["_build"]["load"] = nombre
    carpeta = trabajo / "arranque"
    (carpeta / "static").mkdir(parents=True)
    (carpeta / nombre).write_bytes(script)
    (carpeta / "package.json").write_text(json.dumps(paquete, indent=1), encoding="utf-8")
    return carpeta


def _declara_icono(salida: Path) -> None:
    """Las páginas de las aplicaciones no declaran icono y el navegador lo pide a la raíz del
    dominio (/favicon.ico), que bajo una subruta no es del sitio: se declara el suyo."""
    enlace = '<link rel="icon" href="../static/favicons/favicon.ico">'
    for pagina in salida.glob("*/index.html"):
        html = pagina.read_text(encoding="utf-8")
        if 'rel="icon"' not in html and "</title>" in html:
            pagina.write_text(html.replace("</title>", "</title>\n    " + enlace, 1), encoding="utf-8")
