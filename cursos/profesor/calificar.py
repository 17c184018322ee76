"""`curso calificar`: califica submitted/<alumno>/<desafio>/<cuaderno>.ipynb con notas de fiar.

Cada entrega pasa por los PASOS, en orden, como en `Autograde.autograde_preprocessors` de
nbgrader: se encuentra su cuaderno; la califica el núcleo de confianza
(calificador.califica.califica_entrega, que devuelve Resultados); y con eso se anota en el libro
de nbgrader, se añade su fila al CSV en curso y se escriben el cuaderno calificado (autograded/,
para `nbgrader generate_feedback`: calificado.py) y la devolución. Lo que falle con un alumno le
da 0 con su motivo; los demás siguen. Los dos primeros pasos están en una_entrega.py; con --cluster,
el de calificar corre en los trabajadores de Dask y lo demás, aquí (en_el_cluster.py).
"""

import contextlib
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

from cursos.calificador.aislamiento import detecta
from cursos.calificador.banco import PLAZO
from cursos.calificador.resultado import Resultados
from cursos.calificador.saneado import escribible
from cursos.desafio import Desafio
from cursos.profesor import en_el_cluster, informe, libro, retroalimentacion, sin_solucion
from cursos.profesor.calificado import copia_hora, escribe_calificado
from cursos.profesor.carpetas import Carpetas
from cursos.profesor.configuracion import CursoNbgrader, ajustes
from cursos.profesor.tiempo import hora_de_entrega

# Los pasos de los hilos, el lote y la entrega viven en una_entrega.py (también los usa cada trabajador
# del cluster); lee_la_entrega y califica_la_entrega se nombran aquí, donde se declaran los PASOS.
from cursos.profesor.una_entrega import (  # noqa: F401
    PASOS_DE_LOS_HILOS,
    Entregada,
    ErrorDeCalificacion,
    Lote,
    califica_la_entrega,
    califica_sin_fallar,
    lee_la_entrega,
)

A_LA_VEZ = min(2, os.cpu_count() or 1)
# Procesos del alumno lanzados de antemano (Aislamiento.con_reserva): Node y Pyodide de la entrega
# siguiente arrancan mientras se califica la actual. Cada uno lo usa una sola entrega.
RESERVA = A_LA_VEZ


def carpetas_de_entrega(rutas: Carpetas, desafio: Desafio) -> list[tuple[str, Path]]:
    """(alumno, submitted/<alumno>/<desafío>) de cada entrega; los enlaces simbólicos también, para
    que cuaderno_de_la_entrega los rechace con su motivo en vez de saltarlos en silencio."""
    carpetas = []
    for alumno, carpeta in rutas.entregas(desafio.slug):
        if escribible(alumno) != alumno:  # el libro de notas no puede guardar ese nombre
            print(
                f"» se salta {escribible(alumno)!r}: el nombre de la carpeta no es UTF-8 válido; "
                "renómbrala con el identificador del alumno y vuelve a calificar",
                file=sys.stderr,
            )
            continue
        carpetas.append((alumno, carpeta))
    return carpetas


def fila(alumno: str, r: Resultados) -> dict:
    """La fila del CSV calculada aquí: la que va al libro (y la que queda si el libro no la acepta)."""
    obtenidos = {nombre: prueba.puntos for nombre, prueba in r.pruebas.items()}
    return {"alumno": alumno, "puntos": r.puntos(), "maximo": r.maximo(), "motivo": r.motivo, **obtenidos}


# --- Los pasos de cada entrega -----------------------------------------------------------------


def anota_en_el_libro(lote: Lote, e: Entregada) -> None:
    """Al libro, y de vuelta: la fila del libro, con las notas manuales y la penalización.

    Si el libro no la acepta, la fila calculada aquí, que dice por qué (y el lote sigue).
    """
    f = fila(e.alumno, e.resultados)
    hora, aviso = hora_de_entrega(e.carpeta)
    motivo = "; ".join(filter(None, [aviso, e.resultados.motivo]))
    puntos = lote.desafio.puntos()
    try:
        e.fila = libro.anota(
            lote.gradebook,
            lote.desafio,
            e.alumno,
            {p: f[p] for p in puntos},
            zona=lote.zona,
            hora=hora,
            motivo=motivo,
            penalizador=lote.penalizador,
        )
        e.anotada = True
    except Exception as error:  # p. ej. un nombre que la base de datos no acepta: los demás siguen
        print(f"» {e.alumno}: no se ha podido anotar en el libro ({type(error).__name__}: {error})", file=sys.stderr)
        e.fila = {**f, "motivo": f"NO ANOTADA EN EL LIBRO ({type(error).__name__}); {motivo}"}
        lote.sin_libro[e.alumno] = e.fila


def anade_al_csv(lote: Lote, e: Entregada) -> None:
    """Su fila al CSV en curso: si el lote se corta, se sabe hasta dónde ha llegado."""
    lote.en_curso.anade(e.fila)


def escribe_el_calificado(lote: Lote, e: Entregada) -> None:
    escribe_calificado(lote.rutas, lote.desafio, e.alumno, e.resultados)
    copia_hora(lote.rutas, lote.desafio, e.alumno, e.carpeta)


def escribe_la_devolucion(lote: Lote, e: Entregada) -> None:
    """feedback/: con los comentarios de formgrader que ya estén en el libro (recalificar no los quita)."""
    comentarios = e.fila["comentarios"] if e.anotada else None
    retroalimentacion.escribe(
        lote.rutas, lote.desafio, e.fila, e.resultados.motivos(), e.resultados.solucion, comentarios
    )


# Los pasos de cada entrega, en orden y declarados una vez. Los EN_LOS_HILOS primeros corren en los
# hilos, varias entregas a la vez (casi todo es esperar al proceso del alumno; con --cluster, el
# segundo en un trabajador); los demás escriben aquí, de una en una y según termina cada entrega.
PASOS = (
    *PASOS_DE_LOS_HILOS,  # lee_la_entrega, califica_la_entrega
    anota_en_el_libro,
    anade_al_csv,
    escribe_el_calificado,
    escribe_la_devolucion,
)
EN_LOS_HILOS = len(PASOS_DE_LOS_HILOS)


def _escribe(lote: Lote, e: Entregada) -> None:
    """Los pasos que escriben. La nota ya está en el libro: si uno falla, el lote sigue sin él y sin los de después."""
    for paso in PASOS[EN_LOS_HILOS:]:
        try:
            paso(lote, e)
        except sin_solucion.LlevaLaSolucion as error:  # nada de source/ sale
            print(f"» {e.alumno}: {error}", file=sys.stderr)
            return
        except (OSError, ValueError) as error:
            print(
                f"» {e.alumno}: no se ha podido escribir su cuaderno calificado o su devolución ({error})",
                file=sys.stderr,
            )
            return


def sin_el_python_del_navegador(aislamiento) -> str:
    """Por qué no se califica con Pyodide y qué hacer. Calificar con otro Python que el del alumno
    lo tiene que pedir el profesor (--python-de-la-maquina): una nota no cambia de intérprete sin más."""
    motivo = next((f for f in aislamiento.faltan if "Python del navegador" in f), "Pyodide no arranca aquí")
    return (
        f"el código de los alumnos tiene que correr con el Python del navegador, el mismo con el que lo "
        f"probaron, y aquí no puede ({motivo}). Instala Node (p. ej. `apt-get install nodejs`) y pasa "
        "`./curso construir`, que descarga Pyodide; o, si aceptas calificar con el Python de esta máquina "
        "(otra versión: lo que sólo vale en el 3.14 del navegador no califica), añade --python-de-la-maquina"
    )


def _elige(
    rutas: Carpetas,
    desafio: Desafio,
    carpetas: list[tuple[str, Path]],
    conocidos: set[str],
    alumno: str | None,
    anadir_alumnos: bool,
) -> list[tuple[str, Path]]:
    """Las entregas que se califican: la de --alumno, y sólo de alumnos del libro si el libro tiene lista."""
    if alumno is not None:
        carpetas = [(a, c) for a, c in carpetas if a == alumno]
        if not carpetas:
            raise ErrorDeCalificacion(
                f"no hay entrega de «{alumno}» en "
                f"{rutas.de_alumno('submitted', alumno, desafio.slug)}/: revisa el "
                "identificador (o recógela antes)"
            )
    if not conocidos:
        if carpetas:
            print(
                f"» el libro no tenía alumnos: se añaden los {len(carpetas)} de {rutas.nombre('submitted')}/. "
                "A partir de ahora sólo se califica a los del libro (añade otros con `nbgrader db student add` o "
                "--anadir-alumnos)",
                file=sys.stderr,
            )
        return carpetas
    fuera = [a for a, _ in carpetas if a not in conocidos]
    if fuera and not anadir_alumnos:
        for a in fuera:
            print(
                f"» «{a}» no está en la lista de alumnos del libro: no se califica. Si es un error de nombre, "
                f"renombra su carpeta en {rutas.nombre('submitted')}/; si es un alumno nuevo, "
                f"`nbgrader db student add {a}` o "
                "./curso calificar --anadir-alumnos",
                file=sys.stderr,
            )
        return [(a, c) for a, c in carpetas if a in conocidos]
    return carpetas


def _sin_carpeta(f: dict, desafio: Desafio) -> dict:
    """Una nota del libro cuya entrega ya no está en submitted/: se conserva, y se dice."""
    if f["motivo"] == libro.SIN_ENTREGA:
        return f
    print(
        f"» {f['alumno']}: su entrega de {desafio.slug} ya no está en submitted/ (¿movida o borrada?); "
        "el libro conserva la nota de la última calificación",
        file=sys.stderr,
    )
    return {**f, "motivo": "su entrega ya no está en submitted/: es la nota de la última calificación. " + f["motivo"]}


def califica(
    curso_nbgrader: Path,
    desafio: Desafio,
    plazo: float = PLAZO,
    progreso=True,
    a_la_vez: int = A_LA_VEZ,
    alumno: str | None = None,
    anadir_alumnos: bool = False,
    pyodide: bool = True,
    reserva: int = RESERVA,
    cluster: str | None = None,
) -> list[dict]:
    """Califica las entregas del desafío (o sólo la de `alumno`); devuelve las filas del CSV.

    Varias entregas a la vez (cada una con su proceso y su espacio de pruebas): casi todo el
    tiempo es esperar al proceso del alumno. El libro, autograded/, feedback/ y una fila del
    CSV en curso se escriben aquí, de una en una y según termina cada alumno: si el lote se
    corta, lo calificado está en el libro. Al final, el CSV entero sale del libro: todos sus
    alumnos, también los que no han entregado.

    pyodide: el código del alumno corre en el Python del navegador (Pyodide bajo Node); si aquí no
    arranca, ErrorDeCalificacion sin tocar el libro. Con False, en el de esta máquina.
    reserva: cuántos procesos del alumno se lanzan de antemano.
    cluster: la dirección del planificador de Dask (tcp://…): cada entrega se califica en un trabajador
    y todo se escribe aquí (en_el_cluster.py). None: la de «cluster» en profesor.toml; sin ella, aquí.
    """
    if cluster is None:
        cluster = ajustes().get("cluster")  # la opción (--cluster) manda sobre profesor.toml
    aislamiento, cliente = None, contextlib.nullcontext()
    if cluster:  # la caja es la de cada trabajador: aquí no hace falta ni Node ni Pyodide
        cliente = en_el_cluster.conecta(cluster)
    else:
        # pyodide=False: el Python de esta máquina (unas 15 veces más rápido de arrancar, pero no es el del
        # navegador: lo que sólo existe en el 3.14 no califica). Se decide antes de abrir el libro.
        aislamiento = detecta((curso_nbgrader, Path.cwd()), pyodide)
        if pyodide and not aislamiento.con_pyodide():
            raise ErrorDeCalificacion(sin_el_python_del_navegador(aislamiento))
    curso = CursoNbgrader.de(curso_nbgrader)
    gradebook = libro.abre(curso, desafio)
    with cliente, gradebook:
        rutas = Carpetas.de(curso_nbgrader)
        carpetas = carpetas_de_entrega(rutas, desafio)
        presentes = {a for a, _ in carpetas}
        carpetas = _elige(rutas, desafio, carpetas, libro.alumnos(gradebook), alumno, anadir_alumnos)
        carpeta_csv = curso_nbgrader / "calificaciones"
        carpeta_csv.mkdir(exist_ok=True)
        en_curso = informe.CsvPorAlumno(carpeta_csv / f"{desafio.slug}.en-curso.csv", list(desafio.puntos()))
        lote = Lote(desafio, aislamiento, plazo, rutas, gradebook, curso.penalizador(), en_curso, curso.zona())
        inicio = time.monotonic()
        donde = cliente if cluster else None
        with _entregadas(lote, carpetas, donde, pyodide, a_la_vez, reserva) as (entregadas, reparto):
            for e in tqdm(entregadas, total=len(carpetas), desc="Calificando", unit="entrega", disable=not progreso):
                _escribe(lote, e)
        en_curso.cierra()
        segundos = time.monotonic() - inicio
        csv_ = curso_nbgrader / "calificaciones" / f"{desafio.slug}.csv"
        filas = None
        if alumno is not None and alumno not in lote.sin_libro:  # recalificar a uno cuesta uno
            filas = informe.cambia_fila(
                csv_, libro.fila_al_dia(gradebook, desafio, alumno, lote.zona), list(desafio.puntos())
            )
        if filas is None:
            filas = {
                f["alumno"]: _sin_carpeta(f, desafio) if f["alumno"] not in presentes else f
                for f in libro.tabla(gradebook, desafio, lote.zona)
            }
            filas = sorted({**filas, **lote.sin_libro}.values(), key=lambda f: f["alumno"])
            informe.escribe_csv(csv_, filas, list(desafio.puntos()))
    _informa(curso_nbgrader, rutas, desafio, filas, desafio.puntos(), segundos, len(carpetas), curso.db_url)
    if reparto is not None:
        print(reparto.resumen())
    en_curso.ruta.unlink(missing_ok=True)
    return filas


@contextlib.contextmanager
def _entregadas(lote: Lote, carpetas: list[tuple[str, Path]], cliente, pyodide: bool, a_la_vez: int, reserva: int):
    """(las entregas con sus Resultados según terminan, el Reparto o None): en los hilos de aquí o, con
    el cliente de Dask, en los trabajadores del cluster."""
    if cliente is None:
        print("»", lote.aislamiento.describe(), file=sys.stderr)
        with lote.aislamiento.con_reserva(reserva), ThreadPoolExecutor(max(1, a_la_vez)) as hilos:
            yield hilos.map(lambda ac: califica_sin_fallar(lote, Entregada(*ac)), carpetas), None
        return
    reparto = en_el_cluster.Reparto(cliente, lote, pyodide)
    reparto.espera_trabajadores()
    print("»", reparto.describe(), file=sys.stderr)
    yield reparto.califica([Entregada(*ac) for ac in carpetas]), reparto


def _informa(
    curso_nbgrader: Path,
    rutas: Carpetas,
    desafio: Desafio,
    filas: list[dict],
    puntos: dict[str, int],
    segundos: float,
    calificadas: int,
    db_url: str,
) -> None:
    carpeta = curso_nbgrader / "calificaciones"
    pruebas = list(puntos)
    print(informe.resumen(filas, pruebas, puntos))
    hay = bool(informe.entregadas(filas))
    if hay:
        informe.grafica(
            carpeta / f"{desafio.slug}.png", filas, pruebas, puntos, f"{desafio.slug}: alumnos que no pasan cada prueba"
        )
    if calificadas:
        print(f"{calificadas} calificadas en {segundos:.2f} s, {segundos / calificadas:.3f} s por entrega.")
    else:
        print(f"No hay entregas que calificar en {rutas.de_alumno('submitted', '<alumno>', desafio.slug)}/.")
    libro_visible = db_url.removeprefix("sqlite:///") if db_url.startswith("sqlite:///") else "el servidor de db_url"
    print(
        f"CSV{' y gráfica' if hay else ''} en {carpeta}/{desafio.slug}.csv{' y .png' if hay else ''}; "
        f"notas en {libro_visible}; devolución en español en {rutas.raiz / rutas.nombre('feedback')}/ "
        f"(repártela con `nbgrader release_feedback {desafio.slug}`)"
    )
