"""Las pruebas del desafío «El permiso de una orden».

Se escriben una sola vez y corren en dos sitios:
- en tu cuaderno, en el mismo proceso que tu función: te dicen al momento qué orden
  no da lo que debe. Tu código podría engañarlas, así que no cuentan para la nota;
- en el calificador, fuera de tu proceso: allí tu función sólo recibe órdenes y listas
  de lectura (valores JSON) y devuelve su decisión; lo esperado se declara aquí.

En el calificador, cada prueba repite además sus comprobaciones con órdenes y listas de
lectura que no ves (PARTES_OCULTAS, en ocultas.py).

Se cargan en el mismo espacio de nombres que el código de partida (LECTURA, SINTAXIS,
EXPANSIONES, LANZADORES...). Sólo biblioteca estándar.
"""

import json

LECTURA_DE_LA_LECCION = json.loads(json.dumps(LECTURA))  # una copia: nadie la cambia a mitad de prueba
DECISIONES = ("permitir", "preguntar", "denegar")
# Cada prueba empieza por la utilidad: lecturas legítimas que se permiten y un borrado que se pregunta.
# Una función que lo deniega, lo pregunta o lo permite todo no pasa ninguna.
UTILIDAD = [
    ("ls", "permitir"),
    ("cat notas.txt", "permitir"),
    ("grep -i cena notas.txt agenda.txt", "permitir"),
    ("rm notas.txt", "preguntar"),
]


def _corta(valor):
    texto = json.dumps(valor, ensure_ascii=False) if isinstance(valor, (str, list, dict)) else repr(valor)
    return texto if len(texto) < 200 else texto[:200] + "…"


def decide(orden, lectura):
    """Lo que decide tu función; un Fallo si lanza o si no devuelve una de las tres decisiones."""
    try:
        visto = permiso_de_comando(orden, lectura)
    except Exception as e:
        raise Fallo(
            "con la orden %s, tu función ha lanzado %s: %s. No lanza: devuelve %s."
            % (_corta(orden), type(e).__name__, e, ", ".join(DECISIONES))
        ) from None
    if not isinstance(visto, str) or visto not in DECISIONES:
        raise Fallo(
            "con la orden %s, tu función ha devuelto %s, y debe devolver %s."
            % (_corta(orden), _corta(visto), ", ".join(DECISIONES))
        )
    return visto


def comprueba_casos(casos, lectura=None):
    """Los casos con la lista de lectura dada; con la de la lección, precedidos por la utilidad.

    Una variación con otra lista trae su propia utilidad al principio de sus casos.
    """
    if lectura is None:
        lectura, casos = LECTURA_DE_LA_LECCION, UTILIDAD + list(casos)
    for orden, debe in casos:
        visto = decide(orden, json.loads(json.dumps(lectura)))
        if visto != debe:
            raise Fallo("con la orden %s, se esperaba %s y tu función ha dado %s." % (_corta(orden), debe, visto))


def con_su_parte_oculta(nombre, pista):
    """En el calificador, los casos ocultos de esta prueba (ocultas.py), cada uno con su lista; en tu
    cuaderno, ninguno."""
    partes = globals().get("PARTES_OCULTAS", {}).get(nombre, [])
    for n, parte in enumerate(partes, 1):
        with oculta(n, len(partes), pista):
            comprueba_casos(parte["casos"], parte.get("lectura"))


# --- Las pruebas ----------------------------------------------------------------------


def prueba_lectura(banco):
    """Las lecturas de la lista se permiten, con sus opciones y sus comillas; lo demás se pregunta."""
    comprueba_casos(
        [
            ("ls -l proyecto", "permitir"),
            ("cat -n proyecto/contador.py", "permitir"),
            ("head -n 3 agenda.txt", "permitir"),
            ("grep -r -i visitas proyecto", "permitir"),
            ('cat "mis notas.txt"', "permitir"),
            ("c''at notas.txt", "permitir"),
            ("  wc   -l   lista.txt  ", "permitir"),
            ("mv lista.txt compra.txt", "preguntar"),
            ("make", "preguntar"),
            ("CAT notas.txt", "preguntar"),
        ]
    )
    con_su_parte_oculta(
        "lectura",
        "¿Permites las órdenes de la lista que recibes, con sus comillas quitadas como las quita shlex.split?",
    )


def prueba_sintaxis(banco):
    """; && || | & > < $( ) $VAR, comillas invertidas, saltos de línea y ! (también entre comillas), y llaves,
    comodines, ~ y # sin comillas: denegar. Entre comillas, lo que bash no expande se permite."""
    comprueba_casos(
        [
            ("cat notas.txt; rm notas.txt", "denegar"),
            ("ls && rm -r recetas", "denegar"),
            ("ls || rm lista.txt", "denegar"),
            ("cat proyecto/README.md | sh", "denegar"),
            ("ls & rm notas.txt", "denegar"),
            ("echo hola > notas.txt", "denegar"),
            ("cat < notas.txt", "denegar"),
            ("cat $(rm lista.txt)", "denegar"),
            ("cat `rm lista.txt`", "denegar"),
            ("cat $HOME/notas.txt", "denegar"),
            ("ls\nrm notas.txt", "denegar"),
            ('cat "$(rm lista.txt)"', "denegar"),
            ("grep 'a|b' notas.txt", "denegar"),
            ("ls (proyecto)", "denegar"),
            ("find . -name '*.txt' {-delete,}", "denegar"),
            ("find . {-exec,rm,{},+}", "denegar"),
            ("cat *.txt", "denegar"),
            ("cat ~/.ssh/id_rsa", "denegar"),
            ("ls recetas/[a-z]*", "denegar"),
            ("cat notas.txt # -n", "denegar"),
            ("cat !!", "denegar"),
            ('grep -i "hola!" notas.txt', "denegar"),
            ("cat 'a{b,c}.txt'", "permitir"),
            ('grep -r "~" proyecto', "permitir"),
            ("cat \\*", "permitir"),
        ]
    )
    con_su_parte_oculta(
        "sintaxis", "¿Miras SINTAXIS en todo el texto, y EXPANSIONES en lo que queda fuera de comillas?"
    )


def prueba_opciones(banco):
    """Una opción que no está en la lista de su orden la saca de la lectura: find -delete se pregunta."""
    comprueba_casos(
        [
            ('find . -name "*.txt" -delete', "preguntar"),
            ('find . -name "*.txt"', "permitir"),
            ("find . -type f -exec rm '{}' +", "preguntar"),
            ("ls -la", "preguntar"),
            ("ls -l -a", "permitir"),
            ("grep -ri visitas proyecto", "preguntar"),
            ("cat --help", "preguntar"),
            ("head -n 5 -", "permitir"),
            ("cat notas.txt -v", "preguntar"),
        ]
    )
    con_su_parte_oculta("opciones", "¿Comparas cada opción entera con la lista de su orden?")


def prueba_lanzadores(banco):
    """sh -c, env, xargs, sudo... (también con su ruta) y las asignaciones delante: denegar."""
    comprueba_casos(
        [
            ('sh -c "rm notas.txt"', "denegar"),
            ("bash -c 'ls'", "denegar"),
            ("/bin/sh -c ls", "denegar"),
            ("env rm notas.txt", "denegar"),
            ("/usr/bin/env cat notas.txt", "denegar"),
            ("xargs rm", "denegar"),
            ("sudo cat notas.txt", "denegar"),
            ("timeout 5 rm notas.txt", "denegar"),
            ("python3 proyecto/contador.py", "denegar"),
            ("LANG=C ls", "denegar"),
            ("/bin/cat notas.txt", "preguntar"),
            ("'ls -l'", "preguntar"),
        ]
    )
    con_su_parte_oculta(
        "lanzadores", "¿Quitas la ruta de argv[0] para compararlo con LANZADORES, y miras si lleva un =?"
    )


def prueba_argv(banco):
    """Con argv (una lista) no hay shell: ; o $( ) son caracteres; lo que no es una orden, o una línea de más
    de LIMITE_DE_ORDEN caracteres, se deniega."""
    comprueba_casos(
        [
            (["grep", "a;b", "notas.txt"], "permitir"),
            (["cat", "$(rm lista.txt)"], "permitir"),
            (["rm", "notas.txt"], "preguntar"),
            (["sh", "-c", "ls"], "denegar"),
            (["find", ".", "-delete"], "preguntar"),
            ([], "denegar"),
            (["cat", 3], "denegar"),
            ("", "denegar"),
            ("   ", "denegar"),
            ('cat "notas.txt', "denegar"),
            (None, "denegar"),
            ({"orden": "ls"}, "denegar"),
            ("cat " + "a" * (LIMITE_DE_ORDEN - 4), "permitir"),  # justo LIMITE_DE_ORDEN caracteres
            ("cat " + "a" * LIMITE_DE_ORDEN, "denegar"),  # cuatro más: no se trocea
            (["cat", "a" * 2 * LIMITE_DE_ORDEN], "permitir"),  # una lista no se trocea: no tiene tope
        ]
    )
    con_su_parte_oculta(
        "argv",
        "¿Tomas una lista como el argv, sin trocearla ni mirar sus caracteres, si todos sus elementos son textos? "
        "¿Deniegas una línea de más de LIMITE_DE_ORDEN caracteres antes de trocearla?",
    )


def prueba_variaciones(banco, variaciones):
    """Otras listas de lectura, otras órdenes y otros intentos de saltarse la decisión."""
    for n, v in enumerate(variaciones, 1):
        pista = (
            "¿Decides con la lista que recibes (no con LECTURA), sobre argv, con todas las opciones y "
            "los lanzadores también con su ruta?"
        )
        with oculta(n, len(variaciones), pista):
            comprueba_casos(v["casos"], v.get("lectura"))


# nombre: (puntos, prueba). El cuaderno, el calificador y nbgrader leen esta tabla.
PRUEBAS = {
    "lectura": (1, prueba_lectura),
    "sintaxis": (2, prueba_sintaxis),
    "opciones": (1, prueba_opciones),
    "lanzadores": (1, prueba_lanzadores),
    "argv": (1, prueba_argv),
    "variaciones": (4, prueba_variaciones),
}
