"""La configuración del curso de nbgrader: la del profesor manda y nunca se pisa.

Lo que necesitan los desafíos (el texto con que nbgrader cambia la solución, que tiene que
ser el mismo que pone la página de la lección) va en un fichero propio,
nbgrader_config_curso.py, y el nbgrader_config.py del profesor lo carga con una línea que se
le añade al final una sola vez. Su course_id, su política de retrasos, su intercambio y su
db_url siguen siendo suyos. Si no hay nbgrader_config.py, se crea uno mínimo con esa línea.

Para calificar se lee la configuración como la lee nbgrader (las carpetas de configuración
de Jupyter y después la del curso), para usar el mismo libro de notas, el mismo course_id y
la misma política de retrasos (`c.LateSubmissionPlugin.penalty_method`, o el plugin propio
que el profesor ponga en `c.AssignLatePenalties.plugin_class`).
"""

import sys
from dataclasses import dataclass
from pathlib import Path

from cursos.desafio import STUB
from cursos.errores import ErrorDelCurso

CONFIG = "nbgrader_config.py"
PROPIA = "nbgrader_config_curso.py"
TEXTO_PROPIO = f"""# Generado por `./curso desafio`: lo que necesitan los desafíos del curso «Agentes LLM».
# Lo carga nbgrader_config.py; se reescribe en cada `./curso desafio`: tus ajustes, en nbgrader_config.py.
c = get_config()  # noqa: F821
c.ClearSolutions.code_stub = {{"python": {STUB!r}}}
c.ClearSolutions.text_stub = "Escribe aquí tu respuesta."
"""
CARGA = (
    f"\n# Añadido por `./curso desafio` (los desafíos del curso necesitan {PROPIA}; no lo quites):\n"
    f"load_subconfig({PROPIA!r})  # noqa: F821\n"
)
NUEVA = (
    """# Configuración de nbgrader de este curso: es tuya (course_id, retrasos, intercambio, db_url…).
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "llm-agents"
# Política de retrasos de nbgrader: "none" (sin penalización) o "zero" (un 0 si llega tarde).
# c.LateSubmissionPlugin.penalty_method = "zero"
"""
    + CARGA
)


class ErrorDeConfiguracion(ErrorDelCurso):
    """La configuración del curso no se puede leer; el mensaje dice qué corregir."""


def prepara(curso: Path) -> None:
    """Escribe nbgrader_config_curso.py y hace que nbgrader_config.py lo cargue, sin tocar lo demás."""
    (curso / PROPIA).write_text(TEXTO_PROPIO, encoding="utf-8")
    config = curso / CONFIG
    if not config.exists():
        config.write_text(NUEVA, encoding="utf-8")
        return
    texto = config.read_text(encoding="utf-8")
    if PROPIA not in texto:  # ya lo carga: no se añade otra vez
        with config.open("a", encoding="utf-8") as f:
            f.write(("" if texto.endswith("\n") or not texto else "\n") + CARGA)


def lee(curso: Path):
    """La configuración de nbgrader para este curso, leída como la lee nbgrader desde su carpeta."""
    from jupyter_core.paths import jupyter_config_path
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    # De menos a más prioridad, como nbgrader: las carpetas de Jupyter y al final la del curso.
    for carpeta in [*reversed(jupyter_config_path()), str(curso)]:
        if (Path(carpeta) / CONFIG).is_file():
            try:
                config.merge(PyFileConfigLoader(CONFIG, path=carpeta).load_config())
            except Exception as e:
                raise ErrorDeConfiguracion(
                    f"no se puede leer {Path(carpeta) / CONFIG} ({type(e).__name__}: {e}); corrígelo y vuelve a probar"
                ) from None
    return config


def zona_de_nbgrader(config) -> str | None:
    """c.Exchange.timezone si la configuración la pone (sin ella, None: nbgrader diría «UTC» por omisión)."""
    exchange = config["Exchange"] if "Exchange" in config else {}
    nombre = exchange.get("timezone") if "timezone" in exchange else None
    return nombre.strip() if isinstance(nombre, str) and nombre.strip() else None


def aviso_de_zona(carpeta: Path) -> str | None:
    """El aviso si profesor.toml pone otra zona que la configuración de nbgrader del curso (None si no)."""
    return CursoNbgrader.de(carpeta).aviso_de_zona()


@dataclass
class CursoNbgrader:
    """Una carpeta de curso de nbgrader con su configuración: dónde está el libro y cómo se penaliza."""

    carpeta: Path
    config: object

    @classmethod
    def de(cls, carpeta: Path) -> "CursoNbgrader":
        return cls(carpeta, lee(carpeta))

    def coursedir(self):
        from nbgrader.coursedir import CourseDirectory

        # La raíz es la carpeta que se ha dado, aunque la configuración diga otra.
        return CourseDirectory(config=self.config, root=str(self.carpeta.resolve()))

    @property
    def db_url(self) -> str:
        return self.coursedir().db_url

    @property
    def course_id(self) -> str:
        return self.coursedir().course_id

    @property
    def libro_local(self) -> Path | None:
        """El fichero SQLite del libro, si el libro es un SQLite; None si es un servidor (PostgreSQL…)."""
        url = self.db_url
        return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None

    def zona_elegida(self) -> tuple[str | None, str]:
        """(nombre de la zona del curso o None, de dónde sale): c.Exchange.timezone de su configuración
        manda sobre «zona_horaria» de profesor.toml, porque la zona es del curso (la misma para todos
        sus profesores) y no de esta copia del repositorio."""
        del_curso = zona_de_nbgrader(self.config)
        if del_curso:
            return del_curso, f"c.Exchange.timezone de {self.carpeta / CONFIG}"
        return ajustes().get("zona_horaria"), f"«zona_horaria» de {ruta_de_ajustes()}"

    def zona(self):
        """La zona horaria del curso (un ZoneInfo) o, sin ninguna elegida, None: la de esta máquina.

        Es la de las horas que no la dicen (las de las entradas de un zip, que guarda la hora del
        reloj de quien lo hizo) y la que se escribe para el profesor junto a la UTC.
        """
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        nombre, origen = self.zona_elegida()
        if not nombre:
            return None  # la de la máquina, con su horario de verano (astimezone() y timestamp() sin zona)
        try:
            return ZoneInfo(nombre)
        except (ZoneInfoNotFoundError, ValueError):
            raise ErrorDeConfiguracion(
                f"la zona horaria «{nombre}» ({origen}) no existe: usa una como «Europe/Madrid» o «America/Bogota»"
            ) from None

    def aviso_de_zona(self) -> str | None:
        """El aviso si profesor.toml pone otra zona que la configuración de nbgrader (None si no)."""
        del_curso, del_profesor = zona_de_nbgrader(self.config), ajustes().get("zona_horaria")
        if not del_curso or not del_profesor or del_profesor.strip() == del_curso:
            return None
        return (
            f"⚠ dos zonas horarias: «{del_curso}» en c.Exchange.timezone de {self.carpeta / CONFIG} y "
            f"«{del_profesor}» en «zona_horaria» de {ruta_de_ajustes()}. Se usa «{del_curso}», la del curso: "
            "la zona es del curso, no de esta copia del repositorio. Quita zona_horaria de profesor.toml (o pon "
            "la misma) para que no salga este aviso"
        )

    def penaliza_retrasos(self) -> bool:
        """¿Hay en la configuración una política de retrasos que penaliza (un plugin propio, o «zero»)?"""
        asignador = self.config.get("AssignLatePenalties", {})
        metodo = self.config.get("LateSubmissionPlugin", {}).get("penalty_method", "none")
        return "plugin_class" in asignador or metodo != "none"

    def penalizador(self):
        """El plugin de retrasos de nbgrader con la configuración del curso (el mismo que usa autograde)."""
        from nbgrader.preprocessors import AssignLatePenalties

        # nbgrader busca los plugins en la carpeta desde la que se lanza, la del curso (su
        # documentación pone el plugin al lado de nbgrader_config.py); ./curso se lanza desde otra.
        carpeta = str(self.carpeta.resolve())
        if carpeta not in sys.path:
            sys.path.insert(0, carpeta)
        try:
            asignador = AssignLatePenalties(config=self.config)
            asignador.init_plugin()
        except Exception as e:
            clase = self.config.get("AssignLatePenalties", {}).get("plugin_class", "LateSubmissionPlugin")
            primera = (str(e).strip().splitlines() or [""])[0]
            raise ErrorDeConfiguracion(
                f"no se puede cargar el plugin de retrasos «{clase}» de {self.carpeta / CONFIG} "
                f"({type(e).__name__}: {primera}); ponlo en la carpeta del curso (p. ej. "
                f"{self.carpeta / 'penalizacion.py'} para «penalizacion.Clase») o instálalo en el Python de "
                "./curso, y vuelve a probar"
            ) from None
        return asignador


# Los ajustes del profesor que no son de nbgrader: la carpeta del curso y el desafío por omisión
# (para no repetir --nbgrader y --desafio en cada orden) y la zona horaria del curso. En
# profesor.toml, en la raíz del repositorio (fuera de git), o donde diga CURSO_PROFESOR.
AJUSTES = "profesor.toml"


def ruta_de_ajustes() -> Path:
    import os

    from cursos import RAIZ

    return Path(os.environ.get("CURSO_PROFESOR") or RAIZ / AJUSTES)


def ajustes() -> dict:
    """profesor.toml leído y comprobado con su esquema ({} si no hay); una clave desconocida o mal
    escrita es un error que dice cuáles hay."""
    from cursos import esquemas

    ruta = ruta_de_ajustes()
    if not ruta.is_file():
        return {}
    datos = esquemas.lee_toml(ruta, esquemas.Profesor, ErrorDeConfiguracion, str(ruta))
    return {k: v for k, v in vars(datos).items() if v is not None}
