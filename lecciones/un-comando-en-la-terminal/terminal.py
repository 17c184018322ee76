"""Una terminal pequeña y simulada sobre los ficheros del entorno (el diccionario ruta -> contenido).

Es el laboratorio de la lección «Un comando en la terminal». Entiende una línea como la
entendería un shell: palabras con comillas, y los operadores ; && || | > >>, que encadenan
órdenes o mandan la salida a un fichero. Sabe unas pocas órdenes (ls, cat, head, grep, wc,
echo, find, rm, mv, sh) y, como un shell de verdad, ejecuta lo que le pidan sin preguntar:
decidir es cosa del harness. Sólo toca el diccionario que recibe.

No es bash: no expande llaves, comodines, ~ ni variables. En lugar de leer esas líneas de otra
manera que bash, las rechaza: lo que esta terminal ejecuta es lo que ejecutaría bash.
Nunca lanza: una línea que no entiende vuelve como una salida de error, con su código.
Este fichero no usa nada fuera de la biblioteca estándar.
"""

import fnmatch
import shlex

OPERADORES = (";", "&&", "||", "|", ">", ">>")
EXPANSIONES = set("{}*?[]~#")  # lo que bash cambia si va sin comillas: llaves, comodines, ~ y comentarios


class ErrorDeOrden(Exception):
    """Una orden que la terminal no entiende o no puede completar."""


# --- Leer la línea como un shell --------------------------------------------------


def sin_comillas(linea):
    """Los caracteres de la línea que un shell ve sin comillas y sin una barra delante.

    Las llaves, los comodines y ~ sólo se expanden ahí: "*.txt" entre comillas es un texto,
    y *.txt sin ellas, la lista de los ficheros que acaban en .txt.
    """
    fuera, comilla, escapado = [], None, False
    for c in linea:
        if escapado:
            escapado = False  # la barra de delante protege este carácter
        elif c == "\\" and comilla != "'":
            escapado = True  # entre comillas simples, una barra es una barra
        elif comilla:
            if c == comilla:
                comilla = None
        elif c in "'\"":
            comilla = c
        else:
            fuera.append(c)
    return "".join(fuera)


def palabras(linea):
    """Las palabras y los operadores de una línea, con las comillas ya quitadas.

    Un operador entre comillas (";") es una palabra, no un operador: por eso se trocea
    primero sin quitar las comillas y se quitan después, palabra a palabra.
    """
    lexico = shlex.shlex(linea, posix=False, punctuation_chars=True)
    lexico.whitespace_split = True
    lexico.commenters = ""  # shlex corta en un # dentro de una palabra, y bash no: los # los rechaza EXPANSIONES
    trozos = []
    for trozo in lexico:
        if trozo in OPERADORES:
            trozos.append(("op", trozo))
        elif set(trozo) <= set("();<>|&"):
            raise ErrorDeOrden("esta terminal no entiende «%s»" % trozo)
        elif EXPANSIONES & set(sin_comillas(trozo)):
            raise ErrorDeOrden("esta terminal no expande llaves, comodines, ~ ni comentarios: «%s»" % trozo)
        else:
            trozos.append(("palabra", "".join(shlex.split(trozo))))
    return trozos


def argv_de(linea):
    """La línea como la lista de argumentos de una sola orden (lo que recibe el programa)."""
    return shlex.split(linea)


# --- Las órdenes: cada una recibe (entorno, argumentos, entrada) y devuelve (salida, código) ---


def _opciones(args, validas):
    """(opciones, resto): separa las que empiezan por - y comprueba que se entienden."""
    opciones = [a for a in args if a.startswith("-") and a != "-"]
    for opcion in opciones:
        if opcion not in validas:
            raise ErrorDeOrden("opción no reconocida: " + opcion)
    return opciones, [a for a in args if a not in opciones]


def _ruta(ruta):
    """«./notas.txt» y «notas.txt» son el mismo fichero; «.» es la raíz."""
    while ruta.startswith("./"):
        ruta = ruta[2:]
    return "" if ruta in (".", "./") else ruta.rstrip("/")


def _bajo(entorno, carpeta):
    """Las rutas que hay dentro de una carpeta (todas, si es la raíz)."""
    prefijo = carpeta + "/" if carpeta else ""
    return sorted(r for r in entorno if r.startswith(prefijo))


def _fichero(entorno, orden, ruta):
    if _ruta(ruta) not in entorno:
        raise ErrorDeOrden("%s: %s: no existe el fichero" % (orden, ruta))
    return entorno[_ruta(ruta)]


def ls(entorno, args, entrada):
    opciones, rutas = _opciones(args, {"-l", "-a", "-R"})
    lineas = []
    for carpeta in [_ruta(r) for r in rutas] or [""]:
        dentro = _bajo(entorno, carpeta)
        if carpeta in entorno:
            dentro = [carpeta]
        elif carpeta and not dentro:
            raise ErrorDeOrden("ls: %s: no existe" % carpeta)
        prefijo = len(carpeta) + 1 if carpeta and carpeta not in entorno else 0
        nombres = [r[prefijo:] for r in dentro]
        if "-R" not in opciones:  # sin -R, las subcarpetas se ven como carpeta/
            nombres = sorted({n.split("/")[0] + ("/" if "/" in n else "") for n in nombres})
        lineas += nombres
    return "\n".join(lineas), 0


def cat(entorno, args, entrada):
    opciones, rutas = _opciones(args, {"-n"})
    texto = "\n".join(_fichero(entorno, "cat", r) for r in rutas) if rutas else entrada
    if "-n" in opciones:
        texto = "\n".join("%6d  %s" % (n, linea) for n, linea in enumerate(texto.split("\n"), 1))
    return texto, 0


def head(entorno, args, entrada):
    n = 10
    if args[:1] == ["-n"]:
        if len(args) < 2 or not args[1].isdigit():
            raise ErrorDeOrden("head: -n necesita un número")
        n, args = int(args[1]), args[2:]
    _, rutas = _opciones(args, set())
    texto = _fichero(entorno, "head", rutas[0]) if rutas else entrada
    return "\n".join(texto.split("\n")[:n]), 0


def grep(entorno, args, entrada):
    opciones, resto = _opciones(args, {"-i", "-n", "-r"})
    if not resto:
        raise ErrorDeOrden("grep: falta el texto que buscar")
    patron, rutas = resto[0], resto[1:]
    if "-r" in opciones:
        rutas = [r for c in rutas or ["."] for r in _bajo(entorno, _ruta(c))]
    fuentes = [(r, _fichero(entorno, "grep", r)) for r in rutas] or [("", entrada)]
    encontradas, con_ruta = [], len(fuentes) > 1 or "-r" in opciones
    for ruta, texto in fuentes:
        for n, linea in enumerate(texto.split("\n"), 1):
            dentro = patron.lower() in linea.lower() if "-i" in opciones else patron in linea
            if dentro:
                delante = (ruta + ":" if con_ruta else "") + ("%d:" % n if "-n" in opciones else "")
                encontradas.append(delante + linea)
    return "\n".join(encontradas), 0 if encontradas else 1


def wc(entorno, args, entrada):
    opciones, rutas = _opciones(args, {"-l"})
    texto = _fichero(entorno, "wc", rutas[0]) if rutas else entrada
    lineas = texto.count("\n") + (1 if texto and not texto.endswith("\n") else 0)
    return str(lineas) if "-l" in opciones else "%d %d %d" % (lineas, len(texto.split()), len(texto)), 0


def echo(entorno, args, entrada):
    return " ".join(args), 0


def find(entorno, args, entrada):
    """find [carpeta] [-name patrón] [-type f] [-delete]: -delete borra lo que encuentra."""
    carpeta, patron, borrar = "", "*", False
    resto = list(args)
    if resto and not resto[0].startswith("-"):
        carpeta = _ruta(resto.pop(0))
    while resto:
        opcion = resto.pop(0)
        if opcion in ("-name", "-type") and resto:
            valor = resto.pop(0)
            patron = valor if opcion == "-name" else patron
        elif opcion == "-delete":
            borrar = True
        else:
            raise ErrorDeOrden("find: no entiendo «%s»" % opcion)
    halladas = [r for r in _bajo(entorno, carpeta) if fnmatch.fnmatch(r.split("/")[-1], patron)]
    if borrar:
        for ruta in halladas:
            del entorno[ruta]
        return "", 0
    return "\n".join("./" + r for r in halladas), 0


def rm(entorno, args, entrada):
    opciones, rutas = _opciones(args, {"-r", "-f", "-rf", "-fr"})
    recursivo = any("r" in o for o in opciones)
    for ruta in map(_ruta, rutas):
        if ruta in entorno:
            del entorno[ruta]
        elif recursivo and _bajo(entorno, ruta):
            for dentro in _bajo(entorno, ruta):
                del entorno[dentro]
        elif not any("f" in o for o in opciones):
            raise ErrorDeOrden("rm: %s: no existe" % ruta)
    return "", 0


def mv(entorno, args, entrada):
    _, rutas = _opciones(args, set())
    if len(rutas) != 2:
        raise ErrorDeOrden("mv: necesita un origen y un destino")
    origen, destino = map(_ruta, rutas)
    entorno[destino] = entorno.pop(_ruta(origen)) if origen in entorno else _fichero(entorno, "mv", origen)
    return "", 0


def sh(entorno, args, entrada):
    """sh -c «línea»: otra línea entera, que la terminal lee y ejecuta."""
    if len(args) < 2 or args[0] != "-c":
        raise ErrorDeOrden("sh: esta terminal sólo entiende sh -c «orden»")
    return ejecuta_linea(entorno, args[1])


ORDENES = {"ls": ls, "cat": cat, "head": head, "grep": grep, "wc": wc, "echo": echo,
           "find": find, "rm": rm, "mv": mv, "sh": sh, "bash": sh}


def corre_argv(entorno, argv, entrada=""):
    """Ejecuta una orden ya troceada, sin shell de por medio: (salida, código)."""
    if not argv:
        return "", 0
    if argv[0] not in ORDENES:
        return "%s: no existe esa orden" % argv[0], 127
    try:
        return ORDENES[argv[0]](entorno, argv[1:], entrada)
    except ErrorDeOrden as e:
        return str(e), 1


# --- Una línea entera: órdenes encadenadas, tuberías y redirecciones ---------------


def _tramos(trozos):
    """[(operador que va delante, [palabras y operadores de tubería])]."""
    tramos, actual, delante = [], [], None
    for tipo, valor in trozos:
        if tipo == "op" and valor in (";", "&&", "||"):
            tramos.append((delante, actual))
            actual, delante = [], valor
        else:
            actual.append((tipo, valor))
    tramos.append((delante, actual))
    return tramos


def _tuberia(entorno, trozos):
    """Una tubería (a | b > f): la salida de cada orden es la entrada de la siguiente."""
    salida, codigo, argv, destino = "", 0, [], None
    for tipo, valor in trozos + [("op", "|")]:
        if tipo == "palabra" and destino is None:
            argv.append(valor)
        elif tipo == "palabra":
            destino[1] = valor
        elif valor in (">", ">>"):
            destino = [valor, None]
        elif valor == "|":
            salida, codigo = corre_argv(entorno, argv, salida)
            argv = []
    if destino:
        if not destino[1]:
            return "falta el fichero de la redirección", 1
        ruta = _ruta(destino[1])
        previo = entorno.get(ruta, "") if destino[0] == ">>" else ""
        entorno[ruta] = previo + salida + "\n"
        salida = ""
    return salida, codigo


def ejecuta_linea(entorno, linea):
    """(salida, código) de una línea, como la ejecutaría un shell sobre estos ficheros."""
    try:
        trozos = palabras(linea)
    except (ValueError, ErrorDeOrden) as e:
        return "sh: %s" % e, 2
    salidas, codigo = [], 0
    for delante, tramo in _tramos(trozos):
        if (delante == "&&" and codigo != 0) or (delante == "||" and codigo == 0):
            continue
        salida, codigo = _tuberia(entorno, tramo)
        if salida:
            salidas.append(salida)
    return "\n".join(salidas), codigo


def terminal(entorno, orden):
    """La herramienta: ejecuta una línea en la terminal y devuelve lo que escribe. Nunca lanza."""
    try:
        salida, codigo = ejecuta_linea(entorno, orden)
    except Exception as e:  # un fallo del simulador también es una salida de error, no una excepción
        salida, codigo = "sh: %s: %s" % (type(e).__name__, e), 2
    return salida if codigo == 0 else "%s\n(código de salida %d)" % (salida, codigo)


# Lo que ve el modelo. La clase no va aquí: la escribe quien registra la herramienta.
TERMINAL = {
    "description": "Ejecuta una orden en la terminal, sobre los ficheros del usuario, y devuelve su salida.",
    "input_schema": {
        "type": "object",
        "properties": {"orden": {"type": "string", "description": "La línea de órdenes, por ejemplo ls recetas"}},
        "required": ["orden"],
        "additionalProperties": False,
    },
    "funcion": terminal,
}


def cambios(antes, despues):
    """Lo que ha cambiado entre dos copias del entorno, una línea por fichero, en orden."""
    lineas = []
    for ruta in sorted(set(antes) | set(despues)):
        if ruta not in despues:
            lineas.append("borra " + ruta)
        elif ruta not in antes:
            lineas.append("crea " + ruta)
        elif antes[ruta] != despues[ruta]:
            lineas.append("cambia " + ruta)
    return lineas
