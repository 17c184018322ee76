"""De la página y de JupyterLite al calificador, en Chromium, para los cuatro desafíos.

El alumno escribe la solución de referencia en el editor de la página y pulsa «Descargar
para entregar»; otro la escribe en el cuaderno del desafío en JupyterLite, lo guarda y se lee
del almacenamiento del navegador (la API de contenidos de JupyterLite: lo mismo que baja
File › Download). `curso recoger` los pone en submitted/ y `curso calificar` les da 10/10,
la misma nota. Una celda bloqueada editada se califica igual, con su nota; un cuaderno de
otro desafío y uno sin identificador no se recogen y dicen por qué.

Un curso de nbgrader por desafío: copia del que hace la construcción (build/descargas/reparto),
con release/ y el libro; la prueba de abajo demuestra que el sitio sirve ese mismo release/.
"""

import json
import shutil

import pytest

from cursos.desafio import Desafio
from cursos.profesor.calificar import califica
from cursos.profesor.fuente import genera_version_del_alumno
from cursos.profesor.recoger import recoge
from cursos.profesor.reparto import version_del_alumno
from cursos.sitio.lite import ruta_del_desafio
from tests.navegador.ayudas import (
    CURSO,
    ESPERA,
    NUCLEO_LISTO,
    TODAS_EJECUTADAS,
    escribe_codigo,
    pestana_vigilada,
    url_de_leccion,
)

LECCIONES = [lec for lec in CURSO.lecciones if lec.desafio]
DESAFIOS = {lec.desafio for lec in LECCIONES}


def curso_nbgrader(leccion, destino):
    """Una carpeta de curso de nbgrader con el desafío generado (release/ y libro de notas)."""
    carpeta = version_del_alumno(Desafio(leccion.desafio)).parent.parent
    return shutil.copytree(carpeta, destino / "nbgrader")


def por_alumno(filas):
    return {f["alumno"]: f for f in filas}


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda lec: lec.desafio)
def test_el_sitio_reparte_exactamente_release(sitio, leccion, tmp_path):
    """El cuaderno de la página y la carpeta del desafío en JupyterLite son los de release/, byte a byte."""
    desafio = Desafio(leccion.desafio)
    release = genera_version_del_alumno(desafio, tmp_path)
    junto_a_la_pagina = sitio / "courses" / CURSO.slug / leccion.slug / desafio.cuaderno
    assert junto_a_la_pagina.read_bytes() == (release / desafio.cuaderno).read_bytes()
    en_lite = (sitio / "lite" / "files" / ruta_del_desafio(CURSO, leccion)).parent
    assert sorted(p.name for p in en_lite.iterdir()) == sorted(p.name for p in release.iterdir())
    for fichero in release.iterdir():
        assert (en_lite / fichero.name).read_bytes() == fichero.read_bytes(), fichero.name


def entrega_desde_la_pagina(pagina, base, leccion, alumno, codigo, destino):
    """Escribe el código en el editor, pulsa «Descargar para entregar» y guarda la descarga."""
    pagina.goto(url_de_leccion(base, leccion))
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled")
    pagina.fill("#desafio input.identificador", alumno)
    escribe_codigo(pagina, "#desafio", codigo)
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.click("#desafio button.entregar-desafio")
    descarga = espera.value
    destino.mkdir(parents=True, exist_ok=True)
    ruta = destino / descarga.suggested_filename
    descarga.save_as(ruta)
    return ruta


def entrega_desde_jupyterlite(pagina, base, leccion, codigo) -> dict:
    """Abre el cuaderno del desafío, comprueba qué celdas se pueden tocar, escribe la solución,
    lo ejecuta entero, lo guarda y lo devuelve tal como queda en el almacenamiento del navegador."""
    desafio = Desafio(leccion.desafio)
    ruta = ruta_del_desafio(CURSO, leccion)
    pagina.goto(f"{base}lite/notebooks/index.html?path={ruta}")
    pagina.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=ESPERA)
    pagina.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=ESPERA)
    # Hasta que el cuaderno está leído entero y su celda de solución tiene ya su widget (antes, a veces faltaba).
    pagina.evaluate("() => window.jupyterapp.shell.currentWidget.context.ready")
    pagina.wait_for_function(
        """id => window.jupyterapp.shell.currentWidget.content.widgets
        .some(c => c.model.getMetadata('nbgrader')?.grade_id === id)""",
        arg=desafio.celda_solucion,
        timeout=ESPERA,
    )
    celdas = pagina.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets.map(c => ({
        id: c.model.getMetadata('nbgrader')?.grade_id, soloLectura: c.readOnly,
        borrable: c.model.getMetadata('deletable')}))""")
    solo_lectura = {c["id"]: c["soloLectura"] for c in celdas}
    assert solo_lectura.pop(desafio.celda_solucion) is False  # la solución se escribe
    assert all(solo_lectura.values()), solo_lectura  # el resto, bloqueado en la interfaz
    assert all(c["borrable"] is False for c in celdas)
    pagina.evaluate(
        """([id, codigo]) => window.jupyterapp.shell.currentWidget.content.widgets
        .find(c => c.model.getMetadata('nbgrader')?.grade_id === id).model.sharedModel.setSource(codigo)""",
        [desafio.celda_solucion, codigo],
    )
    pagina.evaluate(NUCLEO_LISTO)
    pagina.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    pagina.wait_for_function(TODAS_EJECUTADAS, timeout=ESPERA)
    # Las pruebas visibles corren en el núcleo de JupyterLite y pasan.
    errores = pagina.locator(".jp-Notebook .jp-OutputArea-output[data-mime-type*=error]")
    assert errores.count() == 0, errores.all_inner_texts()
    texto = pagina.locator(".jp-Notebook").inner_text()
    assert all(f"✔ {p}" in texto for p in desafio.puntos() if p != "variaciones")
    pagina.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    return pagina.evaluate(
        """async (ruta) => {
        const modelo = await window.jupyterapp.serviceManager.contents.get(ruta, {content: true});
        return modelo.content;}""",
        ruta,
    )


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda lec: lec.desafio)
def test_de_la_pagina_y_de_jupyterlite_al_calificador(pagina, navegador, url_raiz, leccion, tmp_path):
    desafio = Desafio(leccion.desafio)
    solucion = desafio.lee("solucion.py")
    entrada = tmp_path / "entregas"
    descargada = entrega_desde_la_pagina(pagina, url_raiz, leccion, "ana.pagina", solucion, entrada)
    assert descargada.name == desafio.cuaderno  # el nombre que espera nbgrader
    assert pagina.locator("#desafio").get_attribute("data-entrega") == "descargada"
    assert "Pasa las pruebas visibles" in pagina.locator("#desafio .estado-entrega").inner_text()
    meta = json.loads(descargada.read_text(encoding="utf-8"))["metadata"]["curso"]
    assert meta["alumno"] == "ana.pagina" and meta["desafio"] == desafio.slug and meta["descargado"]

    with pestana_vigilada(navegador) as lite:  # otro alumno, otro navegador
        guardado = entrega_desde_jupyterlite(lite, url_raiz, leccion, solucion)
    # El LMS lo entrega en la carpeta del alumno: de ahí sale su identificador.
    (entrada / "luis.lite").mkdir()
    (entrada / "luis.lite" / desafio.cuaderno).write_text(json.dumps(guardado), encoding="utf-8")

    curso = curso_nbgrader(leccion, tmp_path)
    informe = {linea.origen: linea for linea in recoge(entrada, curso, DESAFIOS, solo=desafio.slug)}
    assert all(linea.recogida for linea in informe.values()), informe
    notas = por_alumno(califica(curso, desafio, progreso=False))
    assert notas["ana.pagina"]["puntos"] == notas["ana.pagina"]["maximo"] == 10, notas["ana.pagina"]["motivo"]
    assert notas["luis.lite"]["puntos"] == notas["ana.pagina"]["puntos"], notas["luis.lite"]["motivo"]

    # Suelto, sin carpeta: el cuaderno de JupyterLite no dice de quién es.
    sueltos = tmp_path / "sueltos"
    sueltos.mkdir()
    (sueltos / desafio.cuaderno).write_text(json.dumps(guardado), encoding="utf-8")
    linea = recoge(sueltos, curso, DESAFIOS, solo=desafio.slug)[0]
    assert not linea.recogida and "sin identificador" in linea.motivo
    # La descarga de la página, recogida para otro desafío.
    otro = next(d for d in sorted(DESAFIOS) if d != desafio.slug)
    linea = recoge(entrada, curso, DESAFIOS, solo=otro)
    assert {lin.origen: lin for lin in linea}[desafio.cuaderno].motivo.startswith(
        f"es del desafío «{desafio.slug}», no de «{otro}»"
    )


@pytest.mark.parametrize("leccion", LECCIONES, ids=lambda lec: lec.desafio)
def test_una_celda_bloqueada_editada_se_restaura_y_se_califica(pagina, url_raiz, leccion, tmp_path):
    """Depende del calificador tolerante: la celda se restaura de release/."""
    desafio = Desafio(leccion.desafio)
    entrada = tmp_path / "entregas"
    descargada = entrega_desde_la_pagina(pagina, url_raiz, leccion, "eva", desafio.lee("solucion.py"), entrada)
    cuaderno = json.loads(descargada.read_text(encoding="utf-8"))
    # Lo que JupyterLite no impide del todo (p. ej. con la celda convertida y vuelta a convertir).
    partida = next(c for c in cuaderno["cells"] if c["metadata"]["nbgrader"]["grade_id"] == "partida")
    partida["source"] = "".join(partida["source"]) + "\n# lo he tocado sin querer\n"
    descargada.write_text(json.dumps(cuaderno), encoding="utf-8")
    curso = curso_nbgrader(leccion, tmp_path)
    assert recoge(entrada, curso, DESAFIOS, solo=desafio.slug)[0].recogida
    nota = por_alumno(califica(curso, desafio, progreso=False))["eva"]
    assert nota["puntos"] == 10, nota["motivo"]
    calificado = (curso / "autograded" / "eva" / desafio.slug / desafio.cuaderno).read_text(encoding="utf-8")
    assert "restaur" in calificado.lower()  # la nota en la devolución: se ha restaurado la celda


def test_la_pagina_pide_el_identificador_y_avisa_si_no_pasan(pagina, url_raiz, tmp_path):
    leccion = LECCIONES[0]
    desafio = Desafio(leccion.desafio)
    pagina.goto(url_de_leccion(url_raiz, leccion))
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled")
    pagina.click("#desafio button.entregar-desafio")  # sin identificador: lo pide, no descarga
    assert pagina.locator("#desafio").get_attribute("data-entrega") == "sin-identificador"
    assert "identificador" in pagina.locator("#desafio .estado-entrega").inner_text()
    pagina.fill("#desafio input.identificador", "../otro")
    pagina.click("#desafio button.entregar-desafio")
    assert "no vale" in pagina.locator("#desafio .estado-entrega").inner_text()
    # Con el esqueleto sin tocar las pruebas fallan: avisa, pero descarga.
    pagina.fill("#desafio input.identificador", "ana")
    with pagina.expect_download(timeout=ESPERA) as espera:
        pagina.click("#desafio button.entregar-desafio")
    assert espera.value.suggested_filename == desafio.cuaderno
    assert pagina.locator("#desafio").get_attribute("data-entrega") == "descargada-con-fallos"
    assert "no pasa todas las pruebas visibles" in pagina.locator("#desafio .estado-entrega").inner_text()
    # El identificador se recuerda en este navegador.
    pagina.reload()
    pagina.wait_for_selector("#desafio button.entregar-desafio:enabled")
    assert pagina.input_value("#desafio input.identificador") == "ana"
    assert "No es la entrega" in pagina.locator(".progreso").inner_text()
