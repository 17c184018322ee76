"""./curso recoger: las entregas (carpeta o zip del LMS) en submitted/<alumno>/<desafío>/ con timestamp.txt."""

import sys

from cursos.ordenes.opciones import curso_existente, desafio_de, opcion_nbgrader, ruta_del_usuario

NOMBRE = "recoger"
AYUDA = "recoge las entregas (carpeta o zip del LMS) en submitted/ de nbgrader"


def configura(parser) -> None:
    parser.add_argument("entrada", help="la carpeta o el .zip con los cuadernos que han entregado los alumnos")
    parser.add_argument(
        "--desafio", metavar="SLUG", help="recoge sólo este desafío (por omisión, cada cuaderno va al suyo)"
    )
    opcion_nbgrader(parser)
    parser.add_argument(
        "--patron",
        help="expresión regular con el grupo (?P<alumno>…) que saca el alumno de la "
        "ruta dentro de la entrada, para cuadernos sin identificador (la primera carpeta); con "
        "Moodle o Canvas y la lista de alumnos en el libro no hace falta",
    )
    parser.add_argument(
        "--hora",
        choices=["fichero", "alumno"],
        default="fichero",
        help="de dónde sale la hora de la entrega: fichero (la del zip del aula virtual o la fecha "
        "del fichero) o alumno (la que pone el navegador al descargar; sólo si los ficheros se han "
        "copiado y han perdido su fecha) (fichero)",
    )


def ejecuta(args) -> int:
    from cursos.manifiesto import leer_curso
    from cursos.profesor.configuracion import aviso_de_zona
    from cursos.profesor.recoger import PATRON, escribe_informe, recoge

    if args.desafio:
        desafio_de(args)  # un desafío que no existe da la lista de los que hay
    curso_nbgrader = curso_existente(args)  # recoger en una errata crearía un curso nuevo
    desafios = {lc.desafio for lc in leer_curso(args.curso).lecciones if lc.desafio}
    informe = recoge(
        ruta_del_usuario(args.entrada), curso_nbgrader, desafios, args.desafio, args.patron or PATRON, args.hora
    )
    aviso = aviso_de_zona(curso_nbgrader)  # después de recoger, como siempre
    if aviso:
        print(aviso, file=sys.stderr)
    print(escribe_informe(informe))
    for desafio in sorted({linea.desafio for linea in informe if linea.recogida}):
        una = sum(1 for linea in informe if linea.recogida and linea.desafio == desafio) == 1
        orden = f"./curso calificar --desafio {desafio} --nbgrader {curso_nbgrader}"
        print(f"Califíca{'la' if una else 'las'} con: {orden}")
    paradas = [linea for linea in informe if linea.para]
    if paradas:  # las demás se han recogido, pero éstas necesitan que decidas algo
        print(
            f"curso recoger: {len(paradas)} fichero{'s' if len(paradas) != 1 else ''} sin recoger hasta que "
            "decidas de quién es (el motivo y qué hacer, arriba)",
            file=sys.stderr,
        )
        return 1
    # Recoger otra vez la misma descarga no es un error: nada nuevo, y nada que arreglar.
    if any(linea.recogida for linea in informe) or (informe and all(linea.neutra for linea in informe)):
        return 0
    print(
        "curso recoger: no se ha recogido ninguna entrega (el motivo de cada fichero, arriba); corrige lo "
        "que dicen y vuelve a recoger",
        file=sys.stderr,
    )
    return 1
