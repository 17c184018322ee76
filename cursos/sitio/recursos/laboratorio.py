"""El laboratorio de inyecciones en el worker de su página: el mismo Python que `./curso inyecciones`.

Lo carga recursos/trabajador.mjs tras ejecutor.py. El worker ya ha escrito en el directorio de
trabajo los módulos del curso, cursos/modelo/ y fuentes.json (el código de partida y la solución
de cada desafío, que aquí no se pueden leer del repositorio).
"""

import json
import os
import sys

sys.path.insert(0, os.getcwd())

from cursos.modelo import escenarios as _escenarios
from cursos.modelo import inyecciones as _inyecciones


def laboratorio(peticion, clave, avisa):
    """Corre cada escenario `veces` veces sin y con la defensa contra el modelo; devuelve el JSON del resultado.

    peticion (JSON): url, formato, modelo, veces. clave: la del worker (None si no hay); sólo
    llega a ModeloReal, que no la escribe en ningún mensaje. avisa(hechas, total) tras cada ejecución.
    Un 404 (el modelo no existe) o un 401 paran el lote en la primera ejecución.
    """
    datos = json.loads(peticion)
    if not _escenarios.FUENTES:
        _escenarios.carga_fuentes("fuentes.json")
    veces = int(datos["veces"])
    modelo_para = _inyecciones.modelo_real_para(
        datos["url"], datos["formato"], datos["modelo"], clave or None, plazo=datos.get("plazo", 60)
    )
    ejecuciones = _inyecciones.ejecuta_laboratorio(
        _escenarios.escenarios(), veces, modelo_para, avisa=lambda hechas, total: avisa(hechas, total)
    )
    return json.dumps(
        _inyecciones.para_la_pagina(ejecuciones, _inyecciones.cabecera_de(modelo_para, veces)), ensure_ascii=False
    )
