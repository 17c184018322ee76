"""El sitio del curso: páginas de lección con Pyodide y JupyterLite, todo servido por el sitio.

Forma del sitio construido (build/sitio/), con URL siempre relativas, para que funcione
en la raíz del dominio y bajo una subruta (/curso/):

    index.html                         portada: las lecciones en orden
    recursos/                          css y js de las páginas, y ejecutor.py
    courses/<curso>/<módulo>.py        los tres módulos compartidos
    courses/<curso>/<lección>/         página de cada lección
    pyodide/v<versión>/                Pyodide y las ruedas: una sola ruta para las dos
                                       interfaces, así que una sola caché del navegador
    lite/                              JupyterLite con los mismos cuadernos

Pyodide y las ruedas salen de cursos/pyodide/ (fijado.toml), el mismo que usa el calificador; del
flujo del profesor sólo se importa cursos/profesor/reparto.py (el desafío repartido va al sitio).
"""

from pathlib import Path

from cursos import RAIZ

SITIO = RAIZ / "build" / "sitio"
RECURSOS = Path(__file__).with_name("recursos")
