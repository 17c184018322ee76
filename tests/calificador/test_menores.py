"""Lo menor de la revisión del profesor: números en español, un puerto ocupado, no repetir
--nbgrader y --desafio, y `desafio` sobre lo ya repartido sin cambios acaba con 0."""

import socket

import pytest

from cursos.cli import main
from cursos.profesor.informe import resumen
from cursos.profesor.libro import puntos_es


def test_plurales_y_coma_decimal():
    assert [puntos_es(x) for x in (1, 1.0, 0, 2, 9.5)] == ["1 punto", "1 punto", "0 puntos", "2 puntos", "9,5 puntos"]
    filas = [
        {"alumno": "ana", "puntos": 1, "motivo": "", "a": 1},
        {"alumno": "eva", "puntos": 0, "motivo": "sin entrega", "a": 0},
    ]
    texto = resumen(filas, ["a"], {"a": 1})
    assert texto.startswith("1 entrega; 1 con la nota entera (1 punto); 1 alumno del libro sin entrega."), texto


def test_un_puerto_ocupado_se_dice_asi(monkeypatch, capsys):
    monkeypatch.setattr("cursos.sitio.construir.hace_falta_construir", lambda curso: False)
    with socket.socket() as ocupado:
        ocupado.bind(("127.0.0.1", 0))
        ocupado.listen()
        puerto = ocupado.getsockname()[1]
        assert main(["servir", "--puerto", str(puerto)]) == 2
    error = capsys.readouterr().err
    assert f"el puerto {puerto} está ocupado" in error and f"--puerto {puerto + 1}" in error
    assert "inesperado" not in error and "Errno" not in error


def test_un_puerto_ocupado_se_dice_antes_de_construir(monkeypatch, capsys):
    """Construir tarda minutos: el puerto ocupado se dice antes, no al final."""
    monkeypatch.setattr("cursos.sitio.construir.hace_falta_construir", lambda curso: True)
    monkeypatch.setattr(
        "cursos.ordenes.construir.ejecuta", lambda args: pytest.fail("ha construido con el puerto ocupado")
    )
    with socket.socket() as ocupado:
        ocupado.bind(("127.0.0.1", 0))
        ocupado.listen()
        puerto = ocupado.getsockname()[1]
        assert main(["servir", "--puerto", str(puerto)]) == 2
    assert f"el puerto {puerto} está ocupado" in capsys.readouterr().err


@pytest.fixture
def ajustes(tmp_path, monkeypatch):
    ruta = tmp_path / "profesor.toml"
    monkeypatch.setenv("CURSO_PROFESOR", str(ruta))
    return ruta


def test_la_carpeta_y_el_desafio_por_omision_en_profesor_toml(ajustes, tmp_path, capsys):
    curso = tmp_path / "mi-curso"
    ajustes.write_text(
        f'nbgrader = "{curso}"\ndesafio = "puerta-corregida"\nzona_horaria = "Europe/Madrid"\n', encoding="utf-8"
    )
    assert main(["desafio"]) == 0, capsys.readouterr().err
    assert (curso / "release" / "puerta-corregida" / "puerta-corregida.ipynb").is_file()
    capsys.readouterr()
    # Ya repartido y sin cambios: nada que hacer, y no es un error.
    assert main(["desafio"]) == 0
    assert "no ha cambiado" in capsys.readouterr().out


def test_un_profesor_toml_mal_escrito_lo_dice(ajustes, capsys):
    ajustes.write_text('carpeta = "x"\n', encoding="utf-8")
    assert main(["calificar"]) == 2
    error = capsys.readouterr().err
    assert "«carpeta» no existe" in error and "nbgrader" in error and "Traceback" not in error
    ajustes.write_text('zona_horaria = "Europa/Madrid"\n', encoding="utf-8")
    from traitlets.config import Config

    from cursos.profesor.configuracion import CursoNbgrader, ErrorDeConfiguracion

    with pytest.raises(ErrorDeConfiguracion, match="«Europa/Madrid»"):
        CursoNbgrader(ajustes.parent, Config()).zona()


def test_una_entrega_rota_o_vacia_se_califica_con_un_motivo_en_espanol(release, tmp_path):
    from cursos.profesor.calificar import califica
    from tests.calificador.ayudas import DESAFIO, curso_nuevo, entrega, por_alumno

    curso = curso_nuevo(release, tmp_path / "curso")
    entrega(curso, "ana", '{"cells": ["sin cerrar')
    entrega(curso, "luis", b"")
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False))
    assert "línea 1" in filas["ana"]["motivo"] and "Unterminated" not in filas["ana"]["motivo"], filas["ana"]
    assert "vacío" in filas["luis"]["motivo"] and "Expecting" not in filas["luis"]["motivo"], filas["luis"]


def test_el_plugin_de_retrasos_al_lado_de_nbgrader_config_se_carga(tmp_path, monkeypatch):
    """Como dice nbgrader: el plugin en la carpeta del curso (./curso se lanza desde otra)."""
    import sys

    from cursos.profesor.configuracion import CursoNbgrader, ErrorDeConfiguracion

    monkeypatch.setattr(sys, "path", list(sys.path))  # lo que se añada no sale de esta prueba
    modulo = f"por_hora_{tmp_path.name}"
    (tmp_path / f"{modulo}.py").write_text(
        "import math\nfrom nbgrader.plugins import BasePlugin\n\n\nclass PorHora(BasePlugin):\n"
        "    def late_submission_penalty(self, student_id, score, total_seconds):\n"
        "        return math.ceil(total_seconds / 3600)\n",
        encoding="utf-8",
    )
    (tmp_path / "nbgrader_config.py").write_text(
        f'c = get_config()\nc.AssignLatePenalties.plugin_class = "{modulo}.PorHora"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path.parent)
    plugin = CursoNbgrader.de(tmp_path).penalizador().plugin_inst
    assert plugin.late_submission_penalty("ines", 10, 4320) == 2
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.AssignLatePenalties.plugin_class = "no_existe_aqui.PorHora"\n', encoding="utf-8"
    )
    with pytest.raises(ErrorDeConfiguracion) as error:
        CursoNbgrader.de(tmp_path).penalizador()
    assert "«no_existe_aqui.PorHora»" in str(error.value) and "carpeta del curso" in str(error.value)


def test_un_zip_vacio_dice_que_esta_vacio(tmp_path):
    import zipfile

    from cursos.profesor.recoger import EntradaInvalida, recoge

    zipfile.ZipFile(tmp_path / "entregas.zip", "w").close()
    (tmp_path / "carpeta").mkdir()
    for entrada, dice in (
        (tmp_path / "entregas.zip", "entregas.zip está vacío"),
        (tmp_path / "carpeta", "carpeta está vacía"),
    ):
        with pytest.raises(EntradaInvalida) as error:
            recoge(entrada, tmp_path / "curso", {"permiso-en-ejecutar"})
        assert dice in str(error.value) and "descarga otra vez" in str(error.value)


def test_sin_el_python_del_navegador_no_se_califica_salvo_si_se_pide(release, tmp_path, monkeypatch, capsys):
    """Si Pyodide no arranca, calificar se niega (sin tocar el libro) y dice qué hacer; con
    --python-de-la-maquina, califica con el Python de esta máquina y lo dice al empezar."""
    from cursos.calificador import interprete
    from cursos.profesor.calificar import ErrorDeCalificacion, califica
    from tests.calificador.ayudas import DESAFIO, con_solucion, curso_nuevo, entrega, por_alumno

    def sin_node(*args, **kwargs):
        raise interprete.SinInterprete("no hay node (apt-get install nodejs)")

    monkeypatch.setattr(interprete, "interprete", sin_node)
    curso = curso_nuevo(release, tmp_path / "curso")
    _, cuaderno = release
    entrega(curso, "ana", con_solucion(cuaderno, DESAFIO.lee("solucion.py")))
    libro_antes = (curso / "gradebook.db").read_bytes()
    with pytest.raises(ErrorDeCalificacion) as error:
        califica(curso, DESAFIO, plazo=5.0, progreso=False)
    mensaje = str(error.value)
    assert "Python del navegador" in mensaje and "no hay node" in mensaje and "--python-de-la-maquina" in mensaje
    assert (curso / "gradebook.db").read_bytes() == libro_antes, "el libro, sin tocar"
    assert not (curso / "autograded").exists() and not (curso / "calificaciones").exists()

    assert main(["calificar", "--desafio", DESAFIO.slug, "--nbgrader", str(curso)]) != 0
    assert "--python-de-la-maquina" in capsys.readouterr().err
    assert main(["calificar", "--desafio", DESAFIO.slug, "--nbgrader", str(curso), "--python-de-la-maquina"]) == 0
    assert "el Python de esta máquina" in capsys.readouterr().err
    filas = por_alumno(califica(curso, DESAFIO, plazo=5.0, progreso=False, pyodide=False))
    assert filas["ana"]["puntos"] == 10, filas["ana"]
