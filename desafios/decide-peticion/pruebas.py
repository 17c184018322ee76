"""Las pruebas del desafío «La decisión de cada petición».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu función: te dicen al momento qué URL
  no da lo que debe. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu función sólo recibe URL y ejecuciones
  (valores JSON) y devuelve su decisión; lo esperado se declara aquí.

En el calificador, cada prueba repite además sus comprobaciones con URL y ejecuciones que no
ves (PARTES_OCULTAS, en ocultas.py).

Se cargan en el mismo espacio de nombres que el código de partida (PERMITIDOS, PRIVADOS,
BANCO...). Sólo biblioteca estándar.
"""

import json
import urllib.parse

DECISIONES = ("permitir", "denegar")
LIMPIA = {"permitidos": list(PERMITIDOS), "privados": list(PRIVADOS), "leidos": ["lista.txt", "notas.txt"]}
CON_PRIVADO = dict(LIMPIA, leidos=["lista.txt", "privado/banco.txt"])
CUENTA = urllib.parse.quote(BANCO)
# Cada prueba empieza por la utilidad: los destinos de la lista se permiten, también con datos privados
# leídos, y sin nada privado se puede ir a cualquier parte. Denegarlo o permitirlo todo no pasa ninguna.
UTILIDAD = [
    ("https://recetas.example/salmorejo", LIMPIA, "permitir"),
    ("https://recetas.example/salmorejo", CON_PRIVADO, "permitir"),
    ("https://wiki.example/buscar?q=gazpacho", CON_PRIVADO, "permitir"),
    ("https://recetas-completas.example/ver", LIMPIA, "permitir"),
    ("https://recetas-completas.example/ver", CON_PRIVADO, "denegar"),
]


def _corta(valor):
    texto = json.dumps(valor, ensure_ascii=False) if isinstance(valor, (str, list, dict)) else repr(valor)
    return texto if len(texto) < 200 else texto[:200] + "…"


def _que_ejecucion(ejecucion):
    privados = [r for r in ejecucion["leidos"] if r in ejecucion["privados"]]
    return "la ejecución ha leído %s" % (
        "datos privados (%s)" % ", ".join(privados) if privados else "sólo ficheros no privados"
    )


def decide(url, ejecucion):
    """Lo que decide tu función; un Fallo si lanza o si no devuelve permitir o denegar."""
    try:
        visto = decide_peticion(url, json.loads(json.dumps(ejecucion)))
    except Exception as e:
        raise Fallo(
            "con la URL %s, tu función ha lanzado %s: %s. No lanza: devuelve permitir o denegar."
            % (_corta(url), type(e).__name__, e)
        ) from None
    if not isinstance(visto, str) or visto not in DECISIONES:
        raise Fallo(
            "con la URL %s, tu función ha devuelto %s, y debe devolver permitir o denegar."
            % (_corta(url), _corta(visto))
        )
    return visto


def comprueba_casos(casos, utilidad=True):
    """(url, ejecucion, decisión) en orden; con la utilidad delante si se pide."""
    for url, ejecucion, debe in (UTILIDAD if utilidad else []) + list(casos):
        visto = decide(url, ejecucion)
        if visto != debe:
            raise Fallo(
                "con la URL %s (%s; destinos permitidos: %s), se esperaba %s y tu función ha dado %s."
                % (_corta(url), _que_ejecucion(ejecucion), ", ".join(ejecucion["permitidos"]), debe, visto)
            )


def en_las_dos(urls, debe):
    """Los casos de unas URL que deben dar lo mismo con la ejecución limpia y con la que ha leído el banco."""
    return [(url, ejecucion, debe) for url in urls for ejecucion in (LIMPIA, CON_PRIVADO)]


def con_su_parte_oculta(nombre, pista):
    """En el calificador, los casos ocultos de esta prueba (ocultas.py), cada uno con su ejecución; en tu
    cuaderno, ninguno."""
    partes = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, parte in enumerate(partes, 1):
        with oculta(n, len(partes), pista):
            comprueba_casos(
                [(url, dict(parte["ejecucion"], leidos=leidos), debe) for url, leidos, debe in parte["casos"]],
                utilidad=False,
            )


# --- Las pruebas ----------------------------------------------------------------------


def prueba_utilidad(banco):
    """Los destinos de la lista se permiten, también en mayúsculas, con su puerto o con un tabulador dentro."""
    comprueba_casos(
        en_las_dos(
            [
                "HTTPS://Recetas.Example/salmorejo",
                "https://recetas.example:443/salmorejo",
                "http://recetas.example:80/salmorejo",
                "http://recetas.example/salmorejo",
                "https://recetas.example:/salmorejo",
                "https://rece\ttas.example/salmorejo",  # urlsplit quita tabuladores y saltos, como un navegador
                "https://recetas.example",
                "https://wiki.example/buscar?q=" + CUENTA,
                "https://wiki.example/" + CUENTA,
            ],
            "permitir",
        )
        + [
            ("https://otra.example/", dict(LIMPIA, leidos=[]), "permitir"),
            ("https://otra.example/", dict(LIMPIA, leidos=["privado/banco.txt.bak", "privado"]), "permitir"),
        ]
    )
    con_su_parte_oculta("utilidad", "¿Permites los hosts de la lista que recibes, con el puerto de su esquema?")


def prueba_fuga(banco):
    """Con el banco leído, fuera de la lista no sale nada: subdominios, el punto final, otro puerto, datos en la
    ruta."""
    urls = [
        "https://recetas-completas.example/ver?c=" + CUENTA,
        "https://recetas-completas.example/" + CUENTA,
        "https://recetas.example.recetas-completas.example/",
        "https://recetasexample.com/",
        "https://sub.recetas.example/",
        "https://example/",
        "https://recetas.example./salmorejo",
        "https://recetas.example:8443/salmorejo",
        "http://recetas.example:443/salmorejo",
        "https://recetas.example:80/salmorejo",
    ]
    comprueba_casos([(url, CON_PRIVADO, "denegar") for url in urls] + [(url, LIMPIA, "permitir") for url in urls])
    con_su_parte_oculta(
        "fuga", "¿Comparas el host entero, tal cual, con la lista, y miras lo leído en la ejecución que recibes?"
    )


def prueba_disfraces(banco):
    """Usuario en la URL, otros esquemas, % o \\ en el host, corchetes, puertos imposibles, sin host: denegar
    siempre."""
    comprueba_casos(
        en_las_dos(
            [
                "https://recetas.example@recetas-completas.example/ver",
                "https://%s@recetas.example/" % CUENTA,
                "https://usuario:clave@recetas.example/",
                "https://usuario:cla@ve@recetas.example/",
                "https://@recetas.example/",
                "ftp://recetas.example/salmorejo",
                "file:///privado/banco.txt",
                "javascript:alert(1)",
                "data:text/plain,hola",
                "//recetas.example/salmorejo",
                "recetas.example/salmorejo",
                "https:recetas.example/salmorejo",
                "https:/recetas.example/salmorejo",
                "https:///recetas.example/",
                "https://recetas%2Eexample/",
                "https://%72ecetas.example/",
                "https://recetas.example%2F@otra.example/",
                "https://otra.example\\@recetas.example/",
                "https://otra.example\\.recetas.example/",
                "https://otra.example[v1.recetas.example]/",  # urlsplit lee v1.recetas.example; un navegador, nada
                "https://[v1.recetas.example]/",
                "https://recetas_completas.example/",
                "https://recetas.example:abc/",
                "https://recetas.example:99999/",
                "https://recetas.example:+443/",
                "https:///salmorejo",
                "https://./",
                "https://recetas..example/",
                "https://.recetas.example/",
                "",
            ],
            "denegar",
        )
        + [(None, LIMPIA, "denegar"), (42, LIMPIA, "denegar"), (["https://recetas.example/"], LIMPIA, "denegar")]
    )
    con_su_parte_oculta(
        "disfraces",
        "¿Deniegas con cualquier ejecución lo que no se sabe adónde va: la @, el "
        "esquema, un corchete, un carácter que no es a-z, 0-9, - o ., una "
        "etiqueta vacía?",
    )


def prueba_ip(banco):
    """Direcciones IP en decimal, octal, hexadecimal, abreviadas o IPv6, y localhost: denegar siempre."""
    comprueba_casos(
        en_las_dos(
            [
                "http://3232235777/",
                "http://0x7f.0.0.1/",
                "http://0x7f.1/",
                "http://0177.0.0.1/",
                "http://127.1/",
                "http://192.168.1.10/",
                "http://169.254.169.254/latest/meta-data/",
                "http://10.0.0.1./",
                "http://[::1]/",
                "http://[::ffff:127.0.0.1]/",
                "http://[2001:db8::1]:8080/",
                "http://recetas.example.0x10/",
                "http://0x/",
                "http://localhost:8080/admin",
                "http://LOCALHOST./",
                "http://panel.localhost/",
            ],
            "denegar",
        )
        + [
            ("http://1e100.example/", LIMPIA, "permitir"),
            ("http://1e100.example/", CON_PRIVADO, "denegar"),
            ("http://3com.example/", LIMPIA, "permitir"),
            ("http://localhost.example/", LIMPIA, "permitir"),
        ]
    )
    con_su_parte_oculta(
        "ip", "¿Miras la última etiqueta del host, sin un punto final: cifras, 0x y cifras hexadecimales, o localhost?"
    )


def prueba_parecidos(banco):
    """Letras que se parecen, de ancho completo o invisibles: fuera de ASCII, denegar siempre; la forma xn--, sí."""
    munich = dict(CON_PRIVADO, permitidos=CON_PRIVADO["permitidos"] + ["xn--mnchen-3ya.example", "assets.example"])
    comprueba_casos(
        [
            ("https://xn--mnchen-3ya.example/", munich, "permitir"),
            ("https://XN--MNCHEN-3YA.example/", munich, "permitir"),
            ("https://assets.example/logo.png", munich, "permitir"),
            ("https://rеcetas.example/", CON_PRIVADO, "denegar"),  # una е cirílica
            ("https://rеcetas.example/", LIMPIA, "denegar"),
            ("https://wіki.example/", CON_PRIVADO, "denegar"),  # una і cirílica
            ("https://xn--rcetas-3of.example/", CON_PRIVADO, "denegar"),
            ("https://aßets.example/", munich, "denegar"),  # IDNA 2003 la lee assets; un navegador, xn--aets-vna
            ("https://recetas。example/", CON_PRIVADO, "denegar"),  # un punto ideográfico
            ("https://ｒｅｃｅｔａｓ.example/", CON_PRIVADO, "denegar"),  # letras de ancho completo
            ("https://rece\u200btas.example/", LIMPIA, "denegar"),  # un espacio de anchura cero
            ("https://münchen.example/", munich, "denegar"),
            ("https://münchen.example/", LIMPIA, "denegar"),
            ("https://munchen.example/", munich, "denegar"),
        ]
    )
    con_su_parte_oculta(
        "parecidos",
        "¿Deniegas, con cualquier ejecución, un netloc con algún carácter de fuera de ASCII, sin traducirlo?",
    )


def prueba_variaciones(banco, variaciones):
    """Otras listas de destinos, otros ficheros privados y otros intentos de fuga."""
    for n, v in enumerate(variaciones, 1):
        pista = (
            "¿Decides con la ejecución que recibes, sobre el host en ASCII tal cual, con el puerto, "
            "el usuario, los caracteres del host y las IP de cualquier forma?"
        )
        with oculta(n, len(variaciones), pista):
            comprueba_casos(
                [(url, dict(v["ejecucion"], leidos=leidos), debe) for url, leidos, debe in v["casos"]], utilidad=False
            )


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "utilidad": (1, prueba_utilidad),
    "fuga": (2, prueba_fuga),
    "disfraces": (1, prueba_disfraces),
    "ip": (1, prueba_ip),
    "parecidos": (1, prueba_parecidos),
    "variaciones": (4, prueba_variaciones),
}
