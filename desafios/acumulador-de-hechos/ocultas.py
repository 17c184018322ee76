# Las variaciones ocultas: otra configuración (otros nombres de herramienta y otros umbrales), nueve
# pagos pequeños y uno grande, más de 32 beneficiarios, un importe negativo entre los pagos. nbgrader
# las quita del cuaderno del alumno; el calificador las lee de aquí. Lo esperado se declara, como en las visibles.
TRANSFERENCIA = {
    "run_fact_arg_keys": ["iban"],
    "run_fact_numeric_keys": ["importe"],
    "operacion": "referencia",
    "run_fact_key": "pagos_salientes",
}
CREDENCIAL = {"run_fact_arg_keys": [], "run_fact_numeric_keys": []}
AVISO_EXTERNO = {}
OTRA_CONFIGURACION = {
    "secreto_y_envio": {
        "herramienta_de_secreto": "leer_credencial",
        "herramienta_de_envio": "aviso_externo",
        "resultado": "require_approval",
        "grupo_aprobador": "seguridad",
    },
    "enumeracion_y_exportacion": {
        "herramienta_de_enumeracion": "listar_socios",
        "herramienta_de_exportacion": "volcar_socios",
        "campo_de_registros": "filas",
        "volumen": 100,
        "resultado": "warn",
    },
    "acciones_repetidas": {
        "herramienta": "pagos_salientes",
        "campo_de_importe": "importe",
        "llamadas_minimas": 5,
        "total_minimo": 1000,
        "maximo_por_llamada": 300,
        "resultado": "block",
    },
}


def _transferencia(n, referencia=None):
    return llamada(
        "tr%d" % n,
        "Transferencia",
        iban="ES91-0049-%04d" % (n % 3),
        importe=200,
        motivo="Cuota %d" % n,
        referencia=referencia or "ref-%d" % n,
    )


VARIACIONES = [
    caso_de_llamadas(
        "otra-configuracion",
        "otra configuración",
        [
            hecha(llamada("k1", "leer_credencial", nombre="token-banco"), registro=CREDENCIAL),
            *(hecha(_transferencia(n), registro=TRANSFERENCIA) for n in range(1, 4)),
            hecha(_transferencia(9, referencia="ref-2"), registro=TRANSFERENCIA, no_cuenta="repite la operación ref-2"),
            *(hecha(_transferencia(n), registro=TRANSFERENCIA) for n in range(4, 7)),
            hecha(
                llamada("av1", "Aviso-Externo", url="https://hooks.example.org", texto="hecho"), registro=AVISO_EXTERNO
            ),
        ],
        {
            "leer_credencial": hechos(1),
            "pagos_salientes": hechos(
                6, {"iban": ["ES91-0049-0001", "ES91-0049-0002", "ES91-0049-0000"]}, {"importe": 1200}, {"importe": 200}
            ),
            "aviso_externo": hechos(1),
        },
        ("block", "run-tool-chain-repeated-low-value-actions", None),
        OTRA_CONFIGURACION,
    ),
    caso_de_llamadas(
        "pago-grande",
        "nueve pagos pequeños y uno grande",
        [
            *(hecha(pagado("g%d" % n, "bene-41%02d" % n, 300, "pago-g%d" % n)) for n in range(1, 10)),
            hecha(pagado("g10", "bene-4110", 1500, "pago-g10")),
        ],
        {
            "payment_submit": hechos(
                10, {"beneficiary_id": ["bene-41%02d" % n for n in range(1, 11)]}, {"amount": 4200}, {"amount": 1500}
            )
        },
        NADA_COINCIDE,
    ),
    caso_de_llamadas(
        "muchos-beneficiarios",
        "más de 32 beneficiarios",
        [
            *(hecha(pagado("m%d" % n, "bene-5%03d" % n, 90, "pago-m%d" % n)) for n in range(1, 46)),
            hecha(pagado("m46", "bene-5046", 90, "pago-m7"), no_cuenta="repite la operación pago-m7"),
        ],
        {
            "payment_submit": hechos(
                45, {"beneficiary_id": ["bene-5%03d" % n for n in range(1, 33)]}, {"amount": 4050}, {"amount": 90}
            )
        },
        PAGOS_A_REVISAR,
    ),
    caso_de_llamadas(
        "negativo",
        "un importe negativo entre los pagos",
        [
            *(hecha(pagado("z%d" % n, "bene-62%02d" % n, 380, "pago-z%d" % n)) for n in range(1, 12)),
            hecha(pagado("z12", "bene-6212", -3500, "pago-z12")),
        ],
        {
            "payment_submit": hechos(
                12, {"beneficiary_id": ["bene-62%02d" % n for n in range(1, 13)]}, {"amount": 4180}, {"amount": 380}
            )
        },
        PAGOS_A_REVISAR,
    ),
]


# Las partes ocultas de las pruebas visibles: cada prueba, además de su caso visible, repite en el
# calificador casos de la misma clase con otros valores, otros ids y otro orden. Así, repetir las
# respuestas de las pruebas visibles (por número de llamada, o con una tabla copiada del cuaderno)
# no da puntos.
def _pago_oculto(n, beneficiario, importe, clave=None, **mas):
    return pagado("q%02d" % n, beneficiario, importe, clave or "pago-q%02d" % n, **mas)


REVISION_DLP = {
    "run_fact_arg_keys": ["bucket"],
    "run_fact_numeric_keys": ["filas"],
    "puerta_de_salida": "revision-dlp",
    "run_fact_key": "volcado",
}
VOLCADO = {"run_fact_arg_keys": ["cola"], "run_fact_numeric_keys": ["mensajes"], "operacion": "lote"}


def _volcado(id, bucket="informes", filas=80):
    return llamada(id, "VolcarTabla", bucket=bucket, filas=filas)


PARTES_OCULTAS = {
    "pagos": [
        caso_de_llamadas(
            "oculta-pagos",
            "once pagos de 400 a dos beneficiarios",
            [
                *(hecha(_pago_oculto(n, "bene-61%02d" % (n % 2), 400)) for n in range(1, 7)),
                hecha(_pago_oculto(17, "bene-6101", 400, clave="pago-q03"), no_cuenta="repite la operación pago-q03"),
                *(hecha(_pago_oculto(n, "bene-61%02d" % (n % 2), 400)) for n in range(7, 12)),
            ],
            {
                "payment_submit": hechos(
                    11, {"beneficiary_id": ["bene-6101", "bene-6100"]}, {"amount": 4400}, {"amount": 400}
                )
            },
            PAGOS_A_REVISAR,
        )
    ],
    "reintentos": [
        caso_de_llamadas(
            "oculta-reintentos",
            "reintentos con otras claves",
            [
                hecha(_pago_oculto(1, "bene-7001", 120, clave="lote-a")),
                hecha(_pago_oculto(2, "bene-7002", 120, clave="lote-b")),
                hecha(
                    _pago_oculto(3, "bene-7003", 999, clave="lote-a"),
                    no_cuenta="repite la operación lote-a, con otro importe",
                ),
                hecha(llamada("k9", "secret_read", secret_id="otra")),
                hecha(llamada("k9", "secret_read", secret_id="otra"), no_cuenta="la misma llamada k9, otra vez"),
                hecha(_pago_oculto(4, "bene-7001", 120, clave="lote-c")),
            ],
            {
                "payment_submit": hechos(
                    3, {"beneficiary_id": ["bene-7001", "bene-7002"]}, {"amount": 360}, {"amount": 120}
                ),
                "secret_read": hechos(1),
            },
            NADA_COINCIDE,
        )
    ],
    "completadas": [
        caso_de_llamadas(
            "oculta-completadas",
            "otros fallos",
            [
                hecha(llamada("x1", "customer_enumeration", segmento="activos")),
                hecha(_pago_oculto(1, "bene-8001", 90), obs=error("q01", "saldo insuficiente"), no_cuenta="ha fallado"),
                hecha(_pago_oculto(2, "bene-8002", 95), registro=None, no_cuenta="sin registro de hechos"),
                hecha(llamada("x2", "customer_enumeration", segmento="bajas"), obs=None, no_cuenta="sin observación"),
                hecha(_pago_oculto(1, "bene-8001", 90)),  # el reintento del que falló sí cuenta
            ],
            {
                "customer_enumeration": hechos(1, {"segmento": ["activos"]}),
                "payment_submit": hechos(1, {"beneficiary_id": ["bene-8001"]}, {"amount": 90}, {"amount": 90}),
            },
            NADA_COINCIDE,
        )
    ],
    "declarados": [
        caso_de_llamadas(
            "oculta-declarados",
            "otro registro, otros campos",
            [
                hecha(
                    llamada("v1", "EncolarAviso", cola="alertas-2", mensajes=3, texto="hola a todos", lote="l1"),
                    registro=VOLCADO,
                ),
                hecha(
                    llamada("v2", "EncolarAviso", cola="la cola de alertas", mensajes=2, prioridad=9, lote="l2"),
                    registro=VOLCADO,
                ),
                hecha(llamada("v3", "EncolarAviso", cola="alertas-2", mensajes="4", lote="l3"), registro=VOLCADO),
            ],
            {"encolaraviso": hechos(3, {"cola": ["alertas-2"]}, {"mensajes": 5}, {"mensajes": 3})},
            NADA_COINCIDE,
        )
    ],
    "numeros": [
        caso_de_llamadas(
            "oculta-numeros",
            "otros números raros",
            [
                hecha(_pago_oculto(1, "bene-9001", -0.5)),
                hecha(_pago_oculto(2, "bene-9002", 250.25)),
                hecha(_pago_oculto(3, "bene-9003", False)),
                hecha(_pago_oculto(4, "bene-9004", float("-inf"))),
                hecha(_pago_oculto(5, "bene-9005", "250")),
                hecha(_pago_oculto(6, "bene-9006", -1e9)),
                hecha(_pago_oculto(7, "bene-9007", 0.0)),
            ],
            {
                "payment_submit": hechos(
                    7,
                    {"beneficiary_id": ["bene-90%02d" % n for n in range(1, 8)]},
                    {"amount": 250.25},
                    {"amount": 250.25},
                )
            },
            NADA_COINCIDE,
        )
    ],
    "topes": [
        caso_de_llamadas(
            "oculta-topes",
            "35 beneficiarios en otro orden",
            [hecha(_pago_oculto(n, "bene-%d" % (9100 - n), 110)) for n in range(1, 36)]
            + [hecha(_pago_oculto(36, "bene-9099", 110))],
            {
                "payment_submit": hechos(
                    36,
                    {"beneficiary_id": ["bene-%d" % (9100 - n) for n in range(1, 33)]},
                    {"amount": 3960},
                    {"amount": 110},
                )
            },
            NADA_COINCIDE,
        )
    ],
    "puertas": [
        caso_de_llamadas(
            "oculta-puertas",
            "otra puerta, con otro nombre",
            [
                hecha(
                    _volcado("w1"),
                    registro=REVISION_DLP,
                    aprobacion=aprobada(_volcado("w1"), puerta="filtro-de-salida"),
                    no_cuenta="la ha aprobado otra puerta",
                ),
                hecha(
                    _volcado("w2"), registro=REVISION_DLP, aprobacion=aprobada(_volcado("w2"), puerta="revision-dlp")
                ),
                hecha(
                    _volcado("w3", filas=5),
                    registro=REVISION_DLP,
                    aprobacion=aprobada(_volcado("w3"), puerta="revision-dlp", decision="rechazar"),
                    no_cuenta="su puerta la ha rechazado",
                ),
                hecha(
                    _volcado("w4", bucket="archivo"),
                    registro=REVISION_DLP,
                    aprobacion=aprobada(_volcado("w4"), puerta="revision-dlp", llamada="w2"),
                    no_cuenta="su puerta ha aprobado otra llamada",
                ),
            ],
            {"volcado": hechos(1, {"bucket": ["informes"]}, {"filas": 80}, {"filas": 80})},
            NADA_COINCIDE,
        )
    ],
    "registrada": [
        caso_de_llamadas(
            "oculta-registrada",
            "otra herramienta sin campos",
            [
                hecha(llamada("r1", "Firma.Digital", documento="contrato"), registro={"run_fact_key": "firmas"}),
                hecha(llamada("r2", "Firma.Digital", documento="anexo"), registro={"run_fact_key": "firmas"}),
                hecha(llamada("r3", "Ping-Servicio"), registro={"run_fact_arg_keys": [], "run_fact_numeric_keys": []}),
            ],
            {"firmas": hechos(2), "ping_servicio": hechos(1)},
            NADA_COINCIDE,
        )
    ],
}
