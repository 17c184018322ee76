"""Lo que permite la solución de «La decisión de cada petición» va al host que visitaría un navegador.

El navegador lee la URL con el analizador de WHATWG (con UTS #46 para los nombres); Node tiene el
mismo, `new URL()`. Para cada URL de un corpus de disfraces (ß, sigma final, caracteres de anchura
cero, puntos de ancho completo, puntos finales, usuario y contraseña, barras invertidas, hosts con
%, direcciones IP escritas de todas las formas, tabuladores y saltos dentro de la URL…), la solución
decide con una ejecución que ha leído un fichero privado. Cada URL que permite tiene que ir, según
Node, a un host de la lista, por http o https y al puerto de siempre.
"""

import json
import random
import shutil
import subprocess

import pytest

from cursos.calificador.banco import espacio_de_pruebas
from cursos.desafio import Desafio

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(not NODE, reason="hace falta node")

PETICION = Desafio("decide-peticion")
# Los hosts de la lista, en ASCII (los de fuera de ASCII, en su forma xn--, la que da un navegador).
PERMITIDOS = [
    "recetas.example",
    "wiki.example",
    "assets.example",
    "classroom.example",
    "xn--mnchen-3ya.example",
    "xn--espaa-rta.example",
    "xn--wxaikc6b.example",
    "kiwi.example",
    "docs.example.org",
    "v2.api.example",
    "vad.example",
]  # dos con forma de IPvFuture: v, cifras hexadecimales y un punto
CON_PRIVADO = {"permitidos": PERMITIDOS, "privados": ["privado/banco.txt"], "leidos": ["privado/banco.txt"]}

# Cómo se escribe un host de la lista para que parezca otro, o al revés.
INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u00ad", "\ufeff", "\u2060", "\u034f", "\u180e"]
PUNTOS = [".", "\uff0e", "\u3002", "\uff61", "\u2024", "%2e", "%2E", "\\.", ".."]
PARECIDOS = [
    "aßets.example",
    "claßroom.example",
    "ASSETS.example",
    "aſſets.example",
    "münchen.example",
    "MÜNCHEN.example",
    "mu\u0308nchen.example",
    "españa.example",
    "espan\u0303a.example",
    "σοφια.example",
    "σοφιας.example",
    "ςοφια.example",
    "\u212aiwi.example",
    "kiwi.example",
    "ｋｉｗｉ.example",
    "ｒｅｃｅｔａｓ.example",
    "rеcetas.example",
    "wіki.example",
    "xn--aets-vna.example",
    "xn--classroom-.example",
    "xn--.example",
    "XN--MNCHEN-3YA.EXAMPLE",
    "recetas.example.",
    "recetas.example..",
    ".recetas.example",
    "recetas..example",
    "wiki.example.:443",
    "recetas.example:443",
    "recetas.example:80",
    "recetas.example:0443",
    "recetas.example:",
    "recetas.example:+443",
    "recetas.example:\u0664\u0664\u0663",
    "%72ecetas.example",
    "recetas%2eexample",
    "recetas.example%00.evil.example",
    "recetas.example%2F@evil.example",
    "evil.example%40recetas.example",
    "recetas_example",
    "recetas.example\u3000",
    "recetas.example ",
    " recetas.example",
    "recetas.\texample",
    "rece\ntas.example",
    "rece\rtas.example",
]
IPS = [
    "2130706433",
    "0x7f.1",
    "0X7F.1",
    "0x7f.0.0.1",
    "0177.0.0.1",
    "0177.1",
    "00000177.1",
    "127.1",
    "127.0.0.1",
    "127.0.0.1.",
    "0x",
    "0",
    "0x7f000001",
    "017700000001",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "[fe80::1%25eth0]",
    "169.254.169.254",
    "192.168.1.1",
    "10.1",
    "1.2.3.4.5",
    "localhost",
    "LOCALHOST",
    "localhost.",
    "api.localhost",
    "recetas.example.0x10",
    "recetas.example.1",
    "0x7f.recetas.example",
    "1e100.example",
    "３２３２２３５７７７",
    "１２７.０.０.１",
    "127。0。0。1",
]
PLANTILLAS = [
    "https://{h}/",
    "http://{h}/x",
    "HTTPS://{h}/",
    "https://user@{h}/",
    "https://u:p@ss@{h}/",
    "https://{h}@evil.example/",
    "https://evil.example\\@{h}/",
    "https://evil.example\\.{h}/",
    "https://evil.example#@{h}/",
    "https://evil.example?@{h}/",
    "https://{h}\\@evil.example/",
    "https://{h}\\evil.example/",
    "https:{h}/",
    "https:/{h}/",
    "https:///{h}/",
    "https:\\\\{h}/",
    "//{h}/",
    "{h}/",
    "https://\t{h}/",
    "https://{h}\n/",
    " https://{h}/",
    "https://{h}/ ",
    "\x00https://{h}/",
    "https://{h}\x00/",
    "wss://{h}/",
    "ftp://{h}/",
    "https://{h}:8443/",
    "http://{h}:443/",
    "https://evil.example/?{h}",
    "https://{h}.evil.example/",
    "https://evil.example[{h}]/",
    "https://[{h}]/",
    "https://[{h}]evil.example/",
    "https://[{h}]:443/",
    "https://evil.example[{h}]:443/",
]


def hosts_disfrazados() -> list[str]:
    """Los hosts del corpus: los parecidos, las IP, y cada host de la lista con invisibles y otros puntos."""
    hosts = PARECIDOS + IPS + PERMITIDOS
    for host in PERMITIDOS:
        primera, resto = host.split(".", 1)
        hosts += [primera[:2] + c + primera[2:] + "." + resto for c in INVISIBLES]
        hosts += [primera + p + resto for p in PUNTOS]
    return hosts


def corpus() -> list[str]:
    """Cada plantilla con cada host, y unas mezclas al azar (siempre las mismas)."""
    hosts = hosts_disfrazados()
    urls = [p.format(h=h) for p in PLANTILLAS for h in hosts]
    azar = random.Random(11)
    trozos = INVISIBLES + PUNTOS + ["@", ":", "\\", "/", "#", "?", "%", "[", "]", "\t", "\n", "ß", "ς", "0x", "1"]
    for _ in range(1500):
        host = azar.choice(PERMITIDOS)
        i = azar.randint(0, len(host))
        urls.append(azar.choice(PLANTILLAS).format(h=host[:i] + azar.choice(trozos) + host[i:]))
    return urls


def lo_que_lee_node(urls: list[str]) -> list[dict]:
    """{protocol, hostname, port} de cada URL según new URL() de Node, o {error} si no la acepta."""
    programa = (
        "const urls = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "console.log(JSON.stringify(urls.map(u => { try { const x = new URL(u);\n"
        "  return {protocol: x.protocol, hostname: x.hostname, port: x.port}; }\n"
        "  catch (e) { return {error: String(e.code || e)}; } })));\n"
    )
    hecho = subprocess.run(
        [NODE, "-e", programa], input=json.dumps(urls), capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(hecho.stdout)


@pytest.fixture(scope="module")
def decide():
    g = espacio_de_pruebas(PETICION)
    exec(PETICION.lee("solucion.py"), g)
    return g["decide_peticion"]


def test_lo_que_se_permite_va_a_un_host_de_la_lista_segun_node(decide):
    urls = corpus()
    permitidas = [u for u in urls if decide(u, json.loads(json.dumps(CON_PRIVADO))) == "permitir"]
    assert len(permitidas) >= 150, "el corpus tiene que dar URL permitidas que comparar: %d" % len(permitidas)
    malas = []
    for url, leida in zip(permitidas, lo_que_lee_node(permitidas), strict=True):
        if (
            leida.get("hostname") not in PERMITIDOS
            or leida["protocol"] not in ("http:", "https:")
            or leida["port"] != ""
        ):
            malas.append((url, leida))
    assert not malas, "\n".join("%r: se permitió y Node va a %r" % m for m in malas[:10])


def test_la_comparacion_ve_lo_que_node_traduce():
    """La prueba de arriba puede fallar: el códec idna de Python (IDNA 2003) y Node no van al mismo sitio."""
    hosts = ["aßets.example", "claßroom.example", "ςοφια.example"]
    leidos = lo_que_lee_node(["https://%s/" % h for h in hosts])
    for host, leida in zip(hosts, leidos, strict=True):
        assert leida["hostname"] != host.encode("idna").decode("ascii"), host
    assert leidos[0]["hostname"] == "xn--aets-vna.example"
    leidos = lo_que_lee_node(
        ["https://rece\ttas.example/", "http://0x7f.1/", "https://evil.example\\@recetas.example/"]
    )
    assert [x["hostname"] for x in leidos] == ["recetas.example", "127.0.0.1", "evil.example"]


def test_los_disfraces_de_la_revision_se_deniegan(decide):
    """La regresión de la revisión: ß pasaba como ss, y una ejecución limpia podía ir a localhost."""
    assert decide("https://aßets.example/x", CON_PRIVADO) == "denegar"
    assert decide("https://claßroom.example/?c=SECRETO", CON_PRIVADO) == "denegar"
    limpia = dict(CON_PRIVADO, leidos=[])
    for url in ["http://localhost:8080/admin", "http://api.localhost/", "https://aßets.example/"]:
        assert decide(url, limpia) == "denegar", url
    assert decide("https://assets.example/x", CON_PRIVADO) == "permitir"


def test_lo_de_alrededor_de_los_corchetes_no_se_pierde(decide):
    """La regresión de esta revisión: hostname se queda con lo de entre corchetes ([v2.api.example] le da
    v2.api.example, y CPython 3.11 tira lo de alrededor); Node no acepta esas URL. Con el banco leído, se
    permitían."""
    urls = [
        "https://otra.example[v2.api.example]/?c=SECRETO",
        "https://[v2.api.example]/",
        "https://[v2.api.example]otra.example/",
        "https://[vad.example]:443/",
    ]
    assert all("error" in leida for leida in lo_que_lee_node(urls))
    for url in urls:
        assert decide(url, CON_PRIVADO) == "denegar", url
        assert decide(url, dict(CON_PRIVADO, leidos=[])) == "denegar", url
    assert decide("https://v2.api.example/", CON_PRIVADO) == "permitir"
