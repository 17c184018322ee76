"""./curso laboratorio: repite el laboratorio de las dos puertas y compara su evidencia con la guardada."""

from cursos import evidencia
from cursos.ordenes.opciones import ruta_del_usuario

NOMBRE = "laboratorio"
AYUDA = "verifica (o regenera) la evidencia del laboratorio de las dos puertas"


def configura(parser) -> None:
    parser.add_argument(
        "accion",
        choices=["verificar", "regenerar"],
        help="verificar: repite los 14 escenarios y compara; regenerar: reescribe la referencia",
    )
    parser.add_argument("--laboratorio", default=str(evidencia.LABORATORIO), help="código del laboratorio")
    parser.add_argument("--referencia", default=str(evidencia.REFERENCIA), help="evidencia JSON de referencia")


def ejecuta(args) -> int:
    rutas = {"laboratorio": ruta_del_usuario(args.laboratorio), "referencia": ruta_del_usuario(args.referencia)}
    accion = evidencia.verificar if args.accion == "verificar" else evidencia.regenerar
    pasa, lineas = accion(**rutas)
    print("\n".join(lineas))
    return 0 if pasa else 1
