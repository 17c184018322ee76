# Las variaciones ocultas: otras listas de destinos, otros ficheros privados y otros intentos de fuga.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. Lo esperado se declara.
# Cada caso: (url, lo que ha leído la ejecución, decisión).
VARIACIONES = [
    {   # un agente de documentación: otra lista, otro fichero privado
        "ejecucion": {"permitidos": ["docs.example.org", "xn--espaa-rta.example"], "privados": ["claves/api.txt"]},
        "casos": [
            ("https://docs.example.org/guia", ["claves/api.txt"], "permitir"),
            ("https://españa.example/", ["claves/api.txt"], "permitir"),
            ("https://ESPAÑA.example./mapa", ["claves/api.txt"], "permitir"),
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
    {   # la lista de la lección, en otro orden y con otros disfraces
        "ejecucion": {"permitidos": ["wiki.example", "recetas.example"],
                      "privados": ["privado/banco.txt", "agenda.txt"]},
        "casos": [
            ("http://0300.0250.0.1/", [], "denegar"),
            ("https://wiki.example/?q=martes%20dentista", ["agenda.txt"], "permitir"),
            ("https://calendario.example/?q=martes%20dentista", ["agenda.txt"], "denegar"),
            ("https://calendario.example/", ["lista.txt"], "permitir"),
            ("HTTP://WIKI.EXAMPLE:80/", ["agenda.txt"], "permitir"),
            ("https://wiki.example:0443/", ["agenda.txt"], "permitir"),
            ("https://wiki%2eexample/", [], "denegar"),
            ("gopher://wiki.example/", [], "denegar"),
            ("https://wiki.example.:443/", ["privado/banco.txt"], "permitir"),
            ("https://wiki.example../", ["privado/banco.txt"], "denegar"),  # dos puntos: ya no es el de la lista
            ("https://[::ffff:7f00:1]/", [], "denegar"),
            ("https://wiki.0x1f/", [], "denegar"),
            ("https://ｗｉｋｉ。ｅｘａｍｐｌｅ/", ["agenda.txt"], "permitir"),
            ("https://wiki.example\uff0fx@otra.example/", [], "denegar"),
        ],
    },
    {   # un solo destino y una ejecución que va leyendo: antes y después de lo privado
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
        ],
    },
]
