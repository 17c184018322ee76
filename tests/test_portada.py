"""La portada de los cuadernos (00-portada.ipynb): dice lo que la del sitio y enlaza, en orden,
a cada cuaderno que de verdad está en su carpeta. Aquí, la de ./curso cuadernos; la de
JupyterLite, en el sitio construido (tests/navegador/test_portada_lite.py)."""

import re
from pathlib import Path
from urllib.parse import unquote

import nbformat

from cursos.cli import main
from cursos.manifiesto import Curso, leer_curso
from cursos.portada import NOMBRE, titulo_del_desafio

ENLACE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def comprueba_portada(carpeta: Path, curso: Curso) -> list[tuple[str, str]]:
    """Comprueba la portada de la carpeta y devuelve sus enlaces (texto, ruta) en orden."""
    cuaderno = nbformat.read(carpeta / NOMBRE, as_version=4)
    nbformat.validate(cuaderno)
    assert {c.cell_type for c in cuaderno.cells} == {"markdown"}, "la portada es sólo Markdown"
    texto = "\n".join(c.source for c in cuaderno.cells)
    # Lo mismo que la portada del sitio: del manifiesto.
    for parte in (curso.titulo, curso.descripcion, *curso.presentacion.values()):
        assert " ".join(parte.split()) in " ".join(texto.split())
    assert "Python básico" in texto and "Qué corre dónde" in texto
    assert f"unos {sum(lc.minutos for lc in curso.lecciones)} minutos" in texto
    enlaces = ENLACE.findall(texto)
    for _, ruta in enlaces:
        assert not ruta.startswith(("/", "http")), f"{ruta}: el enlace debe ser relativo"
        assert (carpeta / unquote(ruta)).is_file(), f"la portada enlaza a {ruta}, que no está en {carpeta}"
    # Cada lección, en el orden del manifiesto, con sus minutos y el enlace a su propio cuaderno.
    a_lecciones = [(t, r) for t, r in enlaces if t in {lc.titulo for lc in curso.lecciones}]
    assert [t for t, _ in a_lecciones] == [lc.titulo for lc in curso.lecciones]
    for (_, ruta), leccion in zip(a_lecciones, curso.lecciones, strict=True):
        assert Path(unquote(ruta)).name == f"{leccion.slug}.ipynb"
        assert nbformat.read(carpeta / unquote(ruta), as_version=4).metadata["curso"]["leccion"] == leccion.slug
        linea = next(x for x in texto.splitlines() if f"({ruta})" in x)
        assert f" · {leccion.minutos} min" in linea
        if leccion.desafio:
            assert titulo_del_desafio(leccion) in linea
    posiciones = [texto.index(f"Bloque {n} · {b['titulo']}") for n, b in enumerate(
        (b for b in curso.bloques if any(lc.bloque == b["slug"] for lc in curso.lecciones)), 1)]
    assert posiciones == sorted(posiciones)
    return enlaces


def test_la_portada_de_curso_cuadernos(tmp_path, capsys):
    curso = leer_curso()
    assert main(["cuadernos", "--destino", str(tmp_path)]) == 0
    assert f"escrito {tmp_path / NOMBRE}" in capsys.readouterr().out
    enlaces = comprueba_portada(tmp_path, curso)
    assert len(enlaces) == len(curso.lecciones)  # los desafíos van al final del cuaderno de su lección
    texto = (tmp_path / NOMBRE).read_text(encoding="utf-8")
    assert "al final del cuaderno" in texto and "./curso cuadernos" in texto


def test_los_titulos_de_los_desafios_salen_del_enunciado():
    curso = leer_curso()
    titulos = [titulo_del_desafio(lc) for lc in curso.lecciones if lc.desafio]
    assert all(t and not t.lower().startswith("desafío") for t in titulos)
    assert titulo_del_desafio(curso.leccion("las-cuatro-herramientas")) == "el esquema mira la forma"
