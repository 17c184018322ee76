"""El modelo de un desafío: desafios/<slug>/desafio.toml leído una vez y comprobado.

desafio.toml dice qué celdas de la lección son el código de partida, qué ficheros cargan,
qué funciones escribe el alumno y qué le llega del calificador. Una clave mal escrita o un
valor del tipo equivocado («"false"» en vez de false) no se convierte en un valor por
omisión: es un error que nombra el fichero y la clave. Lo propio de nbgrader (metadatos,
generate_assignment) está en fuente.py.
"""

import ast
import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cursos import RAIZ, celdas, contrato
from cursos.carga import ficheros_cargados
from cursos.errores import ErrorDelCurso
from cursos.manifiesto import leer_curso

STUB = 'raise NotImplementedError("Escribe aquí tu solución")'


class ErrorDeDesafio(ErrorDelCurso, ValueError):
    """desafio.toml (u otro fichero del desafío) no se puede usar; el mensaje dice cuál, qué clave y qué hacer."""


# clave: (tipo, tipo de cada elemento si es lista, obligatoria, qué es)
CLAVES = {
    "leccion": (str, None, True, "el slug de la lección de la que sale el código de partida"),
    "celdas_de_partida": (list, str, True, 'las etiquetas de sus celdas en la lección: ```python tags=["…"]'),
    "funciones": (list, str, True, "lo que escribe el alumno (al menos una función)"),
    "ocultas": (str, None, True, "qué cubren las variaciones ocultas, para el aviso"),
    "apoderados": (list, str, False, "lo que llama el alumno y vive en el calificador"),
    "datos": (list, str, False, "globales del alumno que pone el calificador"),
    "herramientas": (bool, None, False, "si el alumno recibe HERRAMIENTAS"),
    "quitar": (list, str, False, "funciones de los módulos que el alumno escribe"),
    "partida_propia": (str, None, False, "código de partida que no sale de la lección"),
}
# Claves que ya no se escriben porque su valor sale de otro sitio: cuál, para el mensaje.
RETIRADAS = {
    "modulos": "los ficheros salen de las líneas de carga del código de partida y sus rutas, del "
    "manifiesto (cursos/llm-agents.toml)"
}
_NOMBRES_DE_TIPO = {str: "un texto", bool: "true o false", list: "una lista"}
_NOMBRES_EN_LISTA = {str: "textos", int: "números enteros"}


def _es(valor, tipo) -> bool:
    # En Python, True es un int: si alguna clave es un entero (hoy ninguna; las celdas van por etiqueta), true no vale.
    return isinstance(valor, tipo) and not (tipo is int and isinstance(valor, bool))


def _comprueba(datos: dict, donde: str) -> None:
    for clave in datos:
        if clave in RETIRADAS:
            raise ErrorDeDesafio(f"{donde}: la clave «{clave}» ya no se escribe ({RETIRADAS[clave]}): bórrala")
        if clave not in CLAVES:
            raise ErrorDeDesafio(f"{donde}: la clave «{clave}» no existe; las que hay son: {', '.join(CLAVES)}")
    for clave, (tipo, elemento, obligatoria, que) in CLAVES.items():
        if clave not in datos:
            if obligatoria:
                raise ErrorDeDesafio(f"{donde}: falta la clave «{clave}» ({que})")
            continue
        valor = datos[clave]
        if not _es(valor, tipo):
            raise ErrorDeDesafio(
                f"{donde}: la clave «{clave}» tiene que ser {_NOMBRES_DE_TIPO[tipo]} ({que}), no {valor!r}"
            )
        if elemento is not None and not all(_es(v, elemento) for v in valor):
            raise ErrorDeDesafio(
                f"{donde}: la clave «{clave}» tiene que ser una lista de "
                f"{_NOMBRES_EN_LISTA[elemento]} ({que}), no {valor!r}"
            )
    if not datos["funciones"]:
        raise ErrorDeDesafio(f"{donde}: la clave «funciones» está vacía; pon al menos la que escribe el alumno")


@functools.cache
def _lee(ruta: Path, _version: int) -> dict:
    """Los campos de Desafio, de desafio.toml comprobado; se relee sólo si el fichero cambia (_version)."""
    donde = _relativa(ruta)
    try:
        datos = tomllib.loads(ruta.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ErrorDeDesafio(f"{donde} no es TOML válido ({e}): corrígelo") from None
    _comprueba(datos, donde)
    return {
        "leccion": datos["leccion"],
        "celdas_de_partida": tuple(datos["celdas_de_partida"]),
        "funciones": tuple(datos["funciones"]),
        "ocultas": datos["ocultas"],
        "apoderados": tuple(datos.get("apoderados", ())),
        "datos": tuple(datos.get("datos", ())),
        "herramientas": datos.get("herramientas", False),
        "quitar": tuple(datos.get("quitar", ())),
        "partida_propia": datos.get("partida_propia"),
    }


def _relativa(ruta: Path) -> str:
    try:
        return str(ruta.relative_to(RAIZ))
    except ValueError:
        return str(ruta)


def _version(ruta: Path) -> int:
    try:
        return ruta.stat().st_mtime_ns
    except FileNotFoundError:
        raise ErrorDeDesafio(f"no existe {_relativa(ruta)}: cada desafío necesita su desafio.toml") from None


@dataclass(frozen=True)
class Desafio:
    """Un desafío, con su desafio.toml ya comprobado: Desafio("compacta").

    Dos desafíos son iguales si tienen el mismo slug (sirve de clave de las cachés).
    """

    slug: str
    leccion: str = field(init=False, compare=False, repr=False)
    celdas_de_partida: tuple[str, ...] = field(init=False, compare=False, repr=False)  # etiquetas (celdas.py)
    funciones: tuple[str, ...] = field(init=False, compare=False, repr=False)  # la primera nombra la celda
    ocultas: str = field(init=False, compare=False, repr=False)
    # Lo que llama el código del alumno y vive en el calificador: métodos de la mesa de cada prueba.
    apoderados: tuple[str, ...] = field(init=False, compare=False, repr=False)
    # Globales del alumno que el calificador pone en cada llamada: atributos de la mesa de la prueba.
    datos: tuple[str, ...] = field(init=False, compare=False, repr=False)
    # ¿Recibe el alumno HERRAMIENTAS, con funciones que corren en el calificador?
    herramientas: bool = field(init=False, compare=False, repr=False)
    quitar: tuple[str, ...] = field(init=False, compare=False, repr=False)
    partida_propia: str | None = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        ruta = RAIZ / "desafios" / self.slug / "desafio.toml"
        for nombre, valor in _lee(ruta, _version(ruta)).items():
            object.__setattr__(self, nombre, valor)  # congelado: sólo aquí, al construirlo

    @property
    def carpeta(self) -> Path:
        return RAIZ / "desafios" / self.slug

    def lee(self, nombre: str) -> str:
        return (self.carpeta / nombre).read_text(encoding="utf-8")

    @property
    def cuaderno(self) -> str:
        """El nombre del cuaderno, igual en source/, release/ y submitted/."""
        return f"{self.slug}.ipynb"

    def partida(self) -> str:
        """El código de partida: las celdas de la lección que nombra desafio.toml, sin copiarlas."""
        return _partida(self)

    def pruebas(self) -> str:
        """desafios/base.py y detrás pruebas.py: el texto que cargan la página, el cuaderno y el calificador.

        La base (Fallo, exige, oculta, comprueba, el banco local…) va delante, así que pruebas.py
        la usa sin definirla; si redefine algo de ella, es un error que lo dice.
        """
        fuente = self.lee("pruebas.py")
        _sin_redefinir(fuente, f"desafios/{self.slug}/pruebas.py")
        return contrato.BASE.read_text(encoding="utf-8") + "\n\n" + fuente

    def puntos(self) -> dict[str, int]:
        """{prueba: puntos}, leídos de la tabla PRUEBAS de pruebas.py sin ejecutarla."""
        return dict(_puntos(self.lee("pruebas.py")))

    @property
    def celda_solucion(self) -> str:
        return self.funciones[0]

    @property
    def aviso_ocultas(self) -> str:
        return "# Además hay variaciones ocultas: %s.\n" % self.ocultas

    def esqueleto(self) -> str:
        """solucion.py con cada región de la solución cambiada por STUB: lo que el alumno recibe para editar."""
        return con_stub(self.lee("solucion.py"), f"desafios/{self.slug}/solucion.py").rstrip("\n")

    def pistas(self) -> list[str]:
        """Las pistas (pistas.toml), de menos a más, en Markdown; sin el fichero, ninguna.

        Las lee el modelo y no el sitio: un error de formato sale igual en `construir` que en las pruebas.
        """
        ruta = self.carpeta / "pistas.toml"
        if not ruta.exists():
            return []
        try:
            datos = tomllib.loads(ruta.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ErrorDeDesafio(f"{_relativa(ruta)} no es TOML válido ({e}). Corrige esa línea.") from None
        pistas = datos.get("pista", [])
        if not isinstance(pistas, list) or not all(
            isinstance(p, dict) and isinstance(p.get("texto"), str) and p["texto"].strip() for p in pistas
        ):
            raise ErrorDeDesafio(
                f'{_relativa(ruta)}: cada pista es una tabla [[pista]] con un texto no vacío (texto = "…"). Corrígelo.'
            )
        return [p["texto"] for p in pistas]

    @property
    def rutas_de_modulos(self) -> tuple[str, ...]:
        """Los ficheros que carga el código de partida, por sus líneas de carga, con la ruta del manifiesto.

        Una sola fuente: lo que carga la partida es lo que va junto al cuaderno y a la caja del alumno.
        """
        curso, rutas = _curso(), []
        for nombre in dict.fromkeys(ficheros_cargados(self.partida())):
            if nombre not in curso.modulos:
                raise ErrorDeDesafio(
                    f"desafios/{self.slug}: el código de partida carga «{nombre}», que no está "
                    f"en «modulos» del manifiesto cursos/{curso.slug}.toml: añádelo allí"
                )
            rutas.append(str(curso.modulo(nombre).relative_to(RAIZ)))
        return tuple(rutas)

    def modulos(self) -> tuple[tuple[str, str], ...]:
        """(nombre, texto) de los ficheros que carga el código de partida, tal como los recibe el alumno.

        Las funciones de «quitar» (la solución, que el laboratorio trae hecha) se cambian
        por una que lanza: el alumno escribe la suya.
        """
        return _modulos(self.rutas_de_modulos, self.quitar)


@functools.cache
def _curso():
    return leer_curso()


def con_stub(fuente: str, donde: str = "la solución") -> str:
    """La región entre ### BEGIN SOLUTION y ### END SOLUTION, cambiada por STUB con su sangría.

    Hace lo mismo que ClearSolutions de nbgrader con nuestra configuración (una prueba lo
    compara con el cuaderno repartido): así la página de la lección no necesita nbgrader.
    Tan estricto como nbgrader: una región sin cerrar o una dentro de otra es un error (y
    no, como antes, todo lo que sigue borrado sin avisar). donde: qué fichero, para el mensaje.
    """
    lineas, dentro = [], 0
    for n, linea in enumerate(fuente.split("\n"), 1):
        if "### BEGIN SOLUTION" in linea:
            if dentro:
                raise ErrorDeDesafio(
                    f"{donde}, línea {n}: «### BEGIN SOLUTION» dentro de otra región (la de la "
                    f"línea {dentro}); cierra aquélla con «### END SOLUTION» antes"
                )
            dentro = n
            lineas.append(linea[: len(linea) - len(linea.lstrip())] + STUB)
        elif "### END SOLUTION" in linea:
            dentro = 0
        elif not dentro:
            lineas.append(linea)
    if dentro:
        raise ErrorDeDesafio(
            f"{donde}, línea {dentro}: «### BEGIN SOLUTION» sin su «### END SOLUTION»; "
            "ciérrala (nbgrader tampoco la acepta)"
        )
    return "\n".join(lineas)


@functools.cache
def _modulos(rutas: tuple[str, ...], quitar: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((Path(r).name, _sin_funciones((RAIZ / r).read_text(encoding="utf-8"), quitar)) for r in rutas)


def _sin_funciones(fuente: str, quitar: tuple[str, ...]) -> str:
    """La fuente con cada función de quitar cambiada por una que lanza NotImplementedError."""
    lineas = fuente.split("\n")
    for nodo in reversed(ast.parse(fuente).body):
        if isinstance(nodo, ast.FunctionDef) and nodo.name in quitar:
            primera = min([nodo.lineno, *(d.lineno for d in nodo.decorator_list)]) - 1
            lineas[primera : nodo.end_lineno] = [
                f"def {nodo.name}(*args, **kwargs):",
                '    """En el desafío no está hecha: la escribes tú."""',
                f'    raise NotImplementedError("en el desafío, {nodo.name} la escribes tú")',
            ]
    return "\n".join(lineas)


def _partida(desafio: Desafio) -> str:
    leccion = RAIZ / "lecciones" / desafio.leccion / "leccion.md"
    propia = [desafio.partida_propia.strip("\n")] if desafio.partida_propia is not None else []
    return "\n\n".join([*(celdas.fuente(leccion, e) for e in desafio.celdas_de_partida), *propia])


@functools.cache
def _sin_redefinir(fuente: str, donde: str) -> None:
    """pruebas.py no pisa lo que le da la base: un Fallo propio, por ejemplo, escaparía al calificador."""
    for nodo in ast.parse(fuente).body:
        if isinstance(nodo, ast.ClassDef) and nodo.name == contrato.BANCO_LOCAL:
            if not any(getattr(b, "id", None) == contrato.BANCO_LOCAL for b in nodo.bases):
                raise ErrorDeDesafio(
                    f"{donde}, línea {nodo.lineno}: «class BancoLocal» sustituye al de "
                    "desafios/base.py; amplíalo: «class BancoLocal(BancoLocal):»"
                )
            continue
        nombres = (
            [nodo.name]
            if isinstance(nodo, (ast.FunctionDef, ast.ClassDef))
            else [d.id for d in getattr(nodo, "targets", ()) if isinstance(d, ast.Name)]
        )
        for nombre in nombres:
            if nombre in contrato.DE_LA_BASE:
                raise ErrorDeDesafio(
                    f"{donde}, línea {nodo.lineno}: «{nombre}» ya lo define desafios/base.py, "
                    "que va delante: bórralo de aquí y usa el de la base"
                )


@functools.cache
def _puntos(pruebas: str) -> tuple[tuple[str, int], ...]:
    for nodo in ast.parse(pruebas).body:
        if isinstance(nodo, ast.Assign) and getattr(nodo.targets[0], "id", "") == contrato.PRUEBAS:
            return tuple(
                (ast.literal_eval(k), ast.literal_eval(v.elts[0]))
                for k, v in zip(nodo.value.keys, nodo.value.values, strict=True)
            )
    raise ValueError("pruebas.py no tiene la tabla PRUEBAS")
