"""formgrader dice lo que dice el CSV: una extensión de Jupyter Server que `./curso formgrader` carga.

La columna de nota de formgrader es la de nbgrader: suma el crédito extra y no resta la
penalización por retraso, así que un 10 con 1 de crédito extra y 2 de penalización sale `11 / 10`
ahí y 9 en el CSV y en `nbgrader export`. Esta extensión no toca el libro ni nbgrader; cambia lo
que se enseña:
- las respuestas de la API de formgrader que llenan las tablas (entregas, cuadernos, alumnos,
  desafíos) llevan además `nota_del_curso`: por cada columna de nota, su texto («9 / 10 (−2 por
  retraso, +1 extra)», «10 / 10 + 1 extra») y el valor por el que se ordena;
- el JavaScript de esas páginas es el de nbgrader con una sola cosa cambiada: la celda de nota
  escribe ese texto (si no lo hay, el de nbgrader);
- la vista de calificar dice arriba la nota final de la entrega, y la pone al día cada vez que se
  guarda una nota o un crédito extra.

Las rutas son las de formgrader: Tornado atiende cada petición con la primera regla que casa, y
Jupyter Server carga las extensiones por orden alfabético, así que las de `cursos.…` van antes que
las de `nbgrader.…` (el catch-all `/formgrader/.*` de nbgrader no las tapa).

formgrader tampoco califica ni escribe devoluciones. Su «Autograde» ejecuta `nbgrader autograde`
con el Python de la máquina, fuera de la caja de Pyodide (un 10 pasó a 2), y su «Generate Feedback»
cambia la devolución en español de `./curso devolver` por la inglesa de nbgrader. Decisión:
- el servidor las rechaza: tres rutas más de esta extensión, delante de las de nbgrader (autograde,
  generate_feedback de una entrega y de todas), responden 403 con la orden del curso que hay que
  usar. Así tampoco valen un botón vuelto a enseñar ni una llamada directa a la API;
- los botones no se ven: Manage Submissions y Manage Assignments se pintan con plantillas que
  heredan de las de nbgrader (`{% extends %}` de Jinja) y sólo esconden esas columnas y dicen qué
  orden usar. No con `--LabApp.custom_css`: esas páginas son de nbgrader, no de JupyterLab, y el
  CSS propio de JupyterLab no llega a ellas;
- «Release Feedback» se queda: reparte lo que hay en feedback/, que es lo que escribe
  `./curso devolver` (como `nbgrader release_feedback`).
Ni la configuración ni los ficheros de nbgrader se tocan.

`./curso formgrader` pone la clave de Jupyter (la genera: la escribe en la URL que da) en
JUPYTER_TOKEN y no en la orden, porque la orden de un proceso la ve cualquier usuario con `ps`.
"""

import json
import os
import re
import secrets
import sys
from pathlib import Path

from jinja2 import ChoiceLoader, DictLoader, Environment, FileSystemLoader
from jupyter_server.utils import url_path_join
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.server_extensions.formgrader import apihandlers, handlers
from nbgrader.server_extensions.formgrader.base import BaseApiHandler, check_notebook_dir, check_xsrf
from tornado import escape, web

from cursos.profesor.libro import credito_extra, nota_en_texto, nota_final

EXTENSION = __name__
CAMPO = "nota_del_curso"
PARTES = ("code_score", "written_score", "task_score")  # columnas sin penalización: sólo el tope


def _jupyter_server_extension_points():
    return [{"module": EXTENSION}]


def orden_de_jupyter(carpeta: Path, puerto: int, *, como_root: bool = False) -> list[str]:
    """JupyterLab en la carpeta del curso, con formgrader y esta extensión (la de `./curso formgrader`)."""
    orden = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        f"--port={puerto}",
        "--ip=127.0.0.1",
        f"--ServerApp.root_dir={carpeta}",
        f"--ServerApp.jpserver_extensions={EXTENSION}=True",
        "--LabApp.default_url=/formgrader",
    ]  # se abre en formgrader; JupyterLab sigue en /lab
    zona = _zona_del_curso(carpeta)
    if zona:  # formgrader dice las horas en UTC si no se le da otra (NbGraderAPI.timezone)
        orden.append(f"--NbGraderAPI.timezone={zona}")
    return [*orden, "--allow-root"] if como_root else orden


def _zona_del_curso(carpeta: Path) -> str | None:
    """La zona elegida para el curso (c.Exchange.timezone o «zona_horaria» de profesor.toml), o None."""
    from cursos.profesor.configuracion import CursoNbgrader

    return CursoNbgrader.de(carpeta).zona_elegida()[0]


def clave_nueva() -> str:
    """La clave de Jupyter: nuestra, para poder escribir la URL con ella (sólo letras, cifras, - y _)."""
    return secrets.token_urlsafe(24)


def entorno_de_jupyter(clave: str) -> dict[str, str]:
    """El entorno de Jupyter: la clave en JUPYTER_TOKEN, que no se ve con `ps` (la orden, sí)."""
    return {**os.environ, "JUPYTER_TOKEN": clave}


def url_de_formgrader(puerto: int, clave: str) -> str:
    """La que se abre tal cual: con la clave, Jupyter no pide iniciar sesión (y la guarda en una cookie)."""
    return f"http://127.0.0.1:{puerto}/formgrader?token={clave}"


# Las cuentas, desde el libro: las mismas funciones que escriben el CSV.


def _columna(final: float, maximo: float, penalizacion: float = 0, extra: float = 0) -> dict:
    return {"texto": nota_en_texto(final, maximo, penalizacion, extra), "orden": final / maximo if maximo else 0.0}


def _partes(entrada: dict, prefijo: str = "") -> dict:
    """Las columnas de código, respuestas y tareas: sin penalización, sólo que no pasen del máximo."""
    notas = {}
    for parte in PARTES:
        valor, maximo = entrada.get(prefijo.replace("avg_", "average_") + parte), entrada.get("max_" + parte)
        if isinstance(valor, (int, float)) and isinstance(maximo, (int, float)):
            notas[prefijo + parte] = _columna(valor, maximo)
    return notas


def _de_entregas(entregas: list, maximo: float) -> dict:
    """La columna de nota de una o varias entregas (SubmittedAssignment o SubmittedNotebook)."""
    cuadernos = [nb for e in entregas for nb in getattr(e, "notebooks", [e])]  # un cuaderno es el suyo
    return _columna(
        sum(nota_final(e) for e in entregas),
        maximo,
        sum(e.late_submission_penalty or 0 for e in entregas),
        credito_extra(cuadernos),
    )


def _media(entregas: list, maximo: float) -> dict:
    media = sum(nota_final(e) for e in entregas) / len(entregas) if entregas else 0.0
    return _columna(media, maximo)


def anota_entrega(libro: Gradebook, entrada: dict) -> None:
    """Una entrega de un desafío (Manage Submissions, las de un alumno)."""
    if entrada.get("autograded"):
        entrega = libro.find_submission(entrada["name"], entrada["student"])
        entrada[CAMPO] = {"score": _de_entregas([entrega], entrada["max_score"]), **_partes(entrada)}


def anota_cuaderno(libro: Gradebook, entrada: dict) -> None:
    """Un cuaderno entregado (la lista de cuadernos de Manual Grading, los de un alumno)."""
    if entrada.get("id") is not None:
        cuaderno = libro.find_submission_notebook_by_id(entrada["id"])
        entrada[CAMPO] = {"score": _de_entregas([cuaderno], entrada["max_score"]), **_partes(entrada)}


def anota_alumno(libro: Gradebook, entrada: dict) -> None:
    """Un alumno, con la suma de todos sus desafíos (Manage Students)."""
    alumno = libro.find_student(entrada["id"])
    entrada[CAMPO] = {"score": _de_entregas(list(alumno.submissions), entrada["max_score"])}


def anota_desafio(libro: Gradebook, entrada: dict) -> None:
    """Un desafío, con la media de sus entregas (Manual Grading: su columna se llama «score»)."""
    media = _media(libro.assignment_submissions(entrada["name"]), entrada["max_score"])
    entrada[CAMPO] = {"score": media, "avg_score": media, **_partes(entrada, "avg_")}


def anota_cuaderno_del_desafio(desafio: str):
    """Un cuaderno de un desafío, con la media de sus entregas (Manual Grading, un desafío)."""

    def anota(libro: Gradebook, entrada: dict) -> None:
        entregas = libro.notebook_submissions(entrada["name"], desafio)
        entrada[CAMPO] = {"avg_score": _media(entregas, entrada["max_score"]), **_partes(entrada, "avg_")}

    return anota


class _ConNota:
    """Delante de un manejador de la API de formgrader: su JSON, con la nota del curso en cada entrada."""

    def anotador(self):
        raise NotImplementedError

    def write(self, chunk):
        if isinstance(chunk, (str, bytes)) and self.get_status() == 200:
            try:
                datos = json.loads(chunk)
            except ValueError:  # una página de error de nbgrader: tal cual
                return super().write(chunk)
            anota = self.anotador()
            with Gradebook(self.db_url, self.coursedir.course_id) as libro:  # uno por petición: lo de ahora
                for entrada in datos if isinstance(datos, list) else [datos]:
                    try:
                        anota(libro, entrada)
                    except MissingEntry:  # lo que no está en el libro se queda con lo de nbgrader
                        pass
            chunk = json.dumps(datos)
        return super().write(chunk)


def _con_nota(base, anota):
    return type(f"{base.__name__}ConNota", (_ConNota, base), {"anotador": lambda self: anota})


class NotebooksConNota(_ConNota, apihandlers.NotebookCollectionHandler):
    def anotador(self):
        return anota_cuaderno_del_desafio(self.path_args[0])


# El JavaScript de nbgrader, con la celda de nota cambiada.

AYUDA = """// De ./curso formgrader: la nota como la dice el CSV (nbgrader export), nunca «11 / 10».
function notaDelCurso(modelo, columna, deNbgrader) {
    var notas = modelo.get("%(campo)s");
    return (notas && notas[columna]) ? notas[columna].texto : deNbgrader;
}
function ordenDelCurso(modelo, columna, deNbgrader) {
    var notas = modelo.get("%(campo)s");
    return (notas && notas[columna]) ? notas[columna].orden : deNbgrader;
}
""" % {"campo": CAMPO}
TEXTO = re.compile(r'this\.\$(\w+)\.text\((\w+) \+ " / " \+ (\w+)\);')
ORDEN = re.compile(r'this\.\$(\w+)\.attr\("data-order", (\w+) / (\w+)\);')
PAGINAS = (
    "manage_submissions",
    "gradebook_notebook_submissions",
    "manage_students",
    "manage_students_assignments",
    "manage_students_notebook_submissions",
    "gradebook_assignments",
    "gradebook_notebooks",
)


def _de_nbgrader(pagina: str) -> str:
    return (Path(handlers.static_path) / "js" / f"{pagina}.js").read_text(encoding="utf-8")


def javascript(pagina: str) -> str | None:
    """El de la página de nbgrader con la nota del curso, o None si nbgrader ha cambiado y la línea de
    la nota ya no es la que se sabe cambiar (entonces se sirve el suyo tal cual)."""
    original = _de_nbgrader(pagina)
    cambiado, veces = TEXTO.subn(r'this.$\1.text(notaDelCurso(this.model, "\1", \2 + " / " + \3));', original)
    cambiado = ORDEN.sub(r'this.$\1.attr("data-order", ordenDelCurso(this.model, "\1", \2 / \3));', cambiado)
    return AYUDA + cambiado if veces else None


class JavascriptConNota(handlers.BaseHandler):
    @web.authenticated
    def get(self, pagina):
        texto = javascript(pagina)
        if texto is None:  # mejor la columna de nbgrader que una página que no carga
            self.log.warning("formgrader: %s.js de nbgrader ha cambiado; su columna de nota es la de nbgrader", pagina)
            texto = _de_nbgrader(pagina)
        self.set_header("Content-Type", "application/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.write(texto)


# La vista de calificar: la nota final de la entrega, arriba.

AVISO = """<div class="panel-heading" id="nota-del-curso"><strong>Nota final (la del CSV y de nbgrader
export):</strong> <span id="nota-del-curso-texto">%(texto)s</span></div>
<script>
$(document).ajaxComplete(function (evento, xhr, peticion) {
    // Al guardar una nota o un crédito extra, la nota final otra vez, del libro.
    if (peticion.type === "PUT" && peticion.url.indexOf("/formgrader/api/grade/") !== -1) {
        $.getJSON(%(url)s, function (nota) { $("#nota-del-curso-texto").text(nota.texto); });
    }
});
</script>
"""


def texto_de_la_entrega(libro: Gradebook, cuaderno_id: str) -> str:
    """La nota final de la entrega a la que pertenece un cuaderno entregado (por su id de formgrader)."""
    entrega = libro.find_submission_notebook_by_id(cuaderno_id).assignment
    return _de_entregas([entrega], entrega.max_score)["texto"]


class CalificarConNota(handlers.SubmissionHandler):
    def write(self, chunk):
        marca = '<div class="panel-body">'
        if isinstance(chunk, str) and self.get_status() == 200 and marca in chunk:
            cuaderno_id = self.path_args[0]
            with Gradebook(self.db_url, self.coursedir.course_id) as libro:
                texto = texto_de_la_entrega(libro, cuaderno_id)
            url = f"{self.base_url}/cursos/formgrader/nota/{cuaderno_id}"  # base_url de formgrader: sin «/» final
            aviso = AVISO % {"texto": escape.xhtml_escape(texto), "url": json.dumps(url)}
            chunk = chunk.replace(marca, aviso + marca, 1)
        return super().write(chunk)


class NotaDeLaEntrega(BaseApiHandler):
    @web.authenticated
    @check_xsrf
    @check_notebook_dir
    def get(self, cuaderno_id):
        try:
            with Gradebook(self.db_url, self.coursedir.course_id) as libro:
                self.write({"texto": texto_de_la_entrega(libro, cuaderno_id)})
        except MissingEntry:
            raise web.HTTPError(404) from None


# Lo que formgrader no hace en este curso: calificar y escribir devoluciones.

NO_CALIFICA = (
    "formgrader no califica en este curso: nbgrader ejecutaría el código del alumno con el Python de "
    "esta máquina, fuera de la caja de Pyodide, y su nota no sería la del curso. Para calificar esta "
    "entrega (otra vez): ./curso calificar --desafio {desafio} --alumno {alumno}"
)
NO_DEVUELVE = (
    "formgrader no escribe devoluciones en este curso: la de nbgrader, en inglés, sustituiría a la del "
    "curso. Escríbelas desde el libro (con lo que hayas calificado a mano): ./curso devolver --desafio "
    "{desafio}; «Release Feedback» las reparte después."
)


class _Rechazada(BaseApiHandler):
    """Una acción de formgrader que aquí no se hace: 403 y la orden del curso que la hace bien."""

    mensaje = ""

    @web.authenticated
    def post(self, desafio, alumno=None):
        self.set_status(403)
        # el JSON de las respuestas de nbgrader a esas acciones (success/error/log), con el porqué en español
        self.finish({"success": False, "error": self.mensaje.format(desafio=desafio, alumno=alumno), "log": ""})


def _rechazada(nombre: str, mensaje: str):
    return type(nombre, (_Rechazada,), {"mensaje": mensaje})


# Las páginas con esos botones: las plantillas de nbgrader, sin sus columnas y con la orden que se usa.

ESCONDE = """<style>
/* ./curso formgrader: sin Autograde ni Generate Feedback; el servidor tampoco los hace */
th.autograde, th.generate-feedback, td.autograde, td.generate-feedback { display: none; }
</style>"""
# Sus cabeceras no llevan clase: se les pone la de sus celdas para que el CSS las esconda a la vez (si
# nbgrader cambia esos textos, las pruebas de test_formgrader_nota.py lo dicen).
CABECERAS = (
    "{{ super() | replace('no-sort\">Autograde<', 'no-sort autograde\">Autograde<')"
    " | replace('no-sort\">Generate Feedback<', 'no-sort generate-feedback\">Generate Feedback<') }}"
)
ORDENES = """<div class="alert alert-info" id="ordenes-del-curso">
<p><b>Aquí no se califica automáticamente ni se escriben devoluciones.</b> nbgrader ejecutaría el
código de los alumnos con el Python de esta máquina, fuera de la caja de Pyodide del curso, y su
devolución en inglés sustituiría a la del curso. Hazlo con las órdenes del curso:</p>
<ul>
<li>calificar (o volver a calificar): <code>./curso calificar --desafio %(desafio)s</code>
(una sola entrega: <code>--alumno ALUMNO</code>);</li>
<li>las devoluciones, después de calificar a mano: <code>./curso devolver --desafio %(desafio)s</code>;
«Release Feedback» reparte las que escribe.</li>
</ul>
</div>"""


def _plantilla(base: str, mensajes: str) -> str:
    return (
        f"{{%- extends '{base}' -%}}"
        f"{{%- block head -%}}{{{{ super() }}}}{ESCONDE}{{%- endblock -%}}"
        f"{{%- block messages -%}}{mensajes}{{%- endblock -%}}"
        f"{{%- block table_header -%}}{CABECERAS}{{%- endblock -%}}"
    )


DEL_CURSO = {
    # Manage Submissions: sus instrucciones (`nbgrader autograde`), cambiadas por las del curso
    "manage_submissions.tpl": _plantilla("manage_submissions.tpl", ORDENES % {"desafio": "{{ assignment_id | e }}"}),
    # Manage Assignments: sus avisos (configuración, intercambio) se quedan, debajo
    "manage_assignments.tpl": _plantilla("manage_assignments.tpl", ORDENES % {"desafio": "DESAFÍO"} + "{{ super() }}"),
}
# Las del curso se llaman curso/…: así su `extends` encuentra la de nbgrader con el mismo nombre.
PLANTILLAS = Environment(
    loader=ChoiceLoader(
        [DictLoader({f"curso/{n}": t for n, t in DEL_CURSO.items()}), FileSystemLoader(handlers.template_path)]
    )
)


class _ConPlantillaDelCurso:
    """Delante de un manejador de página de formgrader: la plantilla del curso, si la hay."""

    def render(self, name, **ns):
        if name in DEL_CURSO:
            return PLANTILLAS.get_template(f"curso/{name}").render(**ns)
        return super().render(name, **ns)  # p. ej. las de error, las de nbgrader


def _con_plantilla(base):
    return type(f"{base.__name__}DelCurso", (_ConPlantillaDelCurso, base), {})


RUTAS = [
    (r"/formgrader/api/submission/([^/]+)/([^/]+)/autograde", _rechazada("AutogradeRechazado", NO_CALIFICA)),
    (r"/formgrader/api/assignment/([^/]+)/generate_feedback", _rechazada("DevolucionesRechazadas", NO_DEVUELVE)),
    (
        r"/formgrader/api/assignment/([^/]+)/([^/]+)/generate_feedback",
        _rechazada("DevolucionRechazada", NO_DEVUELVE),
    ),
    (r"/formgrader/manage_submissions/([^/]+)/?", _con_plantilla(handlers.ManageSubmissionsHandler)),
    (r"/formgrader/manage_assignments/?", _con_plantilla(handlers.ManageAssignmentsHandler)),
    (r"/formgrader/api/submissions/([^/]+)", _con_nota(apihandlers.SubmissionCollectionHandler, anota_entrega)),
    (r"/formgrader/api/submission/([^/]+)/([^/]+)", _con_nota(apihandlers.SubmissionHandler, anota_entrega)),
    (
        r"/formgrader/api/submitted_notebooks/([^/]+)/([^/]+)",
        _con_nota(apihandlers.SubmittedNotebookCollectionHandler, anota_cuaderno),
    ),
    (r"/formgrader/api/students", _con_nota(apihandlers.StudentCollectionHandler, anota_alumno)),
    (r"/formgrader/api/student/([^/]+)", _con_nota(apihandlers.StudentHandler, anota_alumno)),
    (
        r"/formgrader/api/student_submissions/([^/]+)",
        _con_nota(apihandlers.StudentSubmissionCollectionHandler, anota_entrega),
    ),
    (
        r"/formgrader/api/student_notebook_submissions/([^/]+)/([^/]+)",
        _con_nota(apihandlers.StudentNotebookSubmissionCollectionHandler, anota_cuaderno),
    ),
    (r"/formgrader/api/assignments", _con_nota(apihandlers.AssignmentCollectionHandler, anota_desafio)),
    (r"/formgrader/api/assignment/([^/]+)", _con_nota(apihandlers.AssignmentHandler, anota_desafio)),
    (r"/formgrader/api/notebooks/([^/]+)", NotebooksConNota),
    (r"/formgrader/static/js/(%s)\.js" % "|".join(PAGINAS), JavascriptConNota),
    (r"/formgrader/submissions/([^/]+)/?", CalificarConNota),
    (r"/cursos/formgrader/nota/([^/]+)", NotaDeLaEntrega),
]


def _load_jupyter_server_extension(servidor):
    """Las rutas de arriba, delante de las de formgrader (se cargan antes: orden alfabético)."""
    web_app = servidor.web_app
    base = web_app.settings["base_url"]
    web_app.add_handlers(".*$", [(url_path_join(base, ruta.lstrip("/")), clase) for ruta, clase in RUTAS])
    servidor.log.info("formgrader: la nota del curso (la del CSV) en sus tablas y en la vista de calificar")
    servidor.log.info("formgrader: sin Autograde ni Generate Feedback (./curso calificar y ./curso devolver)")
