"""La clave de ModeloReal y sus errores: lo que viene de fuera sale con todo lo que parece una clave tapado."""

import re


class ErrorDelModelo(Exception):
    """El modelo no ha dado una respuesta utilizable; el mensaje dice por qué y qué hacer.

    estado: el estado HTTP del error, si lo hay (el laboratorio se para con un 404 o un 401).
    """

    def __init__(self, mensaje="", estado=None):
        super().__init__(mensaje)
        self.estado = estado


# --- La clave --------------------------------------------------------------------------

OCULTA = "«clave oculta»"
# Lo que parece una clave en un texto que viene de fuera (el cuerpo de un error, una
# respuesta que no es JSON): sk-…, sk-ant-…, un «Bearer …» y cualquier ristra larga de
# base64 o hex con alguna cifra (las palabras y los nombres de modelo no la tienen tan larga).
PARECE_CLAVE = re.compile(r"Bearer\s+[^\s\"',;]+|\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{6,}|(?P<larga>[A-Za-z0-9+_\-]{32,}=*)")


def tapa(texto, clave=None):
    """El texto con la clave y todo lo que parece una clave cambiados por «clave oculta»."""
    texto = str(texto)
    if clave and len(clave) >= 6:  # una «clave» más corta taparía palabras sueltas
        texto = texto.replace(clave, OCULTA)

    def oculta(m):
        sin_cifras = m.group("larga") and not any(c.isdigit() for c in m.group(0))
        return m.group(0) if sin_cifras else OCULTA

    return PARECE_CLAVE.sub(oculta, texto)


class _Clave:
    """La clave de API guardada donde no se ve: ni repr(), ni str(), ni vars(), ni pickle.

    ModeloReal la guarda así, y no en un atributo normal, para que imprimir el modelo,
    sus atributos o volcarlo (pickle, un depurador que enseña vars()) no la enseñe.
    """

    __slots__ = ("_valor",)

    def __init__(self, valor):
        self._valor = valor

    def __repr__(self):
        return OCULTA

    __str__ = __repr__

    def __reduce_ex__(self, protocolo):
        raise TypeError("la clave de ModeloReal no se guarda: crea el modelo otra vez y escríbela")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
