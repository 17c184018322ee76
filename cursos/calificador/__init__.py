"""El calificador de confianza: una entrega, su código en una caja, y una nota en la que se puede confiar.

Entrada única: califica.califica_entrega(desafio, repartido, entrega, aislamiento, plazo) -> Resultados.
No importa nada del flujo del profesor (cursos/profesor/) ni del sitio (cursos/sitio/); el Python
del navegador lo toma de cursos/pyodide/. El desafío como dato (cursos/desafio.py, el contrato de
sus pruebas en cursos/contrato.py y su cuaderno en cursos/cuaderno_del_desafio.py) no está aquí:
lo usan también el sitio y los cuadernos.

- califica.py: la entrada: lee la entrega, corre las pruebas y devuelve Resultados, con los textos limpios.
- resultado.py: Resultados y Prueba (puntos, máximo, Tipo y motivo), lo único que sale de aquí.
- saneado.py: lo que cita el alumno, sin escapes ni controles y con tope.
- congelado.py: lo que se repartió (release/): las celdas bloqueadas, el código de partida y los módulos.
- cuaderno.py: lee una entrega sin ejecutarla y saca el código del alumno, o el motivo del 0.
- banco.py: las pruebas, en el proceso de confianza, hablando con el hijo por un canal JSON.
- canal.py: ese canal: arrancar el proceso del alumno y hablarle, una línea JSON por mensaje, con topes.
- caja/: lo único que corre en el proceso aislado del alumno (hijo.py y protocolo.py, sólo
  biblioteca estándar, y lanzador.mjs, que corre hijo.py en Pyodide bajo Node); protocolo.py lo
  comparten los dos lados.
- aislamiento.py: cómo se arranca ese proceso (usuario, red, límites), qué falta en esta máquina y
  la reserva de procesos lanzados de antemano (cada uno lo usa una sola entrega).
- interprete.py: el Python del navegador para ese proceso (Pyodide bajo Node, con su instantánea,
  que ya trae hijo.py cargado y ningún código de alumno).
- referencia.py: la solución de referencia contra las pruebas visibles, antes de repartir.
"""
