"""Un solo lector para los ficheros TOML del curso: cada tipo de fichero es un esquema.

Un esquema es una dataclass congelada. Cada campo dice qué es (`que`, lo que cita el mensaje de
error y lo que dice la tabla de docs/autores.md) y, si no es obligatorio, su valor por omisión.
`lee_toml` lee el fichero y lo convierte en su esquema: una clave que el esquema no tiene, un
valor de otro tipo («"false"» en vez de false), un texto vacío o una clave obligatoria que falta
son un error que nombra el fichero y la clave y dice qué hacer; lo que falta se rellena con su
valor por omisión. Cada fichero lanza su propia clase de error (todas derivan de ErrorDelCurso).

Lo que no es cuestión de forma (que un tipo de pregunta exista, que una etiqueta esté en la
lección) lo comprueba quien usa el fichero, después.
"""

import dataclasses
import tomllib
import types
import typing
from pathlib import Path

from cursos import RAIZ

# Cada esquema: congelado, y con sus campos por nombre, en el orden del fichero (sean o no obligatorios).
esquema = dataclasses.dataclass(frozen=True, kw_only=True)


def campo(que: str, omision=dataclasses.MISSING, *, vacia: bool = True):
    """Un campo de un esquema: qué es, su valor por omisión (sin él, es obligatorio) y si puede ser una lista vacía."""
    return dataclasses.field(default=omision, metadata={"que": que, "vacia": vacia})


def claves(clase) -> dict[str, str]:
    """{clave: qué es}, en el orden del esquema."""
    return {c.name: c.metadata["que"] for c in dataclasses.fields(clase)}


def obligatoria(clase, clave: str) -> bool:
    return next(c for c in dataclasses.fields(clase) if c.name == clave).default is dataclasses.MISSING


def relativa(ruta: Path, raiz: Path = RAIZ) -> str:
    """La ruta desde la raíz del repositorio, para los mensajes (o entera, si está fuera)."""
    try:
        return str(ruta.relative_to(raiz))
    except ValueError:
        return str(ruta)


def lee_toml(ruta: Path, clase, error: type[Exception], donde: str | None = None):
    """El fichero, convertido en su esquema (clase) y comprobado; error(mensaje) si no se puede usar.

    donde: cómo lo nombran los mensajes (por omisión, su ruta desde la raíz del repositorio).
    """
    donde = donde or relativa(ruta)
    try:
        datos = tomllib.loads(ruta.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise error(f"{donde} no es TOML válido ({e}): corrígelo") from None
    return convierte(datos, clase, donde, error)


def convierte(tabla: dict, clase, donde: str, error: type[Exception]):
    """Una tabla ya leída, convertida en su esquema (lee_toml la usa para cada tabla anidada)."""
    campos = {c.name: c for c in dataclasses.fields(clase)}
    for clave in tabla:
        if clave not in campos:
            raise error(f"{donde}: la clave «{clave}» no existe; las que hay son: {', '.join(campos)}")
    tipos = typing.get_type_hints(clase)
    valores = {}
    for nombre, c in campos.items():
        if nombre not in tabla:
            if c.default is dataclasses.MISSING:
                raise error(f"{donde}: falta la clave «{nombre}» ({c.metadata['que']}); añádela")
            continue
        valor = _valor(tabla[nombre], tipos[nombre], _Clave(donde, nombre, c.metadata["que"], error))
        if not c.metadata["vacia"] and not valor:
            raise error(f"{donde}: la clave «{nombre}» está vacía; pon al menos uno ({c.metadata['que']})")
        valores[nombre] = valor
    return clase(**valores)


@dataclasses.dataclass(frozen=True)
class _Clave:
    """Dónde está el valor que se comprueba, para el mensaje de error."""

    donde: str
    nombre: str
    que: str
    error: type[Exception]

    def falla(self, debe: str, valor) -> Exception:
        return self.error(f"{self.donde}: la clave «{self.nombre}» tiene que ser {debe} ({self.que}), no {valor!r}")


def _valor(valor, tipo, clave: _Clave):
    if typing.get_origin(tipo) in (types.UnionType, typing.Union):  # X | None: None es la omisión
        (tipo,) = [t for t in typing.get_args(tipo) if t is not type(None)]
    if dataclasses.is_dataclass(tipo):
        if not isinstance(valor, dict):
            raise clave.falla(f"una tabla [{clave.nombre}]", valor)
        return convierte(valor, tipo, f"{clave.donde}, [{clave.nombre}]", clave.error)
    if typing.get_origin(tipo) is tuple:
        return _lista(valor, typing.get_args(tipo)[0], clave)
    if typing.get_origin(tipo) is dict:
        elemento = typing.get_args(tipo)[1]
        if not isinstance(valor, dict):
            raise clave.falla("una tabla", valor)
        return {
            k: _valor(v, elemento, dataclasses.replace(clave, nombre=f"{clave.nombre}.{k}")) for k, v in valor.items()
        }
    if tipo is dict:  # una tabla libre: la comprueba quien la usa
        if not isinstance(valor, dict):
            raise clave.falla("una tabla", valor)
        return valor
    if not isinstance(valor, tipo) or (tipo is int and isinstance(valor, bool)):  # en Python, True es un int
        raise clave.falla(_NOMBRES[tipo], valor)
    if tipo is str and not valor.strip():
        raise clave.error(f"{clave.donde}: la clave «{clave.nombre}» está vacía ({clave.que}): escribe su valor")
    return valor


def _lista(valor, elemento, clave: _Clave) -> tuple:
    if dataclasses.is_dataclass(elemento):
        if not isinstance(valor, list) or not all(isinstance(v, dict) for v in valor):
            raise clave.falla(f"una lista de tablas [[{clave.nombre}]]", valor)
        return tuple(
            convierte(v, elemento, f"{clave.donde}, {_nombre_de_tabla(clave.nombre, v, n)}", clave.error)
            for n, v in enumerate(valor, 1)
        )
    if not isinstance(valor, list) or not all(isinstance(v, elemento) and not isinstance(v, bool) for v in valor):
        raise clave.falla(f"una lista de {_NOMBRES_EN_LISTA[elemento]}", valor)
    if elemento is str and not all(v.strip() for v in valor):
        raise clave.falla(f"una lista de {_NOMBRES_EN_LISTA[elemento]}", valor)
    return tuple(valor)


def _nombre_de_tabla(clave: str, tabla: dict, n: int) -> str:
    """«[[bloques]] «el-agente-por-dentro»», por su slug, id o celda si lo tiene; si no, por su número."""
    nombre = next((tabla[k] for k in ("slug", "id", "celda") if isinstance(tabla.get(k), str)), None)
    return f"[[{clave}]] «{nombre}»" if nombre else f"[[{clave}]] número {n}"


_NOMBRES = {str: "un texto entre comillas", bool: "true o false", int: "un número entero"}
_NOMBRES_EN_LISTA = {str: "textos no vacíos", int: "números enteros"}


# --- desafios/<slug>/desafio.toml ----------------------------------------------------------------------
# Sin «modulos» (se escribía antes): los ficheros salen de las líneas de carga del código de partida.


@esquema
class DesafioToml:
    leccion: str = campo("el slug de la lección de la que sale el código de partida")
    celdas_de_partida: tuple[str, ...] = campo('las etiquetas de sus celdas en la lección: ```python tags=["…"]')
    funciones: tuple[str, ...] = campo("lo que escribe el alumno (al menos una función)", vacia=False)
    ocultas: str = campo("qué cubren las variaciones ocultas, para el aviso")
    apoderados: tuple[str, ...] = campo("lo que llama el alumno y vive en el calificador", ())
    datos: tuple[str, ...] = campo("globales del alumno que pone el calificador", ())
    herramientas: bool = campo("si el alumno recibe HERRAMIENTAS", False)
    quitar: tuple[str, ...] = campo("funciones de los módulos que el alumno escribe", ())
    partida_propia: str | None = campo("código de partida que no sale de la lección", None)


# --- desafios/<slug>/pistas.toml ------------------------------------------------------------------------


@esquema
class Pista:
    texto: str = campo("la pista, en Markdown")


@esquema
class Sigue:
    codigo: str = campo("la solución escrita siguiendo las pistas, con un «# pista N» por pista")


@esquema
class Pistas:
    pista: tuple[Pista, ...] = campo("las pistas, de menos a más: [[pista]]", ())
    sigue: Sigue | None = campo("[sigue]: lo comprueba tests/test_pistas.py; no llega al alumno", None)


# --- lecciones/<slug>/preguntas.toml y salidas.toml -----------------------------------------------------


@esquema
class Opcion:
    texto: str = campo("la opción, en Markdown")
    # Los datos de la opción con que una prueba la comprueba contra el código de la lección.
    token: dict | None = campo("el token que describe la opción (aud, scope, caduca_en)", None)
    llamada: dict | None = campo("la llamada que describe la opción (name, input)", None)
    correcta: bool = campo("si es correcta", False)
    explicacion: str = campo("por qué es o no es correcta, en Markdown")


@esquema
class Pregunta:
    id: str = campo("el nombre de la pregunta, único en la lección")
    tipo: str = campo("verdadero_falso, una o varias")
    enunciado: str = campo("la pregunta, en Markdown")
    opcion: tuple[Opcion, ...] = campo("las opciones: [[pregunta.opcion]]")


@esquema
class Preguntas:
    pregunta: tuple[Pregunta, ...] = campo("las preguntas de autoevaluación: [[pregunta]]", ())


@esquema
class Afirmacion:
    celda: str = campo('la etiqueta de la celda (celda = "salida-1"), no su número')
    contiene: tuple[str, ...] = campo('las líneas que debe contener su salida (contiene = ["…"])', vacia=False)


@esquema
class Salidas:
    celda: tuple[Afirmacion, ...] = campo("lo que la prosa afirma de cada celda: [[celda]]", ())


# --- cursos/<slug>.toml: el manifiesto ------------------------------------------------------------------


@esquema
class LeccionDelManifiesto:
    slug: str = campo("la carpeta de la lección en lecciones/")
    titulo: str = campo("el título de la lección")
    minutos: int = campo("cuánto se tarda en leerla y hacerla", 30)
    desafio: str | None = campo("el desafío que la cierra (su carpeta en desafios/)", None)
    temas: tuple[str, ...] = campo('cómo la citan las demás, además de por su título: temas = ["los errores"]', ())


@esquema
class Bloque:
    slug: str = campo("el nombre del bloque")
    titulo: str = campo("su título (sin él, el slug)", "")
    descripcion: str = campo("una o dos frases que lo presentan", "")
    lecciones: tuple[LeccionDelManifiesto, ...] = campo("sus lecciones, en orden: [[bloques.lecciones]]")


@esquema
class Presentacion:
    para_quien: str = campo("para quién es el curso, en Markdown", "")
    supone: str = campo("qué supone que se sabe, en Markdown", "")
    modelo: str = campo("qué modelo usa, en Markdown", "")


@esquema
class Manifiesto:
    slug: str = campo("el nombre del curso: cursos/<slug>.toml")
    titulo: str = campo("el título del curso")
    descripcion: str = campo("una frase que lo presenta", "")
    modulos: tuple[str, ...] = campo("los ficheros que cargan las celdas, con su ruta en el repositorio")
    presentacion: Presentacion = campo("la portada del sitio y de los cuadernos", Presentacion())
    bloques: tuple[Bloque, ...] = campo("los bloques y sus lecciones, en el orden del curso: [[bloques]]")
    # Sus claves y sus valores los comprueba manifiesto.servidores_del_modelo, con sus propios mensajes.
    modelo_real: dict | None = campo("los servidores de modelos que el sitio puede llamar", None)


# --- cursos/sitio/traduccion-es.toml --------------------------------------------------------------------


@esquema
class Traduccion:
    menus: dict[str, str] = campo("títulos de los menús: el texto en inglés y cómo se lee aquí")
    cadenas: dict[str, str] = campo("los demás textos: el texto en inglés y cómo se lee aquí")
    plurales: dict[str, tuple[str, ...]] = campo("los textos con singular y plural: [singular, plural]")


# --- profesor.toml (lo lee cursos/profesor/configuracion.py) --------------------------------------------


@esquema
class Profesor:
    nbgrader: str | None = campo("la carpeta del curso de nbgrader (relativa a la raíz del repositorio)", None)
    desafio: str | None = campo("el desafío por omisión", None)
    zona_horaria: str | None = campo(
        "p. ej. «Europe/Madrid»; si nbgrader_config.py del curso pone c.Exchange.timezone, manda ésa", None
    )
    cluster: str | None = campo(
        "el planificador de Dask con que calificar en varias máquinas, p. ej. «tcp://lab-1:8786»; --cluster manda",
        None,
    )
