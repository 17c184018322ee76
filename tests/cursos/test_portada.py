"""La portada de los cuadernos (00-portada.ipynb): dice lo que la del sitio y enlaza, en orden,
a cada cuaderno que de verdad está en su carpeta. Aquí, la de ./curso cuadernos; la de
JupyterLite, en el sitio construido (tests/navegador/test_portada_lite.py)."""

from cursos.cli import main
from cursos.manifiesto import leer_curso
from cursos.portada import NOMBRE, titulo_del_desafio
from tests.ayudas import comprueba_portada


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
