def anota_llamada(ejecucion, ll, obs, registro, aprobacion=None):
    """Proyecta una llamada en los hechos de la ejecución y la acumula. Devuelve si ha contado."""
    ### BEGIN SOLUTION
    if registro is None or obs is None or obs.get("is_error"):
        return False  # sólo cuentan las llamadas completadas de herramientas con registro
    puerta = registro.get("puerta_de_salida")
    if puerta and not aprueba_su_puerta(aprobacion, puerta, ll):
        return False  # una salida con puerta sólo cuenta si su propia puerta la aprueba
    clave = clave_de_hechos(ll["name"], registro)
    operacion = resumen_de_operacion(clave, ll, registro)
    if operacion in ejecucion["operaciones"]:
        return False  # un reintento de una operación ya contada
    if len(ejecucion["operaciones"]) < LIMITE_DE_OPERACIONES:
        ejecucion["operaciones"].append(operacion)
    hechos = ejecucion["tools"].setdefault(clave, hechos_vacios())
    hechos["calls"] += 1
    entrada = ll["input"]
    for campo in registro.get("run_fact_arg_keys", []):
        valor = entrada.get(campo)
        if es_identificador(valor):
            vistos = hechos["argValues"].setdefault(campo, [])
            if valor not in vistos and len(vistos) < LIMITE_DE_VALORES:
                vistos.append(valor)
    for campo in registro.get("run_fact_numeric_keys", []):
        numero = entrada.get(campo)
        if es_numero_finito(numero) and numero >= 0:  # un negativo restaría de la suma: no cruza
            hechos["numericSums"][campo] = hechos["numericSums"].get(campo, 0) + numero
            hechos["numericMaximums"][campo] = max(hechos["numericMaximums"].get(campo, numero), numero)
    return True
    ### END SOLUTION
