"""El calificador: el desafío en formato nbgrader y una nota en la que se puede confiar.

- fuente.py: del desafío (desafios/<slug>/) al cuaderno fuente de nbgrader y la versión del alumno.
- cuaderno.py: lee una entrega sin ejecutarla y saca el código del alumno, o el motivo del 0.
- hijo.py: el programa que corre el código del alumno, aislado; sólo biblioteca estándar.
- aislamiento.py: cómo se arranca ese proceso (usuario, red, límites) y qué falta en esta máquina.
- banco.py: las pruebas, en el proceso de confianza, hablando con el hijo por un canal JSON.
- libro.py, informe.py, calificar.py: el libro de notas de nbgrader, el CSV, el resumen y la orden.
"""

from cursos import RAIZ

CURSO_NBGRADER = RAIZ / "nbgrader"
"""La carpeta de curso de nbgrader por omisión: source/, release/, submitted/, gradebook.db."""
