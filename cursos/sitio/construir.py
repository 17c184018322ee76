"""`curso construir`: del manifiesto y las fuentes de las lecciones a un sitio estático.

Se construye en una carpeta nueva y sólo al final sustituye a la anterior, así que un
servidor en marcha nunca sirve un sitio a medias.
"""

import hashlib
import shutil
import time
from pathlib import Path

from cursos import RAIZ
from cursos.calificador.fuente import Desafio
from cursos.calificador.reparto import prepara, version_del_alumno
from cursos.manifiesto import Curso
from cursos.sitio import RECURSOS, SITIO
from cursos.sitio.codemirror import modulo_del_editor
from cursos.sitio.distribucion import instala_pyodide, ruta_en_el_sitio
from cursos.sitio.lite import construye_lite
from cursos.sitio.paginas import css_del_resaltado, pagina_de_inicio, pagina_de_leccion


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
    print("» Los desafíos tal como se reparten (nbgrader generate_assignment; se guardan)…")
    prepara([Desafio(lc.desafio) for lc in curso.lecciones if lc.desafio])
    print("» Páginas…")
    _escribe_paginas(curso, nuevo, pyodide)
    print("» JupyterLite…")
    construye_lite(curso, pyodide, nuevo, trabajo=destino.with_name("lite-trabajo"))
    shutil.rmtree(destino, ignore_errors=True)
    nuevo.rename(destino)
    _sello(destino).write_text(huella_de_las_fuentes(curso))
    return time.monotonic() - inicio


def _escribe_recursos(sitio: Path) -> str:
    """Copia css, js y ejecutor.py a recursos-<huella>/ y devuelve esa ruta.

    Con la huella del contenido en la ruta se pueden cachear para siempre: la página, que
    sí se revalida, es la que apunta a la versión nueva. Así una visita repetida no espera
    a revalidar cada fichero antes de arrancar Python.
    """
    temporal = sitio / "recursos"
    shutil.copytree(RECURSOS, temporal, ignore=shutil.ignore_patterns("__pycache__"))
    (temporal / "resaltado.css").write_text(css_del_resaltado(), encoding="utf-8")
    shutil.copy2(modulo_del_editor(), temporal / "codemirror.mjs")  # el editor: sólo lo pide quien edita
    h = hashlib.sha256()
    for ruta in sorted(temporal.iterdir()):
        h.update(ruta.name.encode() + b"\0" + ruta.read_bytes())
    nombre = f"recursos-{h.hexdigest()[:12]}"
    temporal.rename(sitio / nombre)
    return nombre + "/"


def _escribe_paginas(curso: Curso, sitio: Path, pyodide: str) -> None:
    recursos = _escribe_recursos(sitio)
    (sitio / "index.html").write_text(pagina_de_inicio(curso, recursos), encoding="utf-8")
    carpeta_del_curso = sitio / "courses" / curso.slug
    carpeta_del_curso.mkdir(parents=True)
    for nombre in curso.modulos:
        shutil.copy2(curso.modulo(nombre), carpeta_del_curso / nombre)
    for leccion in curso.lecciones:
        pagina = carpeta_del_curso / leccion.slug / "index.html"
        pagina.parent.mkdir()
        pagina.write_text(pagina_de_leccion(curso, leccion, pyodide, recursos), encoding="utf-8")
        svgs = [i.with_suffix(".svg") for i in leccion.imagenes if i.with_suffix(".svg").exists()]
        for imagen in leccion.imagenes + svgs:  # el SVG, para «Ampliar la figura»
            shutil.copy2(imagen, pagina.parent / imagen.name)
        if leccion.desafio:
            # El cuaderno repartido, al lado de la página: «Descargar para entregar» lo rellena.
            desafio = Desafio(leccion.desafio)
            shutil.copy2(version_del_alumno(desafio) / desafio.cuaderno, pagina.parent / desafio.cuaderno)
