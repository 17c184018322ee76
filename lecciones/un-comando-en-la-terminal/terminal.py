"""Una terminal pequeña y simulada sobre los ficheros del entorno (el diccionario ruta -> contenido).

Es el laboratorio de la lección «Un comando en la terminal». Entiende una línea como la
entendería un shell: palabras con comillas, y los operadores ; && || | > >>, que encadenan
órdenes o mandan la salida a un fichero. Sabe unas pocas órdenes (ls, cat, head, grep, wc,
echo, find, rm, mv, sh) y, como un shell de verdad, ejecuta lo que le pidan sin preguntar:
decidir es cosa del harness. Sólo toca el diccionario que recibe.

No es bash: no expande llaves, comodines, ~, variables ni $( ), ni sabe de asignaciones o de
palabras reservadas (LANG=C ls, time ls). En lugar de leer esas líneas de otra manera que bash,
las rechaza: lo que esta terminal ejecuta es lo que ejecutaría bash (la prueba la compara con él).
Tampoco lee una línea de más de LIMITE_DE_ORDEN caracteres.
Nunca lanza: una línea que no entiende vuelve como una salida de error, con su código.
Este fichero no usa nada fuera de la biblioteca estándar.
"""

import fnmatch
import re
import shlex

OPERADORES = (";", "&&", "||", "|", ">", ">>")
EXPANSIONES = set("{}*?[]~#")  # lo que bash cambia si va sin comillas: llaves, comodines, ~ y comentarios
NO_SIMULADO = set("$`\n\r\0")  # lo que bash expande o corta también entre comillas dobles
RESERVADAS = {
    "!",
    "case",
    "coproc",
    "do",
    "done",
    "elif",
    "else",
    "esac",
    "fi",
    "for",
    "function",
    "if",
    "in",
    "select",
    "then",
    "time",
    "until",
    "while",
}  # al principio de una orden, bash no las lanza
ASIGNACION = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")  # LANG=C delante de la orden: cambia su entorno
# Una línea más larga no se lee: trocearla cuesta el cuadrado de la longitud de una palabra (shlex.split
# tarda segundos con 400 000 caracteres, y minutos con dos millones), y una orden de un agente no la necesita.
LIMITE_DE_ORDEN = 8192


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
    """Las palabras y los operadores de una línea, con las comillas ya quitadas, como los forma un shell.

    Recorre la línea carácter a carácter. Fuera de comillas, un espacio o un tabulador separa
    palabras y ; & | < > ( ) son operadores; lo que va entre comillas, o tras una barra, es parte
    de la palabra: "a"-n es una sola palabra, a-n. Lo que esta terminal no hace como bash no lo
    lee a su manera: es un ErrorDeOrden.
    """
    if len(linea) > LIMITE_DE_ORDEN:
        raise ErrorDeOrden("esta terminal no lee líneas de más de %d caracteres" % LIMITE_DE_ORDEN)
    if NO_SIMULADO & set(linea):
        raise ErrorDeOrden("esta terminal no entiende $, comillas invertidas ni saltos de línea")
    trozos, lector = [], _Lector(linea)
    while not lector.acabado():
        c = lector.actual()
        if c in " \t":
            lector.avanza(1)
            lector.pegado = False
        elif c in "();<>|&":
            operador = linea[lector.i : lector.i + 2] if linea[lector.i : lector.i + 2] in OPERADORES else c
            if operador not in OPERADORES:
                raise ErrorDeOrden("esta terminal no entiende «%s»" % operador)
            pegada = trozos[-1][2] if trozos and lector.pegado else ""
            if operador in (">", ">>") and pegada.isascii() and pegada.isdigit():
                raise ErrorDeOrden("esta terminal no entiende «%s%s»" % (pegada, operador))  # 2> es otra cosa
            trozos.append(("op", operador, operador))
            lector.avanza(len(operador))
            lector.pegado = False
        else:
            palabra, cruda = lector.palabra()
            trozos.append(("palabra", palabra, cruda))
            lector.pegado = True  # si lo siguiente es un operador, va pegado a esta palabra
    _comprueba_principios(trozos)
    return [(tipo, valor) for tipo, valor, _ in trozos]


class _Lector:
    """Una línea y por dónde va la lectura; palabra() lee una palabra entera, con sus comillas."""

    def __init__(self, linea):
        self.linea, self.i, self.pegado = linea, 0, False

    def acabado(self):
        return self.i >= len(self.linea)

    def actual(self):
        return self.linea[self.i]

    def avanza(self, n):
        self.i += n

    def palabra(self):
        """(la palabra sin comillas, la palabra tal como se escribió), hasta un espacio o un operador."""
        linea, inicio, palabra = self.linea, self.i, ""
        while not self.acabado() and self.actual() not in " \t();<>|&":
            c = self.actual()
            if c == "\\":  # fuera de comillas, la barra protege el carácter siguiente, sea cual sea
                if self.i + 1 == len(linea):
                    raise ErrorDeOrden("una barra al final de la línea")
                palabra += linea[self.i + 1]
                self.avanza(2)
            elif c == "'":  # entre comillas simples, nada es especial
                fin = linea.find("'", self.i + 1)
                if fin < 0:
                    raise ErrorDeOrden("comillas sin cerrar")
                palabra += linea[self.i + 1 : fin]
                self.i = fin + 1
            elif c == '"':  # entre dobles, la barra sólo protege " y \\ (y $ y `, que no llegan aquí)
                self.avanza(1)
                while not self.acabado() and self.actual() != '"':
                    if self.actual() == "\\" and linea[self.i + 1 : self.i + 2] in ('"', "\\"):
                        self.avanza(1)
                    palabra += self.actual()
                    self.avanza(1)
                if self.acabado():
                    raise ErrorDeOrden("comillas sin cerrar")
                self.avanza(1)
            elif c in EXPANSIONES:
                raise ErrorDeOrden(
                    "esta terminal no expande llaves, comodines, ~ ni comentarios: «%s»" % linea[inicio : self.i + 1]
                )
            else:
                palabra += c
                self.avanza(1)
        return palabra, linea[inicio : self.i]


def _comprueba_principios(trozos):
    """La primera palabra de cada orden: bash lee distinto una palabra reservada (if, time, !) o una
    asignación (LANG=C ls), y esta terminal no las sabe hacer."""
    al_principio, espera_fichero = True, False
    for tipo, valor, cruda in trozos:
        if tipo == "op":
            al_principio = al_principio or valor in (";", "&&", "||", "|")
            espera_fichero = valor in (">", ">>")
        elif espera_fichero:
            espera_fichero = False  # el fichero de una redirección no es la orden
        elif al_principio:
            if cruda in RESERVADAS or ASIGNACION.match(cruda):
                raise ErrorDeOrden("esta terminal no entiende «%s» al principio de una orden" % cruda)
            al_principio = False


def argv_de(linea):
    """La línea como la lista de argumentos de una sola orden (lo que recibe el programa).

    Lanza ValueError, como shlex.split con unas comillas sin cerrar, si la línea pasa de
    LIMITE_DE_ORDEN caracteres: una decisión que la trocease tardaría minutos en contestar.
    """
    if len(linea) > LIMITE_DE_ORDEN:
        raise ValueError("una línea de más de %d caracteres no se trocea" % LIMITE_DE_ORDEN)
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


ORDENES = {
    "ls": ls,
    "cat": cat,
    "head": head,
    "grep": grep,
    "wc": wc,
    "echo": echo,
    "find": find,
    "rm": rm,
    "mv": mv,
    "sh": sh,
    "bash": sh,
}


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


def _partes(trozos, separadores):
    """[(operador que va delante, [trozos])], partiendo por los operadores de separadores."""
    partes, actual, delante = [], [], None
    for tipo, valor in trozos:
        if tipo == "op" and valor in separadores:
            partes.append((delante, actual))
            actual, delante = [], valor
        else:
            actual.append((tipo, valor))
    partes.append((delante, actual))
    return partes


def _comprueba_sintaxis(tramos):
    """Lo que bash rechaza antes de ejecutar nada: una orden vacía entre operadores (; ls, ls |,
    ls && && rm) o una redirección sin fichero. Sólo un ; final puede dejar la última vacía."""
    for n, (delante, tramo) in enumerate(tramos):
        if not tramo and not (n == len(tramos) - 1 and delante in (None, ";")):
            raise ErrorDeOrden("falta una orden junto a «%s»" % (delante or tramos[n + 1][0]))
        for _, orden in _partes(tramo, ("|",)) if tramo else []:
            if not orden:
                raise ErrorDeOrden("falta una orden junto a «|»")
            for i, (tipo, _) in enumerate(orden):
                if tipo == "op" and (i + 1 == len(orden) or orden[i + 1][0] == "op"):
                    raise ErrorDeOrden("falta el fichero de la redirección")


def _tuberia(entorno, trozos):
    """Una tubería (a | b > f): la salida de cada orden es la entrada de la siguiente. Como bash,
    cada redirección crea (o vacía, con >) su fichero antes de lanzar la orden, y la salida va al
    último; los errores no van al fichero: (salida, errores, código)."""
    salida, errores, codigo = "", [], 0
    for _, orden in _partes(trozos, ("|",)):
        argv, destino = [], None
        for n, (tipo, valor) in enumerate(orden):
            if tipo == "op":
                destino = _ruta(orden[n + 1][1])
                entorno[destino] = entorno.get(destino, "") if valor == ">>" else ""
            elif n == 0 or orden[n - 1][0] != "op":
                argv.append(valor)  # el que va detrás de > es el fichero, no un argumento
        salida, codigo = corre_argv(entorno, argv, salida) if argv else ("", 0)
        if codigo != 0 and salida:
            errores.append(salida)  # un error del programa: en bash iría a la salida de errores
            salida = ""
        if destino is not None:
            entorno[destino] += salida + "\n" if salida else ""
            salida = ""
    return salida, errores, codigo


def ejecuta_linea(entorno, linea):
    """(salida, código) de una línea, como la ejecutaría un shell sobre estos ficheros."""
    try:
        tramos = _partes(palabras(linea), (";", "&&", "||"))
        _comprueba_sintaxis(tramos)
    except ErrorDeOrden as e:
        return "sh: %s" % e, 2
    salidas, codigo = [], 0
    for delante, tramo in tramos:
        if (delante == "&&" and codigo != 0) or (delante == "||" and codigo == 0) or not tramo:
            continue
        salida, errores, codigo = _tuberia(entorno, tramo)
        salidas += errores + ([salida] if salida else [])
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
