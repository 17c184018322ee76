"""Una entrega a submitted/<alumno>/<desafío>/, con su timestamp.txt, salvo que ya haya una igual o más nueva.

La que se sustituye se guarda en .anteriores/ (anteriores.py), con sus notas a mano.
"""

import secrets
import shutil
from datetime import datetime
from pathlib import Path

from cursos.calificador.cuaderno import EntregaInvalida, lee_entrega
from cursos.desafio import Desafio
from cursos.profesor import anteriores, libro
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.quien import HOLGURA, Candidata, Linea
from cursos.profesor.tiempo import ahora_utc, en_zona, hora_de_la_entrega

DEL_AULA = ".carpeta-del-aula"  # de qué carpeta del LMS vino lo recogido (para los conflictos entre recogidas)
SECRETO = "submission_secret.txt"  # como lo escribe `nbgrader submit`: release_feedback lo necesita
FORMATO_HORA = "%Y-%m-%d %H:%M:%S.%f UTC"  # el de timestamp.txt de nbgrader (timestamp_format)


def _carpeta_recogida(carpeta: Path) -> str | None:
    """La carpeta del LMS de la que vino lo que ya hay en submitted/ ("" si de ninguna); None si no se sabe."""
    try:
        return (carpeta / DEL_AULA).read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return None


def pon_secreto(carpeta: Path) -> None:
    """submission_secret.txt como lo deja `nbgrader submit` (secrets.token_hex(64), sin salto de
    línea): con él `nbgrader release_feedback` sabe con qué nombre dejar la devolución."""
    (carpeta / SECRETO).write_text(secrets.token_hex(64), encoding="utf-8")


def _no_la_coloca(c: Candidata, rutas: Carpetas, carpeta: Path, anterior: datetime | None, tz) -> Linea | None:
    """La línea de una entrega que no se coloca y deja la que había: de otra carpeta del aula, igual o
    más vieja que la de submitted/, o que no se puede calificar y la de submitted/ sí; None si se coloca."""
    destino = carpeta / f"{c.desafio}.ipynb"
    hora = c.hora.strftime(FORMATO_HORA)
    otra = _carpeta_recogida(carpeta)
    if not c.confirmada and otra is not None and otra != (c.carpeta or ""):
        return Linea(
            c.origen,
            False,
            f"conflicto: el cuaderno dice que es de «{c.alumno}», pero la entrega de "
            f"«{c.alumno}» que ya está en submitted/ vino de la carpeta «{otra or '(ninguna)'}» y éste, "
            f"de «{c.carpeta or '(ninguna)'}»: no se recoge y se queda la que había; averigua de quién "
            "es cada una",
            c.alumno,
            c.desafio,
        )
    if anterior is not None and anterior >= c.hora:
        igual = destino.is_file() and destino.read_bytes() == c.fichero.read_bytes()
        if igual and not (carpeta / SECRETO).is_file():  # recogida por una versión anterior
            pon_secreto(carpeta)
        if igual:
            motivo = "ya estaba recogida"
        elif anterior == c.hora:
            motivo = f"es la misma hora ({en_zona(hora, tz)}) que la que ya hay en submitted/: se queda la que había"
        else:
            motivo = (
                f"en submitted/ ya hay una entrega más nueva ({en_zona(anterior, tz)}) que esta "
                f"({en_zona(c.hora, tz)}): se deja la que había"
            )
            if anteriores.versiones(carpeta):
                motivo += (
                    f" (si la que vale es una anterior, `./curso restaurar --alumno {c.alumno} --desafio {c.desafio}`)"
                )
        return Linea(c.origen, False, motivo + c.aviso, c.alumno, c.desafio, ya_estaba=igual, se_queda=not igual)
    if anterior is not None:
        rota = _no_se_puede_calificar(c.fichero, c.desafio, rutas)
        if rota and not _no_se_puede_calificar(_cuaderno_de(carpeta), c.desafio, rutas):
            return Linea(
                c.origen,
                False,
                f"no sustituye a la de {en_zona(anterior, tz)}, que sí se puede calificar: "
                f"ésta no ({rota}); se queda la que había, sin cambios. Si de verdad es la que vale, que el "
                "alumno la entregue otra vez bien",
                c.alumno,
                c.desafio,
                se_queda=True,
            )
    return None


def coloca(c: Candidata, rutas: Carpetas, curso: CursoNbgrader) -> Linea:
    """Copia la entrega a submitted/ salvo que ya haya una igual o más nueva, o que ésta no se pueda
    calificar y la que hay sí. La que se sustituye se guarda en .anteriores/, con sus notas a mano."""
    tz = curso.zona()
    carpeta = rutas.de_alumno("submitted", c.alumno, c.desafio)
    anterior = hora_de_la_entrega(carpeta) if carpeta.is_dir() else None
    if anterior is not None and anterior > ahora_utc() + HOLGURA:
        anterior = None  # una hora en el futuro (un reloj mal puesto) no para una entrega de verdad
    no = _no_la_coloca(c, rutas, carpeta, anterior, tz)
    if no is not None:
        return no
    guardada, notas = (
        anteriores.guarda(carpeta, curso, c.desafio, c.alumno)
        if anterior is not None and carpeta.is_dir()
        else (None, {})
    )
    carpeta.mkdir(parents=True, exist_ok=True)
    destino = carpeta / f"{c.desafio}.ipynb"
    for viejo in carpeta.glob("*.ipynb"):  # una sola entrega por carpeta (sin hora no se guardaba)
        viejo.unlink()
    shutil.copyfile(c.fichero, destino)
    (carpeta / "timestamp.txt").write_text(c.hora.strftime(FORMATO_HORA), encoding="utf-8")
    pon_secreto(carpeta)  # una entrega nueva, un secreto nuevo, como en cada `nbgrader submit`
    (carpeta / DEL_AULA).write_text(c.carpeta or "", encoding="utf-8")
    avisos = [c.identidad.removeprefix("; ")] if c.identidad else []
    sustituye = ""
    if guardada is not None:
        sustituye = (
            f"; sustituye a la de {en_zona(anterior, tz)}, que se guarda en "
            f"{guardada.relative_to(rutas.raiz)}/ (`./curso restaurar --alumno {c.alumno} "
            f"--desafio {c.desafio}` la vuelve a poner)"
        )
    if notas:
        a_mano = (
            f"⚠ la entrega sustituida tenía {libro.describe_notas_a_mano(notas)} en el libro: eran de "
            f"aquel cuaderno, así que se quitan del libro y se guardan con él; ponlas otra vez en formgrader "
            "si siguen valiendo"
        )
        avisos.append(a_mano)
        sustituye += "; " + a_mano
    (carpeta / anteriores.AVISOS).unlink(missing_ok=True)
    if avisos:
        (carpeta / anteriores.AVISOS).write_text("; ".join(avisos), encoding="utf-8")
    return Linea(
        c.origen,
        True,
        f"→ {carpeta.relative_to(rutas.raiz)}/ ({c.de_donde}: {en_zona(c.hora, tz)}){sustituye}{c.aviso}",
        c.alumno,
        c.desafio,
    )


def _cuaderno_de(carpeta: Path) -> Path | None:
    cuadernos = sorted(carpeta.glob("*.ipynb"))
    return cuadernos[0] if len(cuadernos) == 1 else None


def _no_se_puede_calificar(ruta: Path | None, slug: str, rutas: Carpetas) -> str:
    """Por qué el calificador daría un 0 sin probar nada (sin celda de la solución, roto, vacío…); "" si se puede."""
    if ruta is None:
        return "no hay un cuaderno"
    try:
        desafio = Desafio(slug)
        repartido = rutas.del_desafio("release", slug) / desafio.cuaderno
        lee_entrega(desafio, ruta, repartido if repartido.is_file() else None)
    except EntregaInvalida as e:
        return str(e)
    except OSError as e:
        return e.strerror or str(e)
    return ""


def coloca_las_mas_nuevas(candidatas: list[Candidata], curso_nbgrader: Path) -> list[Linea]:
    """De cada alumno y desafío, la más nueva; las demás, al informe como duplicadas."""
    grupos: dict[tuple[str, str], list[Candidata]] = {}
    for c in candidatas:
        grupos.setdefault((c.alumno, c.desafio), []).append(c)
    informe, rutas, curso = [], Carpetas.de(curso_nbgrader), CursoNbgrader.de(curso_nbgrader)
    for grupo in grupos.values():
        # A la misma hora (ficheros copiados a la vez) desempata la «descargado» que vale.
        grupo.sort(key=lambda c: (c.hora, c.descargado or datetime.min, c.origen))
        nueva = grupo[-1]
        for vieja in grupo[:-1]:
            cual = "a la misma hora" if vieja.hora == nueva.hora else "más nueva"
            informe.append(
                Linea(
                    vieja.origen,
                    False,
                    f"duplicada: {nueva.alumno} entregó otra {cual} ({nueva.origen}, "
                    f"{en_zona(nueva.hora, curso.zona())}); se queda aquélla{vieja.aviso}",
                    vieja.alumno,
                    vieja.desafio,
                    duplicada=True,
                )
            )
        informe.append(coloca(nueva, rutas, curso))
    return informe
