"""Dónde guarda cada cosa un curso de nbgrader: las carpetas las decide su configuración.

Un profesor puede cambiar los nombres (`c.CourseDirectory.submitted_directory = "entregas"`,
y lo mismo con source, release, autograded y feedback) o la forma de las rutas
(`c.CourseDirectory.directory_structure`). Todo lo que lee o escribe en la carpeta del curso
pide aquí la ruta, y aquí se calcula con `CourseDirectory.format_path` de nbgrader, el mismo
que usan sus órdenes: así `./curso recoger`, `./curso calificar`, formgrader y
`nbgrader release_feedback` miran siempre en el mismo sitio.
"""

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

PASOS = ("source", "release", "submitted", "autograded", "feedback")


@dataclass(frozen=True)
class Carpetas:
    """Las rutas de un curso con su configuración (la de las carpetas de Jupyter y la del curso)."""

    raiz: Path
    nombres: dict  # paso: el nombre de su carpeta según la configuración
    estructura: str  # directory_structure, con {nbgrader_step}, {student_id} y {assignment_id}

    @classmethod
    def de(cls, curso_nbgrader: Path) -> "Carpetas":
        from cursos.profesor.configuracion import CursoNbgrader

        dir_ = CursoNbgrader.de(curso_nbgrader).coursedir()
        return cls(Path(dir_.root), {p: getattr(dir_, f"{p}_directory") for p in PASOS}, dir_.directory_structure)

    def nombre(self, paso: str) -> str:
        """El nombre de la carpeta del paso («submitted», o el que haya puesto el profesor)."""
        return self.nombres[paso]

    def de_alumno(self, paso: str, alumno: str, slug: str) -> Path:
        """submitted/<alumno>/<desafío>, autograded/… o feedback/…, como lo escribe nbgrader."""
        relativa = self.estructura.format(nbgrader_step=self.nombres[paso], student_id=alumno, assignment_id=slug)
        return self.raiz / relativa

    def del_desafio(self, paso: str, slug: str) -> Path:
        """source/<desafío> o release/<desafío>: nbgrader pone «.» en el lugar del alumno."""
        return self.de_alumno(paso, ".", slug)

    def entregas(self, slug: str) -> list[tuple[str, Path]]:
        """(alumno, carpeta) de cada carpeta de entrega del desafío, por orden de ruta.

        Las rutas salen de la estructura con «*» en el lugar del alumno, y el alumno, de la
        parte de la ruta que ocupa ese «*». Los enlaces simbólicos también salen: quien los
        califica los rechaza con su motivo en vez de saltarlos en silencio.
        """
        patron = self.de_alumno("submitted", "*", slug).relative_to(self.raiz)
        lector = re.compile(
            re.escape(patron.as_posix()).replace(r"\*", "(?P<alumno>[^/]+)", 1).replace(r"\*", "(?P=alumno)")
        )
        halladas = []
        for ruta in _expande(self.raiz, patron.parts):
            hallado = lector.fullmatch(ruta.relative_to(self.raiz).as_posix())
            if hallado and (ruta.is_dir() or ruta.is_symlink()):
                halladas.append((hallado["alumno"], ruta))
        return halladas


def _expande(raiz: Path, partes: tuple[str, ...]) -> list[Path]:
    """Las rutas que casan con partes («*» en alguna), sin descartar enlaces simbólicos rotos
    (Path.glob los salta, y aquí tienen que llegar para que se rechacen con su motivo)."""
    rutas = [raiz]
    for parte in partes:
        if "*" not in parte:
            rutas = [r / parte for r in rutas]
            continue
        rutas = [
            hijo for r in rutas if r.is_dir() for hijo in sorted(r.iterdir()) if fnmatch.fnmatchcase(hijo.name, parte)
        ]
    return rutas
