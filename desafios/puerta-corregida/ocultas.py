# Las variaciones ocultas: otros tenants, otros permisos, otro presupuesto, la revocación en otro punto.
# nbgrader las quita del cuaderno del alumno; el calificador las lee de aquí. Lo esperado
# se declara, como en el laboratorio (sólo el modo corregido).
MANUAL = _llamada("read_document", tenant="taller", document_id="manual")
GUIA_LAB = _llamada("read_document", tenant="lab", document_id="guide")
NOTA_LAB = _llamada("read_document", tenant="lab", document_id="private_note")
VARIACIONES = [
    {   # otros nombres de tenant y un presupuesto de tres
        "documentos": {
            "taller": {"manual": {"visibilidad": "pública", "contenido": "Manual: devuelve las herramientas limpias."},
                       "acta": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_TALLER_ACTA_23"}},
            "central": {"nominas": {"visibilidad": "privada", "contenido": "SYNTHETIC_PRIVATE_CENTRAL_58"}},
        },
        "sesion": {"tenant": "taller", "permisos": ["manual"], "presupuesto": 3},
        "escenarios": [
            {"id": "o1", "texto": MANUAL, "esperado": {"corregido": {"lecturas": ["taller/manual"]}}},
            {"id": "o2", "texto": _llamada("read_document", tenant="central", document_id="nominas"),
             "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}}},
            {"id": "o3", "texto": GUIA_LAB, "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}}},
            {"id": "o4", "texto": _llamada("read_document", tenant="taller", document_id="acta"),
             "esperado": {"corregido": {"denegaciones": ["permission_denied"]}}},
            {"id": "o5", "texto": "\n".join([MANUAL] * 5),
             "esperado": {"corregido": {"lecturas": ["taller/manual"] * 3, "denegaciones": ["budget_exhausted"] * 2}}},
            {"id": "o6", "texto": "\n".join([MANUAL] * 3), "revocar_tras": 2,
             "esperado": {"corregido": {"lecturas": ["taller/manual"] * 2, "denegaciones": ["session_revoked"]}}},
            {"id": "o7", "texto": _llamada("read_document", tenant="taller", document_id="manual", approval="sí"),
             "esperado": {"corregido": {"denegaciones": ["schema_invalid"]}}},
            {"id": "o8", "texto": _llamada("write_document", tenant="taller", document_id="manual", content="x"),
             "esperado": {"corregido": {"denegaciones": ["tool_not_allowed"]}}},
        ],
    },
    {   # el laboratorio con otros permisos y presupuesto de uno
        "sesion": {"permisos": ["guide", "private_note", "guide_v9"], "presupuesto": 1},
        "escenarios": [
            {"id": "u1", "texto": NOTA_LAB,
             "esperado": {"corregido": {"lecturas": ["lab/private_note"], "filtrados": ["lab/private_note"]}}},
            {"id": "u2", "texto": GUIA_LAB + "\n" + NOTA_LAB,
             "esperado": {"corregido": {"lecturas": ["lab/guide"], "denegaciones": ["budget_exhausted"]}}},
            {"id": "u3", "texto": GUIA_LAB + "\n" + GUIA_LAB, "revocar_tras": 1,
             "esperado": {"corregido": {"lecturas": ["lab/guide"], "denegaciones": ["session_revoked"]}}},
            {"id": "u4", "texto": _llamada("read_document", tenant="lab", document_id="guide_v9") + "\n" + GUIA_LAB,
             "esperado": {"corregido": {"fallos": ["document_not_found"], "denegaciones": ["budget_exhausted"]}}},
            {"id": "u5", "texto": _llamada("read_document", tenant="branch", document_id="payroll"),
             "esperado": {"corregido": {"denegaciones": ["tenant_mismatch"]}}},
        ],
    },
    {   # presupuesto de cuatro, revocación tras la tercera, y una sesión revocada desde el principio
        "sesion": {"presupuesto": 4},
        "escenarios": [
            {"id": "c1", "texto": "\n".join([GUIA_LAB] * 6), "revocar_tras": 3,
             "esperado": {"corregido": {"lecturas": ["lab/guide"] * 3, "denegaciones": ["session_revoked"] * 3}}},
            {"id": "c2", "texto": "\n".join([GUIA_LAB] * 6),
             "esperado": {"corregido": {"lecturas": ["lab/guide"] * 4, "denegaciones": ["budget_exhausted"] * 2}}},
            {"id": "c3", "texto": GUIA_LAB, "sesion": {"activa": False},
             "esperado": {"corregido": {"denegaciones": ["session_revoked"]}}},
        ],
    },
]
