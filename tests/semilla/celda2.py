# Necesita la celda anterior.
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

LLAMADAS = RESPUESTAS[0] + RESPUESTAS[1] + [llamada("t5", "borrar", ruta="notas.txt")]
print("%-36s %-10s %s" % ("", "PERMISOS", "SOLO_LECTURA"))
for ll in LLAMADAS:
    print("%-3s %-9s %-22s %-10s %s" % (ll["id"], ll["name"], ll["input"]["ruta"],
                                        permiso(ll), permiso(ll, SOLO_LECTURA)))
for ll in RESPUESTAS[1]:
    preguntar(ll)
