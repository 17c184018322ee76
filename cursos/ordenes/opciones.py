"""Lo que comparten varias órdenes: los tipos de argumento, --desafio y --nbgrader con lo que
dice profesor.toml, y las comprobaciones de lo pedido (el desafío, la carpeta, el puerto)."""

import argparse
import errno
import os
from pathlib import Path

from cursos import RAIZ
from cursos.errores import ErrorDeOrden

DESAFIO_POR_OMISION = "permiso-en-ejecutar"


def segundos(texto: str) -> float:
    """--plazo: un número de segundos mayor que 0 (con 0 o menos, ninguna entrega tendría tiempo)."""
    try:
        valor = float(texto)
    except ValueError:
        raise argparse.ArgumentTypeError(f"«{texto}» no es un número de segundos (p. ej. 10)") from None
    if not 0 < valor < float("inf"):
        raise argparse.ArgumentTypeError(f"{texto}: tiene que ser un número de segundos mayor que 0 (p. ej. 10)")
    return valor


def ruta_del_usuario(texto: str) -> Path:
    """Las rutas relativas, desde donde se ha lanzado ./curso (el guion entra en el repositorio)."""
    base = Path(os.environ.get("CURSO_DIRECTORIO") or os.getcwd())
    return (base / Path(texto).expanduser()).resolve()


def desafios_validos() -> list[str]:
    return sorted(p.name for p in (RAIZ / "desafios").iterdir() if (p / "desafio.toml").is_file())


def desafio_de(args):
    """El --desafio pedido, o un error que lista los que hay."""
    from cursos.desafio import Desafio

    if args.desafio not in desafios_validos():
        raise ErrorDeOrden(f"no hay ningún desafío «{args.desafio}»; los que hay: {', '.join(desafios_validos())}")
    return Desafio(args.desafio)


def curso_existente(args) -> Path:
    """La carpeta del curso de nbgrader, que tiene que existir (no se sugiere crearla: puede ser una errata)."""
    carpeta = ruta_del_usuario(args.nbgrader)
    if not carpeta.is_dir():
        raise ErrorDeOrden(f"no existe la carpeta del curso de nbgrader {carpeta}: revisa la ruta de --nbgrader")
    return carpeta


def predeterminados() -> dict:
    """--nbgrader y --desafio por omisión: los de profesor.toml, o nbgrader/ y permiso-en-ejecutar.

    Un profesor.toml que no se puede usar es un ErrorDeConfiguracion con el fichero y la clave: un
    desafío que no existe no se queda de valor por omisión de todas las órdenes."""
    from cursos.profesor import CURSO_NBGRADER
    from cursos.profesor.configuracion import ErrorDeConfiguracion, ajustes, ruta_de_ajustes

    datos = ajustes()
    desafio = datos.get("desafio", DESAFIO_POR_OMISION)
    if "desafio" in datos and desafio not in desafios_validos():
        raise ErrorDeConfiguracion(
            f"{ruta_de_ajustes()}: «desafio» es «{desafio}», que no es ningún desafío; "
            f"pon uno de éstos: {', '.join(desafios_validos())}"
        )
    if "nbgrader" not in datos:
        return {"nbgrader": str(CURSO_NBGRADER), "desafio": desafio}
    try:
        nbgrader = (RAIZ / Path(datos["nbgrader"]).expanduser()).resolve()
    except RuntimeError:  # ~otro, de un usuario que no hay en esta máquina
        raise ErrorDeConfiguracion(
            f"{ruta_de_ajustes()}: «nbgrader» es «{datos['nbgrader']}», y no se sabe de quién es ese «~»; "
            "escribe la ruta entera o relativa a la raíz del repositorio"
        ) from None
    return {"nbgrader": str(nbgrader), "desafio": desafio}


def opcion_desafio(parser) -> None:
    """--desafio SLUG, con el de profesor.toml por omisión."""
    un_desafio = predeterminados()["desafio"]
    ayuda = f"el desafío: {', '.join(desafios_validos())} ({un_desafio}; cámbialo en profesor.toml)"
    parser.add_argument("--desafio", default=un_desafio, metavar="SLUG", help=ayuda)


def opcion_nbgrader(parser) -> None:
    """--nbgrader CARPETA, con la de profesor.toml por omisión."""
    nbgrader = predeterminados()["nbgrader"]
    ayuda = (
        f"carpeta del curso de nbgrader, relativa a donde estás ({nbgrader}; cámbiala con «nbgrader» en profesor.toml)"
    )
    parser.add_argument("--nbgrader", default=nbgrader, metavar="CARPETA", help=ayuda)


def puerto_libre(puerto: int) -> None:
    """Un ErrorDeOrden si no se puede escuchar en 127.0.0.1:puerto."""
    import socket

    if not puerto:
        return
    with socket.socket() as prueba:
        prueba.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # como el servidor
        try:
            prueba.bind(("127.0.0.1", puerto))
        except OSError as e:
            raise error_de_puerto(e, puerto) from None


def error_de_puerto(e: OSError, puerto: int) -> Exception:
    """El OSError de escuchar en el puerto, dicho con qué hacer (el que no se conoce, tal cual)."""
    if e.errno == errno.EADDRINUSE:
        return ErrorDeOrden(
            f"el puerto {puerto} está ocupado (¿otro `./curso servir`, `./curso formgrader` o "
            "Jupyter abierto?): ciérralo "
            f"o usa otro, p. ej. --puerto {puerto + 1}"
        )
    if e.errno == errno.EACCES:
        return ErrorDeOrden(
            f"no se puede usar el puerto {puerto} sin permisos de administrador: usa uno "
            "mayor que 1023, p. ej. --puerto 8000"
        )
    return e
