"""Un desafío como dato: desafios/<slug>/desafio.toml leído una vez y comprobado.

desafio.toml dice qué celdas de la lección son el código de partida, qué ficheros cargan,
qué funciones escribe el alumno y qué le llega del calificador. Una clave mal escrita o un
valor del tipo equivocado («"false"» en vez de false) no se convierte en un valor por
omisión: es un error que nombra el fichero y la clave. Lo propio de nbgrader (metadatos,
generate_assignment) está en fuente.py.
"""

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

from cursos import RAIZ, celdas, contrato, esquemas
from cursos.carga import ficheros_cargados
from cursos.errores import ErrorDelCurso
from cursos.manifiesto import leer_curso

STUB = 'raise NotImplementedError("Escribe aquí tu solución")'


class ErrorDeDesafio(ErrorDelCurso, ValueError):
    """desafio.toml (u otro fichero del desafío) no se puede usar; el mensaje dice cuál, qué clave y qué hacer."""


@functools.cache
def _lee(ruta: Path, _version: int) -> esquemas.DesafioToml:
    """desafio.toml comprobado con su esquema; se relee sólo si el fichero cambia (_version)."""
    return esquemas.lee_toml(ruta, esquemas.DesafioToml, ErrorDeDesafio, esquemas.relativa(ruta, RAIZ))


def _version(ruta: Path) -> int:
    try:
        return ruta.stat().st_mtime_ns
    except FileNotFoundError:
        donde = esquemas.relativa(ruta, RAIZ)
        raise ErrorDeDesafio(f"no existe {donde}: cada desafío necesita su desafio.toml") from None


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
        datos = _lee(ruta, _version(ruta))
        for nombre in esquemas.claves(esquemas.DesafioToml):
            object.__setattr__(self, nombre, getattr(datos, nombre))  # congelado: sólo aquí, al construirlo

    @property
    def carpeta(self) -> Path:
        return RAIZ / "desafios" / self.slug

    def lee(self, nombre: str) -> str:
        return (self.carpeta / nombre).read_text(encoding="utf-8")

    def enunciado(self) -> str:
        """enunciado.md, en Markdown: cierra la lección (página y cuaderno) y encabeza el cuaderno del desafío."""
        return self.lee("enunciado.md")

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

        Las lee el desafío y no el sitio: un error de formato sale igual en `construir` que en las pruebas.
        """
        ruta = self.carpeta / "pistas.toml"
        if not ruta.exists():
            return []
        pistas = esquemas.lee_toml(ruta, esquemas.Pistas, ErrorDeDesafio, esquemas.relativa(ruta, RAIZ))
        return [p.texto for p in pistas.pista]

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
    Tan estricto como nbgrader: una región sin cerrar o una dentro de otra es un error, nunca
    todo lo que sigue borrado sin avisar. donde: qué fichero, para el mensaje.
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
