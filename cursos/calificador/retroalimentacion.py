"""La devolución al alumno, en español, donde la deja nbgrader: feedback/<alumno>/<desafío>/<cuaderno>.html.

Decisión: una página propia y corta, hecha desde el libro de notas y los resultados de
confianza, en lugar de `nbgrader generate_feedback` con otra plantilla: la de nbgrader
mezcla su inglés («Score», «Student», «Comments»…) con nuestro español y enseña el
cuaderno entero. Va en la carpeta y con el nombre de nbgrader, con timestamp.txt (y
submission_secret.txt si la entrega vino del intercambio) al lado, así que
`nbgrader release_feedback` la reparte como siempre. `nbgrader generate_feedback` la
reescribiría en inglés: no hace falta ejecutarlo.
"""

import html
import re
import shutil
from pathlib import Path

from cursos.calificador.carpetas import Carpetas
from cursos.calificador.desafio import Desafio
from cursos.calificador.tiempo import MARCA, retraso_legible

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
ACOMPANAN = (MARCA, "submission_secret.txt")  # lo que necesita release_feedback al lado del HTML

ESTILO = """body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;
vertical-align:top}.bien{color:#1e7b34}.mal{color:#b3261e}pre{background:#f6f6f6;padding:.8rem;overflow:auto}"""


def _t(texto) -> str:
    """Lo que viene de la entrega (motivos, código) se lee como texto: sin control, sin HTML."""
    return html.escape(CONTROL.sub("", str(texto)), quote=True)


def pagina(desafio: Desafio, fila: dict, resultados: dict[str, str | None], solucion: str | None) -> str:
    puntos = desafio.puntos()
    filas = []
    for prueba, maximo in puntos.items():
        mensaje = resultados.get(prueba)
        obtenidos = fila.get(prueba, 0)
        clase, marca = ("bien", "✔") if mensaje is None and obtenidos == maximo else ("mal", "✘")
        detalle = "pasa" if mensaje is None else mensaje
        filas.append(f'<tr><td class="{clase}">{marca} {_t(prueba)}</td><td>{_t(obtenidos)} de {maximo}</td>'
                     f"<td>{_t(detalle)}</td></tr>")
    retraso = ""
    if fila.get("penalizacion"):
        retraso = (f"<p>Entregada con {retraso_legible(fila.get('retraso') or 0)} de retraso: "
                   f"{_t(fila['penalizacion'])} puntos de penalización (la política de retrasos del curso).</p>")
    entrega = f"<p>Entregada el {_t(fila['entrega'])} (UTC).</p>" if fila.get("entrega") else ""
    codigo = f"<h2>Tu solución</h2><pre>{_t(solucion)}</pre>" if solucion else ""
    motivo = f"<p>{_t(fila['motivo'])}</p>" if fila.get("motivo") else ""
    return f"""<!DOCTYPE html>
<html lang="es"><head><meta charset="utf-8"><title>{_t(desafio.slug)}: tu nota</title>
<style>{ESTILO}</style></head><body>
<h1>Desafío «{_t(desafio.slug)}»</h1>
<p><strong>Alumno:</strong> {_t(fila['alumno'])}</p>
<p><strong>Nota: {_t(fila['puntos'])} de {_t(fila['maximo'])} puntos.</strong></p>
{entrega}{retraso}{motivo}
<h2>Las pruebas</h2>
<table><tr><th>prueba</th><th>puntos</th><th>qué ha pasado</th></tr>
{''.join(filas)}
</table>
<p>Las pruebas corren fuera de tu cuaderno, con el código del curso; las variaciones ocultas
cambian los datos para que una respuesta fija no pase.</p>
{codigo}
</body></html>
"""


def escribe(rutas: Carpetas, desafio: Desafio, fila: dict, resultados: dict[str, str | None],
            solucion: str | None) -> Path:
    """feedback/<alumno>/<desafío>/<cuaderno>.html, con timestamp.txt al lado como nbgrader."""
    destino = rutas.de_alumno("feedback", fila["alumno"], desafio.slug)
    destino.mkdir(parents=True, exist_ok=True)
    ruta = destino / desafio.cuaderno.replace(".ipynb", ".html")
    ruta.write_text(pagina(desafio, fila, resultados, solucion), encoding="utf-8")
    entregado = rutas.de_alumno("submitted", fila["alumno"], desafio.slug)
    for nombre in ACOMPANAN:
        origen = entregado / nombre
        if origen.is_file() and not origen.is_symlink() and origen.stat().st_size < 4096:
            shutil.copyfile(origen, destino / nombre)
        elif (destino / nombre).exists():
            (destino / nombre).unlink()
    return ruta
