"""./curso formgrader: JupyterLab en la carpeta del curso, con formgrader diciendo en su columna de nota la del CSV."""

import os
import subprocess

from cursos.errores import ErrorDeOrden
from cursos.ordenes.opciones import curso_existente, opcion_nbgrader, puerto_libre

NOMBRE = "formgrader"
AYUDA = (
    "abre JupyterLab con formgrader en la carpeta del curso, con la nota "
    "del CSV (penalización y crédito extra) en su columna de nota"
)


def configura(parser) -> None:
    opcion_nbgrader(parser)
    parser.add_argument("--puerto", type=int, default=8888, help="puerto en 127.0.0.1 (8888)")
    parser.add_argument(
        "--como-root",
        action="store_true",
        help="arranca aunque seas root (Jupyter se niega si no: quien abra la página manda como root)",
    )


def ejecuta(args) -> int:
    from cursos.profesor import formgrader
    from cursos.profesor.fuente import con_herramientas_del_venv

    carpeta = curso_existente(args)
    if getattr(os, "geteuid", lambda: -1)() == 0 and not args.como_root:  # Jupyter acabaría en inglés
        raise ErrorDeOrden(
            "estás como root, y Jupyter no arranca como root: quien abra formgrader podría ejecutar "
            "cualquier cosa como root desde la terminal o un cuaderno de JupyterLab. Si es lo que quieres "
            "(p. ej. en un contenedor sólo tuyo), añade --como-root; si no, lánzalo con tu usuario"
        )
    puerto_libre(args.puerto)
    con_herramientas_del_venv()
    clave = formgrader.clave_nueva()
    print(
        f"» formgrader en {formgrader.url_de_formgrader(args.puerto, clave)} (con su clave: ábrela tal cual), "
        "con la nota del CSV y de nbgrader export en su columna de nota (Ctrl+C para parar)",
        flush=True,
    )
    orden = formgrader.orden_de_jupyter(carpeta, args.puerto, como_root=args.como_root)
    return subprocess.call(orden, cwd=carpeta, env=formgrader.entorno_de_jupyter(clave))
