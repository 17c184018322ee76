"""Las pruebas del desafío en el proceso de confianza, con las funciones del alumno en otro proceso.

Aquí viven el código de partida (el modelo guionizado, el entorno, el laboratorio...),
los apoderados y las comprobaciones (las de desafios/<slug>/pruebas.py, cargadas del
repositorio y no de la entrega ni de source/). Del proceso del alumno sólo llegan valores
JSON: lo que devuelven sus funciones y las peticiones que hacen a los apoderados. Cada
prueba decide con lo que ve aquí: en el primer desafío, cuántas veces se ha preguntado,
qué funciones han corrido y cómo ha quedado el entorno; en el de la puerta, qué se ha
leído, escrito y denegado en los documentos de este lado.

Qué funciones escribe el alumno y qué apoderados recibe lo dice el desafio.toml de cada
desafío; el canal y el proceso son los mismos para todos.
"""

import contextlib
import functools
import inspect
import time
from dataclasses import dataclass

from cursos import contrato
from cursos.calificador.aislamiento import Aislamiento
from cursos.calificador.caja.protocolo import (
    ENTORNO,
    Caida,
    Clave,
    Marca,
    Pide,
    Rechazo,
    SinCPU,
    SinReloj,
    SinRespuesta,
    es_funcion,
)
from cursos.calificador.canal import Hijo, reloj
from cursos.calificador.cuaderno import Entrega
from cursos.calificador.resultado import QUE_PASO, Tipo
from cursos.carga import sin_cargas
from cursos.desafio import Desafio

MAXIMO_PETICIONES = 200  # peticiones a los apoderados en una sola llamada a una función del alumno
MAXIMO_RESPUESTA = 1 << 20  # caracteres de una respuesta de este lado: se acota ANTES de construirla
PLAZO = 10.0  # segundos de CPU por entrega (RLIMIT_CPU de su proceso), todas las pruebas juntas
MAXIMO_ARRANQUES = 3
SALTOS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # donde corta str.splitlines


# Los tipos cuyo texto escribe sólo este lado (el plazo, la caída, qué función falta, cuál variación
# y su pista), sin citar al alumno: se enseñan también de una parte oculta. Uno nuevo no está aquí
# hasta que se decida: mientras, de una parte oculta se dice sólo que no pasa.
SIN_CITAS = frozenset({Tipo.CPU, Tipo.RELOJ, Tipo.CAIDA, Tipo.RECHAZO, Tipo.VARIACION, Tipo.FALTA})


@dataclass(frozen=True)
class Resultado:
    """Por qué no pasa una prueba. El tipo decide qué se enseña; el texto sólo se enseña."""

    tipo: Tipo
    texto: str

    def __post_init__(self):
        object.__setattr__(self, "tipo", Tipo(self.tipo))  # un tipo que no existe es un error aquí, no al enseñarlo

    def motivo(self) -> str:
        """El motivo tal como lo lee el alumno: «qué ha pasado: por qué»."""
        return "%s: %s" % (QUE_PASO[self.tipo], self.texto)


class NoDefinida(BaseException):
    """Las celdas del alumno no dejan definida una función que el desafío le pide."""


@functools.cache
def _compilados(desafio: Desafio, modulos: tuple[tuple[str, str], ...], partida: str) -> tuple:
    fuentes = [
        *modulos,
        ("partida", _partida_sin_cargas(partida)),
        ("pruebas.py", desafio.pruebas()),
        ("ocultas.py", desafio.lee("ocultas.py")),
    ]
    return tuple(compile(fuente, nombre, "exec") for nombre, fuente in fuentes)


def _partida_sin_cargas(partida: str) -> str:
    """El código de partida sin las líneas que cargan los módulos de disco: aquí ya están cargados."""
    return sin_cargas(partida)


def espacio_de_pruebas(desafio: Desafio, repartido=None) -> dict:
    """Los módulos, el código de partida (la traza, el laboratorio), las pruebas y las variaciones ocultas.

    repartido (congelado.Repartido): los módulos y el código de partida que recibieron los alumnos;
    si no se da, los del repositorio.
    """
    modulos = repartido.modulos if repartido else desafio.modulos()
    partida = repartido.partida if repartido else desafio.partida()
    # La traza de la lección imprime: aquí, en silencio (un print propio y no redirect_stdout,
    # que cambia sys.stdout para todos los hilos).
    g = {"__name__": "__pruebas__", "__partida__": partida, "__modulos__": modulos, "print": lambda *a, **k: None}
    for codigo in _compilados(desafio, modulos, partida):
        exec(codigo, g)
    del g["print"]
    return g


def _excepcion(nombre: str, mensaje: str) -> Exception:
    """Una excepción que se llama como la que ha lanzado el alumno (sólo el nombre y el texto)."""
    clase = type(nombre if nombre.isidentifier() else "Excepcion", (Exception,), {})
    return clase(mensaje)


class BancoRemoto:
    """El banco del calificador: instala una mesa y llama a las funciones del alumno, en su proceso.

    Cumple el contrato de todo banco (el de BancoLocal, en desafios/base.py): with instala(mesa)
    y llama_con_argumentos(nombre, args). Además, funcion(nombre) da el puente con que las pruebas
    llaman a cada función del alumno (en el espacio de pruebas lleva su nombre).

    La mesa es un objeto de pruebas.py (la Mesa de permiso-en-ejecutar es el ejemplo completo):
    lo que rodea a la función del alumno en una prueba. Mientras está instalada, se lee de ella:
    - mesa.entorno (si la tiene): el entorno; si es un argumento de la llamada, viaja como una marca
      y cada lectura del alumno vuelve aquí (Pide.ENTORNO);
    - mesa.herramientas, si desafio.toml dice herramientas = true: {nombre: {"funcion", "input_schema"}};
      el alumno recibe los esquemas, y las funciones corren aquí sobre mesa.entorno;
    - un atributo por cada nombre de «datos» de desafio.toml, que se pone como global del alumno;
    - un método por cada nombre de «apoderados»: lo que llama el alumno y se resuelve aquí.
    Sin mesa instalada, el alumno no recibe ni datos, ni apoderados, ni herramientas.
    """

    def __init__(self, aislamiento: Aislamiento, desafio: Desafio, espacio: dict, entrega: Entrega, plazo: float):
        self.aislamiento, self.desafio, self.entrega = aislamiento, desafio, entrega
        self.partida, self.modulos = espacio["__partida__"], espacio["__modulos__"]
        self.plazo, self.limite = plazo, time.monotonic() + reloj(plazo, aislamiento)
        self.hijo, self.arranques, self.mesa = None, 0, None
        self.errores_al_cargar = []  # lo que han lanzado las celdas del alumno al cargarse
        self.sintaxis = []  # las notas de las celdas del alumno que no son Python válido
        self.sin_tiempo = None  # si se agotó el tiempo, el motivo: no se vuelve a arrancar
        self.al_cargar = None  # si se agotó al cargar las celdas (lo mismo pasaría en otra pasada)

    def _hijo(self) -> Hijo:
        if self.sin_tiempo:
            raise type(self.sin_tiempo)(str(self.sin_tiempo))
        if self.hijo is None:
            if self.arranques >= MAXIMO_ARRANQUES:
                raise Caida("el proceso de tu código ha terminado %d veces" % self.arranques)
            self.arranques += 1
            inicio = {
                Clave.MODULOS: self.modulos,
                Clave.CELDAS: [self.partida, *self.entrega.celdas],
                Clave.FUNCIONES: list(self.desafio.funciones),
            }
            try:
                self.hijo = Hijo(self.aislamiento, inicio, self.limite, self.plazo)
            except (SinCPU, SinReloj) as e:
                # Un bucle sin fin al cargar se cobra una vez: las pruebas siguientes (y la pasada con las
                # partes ocultas) no vuelven a arrancarlo.
                self.sin_tiempo = self.al_cargar = e
                raise
            self.errores_al_cargar = self.errores_al_cargar or self.hijo.errores
            self.sintaxis = self.sintaxis or self.hijo.sintaxis
        return self.hijo

    def cierra(self) -> None:
        if self.hijo:
            self.hijo.cierra()
            self.hijo = None

    def segunda_pasada(self) -> None:
        """La pasada con las partes ocultas: su plazo de reloj y sus arranques, en el mismo proceso si sigue vivo.

        Si no llega vivo (se cayó o agotó su CPU en la primera), la segunda arranca otro, como una
        pasada nueva; sólo lo que se agotó al cargar las celdas no se repite.
        """
        self.limite = time.monotonic() + reloj(self.plazo, self.aislamiento)
        if self.hijo is not None:
            self.hijo.limite, self.arranques = self.limite, 1
        else:
            self.arranques, self.sin_tiempo = 0, self.al_cargar

    @contextlib.contextmanager
    def instala(self, mesa):
        self.mesa = mesa
        try:
            yield
        finally:
            self.mesa = None

    def funcion(self, nombre):
        """La función del alumno tal como la ven las pruebas: cada llamada cruza el canal.

        nombre: el de una función de su código, o la marca de una que ha devuelto.
        """

        def remota(*args, **kwargs):
            self._exige_definida(nombre)
            return self.llama(nombre, list(args), kwargs)

        remota.__name__ = nombre if isinstance(nombre, str) else Marca.FUNCION
        return remota

    def _orden(self, nombre, args: list, kwargs: dict) -> dict:
        """La orden para el hijo: el entorno de la mesa viaja como una marca, y con ella datos y apoderados."""
        entorno = getattr(self.mesa, "entorno", None)
        orden = {
            Clave.LLAMA: nombre,
            Clave.ARGS: [ENTORNO if a is entorno and entorno is not None else a for a in args],
            Clave.KWARGS: kwargs,
        }
        if self.mesa is not None:
            orden[Clave.DATOS] = {n: getattr(self.mesa, n) for n in self.desafio.datos}
            orden[Clave.APODERADOS] = list(self.desafio.apoderados)
            if self.desafio.herramientas:
                orden[Clave.HERRAMIENTAS] = {n: h["input_schema"] for n, h in self.mesa.herramientas.items()}
        return orden

    def _con_puentes(self, valor):
        """Las funciones que devuelve el alumno llegan como marcas: aquí, puentes para llamarlas allí."""
        if isinstance(valor, dict):
            if es_funcion(valor):
                return self.funcion(valor)
            return {k: self._con_puentes(v) for k, v in valor.items()}
        if isinstance(valor, list):
            return [self._con_puentes(v) for v in valor]
        return valor

    def _exige_definida(self, nombre) -> None:
        if isinstance(nombre, str) and nombre not in self._hijo().definidas:
            raise NoDefinida(
                "tu código no define «%s»: después de correr tus celdas no hay ninguna función "
                "(ni otro llamable) con ese nombre que no sea la del código de partida" % nombre
            )

    def llama_con_argumentos(self, nombre, args: list):
        """(lo que devuelve, cómo han quedado sus argumentos): para funciones que cambian lo que reciben.

        Los argumentos vuelven como valores JSON, copias que el alumno ha podido cambiar a su
        gusto: quien los lee decide qué toma de ellos.
        """
        self._exige_definida(nombre)
        return self.llama(nombre, args, con_argumentos=True)

    def llama(self, nombre, args: list, kwargs: dict | None = None, con_argumentos: bool = False):
        """El puente: manda la llamada al alumno, atiende sus peticiones y devuelve lo que devuelve."""
        try:
            hijo = self._hijo()
            orden = self._orden(nombre, args, kwargs or {})
            if con_argumentos:
                orden[Clave.CON_ARGUMENTOS] = True
            hijo.envia(orden)
            for _ in range(MAXIMO_PETICIONES):
                mensaje = hijo.recibe()
                if Clave.DEVUELVE in mensaje:
                    try:
                        valor = self._con_puentes(mensaje[Clave.DEVUELVE])
                    except RecursionError:
                        raise Rechazo("tu código ha devuelto un valor demasiado anidado") from None
                    if not con_argumentos:
                        return valor
                    despues = mensaje.get(Clave.ARGUMENTOS)
                    if not isinstance(despues, list) or len(despues) != len(args):
                        raise Rechazo("no han vuelto los argumentos de tu función (¿escribes en el canal?)")
                    return valor, despues
                if Clave.EXCEPCION in mensaje:
                    raise _excepcion(*_tipo_y_texto(mensaje[Clave.EXCEPCION]))
                hijo.envia(self.atiende(mensaje))
            raise Rechazo("tu código ha hecho más de %d peticiones en una llamada" % MAXIMO_PETICIONES)
        except SinRespuesta as e:
            self.cierra()
            if isinstance(e, (SinCPU, SinReloj)):
                self.sin_tiempo = e
            raise

    def atiende(self, mensaje: dict) -> dict:
        """Una petición a un apoderado, resuelta aquí con la mesa de la prueba."""
        args, kwargs, nombre = mensaje.get(Clave.ARGS), mensaje.get(Clave.KWARGS), mensaje.get(Clave.NOMBRE)
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            raise Rechazo("petición mal formada")
        que, mesa = mensaje.get(Clave.PIDE), self.mesa
        try:
            if mesa is not None and que == Pide.APODERADO and nombre in self.desafio.apoderados:
                return {Clave.VALOR: getattr(mesa, nombre)(*args, **kwargs)}
            if (
                mesa is not None
                and que == Pide.HERRAMIENTA
                and self.desafio.herramientas
                and nombre in mesa.herramientas
            ):
                return {Clave.VALOR: self._herramienta(mesa, nombre, args, kwargs)}
            if mesa is not None and que == Pide.ENTORNO and isinstance(getattr(mesa, "entorno", None), dict):
                return {Clave.VALOR: _lee_entorno(mesa.entorno, nombre, args)}
            raise Rechazo("petición desconocida")
        except SinRespuesta:
            raise
        except Exception as e:
            return {
                Clave.LANZA: [
                    type(e).__name__,
                    [a if isinstance(a, (str, int, float)) else str(a)[:500] for a in e.args],
                ]
            }

    def _herramienta(self, mesa, nombre: str, args: list, kwargs: dict):
        """La función de la herramienta sobre el entorno de la mesa, con los argumentos como en la lección.

        Por posición o por nombre (funcion(entorno, "x.txt"), funcion(entorno=entorno, ruta="x.txt")):
        el primer parámetro es el entorno, que llega como marca y aquí es el de la mesa.
        """
        funcion = mesa.herramientas[nombre]["funcion"]
        firma = inspect.signature(funcion)
        primero = next(iter(firma.parameters))
        enlazados = firma.bind(*args, **kwargs)  # TypeError, como en la lección, si no encajan
        if enlazados.arguments.get(primero) != ENTORNO:
            raise TypeError("la función de la herramienta no ha recibido el entorno de ejecutar")
        enlazados.arguments[primero] = mesa.entorno
        cota = cota_de_respuesta(nombre, mesa.entorno, enlazados.arguments)
        if cota > MAXIMO_RESPUESTA:
            raise Rechazo(
                "la respuesta de «%s» podría ocupar %.1f MB y el máximo es %d MB: este lado no la "
                "construye" % (nombre, cota / 2**20, MAXIMO_RESPUESTA >> 20)
            )
        return funcion(*enlazados.args, **enlazados.kwargs)


def cota_de_respuesta(nombre: str, entorno: dict, argumentos: dict) -> int:
    """Caracteres que, como mucho, devuelve una herramienta de entorno.py, calculados sin construirla.

    leer devuelve un fichero; escribir y borrar, una línea; listar, las rutas. buscar repite la
    ruta en cada línea que encuentra: su tamaño es el producto de dos tamaños que pone el alumno
    (una ruta larga por un fichero de muchas líneas), y por eso se acota antes: cada línea de la
    respuesta es como mucho una ruta más una línea de un fichero. Cuesta recorrer el entorno, no
    multiplicarlo. Una herramienta que no se conoce, con la cota de buscar.
    """
    ruta = argumentos.get("ruta")
    if nombre == "leer":
        return len(entorno.get(ruta, "")) + 100 if isinstance(ruta, str) else 100
    if nombre in ("escribir", "borrar"):
        return len(ruta) + 100 if isinstance(ruta, str) else 100
    if nombre == "listar":
        return sum(len(r) + 1 for r in entorno) + 100
    lineas = caracteres = ruta_mas_larga = 0
    for ruta, contenido in entorno.items():
        texto = contenido if isinstance(contenido, str) else ""
        lineas += 1 + sum(texto.count(c) for c in SALTOS)
        caracteres += len(ruta) + len(texto) + 1
        ruta_mas_larga = max(ruta_mas_larga, len(ruta))
    texto = sum(len(a) for a in argumentos.values() if isinstance(a, str))
    return lineas * (ruta_mas_larga + 2) + caracteres + texto + 100


def _lee_entorno(entorno: dict, operacion, args: list):
    """Una lectura del entorno de la mesa, acotada antes de construirla."""
    if operacion == Pide.CUANTOS:
        return len(entorno)
    if operacion in (Pide.LEE, Pide.CONTIENE) and len(args) == 1:
        if operacion == Pide.CONTIENE:
            return args[0] in entorno if isinstance(args[0], str) else False
        if not isinstance(args[0], str) or args[0] not in entorno:
            raise KeyError(args[0])
        return entorno[args[0]]
    if operacion in (Pide.CLAVES, Pide.TODO):
        tamano = sum(
            len(r) + (len(c) if operacion == Pide.TODO and isinstance(c, str) else 0) for r, c in entorno.items()
        )
        if tamano > MAXIMO_RESPUESTA:
            raise Rechazo("el entorno ocupa más de %d MB: este lado no lo copia" % (MAXIMO_RESPUESTA >> 20))
        return list(entorno) if operacion == Pide.CLAVES else dict(entorno)
    raise Rechazo("petición desconocida")


def _tipo_y_texto(valor) -> tuple[str, str]:
    """[tipo, texto] de la excepción del alumno; si no llega así (alguien escribe en el canal), todo es texto."""
    if (
        isinstance(valor, list)
        and len(valor) == 2
        and all(isinstance(v, str) for v in valor)
        and valor[0].isidentifier()
    ):
        return valor[0], valor[1][: max(0, 498 - len(valor[0]))]  # 500 en total con «tipo: », como siempre
    return "Excepcion", str(valor)[:500]


OCULTO = "una parte oculta de esta prueba no pasa (lo que tu código ha dicho en ella no se muestra: la desvelaría)"


@dataclass(frozen=True)
class Pasada:
    """Lo que sale de pasar las pruebas a una entrega: el resultado de cada una y lo que se ha visto al cargarla."""

    resultados: dict[str, Resultado | None]  # prueba: None si pasa
    avisos: tuple[str, ...] = ()  # lo que han lanzado las celdas del alumno al cargarse
    sintaxis: tuple[str, ...] = ()  # las notas de sus celdas que no son Python válido (lo decide su intérprete)
    reloj: bool = False  # se acabó el plazo de reloj sin agotar la CPU: merece otro intento

    def motivos(self) -> dict[str, str | None]:
        """{prueba: None si pasa, o qué ha pasado y por qué no}."""
        return {nombre: _motivo(r) for nombre, r in self.resultados.items()}


def corre_pruebas(
    aislamiento: Aislamiento, desafio: Desafio, espacio: dict, entrega: Entrega, plazo: float = PLAZO
) -> Pasada:
    """Las pruebas del desafío, con las funciones del alumno aisladas, en un solo proceso por entrega.

    Lo que el alumno ve en una parte oculta podría contarlo después, en el mensaje de una prueba
    visible. Por eso, si las pruebas tienen partes ocultas (PARTES_OCULTAS), se pasan dos veces en
    el mismo proceso: primero sin ellas, con los motivos enteros, que quedan escritos antes de que
    el alumno vea nada oculto; después con ellas y las variaciones, sin citar nada de lo que diga
    el alumno (de las variaciones sólo se dice cuál no pasa y su pista). Si el proceso no llega
    vivo a la segunda pasada (se cayó o agotó su CPU), la segunda arranca otro, como una entrega nueva.
    Qué se enseña lo decide el tipo de cada resultado, nunca su texto: el texto lo puede escribir
    el alumno.
    """
    partes = espacio.pop(contrato.PARTES_OCULTAS, None)
    banco = BancoRemoto(aislamiento, desafio, espacio, entrega, plazo)
    try:
        if not partes:
            una = _una_pasada(banco, espacio)
            resultados = {
                n: _sin_desvelar(r) if n == contrato.PRUEBA_DE_VARIACIONES else r for n, r in una.resultados.items()
            }
            return Pasada(resultados, una.avisos, una.sintaxis, una.reloj)
        visibles = _una_pasada(banco, espacio, saltar={contrato.PRUEBA_DE_VARIACIONES})
        banco.segunda_pasada()
        espacio[contrato.PARTES_OCULTAS] = partes
        enteras = _una_pasada(banco, espacio)
    finally:
        banco.cierra()
        if partes:
            espacio[contrato.PARTES_OCULTAS] = partes
    resultados = {n: visibles.resultados.get(n) or _sin_desvelar(r) for n, r in enteras.resultados.items()}
    # Los avisos y las notas, sólo de la primera pasada: en la segunda el alumno ya ha visto las partes ocultas.
    return Pasada(resultados, visibles.avisos, visibles.sintaxis, visibles.reloj or enteras.reloj)


def _motivo(resultado: Resultado | None) -> str | None:
    return None if resultado is None else resultado.motivo()


def _sin_desvelar(resultado: Resultado | None) -> Resultado | None:
    """El resultado de una prueba con partes ocultas: el de un tipo que no cita al alumno, o uno genérico."""
    if resultado is None or resultado.tipo in SIN_CITAS:
        return resultado
    return Resultado(Tipo.RESULTADO, OCULTO)


def _una_pasada(banco: BancoRemoto, espacio: dict, saltar=frozenset()) -> Pasada:
    """Las pruebas (menos las de saltar) con el proceso del banco. Los avisos y las notas, tal como
    están al acabar: quien llama decide de qué pasada los toma."""
    desafio = banco.desafio
    for nombre in desafio.funciones:  # en el espacio de pruebas, las del alumno son puentes
        espacio[nombre] = banco.funcion(nombre)
    resultados, reloj = {}, False
    try:
        for nombre, (_, prueba) in espacio[contrato.PRUEBAS].items():
            if nombre in saltar:
                continue
            datos = (espacio[contrato.VARIACIONES],) if nombre == contrato.PRUEBA_DE_VARIACIONES else ()
            resultados[nombre], agotado = _una_prueba(banco, espacio, prueba, datos)
            reloj = reloj or agotado
    finally:
        for nombre in desafio.funciones:
            espacio.pop(nombre, None)
    return Pasada(resultados, tuple(banco.errores_al_cargar), tuple(banco.sintaxis or ()), reloj)


def _una_prueba(banco: BancoRemoto, espacio: dict, prueba, datos: tuple) -> tuple[Resultado | None, bool]:
    """(None si pasa o por qué no, si se ha acabado el reloj)."""
    try:
        prueba(banco, *datos)
        return None, False
    except espacio[contrato.FALLO] as e:
        # Por su clase, no por cómo empieza: el alumno puede hacer que un Fallo diga «la variación…».
        tipo = Tipo.VARIACION if isinstance(e, espacio[contrato.VARIACION_OCULTA]) else Tipo.RESULTADO
        return Resultado(tipo, str(e)), False
    except SinRespuesta as e:
        return Resultado(e.tipo, str(e)), isinstance(e, SinReloj)
    except NoDefinida as e:
        return Resultado(Tipo.FALTA, str(e)), False
    except Exception as e:  # un valor del alumno que la prueba no esperaba: falla ésta, no las demás
        return Resultado(
            Tipo.RESULTADO,
            "tu código ha devuelto o lanzado algo que la prueba no esperaba (%s: %s)"
            % (type(e).__name__, str(e)[:300]),
        ), False
