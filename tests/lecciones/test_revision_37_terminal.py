"""Issue 37, N2 de la revisión de los bloques 2 y 3: la lección dice que la decisión da por hecho un
bash no interactivo, porque `^viejo^nuevo` (la otra expansión de la historia) no se trata.
"""

from cursos.manifiesto import leer_curso

CURSO = leer_curso()


def test_la_terminal_dice_que_la_historia_de_bash_no_entra():
    prosa = " ".join(CURSO.leccion("un-comando-en-la-terminal").fuente.read_text(encoding="utf-8").split())
    assert "`^viejo^nuevo`" in prosa and "tiene que ser `bash -c` (sin historia ni alias)" in prosa
