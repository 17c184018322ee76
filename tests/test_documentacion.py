"""La documentación por lector y por género: un README corto que abre la puerta, cada documento de
su tamaño, enlaces y rutas que llevan a algún sitio, y las tablas de la guía que dicen lo que el código.
"""

import ast
import re
import typing

from cursos import RAIZ, esquemas
from tests.ayudas import PUEDE_IMPORTAR

GUIAS = [
    RAIZ / "README.md",
    RAIZ / "CONTRIBUTING.md",
    RAIZ / "CHANGELOG.md",
    RAIZ / "LICENSE-LECCIONES.md",
    *sorted((RAIZ / "docs").glob("*.md")),
    RAIZ / "bench" / "RESULTADOS.md",
]
DECISIONES = sorted((RAIZ / "docs" / "decisiones").glob("*.md"))
CALIFICACIONES = sorted((RAIZ / "desafios").glob("*/CALIFICACION.md"))
PAGINAS = [*GUIAS, *DECISIONES, *CALIFICACIONES]
ENLACE = re.compile(r"\]\(([^)\s]+)\)")

# Bytes como mucho: un documento que crece más mezcla géneros (ver docs/decisiones/estructura-documentos-por-genero.md).
TAMANO_MAXIMO = {
    "docs/arquitectura.md": 25_000,
    "docs/autores.md": 22_000,
    "docs/profesores.md": 16_000,
    "bench/RESULTADOS.md": 20_000,
    "docs/decisiones/README.md": 12_000,
}  # el índice: una línea por decisión, no una decisión
TAMANO_DE_UNA_GUIA = 8_000  # las demás: README, CONTRIBUTING, alumnos…
TAMANO_DE_UNA_DECISION = 4_500  # una pantalla, dos como mucho
# Lo que un documento, un comentario o una prueba no puede citar porque no está en el repositorio:
# el gestor de issues, y la carpeta de semillas y el guion del curso de origen. El patrón no se
# encuentra a sí mismo (aquí «\d» no es un número, y a «\bseeds» le falta la frontera).
DE_FUERA = re.compile(r"(?i:\bissues? #?\d+)|\bCURSO\.md\b|\bseeds/")
# El código y las pruebas que se miran: todo lo que tiene comentarios o docstrings, salvo lo de terceros.
CODIGO = sorted(
    p
    for p in [
        *(p for carpeta in ("cursos", "tests", "bench") for p in (RAIZ / carpeta).rglob("*")),
        *RAIZ.glob("*.py"),
        *RAIZ.glob("*.toml"),
        RAIZ / ".ci" / "run",
        RAIZ / "curso",
    ]
    if (p.suffix in (".py", ".mjs", ".js", ".toml") or p.name in ("run", "curso"))
    and p.is_file()
    and "node_modules" not in p.parts
)
# Ficheros que aún citan lo de fuera, con cuántas citas: {ruta: n}. Son de otras tareas; al arreglar
# uno, quítalo de aquí (la prueba lo pide). Una cita en cualquier otro fichero, o una más, la hace fallar.
AUN_CITAN_DE_FUERA = {
    "tests/lecciones/test_voz_propia_leccion_5.py": 1,  # lee la semilla de fuera a propósito (CURSO_SEMILLAS)
}


def test_el_readme_es_una_puerta_con_las_dos_ordenes_en_la_primera_pantalla():
    lineas = (RAIZ / "README.md").read_text(encoding="utf-8").splitlines()
    primera = "\n".join(lineas[:25])
    ordenes = [linea.split("#")[0].strip() for linea in re.findall(r"```bash\n(.*?)```", primera, re.S)[0].splitlines()]
    assert ordenes == ["./curso servir", "./curso pruebas"]
    assert len(lineas) <= 40, "el README es la puerta: lo demás va en docs/"
    for pagina in ("alumnos", "profesores", "autores", "arquitectura"):
        assert f"(docs/{pagina}.md)" in "\n".join(lineas)


def test_cada_enlace_relativo_lleva_a_un_fichero_que_existe():
    rotos = []
    for pagina in PAGINAS:
        for destino in ENLACE.findall(pagina.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", destino) or destino.startswith("#"):
                continue
            if not (pagina.parent / destino.split("#")[0]).exists():
                rotos.append(f"{pagina.relative_to(RAIZ)} → {destino}")
    assert rotos == []


def test_la_arquitectura_dice_que_corre_donde():
    texto = (RAIZ / "docs" / "arquitectura.md").read_text(encoding="utf-8")
    for sitio in ("herramientas", "navegador del alumno", "caja del alumno", "calificador de confianza"):
        assert sitio in texto


def test_cada_ruta_del_repositorio_que_citan_las_guias_existe():
    """`cursos/…`, `tests/…`… entre comillas invertidas: un fichero movido (caja/, carpetas.py) no deja la guía vieja.

    Las plantillas (`lecciones/<slug>/…`, `{all,es_ES}`, `test_*.py`) no son rutas: se saltan.
    """
    citadas = {
        (pagina.name, ruta)
        for pagina in PAGINAS
        for ruta in re.findall(
            r"`((?:cursos|tests|desafios|lecciones|docs|bench)/[^`\s]*)`", pagina.read_text(encoding="utf-8")
        )
        if not re.search(r"[<{*]", ruta)
    }
    assert citadas, "las guías citan rutas del repositorio"
    faltan = sorted((pagina, ruta) for pagina, ruta in citadas if not (RAIZ / ruta.rstrip("/")).exists())
    assert not faltan, faltan


def test_cada_documento_cabe_en_su_genero():
    grandes = []
    for pagina in PAGINAS:
        ruta = str(pagina.relative_to(RAIZ))
        tope = TAMANO_MAXIMO.get(ruta, TAMANO_DE_UNA_DECISION if pagina in DECISIONES else TAMANO_DE_UNA_GUIA)
        if len(pagina.read_bytes()) > tope:
            grandes.append(f"{ruta}: {len(pagina.read_bytes())} bytes (como mucho {tope})")
    assert not grandes, "; ".join(grandes)


def test_ningun_documento_cita_lo_que_no_esta_en_el_repositorio():
    citas = [
        f"{p.relative_to(RAIZ)}: «{m.group(0)}»"
        for p in PAGINAS
        for m in DE_FUERA.finditer(p.read_text(encoding="utf-8"))
    ]
    assert not citas, citas


def citas_de_fuera(ficheros) -> dict:
    """{fichero: sus citas de fuera, «línea: «texto»»}, sólo de los ficheros que tienen alguna."""
    citas = {}
    for fichero in ficheros:
        for n, linea in enumerate(fichero.read_text(encoding="utf-8").splitlines(), 1):
            for m in DE_FUERA.finditer(linea):
                citas.setdefault(fichero, []).append(f"{n}: «{m.group(0)}»")
    return citas


def test_ni_el_codigo_ni_las_pruebas_citan_lo_que_no_esta_en_el_repositorio():
    citas = {str(f.relative_to(RAIZ)): c for f, c in citas_de_fuera(CODIGO).items()}
    de_mas = {r: c for r, c in citas.items() if len(c) > AUN_CITAN_DE_FUERA.get(r, 0)}
    assert not de_mas, f"di lo que comprueba o por qué, sin citar lo de fuera: {de_mas}"
    arreglados = {r: n for r, n in AUN_CITAN_DE_FUERA.items() if len(citas.get(r, [])) < n}
    assert not arreglados, f"ya no citan tanto de fuera: baja o quita su cuenta en AUN_CITAN_DE_FUERA: {arreglados}"


def test_la_busqueda_de_citas_de_fuera_las_ve_y_no_confunde_los_datos(tmp_path):
    """Ve cada forma, y no las URL ni las rutas de las lecciones (recetas.example, recetas/salmorejo.txt)."""
    fichero = tmp_path / "prueba.py"
    # Partidas en dos, para que este fichero no se cite a sí mismo.
    citas = ["Iss" + "ue 26", "is" + "sue 37", "CURSO" + ".md", "se" + "eds/"]
    datos = ["https://recetas.example/salmorejo", "recetas/salmorejo.txt", "tests/semilla/celda1.py", "ISSUES"]
    fichero.write_text("\n".join(f"# {c}" for c in [*citas, *datos]) + "\n", encoding="utf-8")
    assert citas_de_fuera([fichero]) == {fichero: [f"{n}: «{c}»" for n, c in enumerate(citas, 1)]}
    # Y lo que se mira incluye el Python, el JavaScript y las pruebas.
    mirados = {"cursos/cli.py", "cursos/sitio/recursos/sw.js", "harness.py", "tests/test_documentacion.py"}
    assert mirados <= {str(p.relative_to(RAIZ)) for p in CODIGO}


# Una guía citada desde el código o las pruebas, con su sección si la nombra: «docs/<guía>.md («Sección»)».
CITA_DE_UNA_GUIA = re.compile(r"\b((?:docs|bench)/[\w./-]*\w\.md)(?:,? \(?«([^»]+)»)?")


def guias_rotas(ficheros) -> list[str]:
    """Las guías (y secciones) que citan los ficheros y no están: la sección es un título (`## …`)
    o un término en negrita (`**…**`) de la guía."""
    rotas = []
    for fichero in ficheros:
        for guia, seccion in CITA_DE_UNA_GUIA.findall(fichero.read_text(encoding="utf-8")):
            donde = f"{fichero.relative_to(RAIZ) if fichero.is_relative_to(RAIZ) else fichero.name} → {guia}"
            if not (RAIZ / guia).is_file():
                rotas.append(donde)
            elif seccion and not re.search(
                rf"^#+ {re.escape(seccion)}$|\*\*{re.escape(seccion)}\*\*", (RAIZ / guia).read_text("utf-8"), re.M
            ):
                rotas.append(f"{donde} «{seccion}»")
    return rotas


def test_cada_guia_y_seccion_que_cita_el_codigo_existe():
    """Un comentario que manda a una guía o a una de sus secciones no se queda apuntando a lo que se movió."""
    assert guias_rotas(CODIGO) == []


def test_la_busqueda_de_guias_rotas_ve_la_seccion_que_ya_no_esta(tmp_path):
    fichero = tmp_path / "prueba.mjs"
    guia, otra = "docs/" + "arquitectura.md", "docs/" + "se-fue.md"  # partidas: este fichero no las cita
    citas = [
        f"{guia} («Modelo de confianza»)",  # un título
        f"{guia}, «Sin conexión»",  # un término en negrita
        f"{guia}, «El arranque del núcleo de JupyterLite»",  # la sección se fue
        otra,
    ]
    fichero.write_text("\n".join(f"// {c}" for c in citas) + "\n", encoding="utf-8")
    assert guias_rotas([fichero]) == [
        f"prueba.mjs → {guia} «El arranque del núcleo de JupyterLite»",
        f"prueba.mjs → {otra}",
    ]


def test_el_indice_de_decisiones_las_nombra_todas():
    indice = (RAIZ / "docs" / "decisiones" / "README.md").read_text(encoding="utf-8")
    faltan = [d.name for d in DECISIONES if d.name != "README.md" and f"]({d.name})" not in indice]
    assert not faltan, f"añade una línea por cada una a docs/decisiones/README.md: {faltan}"


def test_las_medidas_dicen_fecha_y_commit():
    """Cada medida de bench/RESULTADOS.md empieza por su fecha y su commit (o la rama en que se midió)."""
    texto = (RAIZ / "bench" / "RESULTADOS.md").read_text(encoding="utf-8")
    entradas = re.findall(r"^(\d{4}-\d{2}-\d{2}), [^.]*?(`[0-9a-f]{7,}`|`\w+`)", texto, re.M)
    parrafos_con_cifras = [p for p in re.split(r"\n\n", texto) if re.match(r"\d{4}-\d{2}-\d{2}", p)]
    assert entradas and len(entradas) == len(parrafos_con_cifras)


# Cómo dice la guía el tipo de cada clave del esquema.
TIPOS_EN_LA_GUIA = {str: "texto", str | None: "texto", bool: "true o false", tuple[str, ...]: "lista de textos"}


def test_la_guia_de_autores_dice_las_claves_de_desafio_toml():
    """La tabla dice las claves del esquema (cursos/esquemas.py), en su orden, con su tipo y si es obligatoria."""
    texto = (RAIZ / "docs" / "autores.md").read_text(encoding="utf-8")
    tabla = texto.split("### Las claves de `desafio.toml`")[1].split("###")[0]
    filas = re.findall(r"^\| `(\w+)` \| ([^|]+) \| (sí|no) \|", tabla, re.M)
    tipos = typing.get_type_hints(esquemas.DesafioToml)
    esperadas = [
        (clave, TIPOS_EN_LA_GUIA[tipos[clave]], "sí" if esquemas.obligatoria(esquemas.DesafioToml, clave) else "no")
        for clave in esquemas.claves(esquemas.DesafioToml)
    ]
    assert filas == esperadas


def test_cada_clave_de_desafio_toml_se_usa():
    """Una clave que se lee y no se usa engaña a quien la escribe (como la vieja «intocables»)."""
    atributos = {
        nodo.attr
        for fichero in [*(RAIZ / "cursos").rglob("*.py"), *(RAIZ / "desafios").rglob("*.py")]
        for nodo in ast.walk(ast.parse(fichero.read_text(encoding="utf-8")))
        if isinstance(nodo, ast.Attribute)
    }
    assert [clave for clave in esquemas.claves(esquemas.DesafioToml) if clave not in atributos] == []


def test_el_mapa_de_la_arquitectura_dice_lo_mismo():
    """La columna «importa de» de docs/arquitectura.md nombra los paquetes de PUEDE_IMPORTAR
    (tests/test_importaciones.py, que vigila el código)."""
    texto = (RAIZ / "docs" / "arquitectura.md").read_text(encoding="utf-8")
    filas = dict(re.findall(r"^\| `cursos/(\w+)/` \|.*\| ([^|]+) \|$", texto, re.M))
    # widgets/ va en la fila del navegador, con recursos/ y arranque/, que no son paquetes.
    assert set(filas) == {p.split(".")[1] for p in PUEDE_IMPORTAR} - {"widgets"}, filas
    for nombre, columna in filas.items():
        dice = {"*"} if columna.startswith("de todo") else {f"cursos.{p}" for p in re.findall(r"`(\w+)/`", columna)}
        assert dice == PUEDE_IMPORTAR[f"cursos.{nombre}"], (nombre, columna)
