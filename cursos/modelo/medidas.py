"""Las cuentas del laboratorio: la tabla por clase, las tasas con su intervalo de Wilson, el gráfico y la cabecera.

Las clases nunca se suman entre sí: un ataque, un control de autorización, un control negativo y
el residual de una defensa miden cosas distintas (ver CLASES).
"""

import datetime
import math

MEDIDAS = ("propuesta", "ejecutada", "tarea")
# Las clases de escenario, en el orden en que se enseñan, con lo que mide cada una.
CLASES = {
    "ataque": "Ataques: el texto inyectado pide algo que el usuario no ha pedido",
    "residual": "Residuales: lo que la defensa de la lección no puede parar, medido aparte",
    "autorización": "Controles de autorización: la acción la ha pedido quien puede, pero la sesión no la permite",
    "control negativo": "Controles negativos: no hay nada que atacar; la defensa no debe estorbar",
}
# Las defensas: sin ella, con ella y el usuario prudente, y (si la defensa pregunta) con un usuario
# que lo aprueba todo, el de la fatiga de aprobación.
DEFENSAS = ("sin", "con")
APRUEBA = "con, aprueba todo"
NOMBRE_DEFENSA = {"sin": "sin defensa", "con": "con defensa", APRUEBA: "con defensa y un usuario que aprueba todo"}
Z95 = 1.959964


def wilson(exitos, n, z=Z95):
    """El intervalo de Wilson al 95 % de una tasa exitos/n, como (bajo, alto); con n = 0, (0, 1)."""
    if n <= 0:
        return 0.0, 1.0
    p = exitos / n
    centro = (p + z * z / (2 * n)) / (1 + z * z / n)
    margen = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centro - margen), min(1.0, centro + margen)


def tasa(exitos, n):
    """«3 de 5 (60 %; IC 95 %: 23–88 %)»: la cuenta, la tasa y lo que con este n se puede decir de ella."""
    if n <= 0:
        return "sin ejecuciones válidas"
    bajo, alto = wilson(exitos, n)
    return "%d de %d (%d %%; IC 95 %%: %d–%d %%)" % (
        exitos,
        n,
        round(100 * exitos / n),
        round(100 * bajo),
        round(100 * alto),
    )


def tabla(ejecuciones):
    """{(escenario, defensa): fila} con veces, errores, las tres cuentas, la clase y el título del escenario."""
    filas = {}
    for e in ejecuciones:
        fila = filas.setdefault(
            (e.escenario, e.defensa),
            {"veces": 0, "errores": 0, **dict.fromkeys(MEDIDAS, 0), "clase": e.clase, "titulo": e.titulo},
        )
        fila["veces"] += 1
        if e.error:
            fila["errores"] += 1
            continue
        for medida in MEDIDAS:
            fila[medida] += getattr(e, medida)
    return filas


def por_clase(filas):
    """Las filas agrupadas por clase, en el orden de CLASES: [(clase, [((escenario, defensa), fila)])]."""
    return [
        (c, [(k, f) for k, f in filas.items() if f["clase"] == c])
        for c in CLASES
        if any(f["clase"] == c for f in filas.values())
    ]


def texto_de_tabla(filas, cabecera=None):
    """La tabla en texto: una sección por clase, cada fila con el título del escenario y las tasas con su IC."""
    lineas = lineas_de_cabecera(cabecera) if cabecera else []
    for clase, suyas in por_clase(filas):
        lineas += ["", CLASES[clase] + ":"]
        for (_, defensa), f in suyas:
            validas = f["veces"] - f["errores"]
            lineas.append(
                "  %s · %s (errores: %d de %d)"
                % (f["titulo"], NOMBRE_DEFENSA.get(defensa, defensa), f["errores"], f["veces"])
            )
            lineas += ["      %-10s %s" % (m, tasa(f[m], validas)) for m in MEDIDAS]
    return "\n".join(lineas).strip("\n")


def resumen(filas):
    """Una línea por clase y defensa, cada clase por su lado: nunca se suman ataques con controles."""
    lineas = []
    for clase, suyas in por_clase(filas):
        for defensa in dict.fromkeys(d for (_, d), _ in suyas):
            de_esta = [f for (_, d), f in suyas if d == defensa]
            validas = sum(f["veces"] - f["errores"] for f in de_esta)
            cuentas = {m: sum(f[m] for f in de_esta) for m in MEDIDAS}
            lineas.append(
                "%s, %s: ejecutada %s; tarea %s"
                % (
                    clase.capitalize(),
                    NOMBRE_DEFENSA.get(defensa, defensa),
                    tasa(cuentas["ejecutada"], validas),
                    tasa(cuentas["tarea"], validas),
                )
            )
    return "\n".join(lineas)


def cabecera(descripcion, veces, commit=None):
    """Lo que hace falta para comparar con otro modelo u otro día.

    El modelo, el servidor, el formato, N, la fecha, los ajustes que se mandan y el commit del curso.
    """
    return {
        "modelo": descripcion.get("modelo", ""),
        "servidor": descripcion.get("servidor", ""),
        "formato": descripcion.get("formato", ""),
        "veces": veces,
        "fecha": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "ajustes": descripcion.get("ajustes", {}),
        "commit": commit or "desconocido",
    }


def lineas_de_cabecera(c):
    ajustes = ", ".join("%s=%s" % kv for kv in c["ajustes"].items()) or "ninguno"
    return [
        "Modelo: %s · servidor: %s · formato: %s"
        % (c["modelo"], c["servidor"] or "este proceso", c["formato"] or "ninguno"),
        "N = %d por escenario y defensa · %s · ajustes enviados: %s · curso: %s"
        % (c["veces"], c["fecha"], ajustes, c["commit"]),
    ]


COLORES = {"propuesta": "#b9770e", "ejecutada": "#c0392b", "tarea": "#2471a3"}


def escapa(texto):
    return str(texto).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def grafico_svg(filas, cabecera=None, ancho=760):
    """Barras por escenario y defensa con el IC de Wilson como bigote; una sección por clase."""
    izquierda, largo = 250, ancho - 250 - 20
    y, partes = 40, []
    for n, medida in enumerate(MEDIDAS):
        x = izquierda + n * 120
        partes.append(
            '<rect x="%d" y="8" width="10" height="10" fill="%s"/><text x="%d" y="17">%s</text>'
            % (x, COLORES[medida], x + 14, medida)
        )
    if cabecera:
        for linea in lineas_de_cabecera(cabecera):
            partes.append('<text x="4" y="%d" fill="#444">%s</text>' % (y, escapa(linea)))
            y += 16
    for clase, suyas in por_clase(filas):
        y += 14
        partes.append('<text x="4" y="%d" font-weight="bold">%s</text>' % (y, escapa(CLASES[clase])))
        y += 8
        for (_, defensa), f in suyas:
            validas = f["veces"] - f["errores"]
            partes.append('<text x="4" y="%d">%s</text>' % (y + 12, escapa(f["titulo"][:38])))
            partes.append(
                '<text x="4" y="%d" fill="#555">%s</text>' % (y + 25, escapa(NOMBRE_DEFENSA.get(defensa, defensa)))
            )
            for k, medida in enumerate(MEDIDAS):
                partes.append(barra(izquierda, y + 2 + k * 9, largo, f[medida], validas, medida, f, defensa))
            y += 34
    alto = y + 10
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" '
        'aria-label="Tasas del laboratorio de inyecciones, por clase, con su intervalo de Wilson al 95 %%" '
        'font-family="sans-serif" font-size="12">%s</svg>' % (ancho, alto, ancho, alto, "".join(partes))
    )


def barra(x, y, largo, exitos, n, medida, f, defensa):
    """Una barra con la tasa y un bigote del IC 95 %; su <title> dice la tasa entera."""
    tasa_ = exitos / n if n else 0
    bajo, alto = wilson(exitos, n)
    return (
        '<rect x="%d" y="%d" width="%.1f" height="7" fill="%s"><title>%s, %s, %s: %s</title></rect>'
        '<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#222"/>'
        % (
            x,
            y,
            max(largo * tasa_, 1),
            COLORES[medida],
            escapa(f["titulo"]),
            escapa(NOMBRE_DEFENSA.get(defensa, defensa)),
            medida,
            tasa(exitos, n),
            x + largo * bajo,
            x + largo * alto,
            y + 3,
            y + 3,
        )
    )
