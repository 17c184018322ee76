"""Ningún canal entre entregas: lo que escribe una, otra (después, o a la vez) no lo lee.

Cada prueba es un canal que sobrevive a un proceso o que comparten dos a la vez: la entrega A
escribe en él; la B, calificada después (con A ya muerta) y a la vez (con A viva), lo busca y no
encuentra nada. Atacan con llamadas al sistema (ctypes), así que corren con el Python de la
máquina (detecta(pyodide=False)): es la pared del sistema, la misma que rodea a Node cuando el
código del alumno corre en Pyodide (que además no puede hacer llamadas al sistema).
"""

import json
import os

import pytest

from cursos.calificador.aislamiento import detecta, termina

es_root = hasattr(os, "geteuid") and os.geteuid() == 0
pytestmark = pytest.mark.skipif(not es_root, reason="el encierro completo (usuario propio, montajes) necesita root")

LIBC = "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.syscall.restype = ctypes.c_long\n"

# Cada canal: (lo que hace A para dejar algo, lo que hace B para leerlo: devuelve None si no hay nada).
CANALES = {
    "llavero_del_usuario": (
        LIBC + "def ejecutar(ll, e):\n"
        "    return libc.syscall(248, b'user', b'canal', b'respuestas', 10, -4)\n",  # add_key al llavero del usuario
        LIBC + "def ejecutar(ll, e):\n"
        "    clave = libc.syscall(249, b'user', b'canal', None, 0)\n"  # request_key
        "    if clave < 0:\n"
        "        return None\n"
        "    datos = ctypes.create_string_buffer(64)\n"
        "    n = libc.syscall(250, 11, clave, datos, 64)\n"  # keyctl(KEYCTL_READ)
        "    return datos.raw[:n].decode() if n > 0 else 'existe'\n",
    ),
    "llavero_de_la_sesion": (
        LIBC + "def ejecutar(ll, e):\n"
        "    return libc.syscall(248, b'user', b'canal', b'respuestas', 10, -3)\n",  # la sesión heredada
        LIBC + "def ejecutar(ll, e):\n"
        "    clave = libc.syscall(250, 10, -3, b'user', b'canal', 0)\n"  # keyctl(KEYCTL_SEARCH) en la sesión
        "    return None if clave < 0 else 'existe'\n",
    ),
    "memoria_compartida_system_v": (
        LIBC + "def ejecutar(ll, e):\n"
        "    id = libc.shmget(0x5EC0, 4096, 0o1666)\n"
        "    libc.shmat.restype = ctypes.c_void_p\n"
        "    ctypes.memmove(libc.shmat(id, None, 0), b'respuestas', 10)\n"
        "    return id\n",
        LIBC + "def ejecutar(ll, e):\n"
        "    id = libc.shmget(0x5EC0, 0, 0)\n"
        "    if id < 0:\n"
        "        return None\n"
        "    libc.shmat.restype = ctypes.c_void_p\n"
        "    return ctypes.string_at(libc.shmat(id, None, 0), 10).decode()\n",
    ),
    "colas_y_semaforos_system_v": (
        LIBC + "def ejecutar(ll, e):\n    return [libc.msgget(0x5EC1, 0o1666), libc.semget(0x5EC2, 1, 0o1666)]\n",
        LIBC + "def ejecutar(ll, e):\n"
        "    vistos = [libc.msgget(0x5EC1, 0), libc.semget(0x5EC2, 0, 0)]\n"
        "    return vistos if max(vistos) >= 0 else None\n",
    ),
    "cola_posix": (
        LIBC + "def ejecutar(ll, e):\n"
        "    rt = ctypes.CDLL('librt.so.1', use_errno=True)\n"
        "    q = rt.mq_open(b'/canal', os.O_CREAT | os.O_RDWR, 0o666, None)\n"
        "    return rt.mq_send(q, b'respuestas', 10, 0)\n",
        LIBC + "def ejecutar(ll, e):\n"
        "    rt = ctypes.CDLL('librt.so.1', use_errno=True)\n"
        "    q = rt.mq_open(b'/canal', os.O_RDONLY | os.O_NONBLOCK)\n"
        "    if q < 0:\n"
        "        return None\n"
        "    datos = ctypes.create_string_buffer(8192)\n"
        "    n = rt.mq_receive(q, datos, 8192, None)\n"
        "    return datos.raw[:n].decode() if n > 0 else 'existe'\n",
    ),
    "ficheros_en_dev_shm_tmp_y_var_tmp": (
        "def ejecutar(ll, e):\n"
        "    hechos = []\n"
        "    for carpeta in ('/dev/shm', '/tmp', '/var/tmp', '/run/lock', '/dev/mqueue'):\n"
        "        try:\n"
        "            with open(carpeta + '/canal', 'w') as f:\n"
        "                f.write('respuestas')\n"
        "            hechos.append(carpeta)\n"
        "        except OSError:\n"
        "            pass\n"
        "    return hechos\n",
        "def ejecutar(ll, e):\n"
        "    vistos = {}\n"
        "    for carpeta in ('/dev/shm', '/tmp', '/var/tmp', '/run/lock', '/dev/mqueue'):\n"
        "        try:\n"
        "            vistos[carpeta] = open(carpeta + '/canal').read()\n"
        "        except OSError:\n"
        "            pass\n"
        "    return vistos or None\n",
    ),
    "socket_unix_abstracto": (
        "import socket\n"
        "def ejecutar(ll, e):\n"
        "    global s\n"
        "    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        "    s.bind('\\0canal')\n"
        "    s.listen(1)\n"
        "    return 'escuchando'\n",
        "import socket\n"
        "def ejecutar(ll, e):\n"
        "    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        "    try:\n"
        "        c.connect('\\0canal')\n"
        "        return 'conectado'\n"
        "    except OSError:\n"
        "        return None\n",
    ),
    "memfd": (
        "import os\n"
        "def ejecutar(ll, e):\n"
        "    global fd\n"
        "    fd = os.memfd_create('canal', 0)\n"
        "    os.write(fd, b'respuestas')\n"
        "    return fd\n",
        "import os\n"
        "def ejecutar(ll, e):\n"
        "    vistos = []\n"
        "    for pid in filter(str.isdigit, os.listdir('/proc')):\n"
        "        try:\n"
        "            for fd in os.listdir('/proc/%s/fd' % pid):\n"
        "                if 'canal' in os.readlink('/proc/%s/fd/%s' % (pid, fd)):\n"
        "                    vistos.append(open('/proc/%s/fd/%s' % (pid, fd)).read())\n"
        "        except OSError:\n"
        "            pass\n"
        "    return vistos or None\n",
    ),
}


def arranca(aislamiento, celda: str):
    """El proceso de una entrega con su celda cargada."""
    proceso = aislamiento.arranca(5)
    pide(proceso, {"modulos": [], "celdas": [celda]})
    return proceso


def pide(proceso, mensaje: dict) -> dict:
    proceso.stdin.write(json.dumps(mensaje).encode() + b"\n")
    proceso.stdin.flush()
    return json.loads(proceso.stdout.readline())


def llama(proceso):
    respuesta = pide(proceso, {"llama": "ejecutar", "args": [{}, None]})
    assert "devuelve" in respuesta, respuesta
    return respuesta["devuelve"]


@pytest.fixture(scope="module")
def aislamiento():
    return detecta(pyodide=False)


@pytest.mark.parametrize("canal", CANALES)
def test_lo_que_deja_una_entrega_no_lo_lee_la_siguiente(aislamiento, canal):
    escribe, lee = CANALES[canal]
    a = arranca(aislamiento, escribe)
    try:
        llama(a)
    finally:
        termina(a)
    b = arranca(aislamiento, lee)
    try:
        assert llama(b) is None
    finally:
        termina(b)


@pytest.mark.parametrize("canal", CANALES)
def test_lo_que_deja_una_entrega_no_lo_lee_otra_a_la_vez(aislamiento, canal):
    escribe, lee = CANALES[canal]
    a = arranca(aislamiento, escribe)
    try:
        llama(a)  # A sigue viva mientras B busca
        b = arranca(aislamiento, lee)
        try:
            assert llama(b) is None
        finally:
            termina(b)
    finally:
        termina(a)


def test_el_llavero_esta_cerrado_tambien_para_escribir(aislamiento):
    """add_key, request_key y keyctl devuelven EPERM: ni siquiera la propia entrega guarda nada."""
    proceso = arranca(
        aislamiento,
        LIBC + "def ejecutar(ll, e):\n"
        "    r = [libc.syscall(248, b'user', b'x', b'y', 1, -4), libc.syscall(250, 0, -4, 0)]\n"
        "    return r + [ctypes.get_errno()]\n",
    )
    try:
        assert llama(proceso) == [-1, -1, 1]  # EPERM
    finally:
        termina(proceso)


def test_solo_hereda_el_canal_y_la_entrada_es_dev_null(aislamiento):
    """Ningún descriptor heredado salvo 0, 1 y 2 (a /dev/null) y los dos del canal."""
    proceso = arranca(
        aislamiento,
        "import os\ndef ejecutar(ll, e):\n"
        "    vistos = {}\n"
        "    for fd in sorted(int(f) for f in os.listdir('/proc/self/fd')):\n"
        "        try:\n"
        "            vistos[fd] = os.readlink('/proc/self/fd/%d' % fd)\n"
        "        except OSError:\n"
        "            pass  # el de listdir, ya cerrado\n"
        "    return vistos\n",
    )
    try:
        visto = llama(proceso)
    finally:
        termina(proceso)
    assert sorted(visto) == ["0", "1", "2", "3", "4"]
    assert [visto[f] for f in "012"] == ["/dev/null"] * 3
    assert visto["3"].startswith("pipe:") and visto["4"].startswith("pipe:")


def test_dos_entregas_a_la_vez_tienen_usuarios_distintos(aislamiento):
    celda = "import os\ndef ejecutar(ll, e):\n    return [os.getuid(), os.getgid(), os.getgroups()]\n"
    a, b = arranca(aislamiento, celda), arranca(aislamiento, celda)
    try:
        de_a, de_b = llama(a), llama(b)
    finally:
        termina(a)
        termina(b)
    assert de_a[0] != de_b[0] and 0 not in (de_a[0], de_b[0], de_a[1], de_b[1])
    assert de_a[2] == de_b[2] == []


def _corre_bpf(programa, arquitectura: int, llamada: int) -> int:
    """Lo que devuelve el filtro para una llamada (sólo las instrucciones que usa: ld, jeq, ret)."""
    datos = {0: llamada, 4: arquitectura}
    acumulador, n = 0, 0
    while True:
        codigo, si, no, k = programa[n]
        if codigo == 0x20:
            acumulador = datos[k]
        elif codigo == 0x15:
            n += si if acumulador == k else no
        elif codigo == 0x06:
            return k
        n += 1


@pytest.mark.parametrize(
    "arquitectura, llavero, otra",
    [
        (0xC000003E, (248, 249, 250, 0x40000000 | 250), (0, 59, 251)),  # x86_64 y x32
        (0x40000003, (286, 287, 288), (248, 250, 11)),  # i386
        (0xC00000B7, (217, 218, 219), (220, 221)),  # aarch64
    ],
)
def test_el_filtro_solo_cierra_el_llavero(arquitectura, llavero, otra):
    from cursos.calificador.caja import hijo

    programa = hijo._filtro_del_llavero()
    assert all(_corre_bpf(programa, arquitectura, n) == 0x00050001 for n in llavero)
    assert all(_corre_bpf(programa, arquitectura, n) == 0x7FFF0000 for n in otra)
    assert _corre_bpf(programa, 0x12345, 250) == 0x7FFF0000


def test_con_reserva_cada_proceso_lo_usa_una_sola_entrega(aislamiento):
    """Los procesos lanzados de antemano (con_reserva) no son un canal: cada uno sale una vez y no vuelve.

    A deja en la memoria de su intérprete y en cada canal de CANALES; B, C y D, que salen de la
    reserva después, no ven nada. Al acabar, los que quedaban de reserva están muertos.
    """
    escribe = "import builtins\nbuiltins.RESPUESTAS = 'respuestas'\n"
    lee = "import builtins\ndef ejecutar(ll, e):\n    return getattr(builtins, 'RESPUESTAS', None)\n"
    usados = []
    with aislamiento.con_reserva(2):
        for deja, busca in [(escribe + lee, lee), *CANALES.values()]:
            a = arranca(aislamiento, deja)
            try:
                llama(a)
                b = arranca(aislamiento, busca)  # a la vez
                try:
                    assert llama(b) is None
                finally:
                    termina(b)
            finally:
                termina(a)
            c = arranca(aislamiento, busca)  # después
            try:
                assert llama(c) is None
            finally:
                termina(c)
            usados += [a, b, c]
        reserva = [p for cola in aislamiento.reserva.values() for p in cola]
    assert len({p.pid for p in usados}) == len(usados)  # ninguno sale dos veces
    assert len(reserva) == 2 and not {p.pid for p in reserva} & {p.pid for p in usados}
    assert all(p.poll() is not None for p in reserva) and not aislamiento.reserva
