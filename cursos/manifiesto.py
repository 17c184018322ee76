"""Lee el manifiesto de un curso (cursos/<slug>.toml) y comprueba que cuadra con el disco."""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cursos import RAIZ
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
class Curso:
    slug: str
    titulo: str
    descripcion: str
    rutas_de_modulos: dict[str, Path]  # nombre de fichero -> dónde está en el repositorio
    # Cada bloque, como en el manifiesto: slug, titulo, descripcion ("" si no la tiene) y sus lecciones.
    bloques: list[dict] = field(default_factory=list)
    lecciones: list[Leccion] = field(default_factory=list)
    # La presentación ([presentacion] del manifiesto), en Markdown: para_quien, supone, modelo.
    # La usan la portada del sitio y la de los cuadernos; {} si el manifiesto no la trae.
    presentacion: dict[str, str] = field(default_factory=dict)

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


def _exige(tabla: dict, clave: str, donde: str):
    if clave not in tabla:
        raise ErrorDeManifiesto(f"{donde}: falta la clave «{clave}». Añádela al manifiesto.")
    return tabla[clave]


def leer_curso(slug: str = "llm-agents") -> Curso:
    """El curso descrito en cursos/<slug>.toml, comprobado contra los ficheros."""
    ruta = RAIZ / "cursos" / f"{slug}.toml"
    if not ruta.exists():
        raise ErrorDeManifiesto(f"no existe el manifiesto {ruta}: crea cursos/{slug}.toml")
    try:
        datos = tomllib.loads(ruta.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ErrorDeManifiesto(f"{ruta.name} no es TOML válido ({e}). Corrige esa línea.") from e
    lecciones, bloques = [], []
    for bloque in _exige(datos, "bloques", ruta.name):
        donde = f"{ruta.name}, bloque «{bloque.get('slug', '?')}»"
        bloques.append(_bloque(bloque, donde))
        for tabla in _exige(bloque, "lecciones", donde):
            lecciones.append(Leccion(
                slug=_exige(tabla, "slug", donde),
                titulo=_exige(tabla, "titulo", donde),
                minutos=tabla.get("minutos", 30),
                desafio=tabla.get("desafio"),
                bloque=_exige(bloque, "slug", ruta.name),
                temas=_temas(tabla, donde),
            ))
    curso = Curso(
        slug=_exige(datos, "slug", ruta.name),
        titulo=_exige(datos, "titulo", ruta.name),
        descripcion=datos.get("descripcion", ""),
        rutas_de_modulos=_rutas_de_modulos(_exige(datos, "modulos", ruta.name), ruta.name),
        bloques=bloques,
        lecciones=lecciones,
        presentacion=_presentacion(datos.get("presentacion", {}), ruta.name),
    )
    _sin_repetir([b["slug"] for b in bloques], "bloques repetidos", ruta.name)
    _sin_repetir([lec.slug for lec in lecciones], "lecciones repetidas", ruta.name)
    _comprueba_ficheros(curso)
    return curso


def _temas(tabla: dict, donde: str) -> tuple[str, ...]:
    temas = tabla.get("temas", [])
    if not isinstance(temas, list) or not all(isinstance(tema, str) and tema.strip() for tema in temas):
        raise ErrorDeManifiesto(f"{donde}, lección «{tabla.get('slug', '?')}»: «temas» es una lista de textos, "
                                'como temas = ["los errores"]; corrígelo')
    return tuple(temas)


def _bloque(bloque: dict, donde: str) -> dict:
    """El bloque tal como está en el manifiesto, con su descripción ("" si no la tiene, como antes)."""
    descripcion = bloque.get("descripcion", "")
    if not isinstance(descripcion, str):
        raise ErrorDeManifiesto(f"{donde}: «descripcion» debe ser un texto entre comillas")
    slug = _exige(bloque, "slug", donde)
    return {**bloque, "slug": slug, "titulo": bloque.get("titulo", slug), "descripcion": descripcion}


# Las claves de [presentacion]; la que falte queda en "" (un manifiesto puede no traerla).
PRESENTACION = ("para_quien", "supone", "modelo")


def _presentacion(tabla, manifiesto: str) -> dict[str, str]:
    if not isinstance(tabla, dict) or not all(isinstance(v, str) for v in tabla.values()):
        raise ErrorDeManifiesto(f'{manifiesto}: [presentacion] lleva sólo textos (para_quien = """…"""); corrígelo')
    return {clave: tabla.get(clave, "") for clave in PRESENTACION} | tabla


def _sin_repetir(slugs: list[str], que: str, manifiesto: str) -> None:
    repetidos = sorted({s for s in slugs if slugs.count(s) > 1})
    if repetidos:
        raise ErrorDeManifiesto(f"{manifiesto}: hay {que} ({', '.join(repetidos)}); deja uno de cada")


def _rutas_de_modulos(rutas: list[str], manifiesto: str) -> dict[str, Path]:
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
                f"la lección «{leccion.slug}» no tiene fuente: crea lecciones/{leccion.slug}/leccion.md")
        if leccion.desafio and not (RAIZ / "desafios" / leccion.desafio).is_dir():
            raise ErrorDeManifiesto(
                f"la lección «{leccion.slug}» nombra el desafío «{leccion.desafio}», "
                f"que no tiene carpeta en desafios/")
