"""Pyodide y las ruedas de Python que sirve el sitio, descargadas una vez y comprobadas.

Todo sale de fijado.toml: versión y huella de cada pieza. Las descargas se guardan en
build/descargas/ (salida, se puede borrar) y se comprueban cada vez que se copian: un
fichero cambiado o a medio bajar detiene la construcción con un mensaje claro.
"""

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

from cursos import RAIZ
from cursos.pyodide.bytecode import compila
from cursos.pyodide.descargas import DESCARGAS, ErrorDeDistribucion

FIJADO = Path(__file__).with_name("fijado.toml")
VENV_PYODIDE = RAIZ / ".venv-pyodide"


def fijado() -> dict:
    return tomllib.loads(FIJADO.read_text(encoding="utf-8"))


def _huella(ruta: Path, algoritmo: str = "sha256") -> str:
    h = hashlib.new(algoritmo)
    with ruta.open("rb") as f:
        for trozo in iter(lambda: f.read(1 << 20), b""):
            h.update(trozo)
    return h.hexdigest()


def _comprueba(ruta: Path, esperada: str, algoritmo: str = "sha256") -> None:
    real = _huella(ruta, algoritmo)
    if real != esperada:
        raise ErrorDeDistribucion(
            f"{ruta.name}: {algoritmo} {real[:16]}… no es la fijada ({esperada[:16]}…). "
            f"Bórralo de {ruta.parent} y vuelve a construir; si cambiaste la versión, "
            f"actualiza también su huella en {FIJADO.name}."
        )


def _ejecuta(orden: list[str], cwd: Path | None = None) -> None:
    """Ejecuta una herramienta externa; su salida sólo se enseña si falla."""
    resultado = subprocess.run(orden, cwd=cwd, capture_output=True, text=True)
    if resultado.returncode != 0:
        raise ErrorDeDistribucion(
            f"ha fallado {' '.join(orden[:4])}…:\n{resultado.stdout[-2000:]}{resultado.stderr[-2000:]}"
        )


def _version_del_nucleo_lite() -> str:
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    return PYODIDE_VERSION


def paquete_pyodide() -> Path:
    """La carpeta `package/` del paquete npm pyodide fijado, descargado con `npm pack`."""
    datos = fijado()["pyodide"]
    version = datos["version"]
    if version != _version_del_nucleo_lite():
        raise ErrorDeDistribucion(
            f"fijado.toml pide Pyodide {version}, pero jupyterlite-pyodide-kernel espera "
            f"{_version_del_nucleo_lite()}: las dos cachés no serían la misma."
        )
    destino = DESCARGAS / f"pyodide-{version}"
    tgz = DESCARGAS / f"pyodide-{version}.tgz"
    # Se descarga y se desempaqueta en una carpeta temporal que se renombra al final: dos procesos
    # a la vez (la construcción del sitio y las pruebas rápidas, en .ci/run) no se pisan.
    if not tgz.exists():
        DESCARGAS.mkdir(parents=True, exist_ok=True)
        if shutil.which("npm") is None:
            raise ErrorDeDistribucion("hace falta npm para descargar Pyodide: instálalo (apt-get install npm)")
        with tempfile.TemporaryDirectory(dir=DESCARGAS) as temporal:
            _ejecuta(["npm", "pack", "--silent", f"pyodide@{version}"], cwd=Path(temporal))
            Path(temporal, tgz.name).replace(tgz)
    _comprueba(tgz, datos["sha512"], "sha512")
    if not (destino / "package" / "pyodide.mjs").exists():
        with tempfile.TemporaryDirectory(dir=DESCARGAS) as temporal:
            nuevo = Path(temporal, destino.name)
            with tarfile.open(tgz) as tar:
                tar.extractall(nuevo, filter="data")
            if not (destino / "package" / "pyodide.mjs").exists():  # uno a medias, de una vez anterior
                shutil.rmtree(destino, ignore_errors=True)
            try:
                nuevo.rename(destino)
            except OSError:  # otro proceso lo ha desempaquetado a la vez: vale el suyo
                if not (destino / "package" / "pyodide.mjs").exists():
                    raise
    return destino / "package"


def _ruedas_pypi(nombres: dict[str, str]) -> Path:
    """Descarga (si faltan) las ruedas de PyPI para Python 3.14 puro, con --require-hashes."""
    carpeta = DESCARGAS / "ruedas"
    faltan = {n: h for n, h in nombres.items() if not (carpeta / n).exists()}
    if faltan:
        carpeta.mkdir(parents=True, exist_ok=True)
        requisitos = carpeta / "requisitos.txt"
        requisitos.write_text(
            "".join(f"{_requisito(n)} --hash=sha256:{h}\n" for n, h in faltan.items()), encoding="utf-8"
        )
        _ejecuta(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--require-hashes",
                "--only-binary=:all:",
                "--python-version",
                "3.14",
                "--implementation",
                "py",
                "--abi",
                "none",
                "--platform",
                "any",
                "-d",
                str(carpeta),
                "-r",
                str(requisitos),
            ]
        )
    return carpeta


def _requisito(rueda: str) -> str:
    """«ipython-9.12.0-py3-none-any.whl» → «ipython==9.12.0»."""
    nombre, version = rueda.split("-")[:2]
    return f"{nombre}=={version}"


def _ruedas_del_nucleo() -> Path:
    """Las ruedas que la extensión jupyterlite-pyodide-kernel lleva dentro (static/pypi/)."""
    return (
        Path(sys.prefix)
        / "share"
        / "jupyter"
        / "labextensions"
        / "@jupyterlite"
        / "pyodide-kernel-extension"
        / "static"
        / "pypi"
    )


def ruta_en_el_sitio(bytecode: bool = True) -> str:
    """Dónde vive Pyodide dentro del sitio. La versión (y si lleva bytecode) va en la ruta
    para poder cachear para siempre: otro contenido es otra URL."""
    return f"pyodide/v{fijado()['pyodide']['version']}{'-pyc' if bytecode else ''}/"


def instala_pyodide(sitio: Path, bytecode: bool = True) -> Path:
    """Copia a sitio/pyodide/v<versión>/ el núcleo, las ruedas y un lock sólo con ellas.

    Con bytecode, la biblioteca estándar y las ruedas van ya compiladas para el Python de
    Pyodide (ver bytecode.py).
    """
    datos = fijado()
    destino = sitio / ruta_en_el_sitio(bytecode)
    destino.mkdir(parents=True, exist_ok=True)
    paquete = paquete_pyodide()
    ficheros = [paquete / nombre for nombre in datos["pyodide"]["ficheros"]] + _ruedas_comprobadas(datos)
    if bytecode:
        a_compilar = [f for f in ficheros if f.suffix in (".whl", ".zip")]
        ficheros = [f for f in ficheros if f not in a_compilar] + compila(a_compilar, paquete)
    for fichero in ficheros:
        shutil.copy2(fichero, destino / fichero.name)
    escribe_lock(paquete / "pyodide-lock.json", destino, sorted(f.name for f in ficheros if f.suffix == ".whl"))
    return destino


def _ruedas_comprobadas(datos: dict) -> list[Path]:
    """Las ruedas fijadas (PyPI y las del núcleo de JupyterLite), con su huella comprobada."""
    pypi, nucleo = _ruedas_pypi(datos["ruedas"]["pypi"]), _ruedas_del_nucleo()
    huellas = {
        **{pypi / n: h for n, h in datos["ruedas"]["pypi"].items()},
        **{nucleo / n: h for n, h in datos["ruedas"]["nucleo"].items()},
    }
    for ruta, huella in huellas.items():
        if not ruta.exists():
            raise ErrorDeDistribucion(f"falta la rueda {ruta.name} en {ruta.parent}")
        _comprueba(ruta, huella)
    return list(huellas)


def escribe_lock(lock_original: Path, carpeta: Path, ruedas: list[str]) -> None:
    """pyodide-lock.json con sólo nuestras ruedas, hecho por `pyodide lockfile add-wheels`.

    Se parte del lock del paquete npm sin ningún paquete: los que trae apuntan a ficheros
    que no servimos. add-wheels calcula huellas, imports y dependencias de cada rueda y se
    niega si falta alguna dependencia, así que un lock incompleto no llega al navegador.
    """
    lock = json.loads(lock_original.read_text(encoding="utf-8"))
    lock["packages"] = {}
    vacio = carpeta / "pyodide-lock-vacio.json"
    vacio.write_text(json.dumps(lock), encoding="utf-8")
    try:
        _ejecuta(
            [
                str(_pyodide_cli()),
                "lockfile",
                "add-wheels",
                "--input",
                str(vacio),
                "--output",
                str(carpeta / "pyodide-lock.json"),
                "--base-path",
                str(carpeta),
                *(str(carpeta / r) for r in ruedas),
            ]
        )
    finally:
        vacio.unlink()


def _python_312_o_mas() -> str | None:
    """Un Python >= 3.12: el de ahora, uno del PATH o uno de pyenv (estas máquinas traen 3.12.1)."""
    if sys.version_info >= (3, 12):
        return sys.executable
    candidatos = [shutil.which(n) for n in ("python3.13", "python3.12")]
    candidatos += sorted(str(p) for p in Path.home().glob(".pyenv/versions/3.1[23].*/bin/python3"))
    # Un shim de pyenv existe aunque no funcione: se prueba antes de elegirlo.
    return next(
        (c for c in candidatos if c and subprocess.run([c, "--version"], capture_output=True).returncode == 0), None
    )


def _pyodide_cli() -> Path:
    """La orden `pyodide` de pyodide-build, en su propio entorno con Python >= 3.12."""
    cli = VENV_PYODIDE / "bin" / "pyodide"
    paquetes = fijado()["pyodide_build"]["paquetes"]
    huella = VENV_PYODIDE / ".fijado"
    if cli.exists() and huella.exists() and huella.read_text() == " ".join(paquetes):
        return cli
    python = _python_312_o_mas()
    if not python:
        raise ErrorDeDistribucion(
            "pyodide-build necesita Python >= 3.12 y no lo encuentro: instala python3.12 o 3.13 "
            "(apt-get, pyenv) y vuelve a construir"
        )
    print(f"» Preparando pyodide-build en {VENV_PYODIDE.name} (sólo la primera vez)…")
    _ejecuta([python, "-m", "venv", str(VENV_PYODIDE)])
    _ejecuta([str(VENV_PYODIDE / "bin" / "pip"), "install", "--quiet", *paquetes])
    huella.write_text(" ".join(paquetes))
    return cli
