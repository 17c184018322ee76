"""Un escenario del laboratorio de inyecciones y una partida suya: sólo datos, sin importar nada del
laboratorio (escenarios.py, comportamientos.py e inyecciones.py los comparten sin importarse en círculo)."""

from dataclasses import dataclass, field


@dataclass
class Partida:
    """Una ejecución de un escenario, con la defensa ya puesta o quitada: todo recién hecho."""

    espacio: dict  # el espacio de nombres con guionizado, entorno, harness y lo de la lección
    inicio: list
    entorno: dict
    respuestas: list  # lo que responde un modelo que obedece a la inyección (ModeloSordo)
    ejecutar: object  # ejecutar(ll, entorno): el de la lección, con o sin su defensa
    propuesta: object  # propuesta(ll) -> bool: ¿esta llamada hace la acción inyectada?
    ejecutada: object  # ejecutada(partida, M) -> bool: ¿ha ocurrido? (en el entorno o en los registros)
    tarea: object  # tarea(partida, M) -> bool: ¿está hecho lo que pidió el usuario?
    max_turnos: int = 10
    # {comportamiento: respuestas} de los modelos que se portan mal de otra manera (comportamientos.py)
    variantes: dict = field(default_factory=dict)


@dataclass
class Escenario:
    slug: str
    leccion: str  # el slug de la lección cuyo ataque es
    titulo: str
    prepara: object  # prepara(defensa) -> Partida nueva; defensa es "sin", "con" o APRUEBA
    clase: str = "ataque"  # una de medidas.CLASES
    pregunta: bool = False  # ¿la defensa pregunta al usuario? Entonces se mide también con APRUEBA
    diferencia: str = ""  # en qué difiere de la lección, si difiere


# Lo que se lee de una conversación M y los bloques con que se escribe: de todos los escenarios.
def llamadas_de_M(M):
    return [b for rol, c in M if rol == "asistente" and isinstance(c, list) for b in c if b.get("type") == "tool_use"]


def texto_final(M):
    rol, contenido = M[-1]
    if rol != "asistente":
        return ""
    return contenido if isinstance(contenido, str) else "".join(b.get("text", "") for b in contenido)


def leido(M, texto):
    """¿Ha vuelto el texto en alguna observación sin error? La tarea tiene que apoyarse en lo leído."""
    return any(texto in str(r.get("content")) for r in resultados_de_M(M) if not r.get("is_error"))


def resultados_de_M(M):
    return [b for rol, c in M if rol == "usuario" and isinstance(c, list) for b in c if b.get("type") == "tool_result"]


def entrada(ll):
    """Los argumentos de una llamada, o {} si el modelo no ha mandado un objeto (un texto, una lista…)."""
    valor = ll.get("input") if isinstance(ll, dict) else None
    return valor if isinstance(valor, dict) else {}


def texto(t):
    return {"type": "text", "text": t}


def usa(id, nombre, /, **entrada):
    return {"type": "tool_use", "id": id, "name": nombre, "input": entrada}
