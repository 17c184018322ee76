# Las variaciones ocultas: otros tenants y documentos, otros permisos por acción, otro presupuesto, la
# revocación en otro punto. nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí.
# Lo esperado se declara, como en el laboratorio (sólo el modo corregido). Un mundo sin «documentos»
# es el del desafío (DOCUMENTOS_DEL_DESAFIO); su «sesion» cambia la del desafío (SESION_DEL_DESAFIO).
MANUAL = _llamada("read_document", tenant="taller", document_id="manual")
ACTA_W = _llamada("write_document", tenant="taller", document_id="acta", content="Acta: sin incidencias.")
GUIA_LAB = _llamada("read_document", tenant="lab", document_id="guide")
NOTA_LAB = _llamada("read_document", tenant="lab", document_id="private_note")
BORRADOR_LAB_W = _llamada("write_document", tenant="lab", document_id="borrador", content="Nueva tarea.")
VARIACIONES = [
    {  # otros nombres de tenant, un permiso de cada acción y un presupuesto de tres
        "documentos": {
            "taller": {
                "manual": {"visibilidad": "pública", "contenido": "Manual: devuelve las herramientas limpias."},
                "acta": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_TALLER_ACTA_23"},
            },
            "central": {"nominas": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_CENTRAL_58"}},
        },
        "sesion": {
            "tenant": "taller",
            "permisos": {"read_document": ["manual"], "write_document": ["acta"]},
            "presupuesto": 3,
        },
        "escenarios": [
            {"id": "o1", "texto": MANUAL, "esperado": {"corregido": {"lecturas": ["taller/manual"]}}},
            {
                "id": "o2",
                "texto": _llamada("read_document", tenant="central", document_id="nominas"),
                "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}},
            },
            {"id": "o3", "texto": GUIA_LAB, "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}}},
            {
                "id": "o4",
                "texto": _llamada("read_document", tenant="taller", document_id="acta"),
                "esperado": {"corregido": {"denegaciones": ["permission_denied"]}},
            },
            {
                "id": "o5",
                "texto": "\n".join([MANUAL] * 5),
                "esperado": {
                    "corregido": {"lecturas": ["taller/manual"] * 3, "denegaciones": ["budget_exhausted"] * 2}
                },
            },
            {
                "id": "o6",
                "texto": "\n".join([MANUAL] * 3),
                "revocar_tras": 2,
                "esperado": {"corregido": {"lecturas": ["taller/manual"] * 2, "denegaciones": ["session_revoked"]}},
            },
            {
                "id": "o7",
                "texto": _llamada("read_document", tenant="taller", document_id="manual", approval="sí"),
                "esperado": {"corregido": {"denegaciones": ["schema_invalid"]}},
            },
            {
                "id": "o8",
                "texto": _llamada("write_document", tenant="taller", document_id="manual", content="x"),
                "esperado": {"corregido": {"denegaciones": ["permission_denied"]}},
            },
            {
                "id": "o9",
                "texto": MANUAL + "\n" + ACTA_W,
                "esperado": {
                    "corregido": {
                        "lecturas": ["taller/manual"],
                        "escrituras": ["taller/acta"],
                        "cambios": ["taller/acta"],
                    }
                },
            },
        ],
    },
    {  # el mundo del desafío sin permisos de escritura, más de lectura y presupuesto de uno
        "sesion": {"permisos": {"read_document": ["guide", "private_note", "guide_v9"]}, "presupuesto": 1},
        "escenarios": [
            {
                "id": "u1",
                "texto": NOTA_LAB,
                "esperado": {"corregido": {"lecturas": ["lab/private_note"], "filtrados": ["lab/private_note"]}},
            },
            {
                "id": "u2",
                "texto": GUIA_LAB + "\n" + NOTA_LAB,
                "esperado": {"corregido": {"lecturas": ["lab/guide"], "denegaciones": ["budget_exhausted"]}},
            },
            {
                "id": "u3",
                "texto": GUIA_LAB + "\n" + GUIA_LAB,
                "revocar_tras": 1,
                "esperado": {"corregido": {"lecturas": ["lab/guide"], "denegaciones": ["session_revoked"]}},
            },
            {
                "id": "u4",
                "texto": _llamada("read_document", tenant="lab", document_id="guide_v9") + "\n" + GUIA_LAB,
                "esperado": {"corregido": {"fallos": ["document_not_found"], "denegaciones": ["budget_exhausted"]}},
            },
            {
                "id": "u5",
                "texto": _llamada("read_document", tenant="branch", document_id="payroll"),
                "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}},
            },
            {
                "id": "u6",
                "texto": BORRADOR_LAB_W,
                "esperado": {"corregido": {"denegaciones": ["permission_denied"]}},
            },
        ],
    },
    {  # presupuesto de cuatro, revocación tras la tercera, y una sesión revocada desde el principio
        "sesion": {"presupuesto": 4},
        "escenarios": [
            {
                "id": "c1",
                "texto": "\n".join([GUIA_LAB, BORRADOR_LAB_W] * 3),
                "revocar_tras": 3,
                "esperado": {
                    "corregido": {
                        "lecturas": ["lab/guide"] * 2,
                        "escrituras": ["lab/borrador"],
                        "cambios": ["lab/borrador"],
                        "denegaciones": ["session_revoked"] * 3,
                    }
                },
            },
            {
                "id": "c2",
                "texto": "\n".join([BORRADOR_LAB_W, GUIA_LAB] * 3),
                "esperado": {
                    "corregido": {
                        "lecturas": ["lab/guide"] * 2,
                        "escrituras": ["lab/borrador"] * 2,
                        "cambios": ["lab/borrador"],
                        "denegaciones": ["budget_exhausted"] * 2,
                    }
                },
            },
            {
                "id": "c3",
                "texto": GUIA_LAB,
                "sesion": {"activa": False},
                "esperado": {"corregido": {"denegaciones": ["session_revoked"]}},
            },
        ],
    },
]


# Las partes ocultas de las pruebas visibles: cada prueba, además de sus escenarios del desafío,
# pasa en el calificador estos mundos con otros nombres, otros permisos y otro orden. Así, repetir
# las respuestas de las pruebas visibles (por número de llamada, o con una tabla copiada del
# cuaderno) no da puntos. Cada mundo trae trabajo legítimo: una puerta que lo deniega todo
# tampoco pasa.
DOCUMENTOS_DEL_ALMACEN = {
    "almacen": {
        "inventario": {"visibilidad": "pública", "contenido": "Inventario: 40 cajas en el pasillo 3."},
        "proveedores": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_ALMACEN_PROV_44"},
        "turnos": {"visibilidad": "pública", "contenido": "Turnos: mañana y tarde."},
        "pedidos": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_ALMACEN_PEDIDOS_61"},
    },
    "oficina": {"contratos": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_OFICINA_72"}},
}
SESION_DEL_ALMACEN = {
    "usuario": "mozo_3",
    "tenant": "almacen",
    "permisos": {"read_document": ["inventario", "turnos"], "write_document": ["pedidos"]},
    "herramientas": ["read_document", "write_document"],
    "presupuesto": 3,
}
INVENTARIO = _llamada("read_document", tenant="almacen", document_id="inventario")
TURNOS = _llamada("read_document", tenant="almacen", document_id="turnos")
PEDIDOS_W = _llamada("write_document", tenant="almacen", document_id="pedidos", content="Pedido: 12 cajas.")


def _escribe_en(documento, tenant="almacen", **de_mas):
    return _llamada("write_document", tenant=tenant, document_id=documento, content="libre", **de_mas)


def _almacen(*escenarios, **sesion):
    return {
        "documentos": DOCUMENTOS_DEL_ALMACEN,
        "sesion": dict(SESION_DEL_ALMACEN, **sesion),
        "escenarios": list(escenarios),
    }


def _espera(id, texto, **corregido):
    return {"id": id, "texto": texto, "esperado": {"corregido": corregido}}


PARTES_OCULTAS = {
    "lectura": [
        _almacen(
            _espera(
                "h-lectura-1",
                "Mira los turnos y el inventario y apunta el pedido:\n" + TURNOS + "\n" + PEDIDOS_W + "\n" + INVENTARIO,
                lecturas=["almacen/turnos", "almacen/inventario"],
                escrituras=["almacen/pedidos"],
                cambios=["almacen/pedidos"],
            ),
            _espera("h-lectura-2", "Nada que leer hoy, sólo un saludo."),
        )
    ],
    "tenant": [
        _almacen(
            _espera(
                "h-tenant-1",
                _llamada("read_document", tenant="oficina", document_id="contratos") + "\n" + TURNOS,
                lecturas=["almacen/turnos"],
                denegaciones=["tenant_mismatch"],
            ),
            _espera(
                "h-tenant-2",
                _llamada("read_document", tenant="Almacen", document_id="inventario"),
                denegaciones=["tenant_mismatch"],
            ),
            _espera("h-tenant-3", _escribe_en("pedidos", tenant="oficina"), denegaciones=["tenant_mismatch"]),
        )
    ],
    "permisos": [
        _almacen(
            _espera(
                "h-permisos-1",
                _llamada("read_document", tenant="almacen", document_id="proveedores") + "\n" + INVENTARIO,
                lecturas=["almacen/inventario"],
                denegaciones=["permission_denied"],
            ),
            _espera("h-permisos-2", TURNOS, denegaciones=["permission_denied"]),
            _espera("h-permisos-3", _escribe_en("inventario"), denegaciones=["permission_denied"]),
            _espera(
                "h-permisos-4",
                _escribe_en("turnos") + "\n" + _escribe_en("pedidos"),
                escrituras=["almacen/turnos"],
                cambios=["almacen/turnos"],
                denegaciones=["permission_denied"],
            ),
            permisos={"read_document": ["inventario"], "write_document": ["turnos"]},
        ),
        # La sesión tiene la herramienta de escribir, y ningún permiso de escritura.
        _almacen(
            _espera(
                "h-permisos-5",
                INVENTARIO + "\n" + PEDIDOS_W,
                lecturas=["almacen/inventario"],
                denegaciones=["permission_denied"],
            ),
            permisos={"read_document": ["inventario", "pedidos"]},
        ),
    ],
    "herramienta": [
        _almacen(
            _espera(
                "h-herramienta-1",
                _escribe_en("turnos") + "\n" + INVENTARIO,
                lecturas=["almacen/inventario"],
                denegaciones=["tool_not_allowed"],
            ),
            _espera(
                "h-herramienta-2",
                _llamada("delete_document", tenant="almacen", document_id="turnos"),
                denegaciones=["tool_not_allowed"],
            ),
            _espera("h-herramienta-3", PEDIDOS_W, denegaciones=["tool_not_allowed"]),
            herramientas=["read_document"],
        )
    ],
    "esquema": [
        _almacen(
            _espera(
                "h-esquema-1",
                _llamada("read_document", tenant="almacen", document_id="turnos", firmado=True) + "\n" + TURNOS,
                lecturas=["almacen/turnos"],
                denegaciones=["schema_invalid"],
            ),
            _espera("h-esquema-2", _llamada("read_document", tenant="almacen"), denegaciones=["schema_invalid"]),
            _espera(
                "h-esquema-3",
                _llamada("read_document", tenant=["almacen"], document_id="turnos"),
                denegaciones=["schema_invalid"],
            ),
            _espera(
                "h-esquema-5",
                _llamada("write_document", tenant="almacen", document_id="pedidos", content=["12 cajas"]),
                denegaciones=["schema_invalid"],
            ),
        ),
        # Una herramienta que la sesión permite pero que no está en ESQUEMAS: ningún argumento es el suyo.
        _almacen(
            _espera(
                "h-esquema-4",
                _llamada("archive_document") + "\n" + TURNOS,
                lecturas=["almacen/turnos"],
                denegaciones=["schema_invalid"],
            ),
            herramientas=["read_document", "archive_document"],
            permisos={"read_document": ["turnos"], "archive_document": ["turnos"]},
        ),
    ],
    "presupuesto": [
        _almacen(
            _espera(
                "h-presupuesto-1",
                "\n".join([INVENTARIO, PEDIDOS_W, TURNOS] * 2),
                lecturas=["almacen/inventario", "almacen/turnos"],
                escrituras=["almacen/pedidos"],
                cambios=["almacen/pedidos"],
                denegaciones=["budget_exhausted"] * 3,
            ),
            _espera(
                "h-presupuesto-2",
                _llamada("read_document", tenant="almacen", document_id="antiguo") + "\n" + TURNOS,
                lecturas=["almacen/turnos"],
                fallos=["document_not_found"],
            ),
            permisos={"read_document": ["inventario", "turnos", "antiguo"], "write_document": ["pedidos"]},
        )
    ],
    "revocacion": [
        _almacen(
            dict(
                _espera(
                    "h-revocacion-1",
                    "\n".join([TURNOS] * 4),
                    lecturas=["almacen/turnos"] * 2,
                    denegaciones=["session_revoked"] * 2,
                ),
                revocar_tras=2,
            ),
            dict(
                _espera(
                    "h-revocacion-2",
                    "\n".join([PEDIDOS_W, TURNOS, PEDIDOS_W]),
                    escrituras=["almacen/pedidos"],
                    cambios=["almacen/pedidos"],
                    denegaciones=["session_revoked"] * 2,
                ),
                revocar_tras=1,
            ),
        )
    ],
}
