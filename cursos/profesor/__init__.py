"""Lo del profesor: nbgrader y el aula virtual alrededor del calificador, que no sabe nada de ellos.

Reparte (el desafío en formato nbgrader), recoge (del aula virtual a submitted/), califica en lote
(cada entrega con calificador.califica.califica_entrega, y su resultado al libro, a autograded/,
a feedback/ y al CSV) y devuelve. Importa del calificador sólo su entrada, su resultado y lo que
lee de una entrega; el calificador no importa nada de aquí.

- fuente.py: source/<desafío>/ y generate_assignment; lo repartido no cambia.
- reparto.py: la versión del alumno para el sitio (lo único de aquí que importa el sitio).
- configuracion.py: la configuración del curso de nbgrader del profesor, sin pisarla, y su zona.
- carpetas.py: dónde deja cada cosa ese curso (sus nombres de carpeta, con format_path de nbgrader).
- sin_solucion.py: la puerta antes de escribir nada para el alumno: nada de source/ sale.
- recoger.py: de lo que baja del aula virtual a submitted/, en tres pasos: desempaqueta.py (los zip
  y la hora de cada fichero), quien.py (de quién es cada entrega y de qué desafío) y coloca.py (a
  submitted/, salvo que ya haya una igual o más nueva).
- lista.py, importa_alumnos.py: la lista de alumnos del libro y cómo casa con ella una carpeta del aula.
- anteriores.py: las entregas sustituidas (.anteriores/).
- tiempo.py: la hora de entrega (timestamp.txt) y las horas en la zona del curso.
- calificar.py: el lote: los PASOS de cada entrega, declarados una vez; calificado.py escribe autograded/.
- una_entrega.py: los dos primeros PASOS (encontrar el cuaderno y calificarlo con el núcleo), que
  corren en los hilos del lote y en cada trabajador del cluster.
- en_el_cluster.py: `calificar --cluster`, el coordinador: lee cada entrega, la manda a un
  trabajador de Dask y escribe aquí, solo, lo que escriben los demás PASOS.
- en_el_trabajador.py: lo que corre en cada `dask worker`: comprueba que es igual que el
  coordinador (commit, lo repartido, el intérprete) y califica; no escribe nada del curso.
- libro.py, informe.py: el libro de notas de nbgrader (el único sitio donde se escribe una nota),
  el CSV, el resumen y la gráfica.
- retroalimentacion.py, aula.py: la devolución al alumno en feedback/ y las notas para el aula.
- formgrader.py: la extensión de Jupyter que hace que formgrader enseñe la nota del CSV.
- mudanza.py: copiar el libro a otra db_url.
"""

from cursos import RAIZ

# La carpeta del curso de nbgrader por omisión: en la raíz y no en build/, que se puede borrar
# entera (`rm -rf build`); aquí quedan las entregas, el libro de notas y lo repartido.
CURSO_NBGRADER = RAIZ / "nbgrader"
