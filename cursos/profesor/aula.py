"""Las notas al libro de calificaciones del aula virtual: un CSV para Moodle y otro para Canvas.

`curso devolver` los escribe a la vez que las devoluciones y con las mismas filas del libro de
notas (libro.tabla), así que dicen la nota de formgrader (notas a mano, crédito extra,
penalización), no la de un CSV de antes. Sólo van las entregas cuya devolución se ha escrito.

Decisiones:
- Moodle («Calificaciones → Importar → Archivo CSV») identifica al alumno por el correo
  («Dirección de correo»): es el único identificador de Moodle que guarda el libro de nbgrader
  (no tiene número de ID ni nombre de usuario), todo usuario de Moodle lo tiene y la importación
  lo ofrece en «Identificar usuario». La retroalimentación es lo que el alumno lee arriba en su
  devolución (retroalimentacion.lo_de_arriba): sin los avisos para el profesor.
- Canvas («Calificaciones → Importar») casa cada fila por su columna ID, el id de usuario de
  Canvas; sale del prefijo de Canvas que apuntó la recogida en submitted/<alumno>/<desafío>/
  .carpeta-del-aula (lista.CANVAS). Canvas no importa comentarios: la devolución va aparte.
- Las notas, con punto decimal («8.5»): los dos leen así el número (con coma, Moodle da la nota
  por mala y Canvas la lee como texto). En UTF-8 sin BOM: la codificación que los dos esperan por
  omisión; el BOM sólo le sirve a Excel, y estos ficheros son para subir, no para abrir.
"""

import csv
import os
from dataclasses import dataclass, field
from pathlib import Path

from cursos.desafio import Desafio
from cursos.profesor import sin_solucion
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.coloca import DEL_AULA
from cursos.profesor.informe import sin_formula
from cursos.profesor.lista import CANVAS, MOODLE

CORREO = "Dirección de correo"
RETROALIMENTACION = "Retroalimentación"
DE_CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]  # las de su exportación, en inglés


@dataclass
class NotasAlAula:
    """Los dos CSV (None si nadie va en él) y quién se ha quedado fuera, y por qué."""

    moodle: Path | None = None
    canvas: Path | None = None
    sin_correo: list[str] = field(default_factory=list)
    sin_canvas: list[str] = field(default_factory=list)
    rechazadas: list[tuple[str, str]] = field(default_factory=list)  # (alumno, por qué): la puerta


def nota(puntos) -> str:
    """«8.5», «10»: con punto decimal, como la leen Moodle y Canvas."""
    redondeada = round(float(puntos), 2)
    return str(int(redondeada)) if redondeada.is_integer() else str(redondeada)


def id_de_canvas(rutas: Carpetas, desafio: Desafio, alumno: str) -> str | None:
    """El id de usuario de Canvas del prefijo que apuntó la recogida (None si no vino de Canvas)."""
    try:
        prefijo = (rutas.de_alumno("submitted", alumno, desafio.slug) / DEL_AULA).read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return None
    if not prefijo or MOODLE.fullmatch(prefijo):  # una carpeta de Moodle de una palabra parece de Canvas
        return None
    hallado = CANVAS.fullmatch(prefijo + "_x")
    return hallado["id"] if hallado else None


def escribe(curso_nbgrader: Path, desafio: Desafio, filas: list[dict], resumenes: dict[str, str]) -> NotasAlAula:
    """calificaciones/<desafío>-notas-moodle.csv y -notas-canvas.csv. filas: las de libro.tabla;
    resumenes: {alumno: lo de arriba de su devolución en una línea (retroalimentacion.Arriba)},
    sólo de las devoluciones que han pasado la puerta de sin_solucion."""
    rutas, hecho = Carpetas.de(curso_nbgrader), NotasAlAula()
    moodle, canvas = [], []
    for f in filas:
        alumno = f["alumno"]
        if alumno not in resumenes:
            continue
        texto = resumenes[alumno]
        entregado = sin_solucion.lo_entregado(rutas.de_alumno("submitted", alumno, desafio.slug))
        try:
            sin_solucion.comprueba(desafio, texto, entregado, f"la retroalimentación de {alumno} para Moodle")
        except sin_solucion.LlevaLaSolucion as e:
            hecho.rechazadas.append((alumno, str(e)))
            continue
        if f.get("email"):
            moodle.append([sin_formula(f["email"]), nota(f["puntos"]), sin_formula(texto)])
        else:
            hecho.sin_correo.append(alumno)
        usuario = id_de_canvas(rutas, desafio, alumno)
        if usuario:
            nombre = ", ".join(filter(None, [f.get("apellidos"), f.get("nombre")])) or alumno
            canvas.append([sin_formula(nombre), usuario, "", "", "", nota(f["puntos"])])
        else:
            hecho.sin_canvas.append(alumno)
    carpeta = curso_nbgrader / "calificaciones"
    carpeta.mkdir(exist_ok=True)
    hecho.moodle = _escribe_csv(
        carpeta / f"{desafio.slug}-notas-moodle.csv", [CORREO, desafio.slug, RETROALIMENTACION], moodle
    )
    hecho.canvas = _escribe_csv(carpeta / f"{desafio.slug}-notas-canvas.csv", [*DE_CANVAS, desafio.slug], canvas)
    return hecho


def _escribe_csv(ruta: Path, cabecera: list[str], filas: list[list[str]]) -> Path | None:
    """Se escribe aparte y se cambia de golpe; sin filas no hay fichero (tampoco uno viejo)."""
    if not filas:
        ruta.unlink(missing_ok=True)
        return None
    temporal = ruta.with_suffix(".csv.tmp")
    with temporal.open("w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f)
        escritor.writerow(cabecera)
        escritor.writerows(filas)
    os.replace(temporal, ruta)
    return ruta
