"""El Pyodide fijado: el mismo Python del navegador para el sitio y para la caja del calificador.

Lo importan cursos/sitio/ (que lo sirve) y cursos/calificador/interprete.py (que corre en él el
código del alumno); no importa nada de ninguno de los dos.

- fijado.toml: la versión y la huella de cada pieza (el paquete npm, las ruedas, pyodide-build).
- distribucion.py: lo descarga una vez, lo comprueba y lo instala en el sitio con su lock.
- bytecode.py: la biblioteca estándar y las ruedas compiladas a .pyc por el propio Pyodide.
- descargas.py: la carpeta de las descargas (build/descargas/) y el error de una pieza que falta.
"""
