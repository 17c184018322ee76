"""La documentación por lector: un README corto que abre la puerta y enlaces que llevan a algún sitio."""

import re

from cursos import RAIZ

PAGINAS = [RAIZ / "README.md", *sorted((RAIZ / "docs").glob("*.md"))]
ENLACE = re.compile(r"\]\(([^)\s]+)\)")


def test_el_readme_es_una_puerta_con_las_dos_ordenes_en_la_primera_pantalla():
    lineas = (RAIZ / "README.md").read_text(encoding="utf-8").splitlines()
    primera = "\n".join(lineas[:25])
    ordenes = [linea.split("#")[0].strip() for linea in re.findall(r"```bash\n(.*?)```", primera, re.S)[0].splitlines()]
    assert ordenes == ["./curso servir", "./curso pruebas"]
    assert len(lineas) <= 40, "el README es la puerta: lo demás va en docs/"
    for pagina in ("alumnos", "profesores", "autores", "arquitectura"):
        assert f"(docs/{pagina}.md)" in "\n".join(lineas)


def test_cada_enlace_relativo_lleva_a_un_fichero_que_existe():
    rotos = []
    for pagina in PAGINAS:
        for destino in ENLACE.findall(pagina.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", destino) or destino.startswith("#"):
                continue
            if not (pagina.parent / destino.split("#")[0]).exists():
                rotos.append(f"{pagina.relative_to(RAIZ)} → {destino}")
    assert rotos == []


def test_la_arquitectura_dice_que_corre_donde():
    texto = (RAIZ / "docs" / "arquitectura.md").read_text(encoding="utf-8")
    for sitio in ("herramientas", "navegador del alumno", "caja del alumno", "calificador de confianza"):
        assert sitio in texto


def test_cada_ruta_del_repositorio_que_citan_las_guias_existe():
    """`cursos/…`, `tests/…`… entre comillas invertidas: un fichero movido (caja/, carpetas.py) no deja la guía vieja.

    Las plantillas (`lecciones/<slug>/…`, `{all,es_ES}`, `test_*.py`) no son rutas: se saltan.
    """
    citadas = {(pagina.name, ruta) for pagina in PAGINAS
               for ruta in re.findall(r"`((?:cursos|tests|desafios|lecciones|docs|bench)/[^`\s]*)`",
                                      pagina.read_text(encoding="utf-8"))
               if not re.search(r"[<{*]", ruta)}
    assert citadas, "las guías citan rutas del repositorio"
    faltan = sorted((pagina, ruta) for pagina, ruta in citadas if not (RAIZ / ruta.rstrip("/")).exists())
    assert not faltan, faltan
