"""`curso alumnos`: la lista de Moodle o de Canvas, tal como se baja, al libro de notas (revisión del
profesor, m1: `nbgrader db student import` no lee la exportación de Moodle, con su BOM y sus columnas)."""

import pytest
from nbgrader.api import Gradebook

from cursos.cli import main
from cursos.profesor.importa_alumnos import ListaInvalida, importa, lee
from cursos.profesor.libro import url_del_libro

BOM = "\ufeff"
# La exportación de usuarios de Moodle (Administración del sitio → Usuarios → Acciones en lote → Descargar).
MOODLE = BOM + (
    "id,username,email,firstname,lastname,idnumber,institution,department,city,country\n"
    "4471,amunoz,ana.munoz@uni.es,Ana,Muñoz Ríos,,Uni,,Bogotá,CO\n"
    "4472,agarcia,ana.garcia@uni.es,Ana,García Pérez,A-2,Uni,,Bogotá,CO\n"
    "4473,ltorre,lucia.torre@uni.es,Lucía,de la Torre Vélez,,Uni,,Bogotá,CO\n"
    "4474,cortiz,camila.ortiz@uni.es,Camila,Ortiz-Bernal,,Uni,,Bogotá,CO\n"
    "4475,jmzuniga,jm.zuniga@uni.es,José Manuel,Zúñiga,,Uni,,Bogotá,CO\n"
)
# Los participantes de un Moodle en español, sin el id de usuario.
PARTICIPANTES = BOM + (
    '"Nombre","Apellido(s)","Dirección de correo","Roles","Grupos"\n'
    '"Inés","López Ruiz","ines.lopez@uni.es","Estudiante","Grupo A"\n'
    '"Ana","García Pérez","ana.garcia@uni.es","Estudiante","Grupo A"\n'
    '"Ana","García López","ana.garcia.lopez@uni.es","Estudiante","Grupo B"\n'
)
# La exportación del libro de calificaciones de Canvas, con su fila «Points Possible» y el alumno de prueba.
CANVAS = (
    "Student,ID,SIS User ID,SIS Login ID,Section,permiso-en-ejecutar (1234)\n"
    "    Points Possible,,,,,10.00\n"
    '"García Pérez, Ana",61001,A001,ana.garcia@uni.es,Grupo 1,8.00\n'
    '"Muñoz Ríos, Ana",61002,,amunoz,Grupo 1,\n'
    '"de la Torre Vélez, Lucía",61003,,ltorre,Grupo 2,\n'
    '"Student, Test",61099,,,Grupo 1,\n'
)


@pytest.fixture
def curso(tmp_path, monkeypatch):
    ajustes = tmp_path / "profesor.toml"
    ajustes.write_text('zona_horaria = "UTC"\n', encoding="utf-8")
    monkeypatch.setenv("CURSO_PROFESOR", str(ajustes))
    (tmp_path / "curso").mkdir()
    return tmp_path / "curso"


def fichero(tmp_path, nombre: str, texto: str):
    ruta = tmp_path / nombre
    ruta.write_text(texto, encoding="utf-8")
    return ruta


def del_libro(curso) -> dict[str, tuple]:
    with Gradebook(url_del_libro(curso)) as libro:
        return {s.id: (s.first_name, s.last_name, s.email, s.lms_user_id) for s in libro.students}


def test_la_exportacion_de_usuarios_de_moodle_con_bom_acentos_y_apellidos_compuestos(curso, tmp_path, capsys):
    ruta = fichero(tmp_path, "usuarios.csv", MOODLE)
    assert main(["alumnos", str(ruta), "--nbgrader", str(curso)]) == 0
    assert "Lista de Moodle: 5 alumnos en el libro de notas (5 nuevos, 0 puestos al día)" in capsys.readouterr().out
    assert del_libro(curso) == {
        "ana.munoz": ("Ana", "Muñoz Ríos", "ana.munoz@uni.es", "4471"),
        "ana.garcia": ("Ana", "García Pérez", "ana.garcia@uni.es", "4472"),
        "lucia.delatorre": ("Lucía", "de la Torre Vélez", "lucia.torre@uni.es", "4473"),
        "camila.ortiz": ("Camila", "Ortiz-Bernal", "camila.ortiz@uni.es", "4474"),
        "jose.zuniga": ("José Manuel", "Zúñiga", "jm.zuniga@uni.es", "4475"),
    }


def test_importar_otra_vez_pone_al_dia_y_no_duplica(curso, tmp_path, capsys):
    ruta = fichero(tmp_path, "usuarios.csv", MOODLE)
    importa(curso, ruta)
    antes = del_libro(curso)
    # Ana cambia de correo en Moodle; su identificador sigue siendo el mismo (por su id de Moodle).
    fichero(tmp_path, "usuarios.csv", MOODLE.replace("ana.munoz@uni.es", "ana.munoz.rios@uni.es"))
    assert main(["alumnos", str(ruta), "--nbgrader", str(curso)]) == 0
    assert "(0 nuevos, 5 puestos al día)" in capsys.readouterr().out
    despues = del_libro(curso)
    assert despues.keys() == antes.keys()
    assert despues["ana.munoz"] == ("Ana", "Muñoz Ríos", "ana.munoz.rios@uni.es", "4471")


def test_dos_que_serian_el_mismo_alumno_se_distinguen_siempre_igual(curso, tmp_path, capsys):
    """Dos Ana García: ninguna se queda con «ana.garcia», y lo dice; Inés, que el profesor puso a mano en
    el libro, sigue siendo ines.lopez (ahora con su correo)."""
    with Gradebook(url_del_libro(curso)) as libro:
        libro.add_student("ines.lopez", first_name="Inés", last_name="López")
    ruta = fichero(tmp_path, "participantes.csv", PARTICIPANTES)
    assert main(["alumnos", str(ruta), "--nbgrader", str(curso)]) == 0
    error = capsys.readouterr().err
    assert "«ana.garcia» lo tendrían 2 alumnos de la lista" in error
    assert "Ana García Pérez es ana.garcia.perez" in error and "Ana García López es ana.garcia.lopez" in error
    assert del_libro(curso) == {
        "ines.lopez": ("Inés", "López Ruiz", "ines.lopez@uni.es", None),
        "ana.garcia.perez": ("Ana", "García Pérez", "ana.garcia@uni.es", None),
        "ana.garcia.lopez": ("Ana", "García López", "ana.garcia.lopez@uni.es", None),
    }
    importa(curso, ruta)  # por el correo: las mismas
    assert len(del_libro(curso)) == 3


def test_dos_que_se_llaman_igual_del_todo_llevan_su_id_del_aula(curso, tmp_path):
    texto = MOODLE + "4480,agarcia2,ana.garcia2@uni.es,Ana,García Pérez,,Uni,,Bogotá,CO\n"
    hecho = importa(curso, fichero(tmp_path, "usuarios.csv", texto))
    ids = [id_ for id_, *_ in hecho.alumnos]
    assert ids[1] == "ana.garcia.perez.4472" and ids[-1] == "ana.garcia.perez.4480"
    assert "ana.garcia" not in del_libro(curso)


def test_la_exportacion_de_canvas_sin_points_possible_ni_el_alumno_de_prueba(curso, tmp_path, capsys):
    ruta = fichero(tmp_path, "canvas.csv", CANVAS)
    assert main(["alumnos", str(ruta), "--nbgrader", str(curso)]) == 0
    assert "Lista de Canvas: 3 alumnos" in capsys.readouterr().out
    assert del_libro(curso) == {
        "ana.garcia": ("Ana", "García Pérez", "ana.garcia@uni.es", "61001"),
        "ana.munoz": ("Ana", "Muñoz Ríos", None, "61002"),  # su SIS Login ID no es un correo
        "lucia.delatorre": ("Lucía", "de la Torre Vélez", None, "61003"),
    }


def test_un_fichero_que_no_es_de_ningun_aula_dice_que_columna_falta(curso, tmp_path, capsys):
    ruta = fichero(tmp_path, "lista.csv", "alumno,correo\nAna Muñoz,ana@uni.es\n")
    assert main(["alumnos", str(ruta), "--nbgrader", str(curso)]) != 0
    error = capsys.readouterr().err
    assert str(ruta) in error and "no es una lista de Moodle ni de Canvas" in error
    assert "«firstname»" in error and "«Student» e «ID»" in error and "«alumno», «correo»" in error
    sin_correo = fichero(tmp_path, "moodle.csv", BOM + "firstname,lastname\nAna,Muñoz\n")
    with pytest.raises(ListaInvalida, match="le falta la columna «email»"):
        lee(sin_correo)
    assert del_libro(curso) == {}
