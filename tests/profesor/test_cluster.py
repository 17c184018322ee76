"""`curso calificar --cluster`: un `dask scheduler` y trabajadores `dask worker` de verdad (procesos), aquí.

Cada trabajador califica en su caja con el mismo núcleo que una calificación local: las notas son las
mismas; uno que muere a medias no pierde ninguna entrega ni la escribe dos veces; uno con otro commit
no califica. Pocas entregas: cada una cuesta ~1 s de CPU.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cursos import RAIZ
from cursos.calificador.aislamiento import detecta
from cursos.profesor import calificar, en_el_trabajador
from cursos.profesor.calificar import ErrorDeCalificacion, califica
from cursos.profesor.configuracion import CursoNbgrader
from cursos.profesor.libro import url_del_libro
from cursos.profesor.mudanza import copia
from tests.calificador.ayudas import DESAFIO, SOLUCION, con_solucion, curso_nuevo, entrega, por_alumno
from tests.calificador.trampas import trampas

DASK = Path(sys.executable).with_name("dask")
SIN_PERMISOS = SOLUCION.split("    ### BEGIN SOLUTION")[0] + SOLUCION.split("    ### END SOLUTION\n")[1]
HONESTAS_Y_MAL = {
    "bien": SOLUCION,
    "sin_permisos": SIN_PERMISOS,  # 2 de 10
    "deniega_todo": SOLUCION.replace("    decision = permiso(ll)\n", '    decision = "denegar"\n'),  # 0
}
TRAMPAS = ("t01_helper_redefinido", "t02_eq_siempre_true", "t09_mata_al_padre")


@pytest.fixture(scope="module", autouse=True)
def con_pyodide():
    if not detecta().con_pyodide():
        pytest.skip("los trabajadores califican con Pyodide bajo Node: pasa `./curso construir`")


@contextlib.contextmanager
def cluster(carpeta: Path, trabajadores: dict[str, dict]):
    """Un planificador y un `dask worker` de un hilo por nombre ({nombre: variables de entorno de más}):
    (dirección, {nombre: su proceso})."""
    carpeta.mkdir(parents=True, exist_ok=True)
    fichero, registro = carpeta / "planificador.json", (carpeta / "dask.log").open("w")
    entorno = {**os.environ, "PYTHONPATH": str(RAIZ)}
    procesos = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", fichero],
            stdout=registro,
            stderr=registro,
            env=entorno,
        )
    ]
    try:
        direccion = _direccion(fichero, procesos[0])
        con_nombre = {}
        for nombre, extra in trabajadores.items():
            orden = [DASK, "worker", direccion, "--nthreads", "1", "--name", nombre, "--no-nanny", "--no-dashboard"]
            con_nombre[nombre] = subprocess.Popen(orden, stdout=registro, stderr=registro, env={**entorno, **extra})
            procesos.append(con_nombre[nombre])
        from distributed import Client

        with Client(direccion, set_as_default=False) as cliente:
            cliente.wait_for_workers(len(trabajadores), timeout=120)
        yield direccion, con_nombre
    finally:
        for proceso in reversed(procesos):
            proceso.kill()
            proceso.wait()
        registro.close()


def _direccion(fichero: Path, planificador: subprocess.Popen) -> str:
    """La dirección que escribe el planificador en su fichero en cuanto escucha."""
    for _ in range(1200):
        with contextlib.suppress(FileNotFoundError, ValueError, KeyError):
            return json.loads(fichero.read_text())["address"]
        assert planificador.poll() is None, "el planificador no arranca: mira dask.log"
        time.sleep(0.1)
    raise AssertionError("el planificador no ha escrito su dirección en 2 minutos")


def curso_con_entregas(release, carpeta: Path, db_url: str | None = None) -> Path:
    """Un curso con honestas, mal, trampas y dos que no se pueden calificar."""
    curso = curso_nuevo(release, carpeta)
    if db_url:  # el libro de la plantilla, mudado a db_url (como `./curso copiar-libro`)
        copia(url_del_libro(curso), db_url, CursoNbgrader.de(curso).course_id or "default_course")
        config = curso / "nbgrader_config.py"
        config.write_text(config.read_text() + f"\nc.CourseDirectory.db_url = {db_url!r}\n", encoding="utf-8")
        (curso / "gradebook.db").unlink()
    _, cuaderno = release
    codigos = {**HONESTAS_Y_MAL, **{t: c for t, c in trampas(curso, 9).items() if t in TRAMPAS}}
    for alumno, codigo in codigos.items():
        entrega(curso, alumno, con_solucion(cuaderno, codigo))
    entrega(curso, "x_json_roto", '{"cells": [')  # se rechaza al leerla, en el trabajador
    (curso / "submitted" / "x_sin_cuaderno" / DESAFIO.slug).mkdir(parents=True)  # y ésta, aquí
    return curso


def sin_hora(filas: list[dict]) -> dict[str, dict]:
    return {a: {k: v for k, v in f.items() if k != "entrega"} for a, f in por_alumno(filas).items()}


def test_el_cluster_da_las_notas_de_aqui_y_escribe_en_postgresql(release, postgres, tmp_path, capsys):
    aqui = sin_hora(califica(curso_con_entregas(release, tmp_path / "aqui"), DESAFIO, plazo=3.0, progreso=False))
    curso = curso_con_entregas(release, tmp_path / "cluster", postgres)
    with cluster(tmp_path / "dask", {"a": {}, "b": {}}) as (direccion, _):
        capsys.readouterr()
        filas = califica(curso, DESAFIO, plazo=3.0, progreso=False, anadir_alumnos=True, cluster=direccion)
    assert sin_hora(filas) == aqui
    assert [aqui[a]["puntos"] for a in HONESTAS_Y_MAL] == [10, 2, 0]
    assert all(aqui[t]["puntos"] == 0 for t in TRAMPAS) and all(
        aqui[x]["motivo"].startswith("rechazado") for x in ("x_json_roto", "x_sin_cuaderno")
    )
    assert not (curso / "gradebook.db").exists()  # las notas, en el servidor
    for alumno in aqui:
        assert (curso / "feedback" / alumno / DESAFIO.slug / f"{DESAFIO.slug}.html").is_file()
    salida = capsys.readouterr().out
    por_trabajador = salida.split("Calificadas por cada trabajador del cluster")[1]
    contadas = [int(linea.rsplit(":", 1)[1]) for linea in por_trabajador.splitlines()[1:] if linea.startswith("  ")]
    assert sum(contadas) == len(aqui) and "rechazadas aquí al leerlas, sin mandarlas: 1" in por_trabajador


def test_un_trabajador_que_muere_a_medias_no_pierde_ninguna_nota_ni_la_escribe_dos_veces(
    release, tmp_path, monkeypatch
):
    curso = curso_nuevo(release, tmp_path / "curso")
    for alumno, codigo in HONESTAS_Y_MAL.items():
        for n in range(2):
            entrega(curso, f"{alumno}_{n}", con_solucion(release[1], codigo))
    anotadas = []

    def anota(lote, e):
        anotadas.append(e.alumno)
        calificar.anota_en_el_libro(lote, e)

    monkeypatch.setattr(
        calificar, "PASOS", tuple(anota if p is calificar.anota_en_el_libro else p for p in calificar.PASOS)
    )
    with cluster(tmp_path / "dask", {"muere": {}, "sigue": {}}) as (direccion, procesos):
        hecho = {}
        lote = threading.Thread(
            target=lambda: hecho.update(filas=califica(curso, DESAFIO, progreso=False, cluster=direccion))
        )
        lote.start()
        _mata_cuando_califica(direccion, procesos["muere"], lote)
        lote.join()
    assert procesos["muere"].returncode == -signal.SIGKILL
    assert sorted(anotadas) == sorted(f"{a}_{n}" for a in HONESTAS_Y_MAL for n in range(2))
    puntos = {a: f["puntos"] for a, f in por_alumno(hecho["filas"]).items()}
    assert puntos == {f"{a}_{n}": p for a, p in zip(HONESTAS_Y_MAL, (10, 2, 0), strict=True) for n in range(2)}


def _mata_cuando_califica(direccion: str, proceso: subprocess.Popen, lote: threading.Thread) -> None:
    """SIGKILL al trabajador en cuanto tiene una entrega a medias (si el lote acaba antes, no lo mata)."""
    from distributed import Client

    with Client(direccion, set_as_default=False) as cliente:
        while lote.is_alive():
            info = cliente.scheduler_info(n_workers=-1)["workers"]
            suyo = next(d for d, t in info.items() if t["name"] == "muere")
            if any(str(k).startswith("califica-") for k in cliente.processing([suyo])[suyo]):
                proceso.send_signal(signal.SIGKILL)
                proceso.wait()
                return
            time.sleep(0.05)


def test_un_trabajador_con_otro_commit_para_el_lote_con_los_dos_commits(release, tmp_path):
    otro = tmp_path / "otra-copia"
    subprocess.run(["git", "init", "-q", otro], check=True)
    subprocess.run(
        ["git", "-C", otro, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--allow-empty", "-m", "x"],
        check=True,
    )
    suyo = subprocess.run(["git", "-C", otro, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    curso = curso_nuevo(release, tmp_path / "curso")
    entrega(curso, "bien", con_solucion(release[1], SOLUCION))
    with cluster(tmp_path / "dask", {"viejo": {"GIT_DIR": str(otro / ".git")}}) as (direccion, _):
        with pytest.raises(ErrorDeCalificacion) as error:
            califica(curso, DESAFIO, progreso=False, cluster=direccion)
    assert f"en el commit {suyo} y la del coordinador en {en_el_trabajador.commit()}" in str(error.value)
    assert "el trabajador viejo (tcp://" in str(error.value)
    assert not (curso / "autograded").exists()


def test_la_clave_cluster_de_profesor_toml_y_la_opcion_que_manda(tmp_path, monkeypatch):
    ajustes = tmp_path / "profesor.toml"
    ajustes.write_text('cluster = "lab-1:8786"\n', encoding="utf-8")
    monkeypatch.setenv("CURSO_PROFESOR", str(ajustes))
    with pytest.raises(ErrorDeCalificacion, match="«lab-1:8786» tiene que ser .* como tcp://máquina:8786"):
        califica(tmp_path, DESAFIO, progreso=False)
    with pytest.raises(ErrorDeCalificacion, match="«lab-2» tiene que ser"):
        califica(tmp_path, DESAFIO, progreso=False, cluster="lab-2")
