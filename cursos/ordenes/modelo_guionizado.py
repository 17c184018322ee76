"""./curso modelo-guionizado: el modelo guionizado por HTTP, en los formatos de Anthropic y OpenAI."""

import json

from cursos.errores import ErrorDeOrden
from cursos.ordenes.opciones import ruta_del_usuario, segundos

NOMBRE = "modelo-guionizado"
AYUDA = "sirve el modelo guionizado por HTTP, en los formatos de Anthropic y OpenAI (para probar ModeloReal)"


def configura(parser) -> None:
    parser.add_argument("--puerto", type=int, default=8001, help="puerto en 127.0.0.1 (8001)")
    parser.add_argument(
        "--guion",
        action="append",
        default=[],
        metavar="FICHERO",
        help="un guion en JSON (lista de turnos {espera, responde}); se puede repetir",
    )
    parser.add_argument("--clave", help="la clave que se exige en cada petición (por omisión, ninguna)")
    parser.add_argument("--demora", type=segundos, default=5.0, metavar="S", help="segundos de fallo-lenta (5)")


def _guiones(ficheros: list[str]) -> list:
    guiones = []
    for fichero in ficheros:
        ruta = ruta_del_usuario(fichero)
        try:
            guiones.append(json.loads(ruta.read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            raise ErrorDeOrden(
                f"no se puede leer el guion {ruta} ({e}): tiene que ser una lista de turnos en JSON"
            ) from None
    return guiones


def ejecuta(args) -> int:
    from cursos.modelo.servidor import ModeloServido, servidor

    servido = ModeloServido(_guiones(args.guion), clave=args.clave, demora=args.demora)
    try:
        http = servidor(servido, args.puerto)
    except OSError as e:
        raise ErrorDeOrden(
            f"no se puede usar el puerto {args.puerto} ({e.strerror}): "
            "elige otro con --puerto o cierra lo que lo está usando"
        ) from None
    base = f"http://127.0.0.1:{http.server_address[1]}"
    modelos = ", ".join([*servido.nombres_del_laboratorio(), *sorted(servido.guiones)]) or "ninguno"
    print(
        f"Modelo guionizado en {base}: formato anthropic en {base}/v1/messages, formato openai en "
        f"{base}/v1/chat/completions. Modelos: {modelos}, y fallo-401, fallo-429, fallo-lenta… "
        "Ctrl+C para parar.",
        flush=True,
    )
    try:
        http.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0
