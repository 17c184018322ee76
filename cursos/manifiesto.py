"""Lee el manifiesto de un curso (cursos/<slug>.toml) y comprueba que cuadra con el disco."""

import dataclasses
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from cursos import RAIZ, esquemas
from cursos.celdas import Celda, celdas_de
from cursos.errores import ErrorDelCurso


class ErrorDeManifiesto(ErrorDelCurso):
    """El manifiesto no se puede usar; el mensaje dice qué corregir."""


@dataclass(frozen=True)
class Leccion:
    slug: str
    titulo: str
    minutos: int
    desafio: str | None
    bloque: str
    # Cómo la citan otras lecciones («la lección sobre los errores»), además de por su título.
    temas: tuple[str, ...] = ()

    @property
    def carpeta(self) -> Path:
        return RAIZ / "lecciones" / self.slug

    @property
    def fuente(self) -> Path:
        """La lección en Markdown de jupytext: de aquí salen el cuaderno y la página."""
        return self.carpeta / "leccion.md"

    def celdas(self) -> tuple[Celda, ...]:
        """Sus celdas (tipo, fuente y etiquetas), en orden: la fuente, analizada una sola vez."""
        return celdas_de(self.fuente)

    @property
    def preguntas(self) -> Path:
        return self.carpeta / "preguntas.toml"

    @property
    def salidas(self) -> Path:
        """Lo que la prosa afirma de cada celda; lo comprueban las pruebas."""
        return self.carpeta / "salidas.toml"

    @property
    def imagenes(self) -> list[Path]:
        """Las figuras que cita la prosa (![…](nombre.png)): al lado de la página; en el cuaderno, adjuntas.

        Su fuente es el .svg del mismo nombre; el PNG lo dibuja `python -m cursos.figuras`.
        """
        return sorted(self.carpeta.glob("*.png"))


@dataclass(frozen=True)
class ServidorDelModelo:
    """Un servidor de modelos que el profesor permite llamar desde el sitio ([[modelo_real.servidores]])."""

    titulo: str
    url: str  # la base que recibe ModeloReal, sin la barra final
    formato: str  # "anthropic" u "openai", como ModeloReal
    modelo: str  # el nombre del modelo en ese servidor
    clave: bool  # ¿pide clave? Un modelo local no

    @property
    def fuente_csp(self) -> str:
        """Lo que la Content-Security-Policy deja llamar: esta URL y lo que cuelga de ella, nada más."""
        return self.url + "/"


@dataclass(frozen=True)
class Curso:
    slug: str
    titulo: str
    descripcion: str
    rutas_de_modulos: dict[str, Path]  # nombre de fichero -> dónde está en el repositorio
    # Cada bloque, como en el manifiesto: slug, titulo (el slug si no lo tiene), descripcion ("" si no la tiene).
    bloques: tuple[esquemas.Bloque, ...] = ()
    lecciones: list[Leccion] = field(default_factory=list)
    # La presentación ([presentacion] del manifiesto), en Markdown: para_quien, supone, modelo.
    # La usan la portada del sitio y la de los cuadernos; "" la que el manifiesto no trae.
    presentacion: dict[str, str] = field(default_factory=dict)
    # Los servidores de modelos que el sitio puede llamar; () por omisión: el sitio no sale de su origen.
    servidores_del_modelo: tuple[ServidorDelModelo, ...] = ()

    @property
    def modulos(self) -> list[str]:
        """Los nombres con que las celdas abren los módulos, en el orden del manifiesto."""
        return list(self.rutas_de_modulos)

    def modulo(self, nombre: str) -> Path:
        return self.rutas_de_modulos[nombre]

    def leccion(self, slug: str) -> Leccion:
        for leccion in self.lecciones:
            if leccion.slug == slug:
                return leccion
        raise ErrorDeManifiesto(f"el curso {self.slug} no tiene ninguna lección «{slug}»")


def leer_curso(slug: str = "llm-agents") -> Curso:
    """El curso descrito en cursos/<slug>.toml, comprobado con su esquema y contra los ficheros."""
    ruta = RAIZ / "cursos" / f"{slug}.toml"
    if not ruta.exists():
        raise ErrorDeManifiesto(f"no existe el manifiesto {ruta}: crea cursos/{slug}.toml")
    datos = esquemas.lee_toml(ruta, esquemas.Manifiesto, ErrorDeManifiesto, ruta.name)
    # Un bloque sin título se titula con su slug.
    bloques = tuple(dataclasses.replace(b, titulo=b.titulo or b.slug) for b in datos.bloques)
    lecciones = [
        Leccion(lec.slug, lec.titulo, lec.minutos, lec.desafio, bloque.slug, lec.temas)
        for bloque in bloques
        for lec in bloque.lecciones
    ]
    curso = Curso(
        slug=datos.slug,
        titulo=datos.titulo,
        descripcion=datos.descripcion,
        rutas_de_modulos=_rutas_de_modulos(datos.modulos, ruta.name),
        bloques=bloques,
        lecciones=lecciones,
        presentacion=dataclasses.asdict(datos.presentacion),
        servidores_del_modelo=servidores_del_modelo(datos.modelo_real or {}, ruta.name),
    )
    _sin_repetir([b.slug for b in bloques], "bloques repetidos", ruta.name)
    _sin_repetir([lec.slug for lec in lecciones], "lecciones repetidas", ruta.name)
    _comprueba_ficheros(curso)
    return curso


FORMATOS_DEL_MODELO = ("anthropic", "openai")  # los de cursos/modelo/modelo_real.py
LOCALES = ("localhost", "127.0.0.1")


def servidores_del_modelo(tabla, manifiesto: str) -> tuple[ServidorDelModelo, ...]:
    """Los servidores de [modelo_real] comprobados. Sin la tabla, ninguno.

    Con alguno, el sitio lleva la página del laboratorio de inyecciones, y con ella las defensas
    de referencia de los desafíos: por eso hay que confirmarlo con publica_las_defensas = true.
    """
    donde = f"{manifiesto}, [modelo_real]"
    if not isinstance(tabla, dict):
        raise ErrorDeManifiesto(f"{donde}: tiene que ser una tabla ([modelo_real]); corrígelo")
    desconocidas = sorted(set(tabla) - {"servidores", "publica_las_defensas"})
    if desconocidas:
        raise ErrorDeManifiesto(
            f"{donde}: no conozco {', '.join(desconocidas)}; usa «servidores» y «publica_las_defensas»"
        )
    lista = tabla.get("servidores", [])
    if not isinstance(lista, list) or not all(isinstance(s, dict) for s in lista):
        raise ErrorDeManifiesto(f"{donde}: «servidores» es una lista de tablas [[modelo_real.servidores]]; corrígelo")
    servidores = tuple(_servidor(s, f"{donde}, servidor {n}") for n, s in enumerate(lista, start=1))
    if servidores and tabla.get("publica_las_defensas") is not True:
        raise ErrorDeManifiesto(
            f"{donde}: con servidores, el sitio lleva la página del laboratorio de inyecciones, que trae "
            "las soluciones de referencia de los desafíos (son sus defensas). Si estás de acuerdo, añade "
            "publica_las_defensas = true; si no, quita los servidores"
        )
    _sin_repetir([s.url for s in servidores], "servidores del modelo repetidos", manifiesto)
    return servidores


def _servidor(tabla: dict, donde: str) -> ServidorDelModelo:
    for clave in ("titulo", "url", "formato", "modelo"):
        if not isinstance(tabla.get(clave), str) or not tabla[clave].strip():
            raise ErrorDeManifiesto(f"{donde}: falta «{clave}» (un texto entre comillas); añádelo")
    if tabla["formato"] not in FORMATOS_DEL_MODELO:
        raise ErrorDeManifiesto(f"{donde}: formato «{tabla['formato']}» desconocido; usa «anthropic» u «openai»")
    clave = tabla.get("clave", True)
    if not isinstance(clave, bool):
        raise ErrorDeManifiesto(f"{donde}: «clave» es true (pide clave) o false (un modelo local); corrígelo")
    return ServidorDelModelo(
        tabla["titulo"].strip(),
        _url_del_modelo(tabla["url"].strip(), donde),
        tabla["formato"],
        tabla["modelo"].strip(),
        clave,
    )


def _url_del_modelo(url: str, donde: str) -> str:
    """La URL, si es https (o http a un modelo local de la máquina del alumno) y no lleva nada raro."""
    partes = urllib.parse.urlsplit(url)
    try:
        _ = partes.port  # un puerto que no es un número lanza ValueError
    except ValueError:
        partes = None
    if (
        partes is None
        or not partes.hostname
        or partes.username
        or partes.password
        or partes.query
        or partes.fragment
        or any(c in url for c in " ;,'\"*")
    ):
        raise ErrorDeManifiesto(
            f"{donde}: «{url}» no es una URL que pueda usar; escribe sólo el "
            "esquema, el servidor, el puerto y la ruta, como https://servidor/v1"
        )
    if partes.scheme == "http" and partes.hostname not in LOCALES:
        raise ErrorDeManifiesto(
            f"{donde}: «{url}» va sin cifrar; usa https (http sólo vale para un modelo "
            "local, en http://localhost o http://127.0.0.1)"
        )
    if partes.scheme not in ("http", "https"):
        raise ErrorDeManifiesto(f"{donde}: «{url}» no es https; usa una URL https://…")
    return url.rstrip("/")


def _sin_repetir(slugs: list[str], que: str, manifiesto: str) -> None:
    repetidos = sorted({s for s in slugs if slugs.count(s) > 1})
    if repetidos:
        raise ErrorDeManifiesto(f"{manifiesto}: hay {que} ({', '.join(repetidos)}); deja uno de cada")


def _rutas_de_modulos(rutas: tuple[str, ...], manifiesto: str) -> dict[str, Path]:
    """{nombre de fichero: ruta}; dos módulos no pueden llamarse igual, porque van a la misma carpeta."""
    nombres = {}
    for ruta in rutas:
        nombre = Path(ruta).name
        if nombre in nombres:
            raise ErrorDeManifiesto(f"{manifiesto}: dos módulos se llaman {nombre}; cambia el nombre de uno")
        nombres[nombre] = RAIZ / ruta
    return nombres


def _comprueba_ficheros(curso: Curso) -> None:
    for nombre, ruta in curso.rutas_de_modulos.items():
        if not ruta.exists():
            raise ErrorDeManifiesto(f"el manifiesto nombra el módulo {nombre}, que no existe en {ruta.parent}")
    for leccion in curso.lecciones:
        if not leccion.fuente.exists():
            raise ErrorDeManifiesto(
                f"la lección «{leccion.slug}» no tiene fuente: crea lecciones/{leccion.slug}/leccion.md"
            )
        if leccion.desafio and not (RAIZ / "desafios" / leccion.desafio).is_dir():
            raise ErrorDeManifiesto(
                f"la lección «{leccion.slug}» nombra el desafío «{leccion.desafio}», que no tiene carpeta en desafios/"
            )
