"""La devolución al alumno, en español, donde la deja nbgrader: feedback/<alumno>/<desafío>/<cuaderno>.html.

`curso calificar` la escribe al calificar; `curso devolver` la vuelve a escribir para todos desde
el libro de notas, después de calificar a mano en formgrader (notas a mano, crédito extra,
comentarios, penalización), avisa de las que el libro ha dejado atrás y hace además lo que se
sube al aula virtual: el zip de «archivos de retroalimentación» de Moodle, con los nombres de las
carpetas que se recogieron, y una carpeta con los de Canvas.

Decisión: una página propia y corta, hecha desde el libro de notas y los resultados de
confianza, en lugar de `nbgrader generate_feedback` con otra plantilla: la de nbgrader
mezcla su inglés («Score», «Student», «Comments»…) con nuestro español y enseña el
cuaderno entero. Va en la carpeta y con el nombre de nbgrader, con timestamp.txt (y
submission_secret.txt si la entrega vino del intercambio) al lado, así que
`nbgrader release_feedback` la reparte como siempre. `nbgrader generate_feedback` la
reescribiría en inglés: no hace falta ejecutarlo.
"""

import html
import json
import re
import shutil
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from cursos.desafio import Desafio
from cursos.profesor import sin_solucion
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.libro import numero_es, puntos_es
from cursos.profesor.tiempo import MARCA, hora_de_entrega, retraso_legible

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
ACOMPANAN = (MARCA, "submission_secret.txt")  # lo que necesita release_feedback al lado del HTML

ESTILO = """body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;
vertical-align:top}.bien{color:#1e7b34}.mal{color:#b3261e}pre{background:#f6f6f6;padding:.8rem;overflow:auto}"""


def _t(texto) -> str:
    """Lo que viene de la entrega (motivos, código) se lee como texto: sin control, sin HTML."""
    return html.escape(CONTROL.sub("", str(texto)), quote=True)


@dataclass
class Arriba:
    """Lo que el alumno lee arriba en su devolución, en texto: la página lo pone en HTML y el CSV de
    Moodle, en una línea (aula.py). Una sola fuente, sin leer nuestro propio HTML de vuelta."""

    nota: str  # «7 de 10»
    entrega: str = ""  # «Entregada el …»
    retraso: str = ""
    extra: str = ""
    motivo: str = ""  # el del calificador, sin los avisos para el profesor
    comentarios: list[tuple[str, str]] = field(default_factory=list)  # (de qué celda, texto)

    def en_una_linea(self) -> str:
        partes = [f"Nota: {self.nota}.", self.entrega, self.retraso, self.extra, self.motivo]
        if self.comentarios:
            partes.append("Comentarios del profesor: " + " ".join(f"{c}: {t}" for c, t in self.comentarios))
        return " ".join(" ".join(filter(None, partes)).split())


def lo_de_arriba(desafio: Desafio, fila: dict, comentarios: dict[str, str] | None = None, aviso: str = "") -> Arriba:
    """comentarios: {celda: texto} que el profesor escribió en formgrader. aviso: el de la recogida y
    de timestamp.txt (tiempo.hora_de_entrega), que el calificador puso delante de su motivo."""
    arriba = Arriba(f"{numero_es(fila['puntos'])} de {puntos_es(fila['maximo'])}")
    if fila.get("entrega"):
        arriba.entrega = f"Entregada el {fila['entrega']}."
    if fila.get("penalizacion"):
        arriba.retraso = (
            f"Entregada con {retraso_legible(fila.get('retraso') or 0)} de retraso: "
            f"{puntos_es(fila['penalizacion'])} de penalización (la política de retrasos del curso)."
        )
    if fila.get("extra"):
        arriba.extra = f"Crédito extra del profesor: {puntos_es(fila['extra'])}."
    # Al alumno, sólo el motivo del calificador: la penalización y el crédito extra ya van arriba, y
    # los avisos de la recogida (p. ej. «el cuaderno dice que es de «ana.garcia»») son para el profesor.
    del_alumno = fila.get("del_calificador", fila.get("motivo", ""))
    if aviso and del_alumno.startswith(aviso):
        del_alumno = del_alumno.removeprefix(aviso).removeprefix(";").strip()
    arriba.motivo = del_alumno
    arriba.comentarios = [(_celda(desafio, celda), texto) for celda, texto in (comentarios or {}).items()]
    return arriba


def _filas_de_las_pruebas(desafio: Desafio, fila: dict, resultados: dict[str, str | None]) -> str:
    filas = []
    for prueba, maximo in desafio.puntos().items():
        mensaje = resultados.get(prueba)
        extra = fila.get("extras", {}).get(prueba, 0)
        obtenidos = fila.get(prueba, 0) - extra  # la nota de la prueba en nbgrader lleva el crédito extra
        clase, marca = ("bien", "✔") if mensaje is None and obtenidos >= maximo else ("mal", "✘")
        detalle = "pasa" if mensaje is None else mensaje
        if prueba in fila.get("a_mano", ()):
            clase, marca = ("bien", "✔") if obtenidos >= maximo else ("mal", "✘")
            detalle = f"nota puesta a mano por el profesor; el calificador decía: {detalle}"
        con_extra = f" + {puntos_es(extra)} de crédito extra" if extra else ""
        filas.append(
            f'<tr><td class="{clase}">{marca} {_t(prueba)}</td><td>{_t(numero_es(obtenidos))} de '
            f"{maximo}{_t(con_extra)}</td><td>{_t(detalle)}</td></tr>"
        )
    return "".join(filas)


def pagina(
    desafio: Desafio,
    fila: dict,
    resultados: dict[str, str | None],
    solucion: str | None,
    comentarios: dict[str, str] | None = None,
    aviso: str = "",
) -> str:
    """La devolución entera: lo_de_arriba, la tabla de las pruebas y el código del alumno."""
    arriba = lo_de_arriba(desafio, fila, comentarios, aviso)
    parrafos = "".join(f"<p>{_t(p)}</p>" for p in (arriba.entrega, arriba.retraso, arriba.extra, arriba.motivo) if p)
    notas = "".join(f"<li><strong>{_t(c)}:</strong> {_t(t)}</li>" for c, t in arriba.comentarios)
    notas = f"<h2>Comentarios del profesor</h2><ul>{notas}</ul>" if notas else ""
    codigo = f"<h2>Tu solución</h2><pre>{_t(solucion)}</pre>" if solucion else ""
    return f"""<!DOCTYPE html>
<html lang="es"><head><meta charset="utf-8"><title>{_t(desafio.slug)}: tu nota</title>
<style>{ESTILO}</style></head><body>
<h1>Desafío «{_t(desafio.slug)}»</h1>
<p><strong>Alumno:</strong> {_t(fila["alumno"])}</p>
<p><strong>Nota: {_t(arriba.nota)}.</strong></p>
{parrafos}{notas}
<h2>Las pruebas</h2>
<table><tr><th>prueba</th><th>puntos</th><th>qué ha pasado</th></tr>
{_filas_de_las_pruebas(desafio, fila, resultados)}
</table>
<p>Las pruebas corren fuera de tu cuaderno, con el código del curso; las variaciones ocultas
cambian los datos para que una respuesta fija no pase.</p>
{codigo}
</body></html>
"""


def escribe(
    rutas: Carpetas,
    desafio: Desafio,
    fila: dict,
    resultados: dict[str, str | None],
    solucion: str | None,
    comentarios: dict[str, str] | None = None,
) -> Path:
    """feedback/<alumno>/<desafío>/<cuaderno>.html, con timestamp.txt al lado como nbgrader."""
    aviso = aviso_para_el_profesor(rutas, desafio, fila["alumno"])
    texto = pagina(desafio, fila, resultados, solucion, comentarios, aviso)
    return escribe_pagina(rutas, desafio, fila["alumno"], texto)


def aviso_para_el_profesor(rutas: Carpetas, desafio: Desafio, alumno: str) -> str:
    """Lo que el calificador puso delante del motivo (avisos de la recogida y de timestamp.txt)."""
    return hora_de_entrega(rutas.de_alumno("submitted", alumno, desafio.slug))[1] or ""


def ruta_de(rutas: Carpetas, desafio: Desafio, alumno: str) -> Path:
    return rutas.de_alumno("feedback", alumno, desafio.slug) / desafio.cuaderno.replace(".ipynb", ".html")


def sin_lo_de_source(rutas: Carpetas, desafio: Desafio, alumno: str, texto: str) -> None:
    """sin_solucion.LlevaLaSolucion si la página lleva algo de source/ que el alumno no entregó."""
    entregado = sin_solucion.lo_entregado(rutas.de_alumno("submitted", alumno, desafio.slug))
    sin_solucion.comprueba(desafio, html.unescape(texto), entregado, f"la devolución de {alumno}")


def escribe_pagina(rutas: Carpetas, desafio: Desafio, alumno: str, texto: str) -> Path:
    ruta = ruta_de(rutas, desafio, alumno)
    try:
        sin_lo_de_source(rutas, desafio, alumno, texto)
    except sin_solucion.LlevaLaSolucion:
        ruta.unlink(missing_ok=True)  # tampoco queda una de antes que la lleve
        raise
    destino = ruta.parent
    destino.mkdir(parents=True, exist_ok=True)
    ruta.write_text(texto, encoding="utf-8")
    entregado = rutas.de_alumno("submitted", alumno, desafio.slug)
    for nombre in ACOMPANAN:
        origen = entregado / nombre
        if origen.is_file() and not origen.is_symlink() and origen.stat().st_size < 4096:
            shutil.copyfile(origen, destino / nombre)
        elif (destino / nombre).exists():
            (destino / nombre).unlink()
    return ruta


def _celda(desafio: Desafio, celda: str) -> str:
    from cursos.contrato import prueba_del_id

    if celda == desafio.celda_solucion:
        return "tu solución"
    prueba = prueba_del_id(celda)
    return f"la prueba {prueba}" if prueba else celda


# `curso devolver`: todas las devoluciones otra vez, desde el libro.

NOTA = re.compile(r"<strong>Nota: ([^<]*)</strong>")


@dataclass
class Devolucion:
    """Lo que ha hecho `curso devolver` (o lo que haría, con comprobar)."""

    escritas: list[str] = field(default_factory=list)
    # (alumno, por qué): su devolución llevaría algo de source/; no se escribe ni va al aula virtual.
    rechazadas: list[tuple[str, str]] = field(default_factory=list)
    atrasadas: list[tuple[str, str, str]] = field(default_factory=list)  # (alumno, lo que decía, lo que dice)
    sin_calificar: list[str] = field(default_factory=list)
    moodle: Path | None = None
    canvas: Path | None = None
    csv: Path | None = None  # calificaciones/<desafío>.csv, reescrito desde el libro
    # Los CSV de notas para el libro de calificaciones del aula virtual (aula.py) y quién no va en ellos.
    notas_moodle: Path | None = None
    notas_canvas: Path | None = None
    sin_correo: list[str] = field(default_factory=list)
    sin_canvas: list[str] = field(default_factory=list)


def de_lo_calificado(rutas: Carpetas, desafio: Desafio, alumno: str) -> tuple[dict[str, str | None], str | None]:
    """Los motivos de cada prueba y la solución, del cuaderno de autograded/ (lo escribe calificar)."""
    from cursos.contrato import prueba_del_id

    ruta = rutas.de_alumno("autograded", alumno, desafio.slug) / desafio.cuaderno
    resultados, solucion = {}, None
    try:
        celdas = json.loads(ruta.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError):
        return resultados, solucion
    for celda in celdas:
        gid = celda.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if gid == desafio.celda_solucion and not celda.get("metadata", {}).get("curso", {}).get("falta_la_solucion"):
            solucion = "".join(celda.get("source", ""))
        prueba = prueba_del_id(gid)
        salidas = celda.get("outputs") or []
        if prueba and salidas:
            error = salidas[0].get("evalue") if salidas[0].get("output_type") == "error" else None
            resultados[prueba] = None if error is None else error.removeprefix(f"✘ {prueba}: ")
    return resultados, solucion


def devuelve(curso_nbgrader: Path, desafio: Desafio, comprobar: bool = False) -> Devolucion:
    """Escribe la devolución de cada entrega del libro (salvo con comprobar: sólo dice cuáles están
    atrasadas), los ficheros para subir a Moodle y a Canvas, y el CSV del curso y los de notas del
    aula virtual con las mismas filas del libro: con lo puesto en formgrader después de calificar."""
    from cursos.profesor import aula, informe, libro
    from cursos.profesor.configuracion import CursoNbgrader

    rutas, hecho, paginas, resumenes = Carpetas.de(curso_nbgrader), Devolucion(), {}, {}
    curso = CursoNbgrader.de(curso_nbgrader)
    with libro.abre(curso, desafio) as gradebook:
        filas = libro.tabla(gradebook, desafio, curso.zona())
        for f in filas:
            if f["motivo"] == libro.SIN_ENTREGA:
                continue
            resultados, solucion = de_lo_calificado(rutas, desafio, f["alumno"])
            if not resultados:
                hecho.sin_calificar.append(f["alumno"])
            comentarios = f["comentarios"]
            aviso = aviso_para_el_profesor(rutas, desafio, f["alumno"])
            texto = pagina(desafio, f, resultados, solucion, comentarios, aviso)
            ruta = ruta_de(rutas, desafio, f["alumno"])
            try:
                sin_lo_de_source(rutas, desafio, f["alumno"], texto)
            except sin_solucion.LlevaLaSolucion as e:
                hecho.rechazadas.append((f["alumno"], str(e)))
                if not comprobar:
                    ruta.unlink(missing_ok=True)
                continue
            paginas[f["alumno"]] = texto
            resumenes[f["alumno"]] = lo_de_arriba(desafio, f, comentarios, aviso).en_una_linea()
            antes = ruta.read_text(encoding="utf-8") if ruta.is_file() else None
            if antes is not None and antes != texto:
                hecho.atrasadas.append((f["alumno"], _nota(antes), _nota(texto)))
            if not comprobar and antes != texto:
                escribe_pagina(rutas, desafio, f["alumno"], texto)
                hecho.escritas.append(f["alumno"])
    if not comprobar:
        hecho.moodle, hecho.canvas = _para_el_aula(curso_nbgrader, rutas, desafio, paginas)
        hecho.csv = curso_nbgrader / "calificaciones" / f"{desafio.slug}.csv"
        informe.escribe_csv(hecho.csv, filas, list(desafio.puntos()))  # el mismo que escribe calificar
        notas = aula.escribe(curso_nbgrader, desafio, filas, resumenes)
        hecho.notas_moodle, hecho.notas_canvas = notas.moodle, notas.canvas
        hecho.sin_correo, hecho.sin_canvas = notas.sin_correo, notas.sin_canvas
        hecho.rechazadas += notas.rechazadas
    return hecho


def atrasadas(curso_nbgrader: Path, desafio: Desafio) -> list[tuple[str, str, str]]:
    """Las devoluciones ya escritas que el libro ha dejado atrás (una nota, un crédito extra o un
    comentario puestos en formgrader después): la misma comparación que `devolver --comprobar`."""
    return devuelve(curso_nbgrader, desafio, comprobar=True).atrasadas


def avisa_atrasadas(atrasadas_: list[tuple[str, str, str]], que: str) -> None:
    """Una línea por devolución atrasada, con el alumno, lo que decía y lo que dice el libro, y qué hacer."""
    for alumno, antes, ahora in atrasadas_:
        print(
            f"» {explica_atrasada(alumno, antes, ahora)}: el libro cambió después de escribirla; {que}", file=sys.stderr
        )


def explica_atrasada(alumno: str, antes: str, ahora: str) -> str:
    """Qué ha dejado atrás el libro en la devolución de un alumno, para el profesor."""
    if antes == ahora:
        return (
            f"la devolución de {alumno} dice la misma nota que el libro («{ahora}»), pero el libro tiene "
            "otros comentarios, notas a mano o motivos"
        )
    return f"la devolución de {alumno} decía «{antes}» y el libro dice ahora «{ahora}»"


def _nota(texto: str) -> str:
    hallada = NOTA.search(texto)
    return html.unescape(hallada[1]).rstrip(".") if hallada else "?"


def _para_el_aula(
    curso_nbgrader: Path, rutas: Carpetas, desafio: Desafio, paginas: dict[str, str]
) -> tuple[Path | None, Path | None]:
    """calificaciones/<desafío>-devolucion-moodle.zip («Subir varios archivos de retroalimentación en un
    zip»: cada fichero con el prefijo de la carpeta que bajó Moodle) y <desafío>-devolucion-canvas/."""
    from cursos.profesor.coloca import DEL_AULA
    from cursos.profesor.lista import CANVAS, MOODLE

    carpeta = curso_nbgrader / "calificaciones"
    carpeta.mkdir(exist_ok=True)
    nombre = f"{desafio.slug}-devolucion.html"
    moodle, canvas = {}, {}
    for alumno, texto in paginas.items():
        try:
            del_aula = (rutas.de_alumno("submitted", alumno, desafio.slug) / DEL_AULA).read_text(encoding="utf-8")
        except (OSError, UnicodeError):
            continue
        if MOODLE.fullmatch(del_aula):
            moodle[del_aula.rstrip("_") + "_" + nombre] = texto
        elif CANVAS.fullmatch(del_aula + "_" + nombre):
            canvas[f"{del_aula}_{nombre}"] = texto
    zip_ = carpeta / f"{desafio.slug}-devolucion-moodle.zip"
    zip_.unlink(missing_ok=True)
    if moodle:
        with zipfile.ZipFile(zip_, "w", zipfile.ZIP_DEFLATED) as z:
            for entrada, texto in sorted(moodle.items()):
                z.writestr(entrada, texto)
    set_canvas = carpeta / f"{desafio.slug}-devolucion-canvas"
    shutil.rmtree(set_canvas, ignore_errors=True)
    if canvas:
        set_canvas.mkdir()
        for entrada, texto in canvas.items():
            (set_canvas / entrada).write_text(texto, encoding="utf-8")
    return (zip_ if moodle else None), (set_canvas if canvas else None)
