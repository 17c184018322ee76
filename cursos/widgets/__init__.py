"""Código que corre dentro del cuaderno (Jupyter o JupyterLite), no en la construcción.

Cada fichero de aquí se copia junto a los cuadernos y las celdas lo cargan con
exec(open(...).read()), igual que los módulos del curso.
"""
