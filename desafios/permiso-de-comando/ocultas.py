# Las variaciones ocultas: otras listas de lectura, otras órdenes y otros intentos de saltarse la
# decisión. nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. Lo esperado
# se declara. Con otra lista, los casos empiezan por su utilidad: lecturas que se permiten.
# PARTES_OCULTAS son los casos ocultos de cada prueba visible: quien copie las respuestas que ve,
# o conteste por el número de la llamada, no pasa ninguna prueba.
OTRA_LECTURA = {"tail": ["-n"], "sort": ["-r", "-u"], "du": ["-s", "-h"], "ls": ["-1"]}
PARTES_OCULTAS = {
    "lectura": [
        {
            "lectura": OTRA_LECTURA,
            "casos": [
                ("tail -n 5 agenda.txt", "permitir"),
                ('s""ort -r lista.txt', "permitir"),
                ("du -s -h proyecto", "permitir"),
                ("ls -1 'mis recetas'", "permitir"),
                ("cat notas.txt", "preguntar"),
                ("uniq lista.txt", "preguntar"),
                ("Sort lista.txt", "preguntar"),
                ("cp agenda.txt copia.txt", "preguntar"),
            ],
        }
    ],
    "sintaxis": [
        {
            "casos": [
                ("ls proyecto", "permitir"),
                ("cat 'notas.txt'", "permitir"),
                ('cat "a{b,c}" \\~ \\#', "permitir"),
                ("grep -n '*' notas.txt", "permitir"),
                ("cat 'notas;txt'", "denegar"),
                ("grep -n cena notas.txt && ls", "denegar"),
                ("head -n 1 notas.txt|sh", "denegar"),
                ("cat ${HOME}", "denegar"),
                ("ls ~", "denegar"),
                ("cat {notas,lista}.txt", "denegar"),
                ("cat notas{,.bak}.txt", "denegar"),
                ("ls ?otas.txt", "denegar"),
                ("ls [ab]", "denegar"),
                ("wc -l *", "denegar"),
                ("cat x#y", "denegar"),
                ("cat '!'", "denegar"),
                ("cat notas.txt\0", "denegar"),  # el carácter nulo
            ]
        },
        {
            "lectura": {"sort": [], "ls": []},
            "casos": [
                ("sort lista.txt", "permitir"),
                ("ls 'a*'", "permitir"),
                ("sort ~root/x", "denegar"),
                ("ls a]", "denegar"),
                ("ls a}", "denegar"),
                ("sort \\x00", "permitir"),  # una barra delante de x: bash y shlex dan «x00»
            ],
        },
    ],
    "opciones": [
        {
            "casos": [
                ("head -n 2 notas.txt", "permitir"),
                ("find proyecto -type f", "permitir"),
                ("ls -R -l proyecto", "permitir"),
                ("find . -newer notas.txt", "preguntar"),
                ("grep -in cena notas.txt", "preguntar"),
                ("wc -c notas.txt", "preguntar"),
                ("cat notas.txt --", "preguntar"),
                ("find . -name notas.txt -ok rm '{}' ';'", "denegar"),
            ]
        },
        {
            "lectura": {"sort": ["-r"], "ls": []},
            "casos": [
                ("sort -r lista.txt", "permitir"),
                ("ls proyecto", "permitir"),
                ("sort -o lista.txt lista.txt", "preguntar"),
                ("ls -l", "preguntar"),
                ("sort -r -", "permitir"),
            ],
        },
    ],
    "lanzadores": [
        {
            "casos": [
                ("ls", "permitir"),
                ("cat agenda.txt", "permitir"),
                ("/usr/bin/sudo ls", "denegar"),
                ("perl -e 1", "denegar"),
                ("./bash", "denegar"),
                ("A=1 cat notas.txt", "denegar"),
                ("source proyecto/env.sh", "denegar"),
                (". proyecto/env.sh", "denegar"),
                ("/bin/ls", "preguntar"),
                ("make test", "preguntar"),
            ]
        },
        {
            "lectura": {"env": [], "sort": []},
            "casos": [
                ("sort lista.txt", "permitir"),
                ("env", "denegar"),
                ("sort=1 sort lista.txt", "denegar"),
            ],
        },
    ],
    "argv": [
        {
            "casos": [
                (["cat", "notas.txt"], "permitir"),
                (["ls", "{a,b}", "*"], "permitir"),
                (["find", ".", "-name", "*.txt"], "permitir"),
                (["cat", "~/x", "#", "a b"], "permitir"),
                (["grep", "-r", "-x", "a"], "preguntar"),
                (["mv", "a", "b"], "preguntar"),
                (["sudo", "ls"], "denegar"),
                (["/usr/bin/env", "ls"], "denegar"),
                ([["ls"]], "denegar"),
                (["ls", 1.5], "denegar"),
                (7, "denegar"),
                (True, "denegar"),
                # LIMITE_DE_ORDEN es 8192: una palabra enorme entre comillas, y muchas palabras cortas.
                ("grep -r '%s' proyecto" % ("x" * 20000), "denegar"),
                ("ls" + " proyecto" * 1000, "denegar"),
                ("ls" + " proyecto" * 900, "permitir"),
            ]
        }
    ],
}
VARIACIONES = [
    {  # una lista con otras órdenes: ls sin opciones, tail y sort
        "lectura": {"tail": ["-n"], "sort": ["-r", "-n"], "ls": []},
        "casos": [
            ("tail -n 2 agenda.txt", "permitir"),
            ("sort -r lista.txt", "permitir"),
            ("ls", "permitir"),
            ("t''ail -n 1 notas.txt", "permitir"),
            ("ls\trecetas", "permitir"),
            ("rm -rf .", "preguntar"),
            ("ls -l", "preguntar"),
            ("cat notas.txt", "preguntar"),
            ("sort -o lista.txt lista.txt", "preguntar"),
            ("sort -rn lista.txt", "preguntar"),
            ("tail -n 2 agenda.txt; rm agenda.txt", "denegar"),
            ("nohup rm notas.txt", "denegar"),
            ("/usr/bin/xargs -0 rm", "denegar"),
            ("ls\r", "denegar"),
            (["tail", "-n", "1", "$(rm notas.txt)"], "permitir"),
            # Entre comillas dobles bash sigue expandiendo $( ), ` ` y ${ }: denegar (issue 37, N1).
            ('tail -n 1 "$(rm agenda.txt)"', "denegar"),
            ('sort "`rm lista.txt`"', "denegar"),
            ('ls "${HOME}"', "denegar"),
        ],
    },
    {  # la lista de la lección, con otros disfraces
        "casos": [
            ("exec rm notas.txt", "denegar"),
            ("grep -n -i -r cena .", "permitir"),
            ("eval ls", "denegar"),
            ('find . -name "*.py" -type f', "permitir"),
            ("nice -n 5 cat notas.txt", "denegar"),
            ("command rm notas.txt", "denegar"),
            ("./sh -c ls", "denegar"),
            ("find . -name notas.txt -fprint copia.txt", "preguntar"),
            ("PATH=. ls", "denegar"),
            ("grep -nir cena", "preguntar"),
            ('c"a"t notas.txt', "permitir"),
            ("ca\\t notas.txt", "permitir"),
            ("busybox rm notas.txt", "denegar"),
            ("echo ${IFS}", "denegar"),
            ("cat notas.txt #; rm notas.txt", "denegar"),
            ("find . -name x {-delete,}", "denegar"),
            ("cat ~/.bashrc", "denegar"),
            ("grep -r clave ~", "denegar"),
            ("cat 'proyecto/*.py'", "permitir"),
            (["/bin/bash", "-c", "ls"], "denegar"),
            (["ls", "-l", "; rm -rf ."], "permitir"),
            (["X=1", "ls"], "denegar"),
            (["ls", None], "denegar"),
            (["env"], "denegar"),
            ("cat 'notas.txt", "denegar"),
            ('grep -n "$(cat notas.txt)" lista.txt', "denegar"),
            ('cat "`curl -s fuera.invalid`"', "denegar"),
            ('find . -name "${PWD}"', "denegar"),
        ],
    },
    {  # una lista corta: cat sin opciones, wc y find sólo con -name
        "lectura": {"cat": [], "wc": ["-l", "-c"], "find": ["-name"]},
        "casos": [
            ("cat notas.txt", "permitir"),
            ("wc -c lista.txt", "permitir"),
            ("find proyecto -name '*.md'", "permitir"),
            ("cat -n notas.txt", "preguntar"),
            ("find proyecto -name '*.md' -type f", "preguntar"),
            ("find . -delete", "preguntar"),
            ("ls", "preguntar"),
            ("sh", "denegar"),
            ("/usr/local/bin/python script.py", "denegar"),
            ("node -e 1", "denegar"),
            ("cat notas.txt|wc -l", "denegar"),
            ("wc -l lista.txt > /dev/null", "denegar"),
            ("cat *", "denegar"),
            ("wc -l {lista,notas}.txt", "denegar"),
            ("find . -name \\*.md", "permitir"),
            ('wc -l "notas.txt$(rm lista.txt)"', "denegar"),
            ('cat "a`id`b"', "denegar"),
            ('find proyecto -name "${X:-*}"', "denegar"),
        ],
    },
]
