"""La versión del alumno de cada desafío para el sitio: exactamente lo que release/ tendría.

La hace el propio `nbgrader generate_assignment` (fuente.genera_version_del_alumno), no
una imitación: así el cuaderno del sitio es, byte a byte, el repartido, y el calificador
lo compara con release/ sin sorpresas. Tarda unos segundos por desafío, así que se guarda
en build/descargas/reparto/<slug>-<huella>/, con la huella de todo lo que entra en él
(el cuaderno fuente, los ficheros que carga, la configuración y la versión de nbgrader).
"""

import hashlib
import json
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

from cursos import RAIZ
from cursos.desafio import Desafio
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.configuracion import TEXTO_PROPIO
from cursos.profesor.fuente import cuaderno_fuente, genera_version_del_alumno

CACHE = RAIZ / "build" / "descargas" / "reparto"


def huella_del_reparto(desafio: Desafio) -> str:
    """Lo que distingue una versión del alumno de otra: el cuaderno fuente, la configuración, nbgrader y los módulos."""
    h = hashlib.sha256()
    partes = [
        json.dumps(cuaderno_fuente(desafio), sort_keys=True),
        TEXTO_PROPIO,
        version("nbgrader"),
        *(f"{nombre}\0{texto}" for nombre, texto in desafio.modulos()),
    ]
    for parte in partes:
        h.update(parte.encode("utf-8") + b"\0\0")
    return h.hexdigest()[:16]


def version_del_alumno(desafio: Desafio, cache: Path = CACHE) -> Path:
    """La carpeta release/<slug>/ del desafío (el cuaderno y los ficheros que carga), de la caché o nueva."""
    carpeta = cache / f"{desafio.slug}-{huella_del_reparto(desafio)}"
    release = Carpetas.de(carpeta).del_desafio("release", desafio.slug)  # la configuración de Jupyter cuenta
    if (release / desafio.cuaderno).is_file():
        return release
    # Una carpeta temporal propia: dos procesos (p. ej. la construcción del sitio y una prueba) pueden
    # hacer la misma a la vez; el primero que la renombra gana y el otro tira la suya.
    cache.mkdir(parents=True, exist_ok=True)
    temporal = Path(tempfile.mkdtemp(prefix=f"{carpeta.name}.", suffix=".nuevo", dir=cache))
    genera_version_del_alumno(desafio, temporal)
    for vieja in cache.glob(f"{desafio.slug}-*"):  # las de fuentes anteriores ya no sirven
        sufijo = vieja.name.removeprefix(f"{desafio.slug}-")
        if vieja != carpeta and sufijo.isalnum():
            shutil.rmtree(vieja, ignore_errors=True)
    try:
        temporal.rename(carpeta)
    except OSError:  # otro proceso la ha dejado ya, con la misma huella: vale la suya
        shutil.rmtree(temporal, ignore_errors=True)
    return release


def prepara(desafios: list[Desafio], cache: Path = CACHE) -> None:
    """Las de todos los desafíos, dos a la vez: cada una es sobre todo esperar a un proceso de nbgrader."""
    with ThreadPoolExecutor(min(2, os.cpu_count() or 1)) as hilos:
        list(hilos.map(lambda d: version_del_alumno(d, cache), desafios))
