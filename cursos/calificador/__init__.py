"""El calificador: el desafío en formato nbgrader y una nota en la que se puede confiar.

El modelo del desafío (cursos/desafio.py y el contrato de sus pruebas, cursos/contrato.py) no
está aquí: lo usan también el sitio y los cuadernos.

- fuente.py: lo propio de nbgrader: el cuaderno fuente (metadatos) y la versión del alumno.
- cuaderno.py: lee una entrega sin ejecutarla y saca el código del alumno, o el motivo del 0.
- caja/: lo único que corre en el proceso aislado del alumno (hijo.py y protocolo.py, sólo
  biblioteca estándar, y lanzador.mjs, que corre hijo.py en Pyodide bajo Node); protocolo.py lo
  comparten los dos lados.
- aislamiento.py: cómo se arranca ese proceso (usuario, red, límites), qué falta en esta máquina y
  la reserva de procesos lanzados de antemano (cada uno lo usa una sola entrega).
- interprete.py: el Python del navegador para ese proceso (Pyodide bajo Node, con su instantánea,
  que ya trae hijo.py cargado y ningún código de alumno).
- banco.py: las pruebas, en el proceso de confianza, hablando con el hijo por un canal JSON.
- libro.py, informe.py, calificar.py: el libro de notas de nbgrader, el CSV, el resumen y la orden.
- configuracion.py: la configuración del curso de nbgrader del profesor, sin pisarla.
- carpetas.py: dónde deja cada cosa ese curso (sus nombres de carpeta, con format_path de nbgrader).
- recoger.py, reparto.py: las entregas del LMS a submitted/; la versión del alumno para el sitio.
- retroalimentacion.py: la devolución al alumno, en español, en feedback/ como la de nbgrader.
- formgrader.py: la extensión de Jupyter que hace que formgrader enseñe la nota del CSV.
- lista.py: la lista de alumnos del libro y cómo casa una carpeta del LMS con uno de ellos.
- anteriores.py, referencia.py, mudanza.py: las entregas sustituidas (.anteriores/), la solución
  de referencia contra las pruebas visibles antes de repartir, y copiar el libro a otra db_url.
"""

from cursos import RAIZ

# La carpeta del curso de nbgrader por omisión: en la raíz y no en build/, que se puede borrar
# entera (`rm -rf build`); aquí quedan las entregas, el libro de notas y lo repartido.
CURSO_NBGRADER = RAIZ / "nbgrader"
