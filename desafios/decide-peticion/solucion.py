def decide_peticion(url, ejecucion):
    """permitir o denegar una petición a url, con lo que ya ha hecho la ejecución.

    Compara el host tal como lo lee la red, nunca el texto de la URL, y sólo con lo que dice
    ejecucion: nada de lo que traiga la URL amplía la lista de destinos.
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
    if host.endswith("."):
        host = host[:-1]  # el punto final del DNS: el mismo host
    if not host or "%" in host:
        return "denegar"
    try:
        host = host.encode("idna").decode("ascii")  # la forma en que el nombre viaja por la red
    except UnicodeError:
        return "denegar"
    ultima = host.rsplit(".", 1)[-1]
    numero = ultima.isdigit() or (ultima[:2] == "0x" and all(c in "0123456789abcdef" for c in ultima[2:]))
    if ":" in host or numero:
        return "denegar"  # una dirección IP, escrita de cualquier forma
    if host in ejecucion["permitidos"] and puerto in (None, {"http": 80, "https": 443}[partes.scheme]):
        return "permitir"
    if any(ruta in ejecucion["privados"] for ruta in ejecucion["leidos"]):
        return "denegar"  # la ejecución ha leído algo privado: fuera de la lista no sale nada
    return "permitir"
    ### END SOLUTION
