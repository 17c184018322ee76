# Las variaciones ocultas: usuarios que no salen en la lección, otro reloj y tokens ajenos para ellos.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí.
VARIACIONES = [
    {   # dos usuarios nuevos, un día después
        "perfiles": {"u-207": {"nombre": "Lucía Gómez", "departamento": "ventas", "salario_anual": 47500},
                     "u-318": {"nombre": "Jorge Prieto", "departamento": "legal", "salario_anual": 70250}},
        "usuarios": ["u-207", "u-318"],
        "ahora": AHORA + 86400,
    },
    {   # los de la lección y una más, dos horas antes
        "perfiles": {**PERFILES_DE_LA_LECCION,
                     "u-102": {"nombre": "Nuria Sanz", "departamento": "finanzas", "salario_anual": 58800}},
        "usuarios": ["u-102", "u-100"],
        "ahora": AHORA - 7200,
    },
]
