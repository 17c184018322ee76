def decide_peticion(url, ejecucion):
    """permitir o denegar una petición a url, con lo que ya ha hecho la ejecución.

    Compara el host tal como lo leería un navegador, nunca el texto de la URL, y sólo con lo que
    dice ejecucion: nada de lo que traiga la URL amplía la lista de destinos. Lo que no es un
    nombre en ASCII llano no se traduce: cada cliente lo traduce a su manera, y se deniega.
    """
    ### BEGIN SOLUTION
    if not isinstance(url, str):
        return "denegar"
    try:
        partes = urllib.parse.urlsplit(url)
        host, puerto = partes.hostname, partes.port
    except ValueError:
        return "denegar"  # urllib.parse no la entiende: no se sabe adónde va
    if partes.scheme not in ("http", "https") or "@" in partes.netloc or not host:
        return "denegar"
    if "[" in partes.netloc or "]" in partes.netloc:
        return "denegar"  # hostname se queda con lo de entre corchetes: [v1.recetas.example]
    if not partes.netloc.isascii() or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789-." for c in host):
        return "denegar"  # %, \, _, ß, una е cirílica...: el navegador no leería este host
    sin_punto = host[:-1] if host.endswith(".") else host
    etiquetas = sin_punto.split(".")
    if "" in etiquetas:
        return "denegar"  # a..b, .a o un punto solo: no es un nombre
    ultima = etiquetas[-1]
    numero = ultima.isdigit() or (ultima[:2] == "0x" and all(c in "0123456789abcdef" for c in ultima[2:]))
    if numero or ultima == "localhost":
        return "denegar"  # una dirección IP, escrita de cualquier forma, o la propia máquina
    if host in ejecucion["permitidos"] and puerto in (None, {"http": 80, "https": 443}[partes.scheme]):
        return "permitir"
    if any(ruta in ejecucion["privados"] for ruta in ejecucion["leidos"]):
        return "denegar"  # la ejecución ha leído algo privado: fuera de la lista no sale nada
    return "permitir"
    ### END SOLUTION
