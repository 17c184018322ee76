# Las variaciones ocultas: otras listas de destinos, otros ficheros privados y otros intentos de fuga.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. Lo esperado se declara.
# Cada caso: (url, lo que ha leído la ejecución, decisión).
# PARTES_OCULTAS son los casos ocultos de cada prueba visible: quien copie las respuestas que ve, o
# conteste por el número de la llamada, no pasa ninguna prueba.
DOCS = {"permitidos": ["docs.example.org", "xn--espaa-rta.example"], "privados": ["claves/api.txt"]}
TIEMPO = {"permitidos": ["api.tiempo.example", "mapas.example"], "privados": ["salud/informe.txt", "agenda.txt"]}
PARTES_OCULTAS = {
    "utilidad": [
        {
            "ejecucion": DOCS,
            "casos": [
                ("https://docs.example.org/guia", ["claves/api.txt"], "permitir"),
                ("HTTP://Docs.Example.Org:80/", ["claves/api.txt"], "permitir"),
                ("https://docs.example.org:0443/guia?v=2", ["claves/api.txt"], "permitir"),
                ("https://xn--espaa-rta.example/", ["claves/api.txt"], "permitir"),
                ("https://tienda.example/", [], "permitir"),
                ("https://tienda.example/", ["claves/api.txt"], "denegar"),
                ("https://docs.example.org:8443/", ["claves/api.txt"], "denegar"),
            ],
        }
    ],
    "fuga": [
        {
            "ejecucion": TIEMPO,
            "casos": [
                ("https://mapas.example/madrid", ["agenda.txt"], "permitir"),
                ("https://noticias.example/hoy", ["lista.txt"], "permitir"),
                ("https://noticias.example/hoy", ["lista.txt", "agenda.txt"], "denegar"),
                ("https://mapas.example.noticias.example/", ["salud/informe.txt"], "denegar"),
                ("https://api.mapas.example/", ["agenda.txt"], "denegar"),
                ("https://mapas.example./", ["agenda.txt"], "denegar"),
                ("https://mapas.example:444/", ["agenda.txt"], "denegar"),
                ("https://mapas.example:444/", [], "permitir"),
            ],
        }
    ],
    "disfraces": [
        {
            "ejecucion": TIEMPO,
            "casos": [
                ("https://mapas.example/", ["agenda.txt"], "permitir"),
                ("https://mapas.example@noticias.example/", [], "denegar"),
                ("https://noticias.example\\@mapas.example/", [], "denegar"),
                ("https://yo:x@mapas.example/", [], "denegar"),
                ("ws://mapas.example/", [], "denegar"),
                ("https:mapas.example", [], "denegar"),
                ("https://mapas%2eexample/", [], "denegar"),
                ("https://mapas.example\\\\noticias.example/", [], "denegar"),
                ("https://mapas..example/", [], "denegar"),
                ("https://mapas.example:65536/", [], "denegar"),
                ("https://mapas.example: 443/", [], "denegar"),
                ("https://mapas example/", [], "denegar"),
                ("https://noticias.example[v2.mapas.example]/", [], "denegar"),  # hostname: v2.mapas.example
                ("https://[vad.mapas.example]:443/", [], "denegar"),
            ],
        }
    ],
    "ip": [
        {
            "ejecucion": TIEMPO,
            "casos": [
                ("https://api.tiempo.example/", ["agenda.txt"], "permitir"),
                ("https://2130706433/", [], "denegar"),
                ("http://0X7F.0.0.1/", [], "denegar"),
                ("http://00000177.1/", [], "denegar"),
                ("http://10.1/", [], "denegar"),
                ("http://[fe80::1]/", [], "denegar"),
                ("http://mapas.example.1./", [], "denegar"),
                ("http://intranet.localhost./", [], "denegar"),
                ("http://localhost.mapas.example/", [], "permitir"),
                ("http://0xg.example/", [], "permitir"),
            ],
        }
    ],
    "parecidos": [
        {
            "ejecucion": DOCS,
            "casos": [
                ("https://xn--espaa-rta.example/mapa", ["claves/api.txt"], "permitir"),
                ("https://docs.example.org/", ["claves/api.txt"], "permitir"),
                ("https://españa.example/", ["claves/api.txt"], "denegar"),
                ("https://españa.example/", [], "denegar"),
                ("https://dосs.example.org/", [], "denegar"),  # dos o cirílicas
                ("https://docs．example.org/", ["claves/api.txt"], "denegar"),  # un punto de ancho completo
                ("https://docs\u00ad.example.org/", [], "denegar"),  # un guion invisible
                ("https://\u212aocs.example.org/", [], "denegar"),  # el signo de kelvin, que lower() deja en k
            ],
        }
    ],
}

VARIACIONES = [
    {  # un agente de documentación: otra lista, otro fichero privado
        "ejecucion": DOCS,
        "casos": [
            ("https://docs.example.org/guia", ["claves/api.txt"], "permitir"),
            ("https://XN--ESPAA-RTA.example/mapa", ["claves/api.txt"], "permitir"),
            ("https://españa.example/", ["claves/api.txt"], "denegar"),
            ("https://ESPAÑA.example./mapa", [], "denegar"),
            ("https://recetas.example/salmorejo", ["claves/api.txt"], "denegar"),
            ("https://recetas.example/salmorejo", ["privado/banco.txt"], "permitir"),
            ("https://docs.example.org.evil.example/?k=sk-123", ["claves/api.txt"], "denegar"),
            ("https://docs.example.org@evil.example/", [], "denegar"),
            ("https://sk-123@docs.example.org/", [], "denegar"),
            ("https://dосs.example.org/", ["claves/api.txt"], "denegar"),
            ("https://docs.example.org:8080/", ["claves/api.txt"], "denegar"),
            ("http://2130706433/", [], "denegar"),
            ("https://espana.example/", ["notas.txt", "claves/api.txt"], "denegar"),
        ],
    },
    {  # la lista de la lección, en otro orden y con otros disfraces
        "ejecucion": {
            "permitidos": ["wiki.example", "recetas.example"],
            "privados": ["privado/banco.txt", "agenda.txt"],
        },
        "casos": [
            ("http://0300.0250.0.1/", [], "denegar"),
            ("https://wiki.example/?q=martes%20dentista", ["agenda.txt"], "permitir"),
            ("https://calendario.example/?q=martes%20dentista", ["agenda.txt"], "denegar"),
            ("https://calendario.example/", ["lista.txt"], "permitir"),
            ("HTTP://WIKI.EXAMPLE:80/", ["agenda.txt"], "permitir"),
            ("https://wiki.example:0443/", ["agenda.txt"], "permitir"),
            ("https://wiki%2eexample/", [], "denegar"),
            ("gopher://wiki.example/", [], "denegar"),
            # Con el punto final, no es el host de la lista.
            ("https://wiki.example.:443/", ["privado/banco.txt"], "denegar"),
            ("https://wiki.example.:443/", [], "permitir"),
            ("https://wiki.example../", [], "denegar"),  # sin un punto, queda una etiqueta vacía
            ("https://[::ffff:7f00:1]/", [], "denegar"),
            ("https://wiki.0x1f/", [], "denegar"),
            ("https://ｗｉｋｉ。ｅｘａｍｐｌｅ/", ["agenda.txt"], "denegar"),
            ("https://wiki.example\uff0fx@otra.example/", [], "denegar"),
            ("https://wi\nki.example/", ["agenda.txt"], "permitir"),  # urlsplit quita el salto, como un navegador
        ],
    },
    {  # un solo destino y una ejecución que va leyendo: antes y después de lo privado
        "ejecucion": {"permitidos": ["api.tiempo.example"], "privados": ["salud/informe.txt"]},
        "casos": [
            ("https://noticias.example/hoy", [], "permitir"),
            ("https://noticias.example/hoy", ["lista.txt"], "permitir"),
            ("https://api.tiempo.example/madrid", ["lista.txt", "salud/informe.txt"], "permitir"),
            ("https://noticias.example/hoy", ["lista.txt", "salud/informe.txt"], "denegar"),
            ("https://tiempo.example/", ["salud/informe.txt"], "denegar"),
            ("https://api.tiempo.example:444/", ["salud/informe.txt"], "denegar"),
            ("https://api.tiempo.example:444/", [], "permitir"),
            ("mailto:yo@api.tiempo.example", [], "denegar"),
            ("http://127.0.0.1:8000/", [], "denegar"),
            ("http://localhost/", [], "denegar"),
        ],
    },
    {  # un destino con nombre de IPvFuture (v y cifras hexadecimales): urlsplit lo saca de entre corchetes
        "ejecucion": {"permitidos": ["v2.api.example", "cdn.example"], "privados": ["claves/api.txt"]},
        "casos": [
            ("https://v2.api.example/usuarios", ["claves/api.txt"], "permitir"),
            ("https://cdn.example/logo.png?k=1", ["claves/api.txt"], "permitir"),
            ("https://otra.example/", [], "permitir"),
            ("https://otra.example[v2.api.example]/?k=sk-123", ["claves/api.txt"], "denegar"),
            ("https://[v2.api.example]/?k=sk-123", ["claves/api.txt"], "denegar"),
            ("https://[v2.api.example]otra.example/", ["claves/api.txt"], "denegar"),
            ("https://otra.example/?k=sk-123", ["claves/api.txt"], "denegar"),
        ],
    },
]
