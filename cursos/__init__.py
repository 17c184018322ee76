"""Las herramientas del curso: el manifiesto, los cuadernos, el sitio y el calificador.

La carpeta cursos/ guarda los manifiestos (*.toml) y este paquete, que los lee.
La carpeta build/ de la raíz es sólo la salida: ahí no hay código.
"""

from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
