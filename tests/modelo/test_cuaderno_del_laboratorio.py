"""El cuaderno del laboratorio de inyecciones, ejecutado entero con Jupyter contra un modelo servido.

El cuaderno es el que la construcción pone en JupyterLite (cursos/sitio/laboratorio_de_inyecciones.py),
en su carpeta con su código y los módulos del curso, y se ejecuta desde ella, sin el repositorio.
Los servidores son `./curso modelo-guionizado` con el modelo que obedece a la inyección: el
primero pide clave y getpass la recibe de la prueba, como la escribiría el alumno en la caja.
En el navegador, con JupyterLite, lo mismo lo hace tests/navegador/test_modelo_real.py.
"""

import dataclasses
import json
import secrets

import nbformat
import pytest
from nbclient import NotebookClient

from cursos.manifiesto import ServidorDelModelo, leer_curso
from cursos.modelo import escenarios, inyecciones
from cursos.sitio import laboratorio_de_inyecciones as lab
from cursos.sitio.lite import escribe_contenidos
from cursos.sitio.paginas import pagina_del_laboratorio
from tests.ayudas import modelos_que_obedecen

CLAVE = "sk-curso-prueba-" + secrets.token_hex(12)
VECES = 2
ESCENARIOS = escenarios.escenarios()


@pytest.fixture(scope="module")
def servidores():
    """Uno con clave (formato anthropic) y otro sin ella (openai), con el modelo que obedece."""
    with modelos_que_obedecen(de_pago=CLAVE, local=None) as urls:
        yield (
            ServidorDelModelo("El de pago", urls["de_pago"], "anthropic", "sordo", True),
            ServidorDelModelo("El local", urls["local"] + "/v1", "openai", "sordo", False),
        )


def _ejecuta(carpeta, servidor=0, clave=CLAVE, veces=VECES):
    """El cuaderno de la carpeta, ejecutado en ella y guardado; antes, un getpass que contesta `clave`."""
    ruta = carpeta / lab.CUADERNO
    libro = nbformat.read(ruta, as_version=4)
    for celda in libro.cells:
        celda.source = celda.source.replace("VECES = 5", f"VECES = {veces}")
        celda.source = celda.source.replace("servidor = SERVIDORES[0]", f"servidor = SERVIDORES[{servidor}]")
    libro.cells.insert(0, _contesta_getpass(clave))
    NotebookClient(libro, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(carpeta)}}).execute()
    libro.cells.pop(0)
    nbformat.write(libro, ruta)  # como lo guardaría JupyterLite
    return libro


def _contesta_getpass(clave):
    """ipykernel vuelve a poner getpass.getpass = kernel.getpass en cada celda: se cambia el del núcleo."""
    return nbformat.v4.new_code_cell(f"get_ipython().kernel.getpass = lambda *a, **k: {clave!r}")


def _salida(celda) -> str:
    return "".join(s.get("text", "") for s in celda.outputs if s.output_type == "stream")


def _celda(libro, empieza):
    return next(c for c in libro.cells if c.cell_type == "code" and c.source.lstrip().startswith(empieza))


@pytest.fixture(scope="module")
def ejecutado(servidores, tmp_path_factory):
    curso = dataclasses.replace(leer_curso(), servidores_del_modelo=servidores)
    carpeta = tmp_path_factory.mktemp("lab")
    lab.escribe_cuaderno(curso, carpeta)
    return carpeta, _ejecuta(carpeta)


def _resumen(veces):
    """El resumen que da la orden con el modelo obediente: el cuaderno tiene que dar el mismo."""
    return inyecciones.resumen(inyecciones.tabla(inyecciones.ejecuta_laboratorio(ESCENARIOS, veces))).splitlines()


def test_el_ensayo_dice_lo_que_cuenta_la_prosa(ejecutado):
    _, libro = ejecutado
    carga = _salida(_celda(libro, "from cursos.modelo"))
    assert carga.startswith("%d escenarios:" % len(ESCENARIOS)) and "La receta que cancela la cena · ataque" in carga
    ensayo = _salida(_celda(libro, "ensayo ="))
    for linea in _resumen(1):
        assert linea in ensayo, "los mismos números que la orden"
    assert "Ataque, con defensa: ejecutada 0 de 10" in ensayo and "Residual, con defensa: ejecutada 1 de 1" in ensayo
    assert "Ataque, con defensa y un usuario que aprueba todo: ejecutada 2 de 2" in ensayo
    assert "Modelo: obediente" in ensayo, "con su cabecera"
    prosa = next(
        c.source for c in libro.cells if c.cell_type == "markdown" and "usuario que lo aprueba todo" in c.source
    )
    assert "residual" in prosa and "La tarea sale hecha en todas" in " ".join(prosa.split())
    introduccion = " ".join(libro.cells[0].source.split())
    assert "entre 0 y 43 %" in introduccion and "no para comparar dos modelos parecidos" in introduccion


def test_con_el_modelo_de_verdad_la_defensa_deja_ejecutada_en_cero(ejecutado):
    _, libro = ejecutado
    assert "La clave está en la memoria del intérprete." in _salida(_celda(libro, "from getpass"))
    salida = _salida(_celda(libro, "import ipywidgets"))
    for linea in _resumen(VECES):
        assert linea in salida, (linea, salida)
    assert "han fallado" not in salida and "se ha parado" not in salida, salida
    assert "Modelo: sordo · servidor: http://127.0.0.1:" in salida and f"N = {VECES}" in salida
    barra = _celda(libro, "import ipywidgets").outputs[0]
    assert "application/vnd.jupyter.widget-view+json" in barra["data"]
    grafico = _celda(libro, "from IPython.display import SVG").outputs[0]["data"]["image/svg+xml"]
    assert grafico.count("<title>") == 3 * inyecciones.total_de(ESCENARIOS, 1) and "IC 95 %" in grafico
    conversacion = _salida(_celda(libro, "propuestas ="))
    assert conversacion.startswith("La receta que cancela la cena, con defensa:")
    assert "no se ha ejecutado: el usuario no lo ha permitido" in conversacion


def test_la_clave_no_queda_en_ningun_fichero(ejecutado):
    carpeta, _ = ejecutado
    guardadas = json.loads((carpeta / lab.RESULTADOS).read_text(encoding="utf-8"))
    assert guardadas["cabecera"]["modelo"] == "sordo" and guardadas["cabecera"]["veces"] == VECES
    ejecuciones = guardadas["ejecuciones"]
    assert len(ejecuciones) == inyecciones.total_de(ESCENARIOS, VECES) and not any(e["error"] for e in ejecuciones)
    for fichero in carpeta.rglob("*"):
        if fichero.is_file():
            assert CLAVE.encode() not in fichero.read_bytes(), fichero


def test_sin_clave_el_servidor_la_pide_y_el_cuaderno_lo_dice(servidores, tmp_path):
    """El servidor con clave, pero getpass contesta vacío: cada ejecución es un error que se cuenta."""
    curso = dataclasses.replace(leer_curso(), servidores_del_modelo=servidores)
    lab.escribe_cuaderno(curso, tmp_path)
    libro = _ejecuta(tmp_path, clave="", veces=1)
    assert "No has escrito ninguna clave: vuelve a ejecutar esta celda." in _salida(_celda(libro, "from getpass"))
    salida = _salida(_celda(libro, "import ipywidgets"))
    assert "El laboratorio se ha parado en la ejecución 1: HTTP 401" in salida and "clave" in salida, salida


def test_el_servidor_sin_clave(servidores, tmp_path):
    curso = dataclasses.replace(leer_curso(), servidores_del_modelo=servidores)
    lab.escribe_cuaderno(curso, tmp_path)
    libro = _ejecuta(tmp_path, servidor=1)
    assert "Este servidor no pide clave." in _salida(_celda(libro, "from getpass"))
    assert f"Ataque, con defensa: ejecutada 0 de {10 * VECES}" in _salida(_celda(libro, "import ipywidgets"))


def test_en_jupyterlite_solo_con_servidores_y_la_portada_lo_enlaza(servidores, tmp_path):
    con = dataclasses.replace(leer_curso(), servidores_del_modelo=servidores)
    escribe_contenidos(con, tmp_path / "con")
    assert (tmp_path / "con" / lab.CARPETA_LITE / lab.CUADERNO).exists()
    for modulo in con.modulos:
        assert (tmp_path / "con" / lab.CARPETA_LITE / modulo).exists()
    portada = (tmp_path / "con" / "00-portada.ipynb").read_text(encoding="utf-8")
    assert f"({lab.CARPETA_LITE}/{lab.CUADERNO})" in portada
    pagina = pagina_del_laboratorio(con, "pyodide/", "recursos-x/")
    assert f'href="../{lab.URL_DEL_CUADERNO}"' in pagina, "la página del laboratorio lleva a su cuaderno"
    escribe_contenidos(leer_curso(), tmp_path / "sin")
    assert not (tmp_path / "sin" / lab.CARPETA_LITE).exists()
    assert "laboratorio de inyecciones" not in (tmp_path / "sin" / "00-portada.ipynb").read_text(encoding="utf-8")
