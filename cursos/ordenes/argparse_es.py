"""argparse en español, sólo en el parser de `./curso`: la ayuda, sus títulos y los errores."""

import argparse
import re

# Los errores de argparse llegan a Parser.error ya escritos en inglés: cada plantilla inglesa
# (la de argparse) con la suya en español. Se traducen al mostrarlos, sólo en este parser: nada
# de tocar el argparse de los demás.
TRADUCCIONES = {
    "the following arguments are required: %(lista)s": "falta: %(lista)s",
    "invalid choice: %(valor)r (choose from %(opciones)s)": "«%(valor)s» no es válido; elige entre %(opciones)s",
    "unrecognized arguments: %(lista)s": "no se entiende: %(lista)s",
    "expected one argument": "necesita un valor",
    "invalid %(tipo)s value: %(valor)r": "«%(valor)s» no es un valor válido",
    "ambiguous option: %(opcion)s could match %(posibles)s": "la opción %(opcion)s es ambigua: %(posibles)s",
    "argument %(argumento)s: not allowed with argument %(otro)s": "%(argumento)s: no se puede usar junto con %(otro)s",
    "argument %(argumento)s: %(mensaje)s": "%(argumento)s: %(mensaje)s",
}


def _patron(plantilla: str) -> re.Pattern:
    """La plantilla de argparse como expresión regular: %(x)s es cualquier texto; %(x)r, un repr de texto."""
    trozos = re.split(r"%\((\w+)\)([sr])", plantilla)
    patron = ""
    for n, trozo in enumerate(trozos):
        if n % 3 == 0:
            patron += re.escape(trozo)
        elif n % 3 == 1:
            nombre, forma = trozo, trozos[n + 1]
            patron += f"(?P<{nombre}>.+?)" if forma == "s" else f"['\"](?P<{nombre}>.+?)['\"]"
    return re.compile(patron, re.DOTALL)


_PATRONES = [(_patron(ingles), espanol) for ingles, espanol in TRADUCCIONES.items()]


def traduce(mensaje: str) -> str:
    """El mensaje de error de argparse en español; el que no tiene plantilla, tal cual."""
    for patron, espanol in _PATRONES:
        encaja = patron.fullmatch(mensaje)
        if encaja:
            return espanol % {nombre: traduce(valor) for nombre, valor in encaja.groupdict().items()}
    return mensaje


class Formato(argparse.HelpFormatter):
    """La ayuda con «uso:» delante en vez de «usage:»."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "uso: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse en español: la ayuda, sus títulos y los errores, en una línea que dice cómo pedir ayuda.

    Las subórdenes (add_subparsers) se crean con esta misma clase, así que también lo están.
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Formato)
        super().__init__(*args, add_help=False, **kwargs)
        # Los dos grupos que argparse crea él solo, con su título en inglés.
        self._positionals.title = "argumentos"
        self._optionals.title = "opciones"
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS, help="muestra esta ayuda y sale")

    def error(self, message):
        self.exit(2, f"{self.prog}: {traduce(message)} (ayuda: {self.prog} --help)\n")
