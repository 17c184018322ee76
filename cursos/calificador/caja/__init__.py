"""Lo único que corre dentro de la caja del alumno (el proceso aislado que abre el calificador).

Sólo biblioteca estándar y nada del repositorio: aislamiento.programa_del_hijo manda hijo.py
con el texto de protocolo.py dentro, con `-c`. protocolo.py lo importa también el lado de
confianza (banco.py): los dos lados hablan con los mismos nombres.
"""
