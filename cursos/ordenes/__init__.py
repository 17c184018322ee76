"""Las órdenes de `./curso`, una por módulo (como las apps de nbgrader).

Cada módulo declara `NOMBRE` (la orden), `AYUDA` (su línea en `./curso --help`),
`configura(parser)`, que añade sus argumentos, y `ejecuta(args) -> int`, que la hace y da el
código de salida. `cursos/cli.py` monta el parser con la lista de módulos y es el único que
importa este paquete. Lo que comparten varias órdenes está en `argparse_es.py` (el parser en
español) y en `opciones.py` (las opciones comunes y sus comprobaciones). Las importaciones
pesadas van dentro de `ejecuta`: `./curso --help` no debe cargar nbgrader ni el sitio.
"""
