"""Ninguna entrega se pierde al sustituirla: submitted/<alumno>/<desafío>/.anteriores/<hora>/.

Cuando `curso recoger` pone una entrega más nueva, la que había (su cuaderno, timestamp.txt,
el secreto, la carpeta del aula) se mueve a .anteriores/<su hora>/, con las notas a mano y los
comentarios que el profesor le puso en formgrader (que se quitan del libro: eran de aquel
cuaderno, no del nuevo). `curso restaurar` la vuelve a poner, con sus notas, y guarda a su vez
la que se quita: se puede deshacer. La carpeta empieza por «.»: ni nbgrader ni `curso calificar`
la miran (califican el único .ipynb de la carpeta de la entrega).
"""

import json
import shutil
from pathlib import Path

from cursos.errores import ErrorDelCurso
from cursos.profesor import libro
from cursos.profesor.configuracion import CursoNbgrader

ANTERIORES = ".anteriores"
NOTAS = "notas-del-libro.json"
AVISOS = ".avisos-de-recogida"  # lo que la recogida tiene que decir en el CSV (lo lee tiempo.py)


class SinAnterior(ErrorDelCurso):
    """No hay entrega anterior que restaurar; el mensaje dice cuáles hay."""


def _nombre_de(hora: str) -> str:
    """«2026-11-20 11:00:30.000000 UTC» → «2026-11-20T11-00-30Z»: vale como nombre de carpeta."""
    limpio = hora.strip().removesuffix(" UTC").split(".")[0]
    return limpio.replace(" ", "T").replace(":", "-") + "Z" if limpio else "sin-hora"


def guarda(carpeta: Path, curso: CursoNbgrader, slug: str, alumno: str) -> tuple[Path, dict]:
    """Mueve la entrega de carpeta a .anteriores/<hora>/ con sus notas a mano (que salen del libro)."""
    sello = carpeta / "timestamp.txt"
    hora = sello.read_text(encoding="utf-8", errors="replace") if sello.is_file() else ""
    base = carpeta / ANTERIORES / _nombre_de(hora)
    destino, n = base, 1
    while destino.exists():
        n += 1
        destino = base.with_name(f"{base.name}-{n}")
    notas = libro.quita_notas_a_mano(curso, slug, alumno)  # antes de mover nada: si el libro falla, no se toca
    destino.mkdir(parents=True)
    for ruta in list(carpeta.iterdir()):
        if ruta.name != ANTERIORES:
            shutil.move(str(ruta), destino / ruta.name)
    if notas:
        (destino / NOTAS).write_text(json.dumps(notas, ensure_ascii=False, indent=1), encoding="utf-8")
    return destino, notas


def versiones(carpeta: Path) -> list[Path]:
    """Las entregas guardadas, de la más vieja a la más nueva."""
    guardadas = carpeta / ANTERIORES
    return sorted((p for p in guardadas.iterdir() if p.is_dir()), key=lambda p: p.name) if guardadas.is_dir() else []


def restaura(carpeta: Path, curso: CursoNbgrader, slug: str, alumno: str, version: str | None = None) -> list[str]:
    """Pone otra vez la entrega guardada (la más nueva de .anteriores/, o la de `version`); la que
    había se guarda también. Devuelve lo que ha hecho, en líneas para el profesor."""
    hay = versiones(carpeta)
    if not hay:
        raise SinAnterior(f"{alumno} no tiene entregas anteriores guardadas en {carpeta / ANTERIORES}/")
    elegida = hay[-1] if version is None else next((p for p in hay if p.name == version), None)
    if elegida is None:
        raise SinAnterior(
            f"no hay una entrega anterior «{version}» de {alumno}; las que hay: {', '.join(p.name for p in hay)}"
        )
    lineas = []
    if any(p.name != ANTERIORES for p in carpeta.iterdir()):
        guardada, notas = guarda(carpeta, curso, slug, alumno)
        extra = f", con {libro.describe_notas_a_mano(notas)}" if notas else ""
        lineas.append(f"la entrega que había se guarda en {guardada}{extra}")
    notas_path = elegida / NOTAS
    notas = json.loads(notas_path.read_text(encoding="utf-8")) if notas_path.is_file() else {}
    notas_path.unlink(missing_ok=True)
    for ruta in list(elegida.iterdir()):
        shutil.move(str(ruta), carpeta / ruta.name)
    elegida.rmdir()
    (carpeta / AVISOS).unlink(missing_ok=True)  # los avisos eran de la que se sustituyó
    lineas.append(
        " ".join(
            filter(
                None, ["restaurada la entrega de", alumno, _cuando(carpeta, curso.zona()), f"(versión {elegida.name})"]
            )
        )
    )
    if notas and libro.pon_notas_a_mano(curso, slug, alumno, notas):
        lineas.append(f"y sus notas del libro: {libro.describe_notas_a_mano(notas)}")
    return lineas


def _cuando(carpeta: Path, tz) -> str:
    """«del 2026-11-20 11:00:00 Europe/Madrid (10:00:00 UTC)», de su timestamp.txt ("" si no se lee)."""
    from cursos.profesor.tiempo import en_zona

    try:
        return "del " + en_zona((carpeta / "timestamp.txt").read_text(encoding="utf-8").strip(), tz)
    except (OSError, ValueError, UnicodeError):
        return ""
