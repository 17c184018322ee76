"""El manifiesto del curso y la generación de cuadernos."""

import nbformat
import pytest

import cursos.manifiesto as manifiesto
from cursos.cuadernos import cuaderno_de, escribe_cuadernos
from cursos.manifiesto import ErrorDeManifiesto, leer_curso
from tests.ayudas import MODULOS


def test_el_curso_llm_agents():
    curso = leer_curso("llm-agents")
    assert (curso.slug, curso.titulo) == ("llm-agents", "Agentes LLM")
    assert curso.modulos[:3] == ["guionizado.py", "entorno.py", "harness.py"]
    assert "cadenas.py" in curso.modulos, "el laboratorio de «Cadenas peligrosas» viaja con los cuadernos"
    assert "laboratorio_puerta.py" in curso.modulos
    assert curso.lecciones[0].slug == "el-primer-agente"
    primera = curso.leccion("permisos-y-confianza")
    assert primera.titulo == "Permisos y confianza: la herramienta no es el usuario"
    assert primera.desafio == "permiso-en-ejecutar"


@pytest.fixture
def raiz_falsa(tmp_path, monkeypatch):
    (tmp_path / "cursos").mkdir()
    monkeypatch.setattr(manifiesto, "RAIZ", tmp_path)
    return tmp_path


def test_manifiesto_que_no_existe(raiz_falsa):
    with pytest.raises(ErrorDeManifiesto, match="crea cursos/otro.toml"):
        leer_curso("otro")


def test_manifiesto_con_toml_roto(raiz_falsa):
    (raiz_falsa / "cursos" / "roto.toml").write_text("slug = \n", encoding="utf-8")
    with pytest.raises(ErrorDeManifiesto, match="no es TOML válido"):
        leer_curso("roto")


def test_leccion_sin_fuente(raiz_falsa):
    for nombre in MODULOS:
        (raiz_falsa / nombre).write_text("", encoding="utf-8")
    (raiz_falsa / "cursos" / "c.toml").write_text(
        'slug = "c"\ntitulo = "C"\nmodulos = ["harness.py"]\n'
        '[[bloques]]\nslug = "b"\n[[bloques.lecciones]]\nslug = "nada"\ntitulo = "Nada"\n',
        encoding="utf-8",
    )
    with pytest.raises(ErrorDeManifiesto, match="crea lecciones/nada/leccion.md"):
        leer_curso("c")


def test_falta_una_clave(raiz_falsa):
    (raiz_falsa / "cursos" / "c.toml").write_text('titulo = "C"\nbloques = []\n', encoding="utf-8")
    with pytest.raises(ErrorDeManifiesto, match="falta la clave «slug»"):
        leer_curso("c")


def test_cuadernos_generados_con_modulos_al_lado(tmp_path):
    curso = leer_curso()
    rutas = escribe_cuadernos(curso, tmp_path)
    assert [r.name for r in rutas] == [f"{lec.slug}.ipynb" for lec in curso.lecciones]
    assert set(MODULOS) <= {p.name for p in tmp_path.iterdir()}
    cuaderno = nbformat.read(tmp_path / "permisos-y-confianza.ipynb", as_version=4)
    nbformat.validate(cuaderno)
    assert all(not c.get("outputs") for c in cuaderno.cells if c.cell_type == "code"), "sin salidas guardadas"
    textos = "\n".join(c.source for c in cuaderno.cells)
    assert 'muestra_preguntas("permisos-y-confianza.preguntas.json")' in textos
    assert "el permiso dentro de `ejecutar`" in textos
    assert (tmp_path / "autoevaluacion.py").exists() and (tmp_path / "permisos-y-confianza.preguntas.json").exists()


def test_los_cuadernos_salen_identicos_dos_veces():
    """Ids estables: regenerar no produce cambios espurios."""
    leccion = leer_curso().lecciones[0]
    assert nbformat.writes(cuaderno_de(leccion)) == nbformat.writes(cuaderno_de(leccion))


def test_cada_bloque_se_describe_y_sus_lecciones_van_en_su_orden():
    """Lo que el manifiesto no puede decir mal sin que se note: qué lecciones hay lo dice él, no esta prueba."""
    curso = leer_curso()
    assert all(b.descripcion for b in curso.bloques)
    bloques = [b.slug for b in curso.bloques]
    # Las lecciones, en el orden de sus bloques (un bloque aún sin lecciones puede estar).
    assert [lec.bloque for lec in curso.lecciones] == sorted((lec.bloque for lec in curso.lecciones), key=bloques.index)
    assert all(lec.minutos > 0 for lec in curso.lecciones)


def test_los_temas_son_una_lista_de_textos(raiz_falsa):
    _manifiesto(
        raiz_falsa, '[[bloques]]\nslug = "b"\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A"\ntemas = "los errores"\n'
    )
    with pytest.raises(ErrorDeManifiesto, match="«a»: la clave «temas» tiene que ser una lista de textos"):
        leer_curso("c")


def _manifiesto(raiz, bloques: str) -> None:
    for nombre in MODULOS:
        (raiz / nombre).write_text("", encoding="utf-8")
    (raiz / "lecciones" / "a").mkdir(parents=True)
    (raiz / "lecciones" / "a" / "leccion.md").write_text("# A\n", encoding="utf-8")
    (raiz / "cursos" / "c.toml").write_text(
        'slug = "c"\ntitulo = "C"\nmodulos = ["harness.py"]\n' + bloques, encoding="utf-8"
    )


def test_un_bloque_sin_descripcion_sigue_valiendo(raiz_falsa):
    _manifiesto(raiz_falsa, '[[bloques]]\nslug = "b"\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A"\n')
    curso = leer_curso("c")
    assert curso.bloques[0].descripcion == "" and curso.bloques[0].titulo == "b"


def test_descripcion_que_no_es_texto(raiz_falsa):
    _manifiesto(
        raiz_falsa, '[[bloques]]\nslug = "b"\ndescripcion = 3\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A"\n'
    )
    with pytest.raises(ErrorDeManifiesto, match="«b»: la clave «descripcion» tiene que ser un texto"):
        leer_curso("c")


def test_una_clave_desconocida_del_manifiesto_es_un_error(raiz_falsa):
    """Antes, una errata fuera de [modelo_real] se ignoraba en silencio."""
    _manifiesto(
        raiz_falsa, 'descripciom = "C"\n[[bloques]]\nslug = "b"\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A"\n'
    )
    with pytest.raises(
        ErrorDeManifiesto, match="c.toml: la clave «descripciom» no existe; las que hay son: slug, titulo"
    ):
        leer_curso("c")
    toml = raiz_falsa / "cursos" / "c.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("descripciom", "descripcion") + "minuto = 5\n")
    with pytest.raises(
        ErrorDeManifiesto, match=r"\[\[bloques\]\] «b», \[\[lecciones\]\] «a»: la clave «minuto» no existe"
    ):
        leer_curso("c")


def test_leccion_repetida(raiz_falsa):
    _manifiesto(
        raiz_falsa,
        '[[bloques]]\nslug = "b"\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A"\n'
        '[[bloques]]\nslug = "d"\n[[bloques.lecciones]]\nslug = "a"\ntitulo = "A otra vez"\n',
    )
    with pytest.raises(ErrorDeManifiesto, match=r"hay lecciones repetidas \(a\)"):
        leer_curso("c")
