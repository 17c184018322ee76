"""El calificador: el desafío en formato nbgrader y una nota en la que se puede confiar.

- desafio.py: el modelo del desafío, desafios/<slug>/desafio.toml leído una vez y comprobado.
- fuente.py: lo propio de nbgrader: el cuaderno fuente (metadatos) y la versión del alumno.
- cuaderno.py: lee una entrega sin ejecutarla y saca el código del alumno, o el motivo del 0.
- hijo.py: el programa que corre el código del alumno, aislado; sólo biblioteca estándar.
- aislamiento.py: cómo se arranca ese proceso (usuario, red, límites) y qué falta en esta máquina.
- banco.py: las pruebas, en el proceso de confianza, hablando con el hijo por un canal JSON.
- libro.py, informe.py, calificar.py: el libro de notas de nbgrader, el CSV, el resumen y la orden.
- configuracion.py: la configuración del curso de nbgrader del profesor, sin pisarla.
- retroalimentacion.py: la devolución al alumno, en español, en feedback/ como la de nbgrader.
"""

from cursos import RAIZ

# La carpeta del curso de nbgrader por omisión: en la raíz y no en build/, que se puede borrar
# entera (`rm -rf build`); aquí quedan las entregas, el libro de notas y lo repartido.
CURSO_NBGRADER = RAIZ / "nbgrader"
