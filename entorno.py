"""El entorno del agente: los ficheros del usuario y las herramientas que los tocan.

Los ficheros son un diccionario ruta -> contenido. Cada herramienta es una
función que recibe ese diccionario y sus argumentos, y a su lado va lo que ve
el modelo: el nombre, una descripción y el esquema JSON de sus argumentos.
Este fichero no usa nada fuera de la biblioteca estándar.
"""

ENTORNO = {
    "lista.txt": "pan, leche, patatas",
    "notas.txt": "El sábado vienen cuatro a cenar.",
    "agenda.txt": "Martes: dentista a las 17:30.\nJueves: recoger el paquete en correos.",
    "recetas/tortilla.txt": (
        "Tortilla: huevos, patatas, cebolla, aceite, sal.\n"
        "Fríe las patatas y la cebolla a fuego lento y cuájalo todo con el huevo."
    ),
}


def leer(entorno, ruta):
    """Devuelve el contenido de un fichero."""
    if ruta not in entorno:
        raise FileNotFoundError("no existe el fichero " + ruta)
    return entorno[ruta]


def listar(entorno, carpeta=""):
    """Devuelve las rutas que empiezan por la carpeta, una por línea."""
    prefijo = carpeta.rstrip("/") + "/" if carpeta else ""
    rutas = sorted(r for r in entorno if r.startswith(prefijo))
    return "\n".join(rutas)


def buscar(entorno, texto):
    """Devuelve las líneas que contienen el texto, precedidas de su fichero."""
    encontradas = []
    for ruta in sorted(entorno):
        for linea in entorno[ruta].splitlines():
            if texto.lower() in linea.lower():
                encontradas.append(ruta + ": " + linea)
    return "\n".join(encontradas) or "ninguna línea contiene " + texto


def escribir(entorno, ruta, contenido):
    """Sustituye el contenido de un fichero, o lo crea."""
    entorno[ruta] = contenido
    return "escrito " + ruta


def _texto(descripcion):
    """Esquema de un argumento de texto."""
    return {"type": "string", "description": descripcion}


# Lo que el modelo sabe de cada herramienta es su descripción y su esquema;
# la función sólo la ve el harness.
HERRAMIENTAS = {
    "leer": {
        "description": "Lee un fichero del usuario y devuelve su contenido.",
        "input_schema": {
            "type": "object",
            "properties": {"ruta": _texto("Ruta del fichero, por ejemplo lista.txt")},
            "required": ["ruta"],
            "additionalProperties": False,
        },
        "funcion": leer,
    },
    "listar": {
        "description": "Lista los ficheros del usuario, todos o los de una carpeta.",
        "input_schema": {
            "type": "object",
            "properties": {"carpeta": _texto("Carpeta, por ejemplo recetas; vacía para todas")},
            "required": [],
            "additionalProperties": False,
        },
        "funcion": listar,
    },
    "buscar": {
        "description": "Busca un texto en todos los ficheros y devuelve las líneas que lo contienen.",
        "input_schema": {
            "type": "object",
            "properties": {"texto": _texto("Texto que buscar, sin distinguir mayúsculas")},
            "required": ["texto"],
            "additionalProperties": False,
        },
        "funcion": buscar,
    },
    "escribir": {
        "description": "Escribe un fichero del usuario: sustituye todo su contenido, o lo crea.",
        "input_schema": {
            "type": "object",
            "properties": {
                "ruta": _texto("Ruta del fichero"),
                "contenido": _texto("El contenido completo que tendrá el fichero"),
            },
            "required": ["ruta", "contenido"],
            "additionalProperties": False,
        },
        "funcion": escribir,
    },
}


def herramientas_para_el_modelo():
    """Las definiciones que recibe el modelo: nombre, descripción y esquema, sin la función."""
    return [
        {"name": nombre, "description": h["description"], "input_schema": h["input_schema"]}
        for nombre, h in HERRAMIENTAS.items()
    ]
