# Las variaciones ocultas: otra configuración (otros nombres de herramienta y otros umbrales), nueve
# pagos pequeños y uno grande, más de 32 beneficiarios. nbgrader las quita del cuaderno del alumno;
# el calificador las lee de aquí. Lo esperado se declara, como en las visibles.
TRANSFERENCIA = {"run_fact_arg_keys": ["iban"], "run_fact_numeric_keys": ["importe"], "operacion": "referencia",
                 "run_fact_key": "pagos_salientes"}
CREDENCIAL = {"run_fact_arg_keys": [], "run_fact_numeric_keys": []}
AVISO_EXTERNO = {}
OTRA_CONFIGURACION = {
    "secreto_y_envio": {"herramienta_de_secreto": "leer_credencial", "herramienta_de_envio": "aviso_externo",
                        "resultado": "require_approval", "grupo_aprobador": "seguridad"},
    "enumeracion_y_exportacion": {"herramienta_de_enumeracion": "listar_socios", "herramienta_de_exportacion":
                                  "volcar_socios", "campo_de_registros": "filas", "volumen": 100,
                                  "resultado": "warn"},
    "acciones_repetidas": {"herramienta": "pagos_salientes", "campo_de_importe": "importe", "llamadas_minimas": 5,
                           "total_minimo": 1000, "maximo_por_llamada": 300, "resultado": "block"},
}


def _transferencia(n, referencia=None):
    return llamada("tr%d" % n, "Transferencia", iban="ES91-0049-%04d" % (n % 3), importe=200,
                   motivo="Cuota %d" % n, referencia=referencia or "ref-%d" % n)


VARIACIONES = [
    caso_de_llamadas("otra-configuracion", "otra configuración", [
        hecha(llamada("k1", "leer_credencial", nombre="token-banco"), registro=CREDENCIAL),
        *(hecha(_transferencia(n), registro=TRANSFERENCIA) for n in range(1, 4)),
        hecha(_transferencia(9, referencia="ref-2"), registro=TRANSFERENCIA, no_cuenta="repite la operación ref-2"),
        *(hecha(_transferencia(n), registro=TRANSFERENCIA) for n in range(4, 7)),
        hecha(llamada("av1", "Aviso-Externo", url="https://hooks.example.org", texto="hecho"),
              registro=AVISO_EXTERNO),
    ], {"leer_credencial": hechos(1),
        "pagos_salientes": hechos(6, {"iban": ["ES91-0049-0001", "ES91-0049-0002", "ES91-0049-0000"]},
                                  {"importe": 1200}, {"importe": 200}),
        "aviso_externo": hechos(1)},
        ("block", "run-tool-chain-repeated-low-value-actions", None), OTRA_CONFIGURACION),
    caso_de_llamadas("pago-grande", "nueve pagos pequeños y uno grande", [
        *(hecha(pagado("g%d" % n, "bene-41%02d" % n, 300, "pago-g%d" % n)) for n in range(1, 10)),
        hecha(pagado("g10", "bene-4110", 1500, "pago-g10")),
    ], {"payment_submit": hechos(10, {"beneficiary_id": ["bene-41%02d" % n for n in range(1, 11)]},
                                 {"amount": 4200}, {"amount": 1500})}, NADA_COINCIDE),
    caso_de_llamadas("muchos-beneficiarios", "más de 32 beneficiarios", [
        *(hecha(pagado("m%d" % n, "bene-5%03d" % n, 90, "pago-m%d" % n)) for n in range(1, 46)),
        hecha(pagado("m46", "bene-5046", 90, "pago-m7"), no_cuenta="repite la operación pago-m7"),
    ], {"payment_submit": hechos(45, {"beneficiary_id": ["bene-5%03d" % n for n in range(1, 33)]},
                                 {"amount": 4050}, {"amount": 90})}, PAGOS_A_REVISAR),
]
