"""Copias precomprimidas (Brotli y gzip) de los ficheros grandes del sitio.

Al lado de cada fichero grande que se comprime bien, `x.br` y `x.gz`: `curso servir` (y cualquier
servidor estático configurado así, ver docs/publicar.md) manda la copia que el navegador acepta,
con Content-Encoding. Pyodide pasa de 15,4 MB a menos de 6 MB en la red.

python_stdlib.zip ya viene comprimido por miembros (deflate): comprimido otra vez no gana nada.
Se reempaqueta con los miembros sin comprimir (zipimport los lee igual, y más deprisa) y se
comprime entero: Brotli encuentra lo que se repite entre módulos, que deflate por miembro no ve.

Brotli a calidad 11 tarda ~30 s por cada 10 MB: cada copia se guarda en
build/descargas/comprimidos/ por la huella de su contenido y no se repite mientras no cambie.
"""

import gzip
import hashlib
import io
import zipfile
from pathlib import Path

import brotli

from cursos.pyodide.descargas import DESCARGAS

COMPRIMIDOS = DESCARGAS / "comprimidos"
MINIMO = 32 * 1024  # por debajo, la cabecera y la ida y vuelta pesan más que lo ganado
TEXTOS = {".wasm", ".mjs", ".js", ".css", ".json", ".html", ".svg", ".ipynb", ".py"}
BIBLIOTECA = "python_stdlib.zip"
CODIFICACIONES = {"br": ".br", "gzip": ".gz"}  # Content-Encoding → extensión de la copia


def reempaqueta_sin_comprimir(zip_: Path) -> None:
    """Reescribe zip_ con los mismos miembros, en el mismo orden, guardados sin comprimir."""
    salida = io.BytesIO()
    with zipfile.ZipFile(zip_) as origen, zipfile.ZipFile(salida, "w", zipfile.ZIP_STORED) as destino:
        for info in origen.infolist():
            nuevo = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            nuevo.external_attr = info.external_attr
            destino.writestr(nuevo, origen.read(info))
    zip_.write_bytes(salida.getvalue())


# Los ficheros de los cuadernos en JupyterLite son los de release/ de nbgrader, tal cual y sin nada
# al lado (la carpeta del desafío se reparte entera); son pequeños y los pide su contents manager.
SIN_COPIAS = ("lite/files/",)


def _se_comprime(ruta: Path, sitio: Path) -> bool:
    if ruta.stat().st_size < MINIMO or ruta.relative_to(sitio).as_posix().startswith(SIN_COPIAS):
        return False
    return ruta.suffix in TEXTOS or ruta.name == BIBLIOTECA


def _copia(datos: bytes, codificacion: str, calidad: int) -> bytes:
    """La copia comprimida, de la caché de build/descargas si ya se hizo con el mismo contenido."""
    clave = f"{hashlib.sha256(datos).hexdigest()}-{codificacion}{calidad}"
    guardada = COMPRIMIDOS / clave
    if guardada.exists():
        return guardada.read_bytes()
    if codificacion == "br":
        comprimido = brotli.compress(datos, quality=calidad, lgwin=24)
    else:
        comprimido = gzip.compress(datos, compresslevel=9, mtime=0)  # mtime=0: la misma copia siempre
    COMPRIMIDOS.mkdir(parents=True, exist_ok=True)
    guardada.write_bytes(comprimido)
    return comprimido


def comprime_pyodide(carpeta: Path) -> None:
    """La carpeta de Pyodide en el sitio: la biblioteca estándar reempaquetada y todo con Brotli 11
    (es lo que más pesa la primera visita)."""
    biblioteca = carpeta / BIBLIOTECA
    if biblioteca.exists():
        reempaqueta_sin_comprimir(biblioteca)
    comprime_sitio(carpeta, calidad=11)


def comprime_sitio(sitio: Path, calidad: int = 9) -> None:
    """Escribe x.br y x.gz al lado de cada fichero grande de sitio que aún no las tenga, si ganan algo.

    Brotli 9 queda casi igual de pequeño que 11 en el JavaScript y es diez veces más rápido.
    """
    for ruta in sorted(p for p in sitio.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")):
        if not _se_comprime(ruta, sitio) or ruta.with_name(ruta.name + ".br").exists():
            continue
        datos = ruta.read_bytes()
        for codificacion, extension in CODIFICACIONES.items():
            comprimido = _copia(datos, codificacion, calidad)
            if len(comprimido) < len(datos) * 0.9:
                ruta.with_name(ruta.name + extension).write_bytes(comprimido)


def tamanos(ruta: Path) -> dict[str, int]:
    """Bytes de ruta y de sus copias: {"identity": n, "br": n, "gzip": n} (las que existan)."""
    tam = {"identity": ruta.stat().st_size}
    for codificacion, extension in CODIFICACIONES.items():
        copia = ruta.with_name(ruta.name + extension)
        if copia.exists():
            tam[codificacion] = copia.stat().st_size
    return tam
