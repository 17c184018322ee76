# El código de partida: no hace falta cambiarlo.
exec(open("guionizado.py", encoding="utf-8").read())  # ModeloGuionizado
exec(open("entorno.py", encoding="utf-8").read())  # el entorno y sus herramientas
exec(open("harness.py", encoding="utf-8").read())  # ejecutar y el bucle, sin tocar

CLASES = {"leer": "lectura", "listar": "lectura", "buscar": "lectura",  # las escribe quien
          "escribir": "escritura"}                                      # escribe la herramienta
PERMISOS = {"lectura": "permitir", "escritura": "preguntar", "ejecución": "preguntar"}
SOLO_LECTURA = {"lectura": "permitir"}


def permiso(ll, permisos=PERMISOS):
    """permitir, preguntar o denegar. Mira la herramienta de la llamada, y nada más."""
    return permisos.get(CLASES.get(ll["name"]), "denegar")


def preguntar(ll):  # el usuario, guionizado: sólo quiere cambiar lista.txt
    si = ll["input"].get("ruta") == "lista.txt"
    print("  ¿%s %s? %s" % (ll["name"], json.dumps(ll["input"], ensure_ascii=False), "sí" if si else "no"))
    return si
