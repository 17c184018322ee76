"""`curso recoger`: de lo que entregan los alumnos (una carpeta o el zip del LMS) a
submitted/<alumno>/<desafío>/<desafío>.ipynb con su timestamp.txt, como lo espera nbgrader.

En tres pasos, cada uno en su módulo: desempaqueta.py (los zips y la hora de cada fichero),
quien.py (de quién es cada uno, de qué desafío y de qué hora) y coloca.py (a submitted/).

De nbgrader se usa lo que sirve tal cual: su FileNameCollectorPlugin, configurado con un
patrón, saca el alumno del nombre del fichero o de su carpeta. Los zips se desempaquetan aquí
(también los de dentro de otro zip, sin rutas con «..»): el ExtractorPlugin de nbgrader pone a
lo de un zip de dentro la hora a la que se desempaqueta (y un alumno que sube entrega.zip a tiempo
saldría tarde) y se para entero si uno de dentro está roto. `nbgrader zip_collect`
entero no sirve: vacía submitted/<alumno>/ con --force (y una entrega vieja pisaría una
nueva), se para ante un duplicado sin hora y no lee los metadatos del cuaderno, que es
donde «Descargar para entregar» pone el alumno, el desafío y la hora. Eso es lo que se
escribe aquí, con un informe de cada fichero.

De dónde sale cada dato de una entrega:
- alumno: con lista de alumnos en el libro, el de la carpeta de Moodle o el nombre de Canvas
  casado con esa lista (lista.py: en Moodle manda el nombre; su número es de la tarea y sólo
  se comprueba), o el de la carpeta si es el identificador de uno de ellos; un
  cuaderno que dice otro se recoge para ése y se marca. Sin lista, lo de siempre:
  el de la carpeta que el LMS crea para cada alumno (por omisión, la primera carpeta
  dentro de la entrada; con --patron, su grupo «alumno»), porque el LMS sabe quién entrega;
  metadata["curso"]["alumno"] (lo pone la página, que lo recuerda en el navegador: en un
  ordenador compartido puede ser el de otro) nunca hace que un cuaderno sustituya la entrega de
  otro alumno:
  - carpeta con identificador (o --patron) distinto del del cuaderno: no se recoge, con los dos;
  - carpeta que no es un identificador (el nombre completo que ponen Moodle o Canvas): vale el
    del cuaderno, pero si dos carpetas distintas dicen ser del mismo alumno (en esta entrada, o
    una ya recogida antes) es un conflicto y no se recoge ninguna (lo de submitted/ se queda);
  - sin carpeta (un cuaderno suelto): el del cuaderno.
- desafío: metadata["curso"]["desafio"] (lo trae el cuaderno repartido), si este curso lo ha
  repartido (release/<desafío>/).
- hora: la del lado del profesor: la del grupo «hora» del patrón; si no, la de su entrada en el
  zip más de dentro que la tenga (un zip dentro del del LMS, o el del LMS comprimido otra vez) o
  la fecha del fichero; un fichero de un zip sin hora no se recoge. metadata["curso"]["descargado"] la pone el reloj del
  navegador del alumno: sólo se informa (en la línea, si difiere más de unos minutos), salvo con
  --hora alumno (ficheros copiados que han perdido su fecha). Aun así, una «descargado» en el
  futuro o posterior a la hora del profesor no se usa.
"""

import re
import shutil
import tempfile
from pathlib import Path

from cursos.profesor.carpetas import Carpetas
from cursos.profesor.coloca import coloca_las_mas_nuevas
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.desempaqueta import IGNORADOS, EntradaInvalida, desempaqueta, sin_envoltorio
from cursos.profesor.quien import ColectorDelCurso, Linea, lee_candidata, lista_del_libro, sin_conflictos

PATRON = r"(?P<alumno>[^/]+)/"  # la primera carpeta dentro de la entrada
HORAS = ("fichero", "alumno")  # de dónde sale la hora de una entrega (--hora)


def _comprueba(entrada: Path, desafios: set[str], solo: str | None, patron: str, hora: str) -> None:
    """EntradaInvalida si no se puede empezar a recoger con lo que se ha pedido."""
    if not entrada.exists():
        raise EntradaInvalida(f"no existe {entrada}: da la carpeta o el zip con las entregas")
    if entrada.is_file() and entrada.suffix not in (".zip", ".ipynb"):
        raise EntradaInvalida(
            f"{entrada.name} no es ni una carpeta ni un .zip: da la carpeta o el zip con las entregas"
        )
    try:
        grupos = re.compile(patron).groupindex
    except re.error as e:
        raise EntradaInvalida(f"el patrón {patron!r} no es una expresión regular válida ({e})") from None
    if "alumno" not in grupos and "student_id" not in grupos:
        raise EntradaInvalida(
            f"el patrón {patron!r} no tiene el grupo del alumno: ponlo con (?P<alumno>…), "
            "p. ej. --patron '(?P<alumno>[^_/]+)_'"
        )
    if hora not in HORAS:
        raise EntradaInvalida(
            f"--hora {hora}: elige «fichero» (la fecha del fichero o del zip) o «alumno» "
            "(la que pone el navegador al descargar)"
        )
    if solo is not None and solo not in desafios:
        raise EntradaInvalida(f"el curso no tiene el desafío «{solo}»; los que tiene: {', '.join(sorted(desafios))}")


def recoge(
    entrada: Path,
    curso_nbgrader: Path,
    desafios: set[str],
    solo: str | None = None,
    patron: str = PATRON,
    hora: str = "fichero",
) -> list[Linea]:
    """Recoge todas las entregas de entrada (carpeta o zip); devuelve el informe, una línea por fichero."""
    _comprueba(entrada, desafios, solo, patron, hora)
    rutas, tz = Carpetas.de(curso_nbgrader), CursoNbgrader.de(curso_nbgrader).zona()
    colector = ColectorDelCurso(named_regexp=patron)
    lista = lista_del_libro(curso_nbgrader)
    conocidos = {a.id for a in lista}
    informe, candidatas = [], []
    with tempfile.TemporaryDirectory() as tmp:
        extraido = Path(tmp)
        horas, rotos = {}, {}
        if entrada.suffix == ".ipynb":  # un solo cuaderno: no hay carpeta de la que sacar el alumno
            shutil.copy2(entrada, extraido / entrada.name)
            del_zip = None
        else:
            del_zip, horas, rotos = desempaqueta(entrada, extraido, tz)
        base = extraido / del_zip if del_zip is not None else extraido  # el zip se extrae en su carpeta
        if patron == PATRON:
            base = sin_envoltorio(base)
        # Lo que queda fuera de base es lo que se ignora: el envoltorio ya desempaquetado, __MACOSX…
        ficheros = sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
        if not ficheros:
            raise EntradaInvalida(
                f"{entrada.name} está vací{'o' if entrada.is_file() else 'a'}: no hay ningún "
                "fichero que recoger; descarga otra vez las entregas del aula virtual"
            )
        for ruta in ficheros:
            relativa = ruta.relative_to(base)
            if any(p in IGNORADOS or p.startswith(".") for p in relativa.parts):
                continue
            if ruta in rotos:  # un zip de dentro que no se abre: lo demás se recoge
                motivo = f"{rotos[ruta]}: no se saca nada de él; que el alumno lo entregue otra vez"
                informe.append(Linea(relativa.as_posix(), False, motivo))
                continue
            if ruta.suffix == ".zip":  # ya desempaquetado: lo que cuenta es lo de dentro
                continue
            resultado = lee_candidata(
                ruta,
                relativa.as_posix(),
                colector,
                desafios,
                solo,
                patron != PATRON,
                hora,
                lista,
                horas.get(ruta),
                rutas,
                tz,
            )
            if isinstance(resultado, Linea):
                informe.append(resultado)
            elif conocidos and resultado.alumno not in conocidos:
                informe.append(
                    Linea(
                        resultado.origen,
                        False,
                        f"alumno desconocido «{resultado.alumno}»: no está en la lista de alumnos "
                        f"del libro de notas; si es un alumno, añádelo (nbgrader db student add "
                        f"{resultado.alumno}) y vuelve a recoger",
                        resultado.alumno,
                        resultado.desafio,
                    )
                )
            else:
                candidatas.append(resultado)
        candidatas, conflictos = sin_conflictos(candidatas)
        informe += conflictos + coloca_las_mas_nuevas(candidatas, curso_nbgrader)
    return informe


def _marca(linea: Linea) -> str:
    if linea.recogida:
        return "✔"
    return "·" if linea.ya_estaba else "✘"  # lo ya recogido no es un fallo: nada que arreglar


def escribe_informe(informe: list[Linea]) -> str:
    lineas = [f"{_marca(linea)} {linea.origen}: {linea.motivo}" for linea in sorted(informe, key=lambda x: x.origen)]
    recogidas = sum(linea.recogida for linea in informe)
    ya = sum(linea.ya_estaba for linea in informe)
    sin_recoger = len(informe) - recogidas - ya
    if not recogidas and informe and all(linea.neutra for linea in informe):
        nada = []
        if ya:
            nada.append("la entrega ya estaba recogida" if ya == 1 else f"las {ya} entregas ya estaban recogidas")
        if sin_recoger:
            n = "s" if sin_recoger != 1 else ""
            nada.append(
                f"{sin_recoger} fichero{n} no se recoge{'n' if n else ''} y se queda la entrega que había, "
                "sin cambios (el motivo, arriba)"
            )
        lineas.append("Nada nuevo: " + "; ".join(nada) + ".")
        return "\n".join(lineas)
    partes = [f"{recogidas} recogida{'s' if recogidas != 1 else ''}"]
    if ya:
        partes.append(f"{ya} ya estaba{'n' if ya != 1 else ''} recogida{'s' if ya != 1 else ''}")
    if sin_recoger:
        partes.append(f"{sin_recoger} sin recoger (el motivo, arriba)")
    lineas.append(", ".join(partes) + ".")
    return "\n".join(lineas)
