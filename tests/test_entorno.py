"""El entorno: los ficheros del usuario y las cuatro herramientas."""


def test_ficheros_que_usa_la_traza(g):
    assert g["ENTORNO"]["lista.txt"] == "pan, leche, patatas"
    assert "sábado" in g["ENTORNO"]["notas.txt"] and "cuatro" in g["ENTORNO"]["notas.txt"]
    assert len(g["ENTORNO"]) >= 4


def test_cuatro_herramientas_con_esquema_y_descripcion(g):
    assert set(g["HERRAMIENTAS"]) == {"leer", "listar", "buscar", "escribir"}
    for nombre, h in g["HERRAMIENTAS"].items():
        assert h["input_schema"]["type"] == "object", nombre
        assert h["description"] and callable(h["funcion"]), nombre
    definiciones = g["herramientas_para_el_modelo"]()
    assert all("funcion" not in d for d in definiciones)


def test_leer_listar_buscar_escribir(g):
    e = dict(g["ENTORNO"])
    assert g["leer"](e, "lista.txt") == "pan, leche, patatas"
    assert g["listar"](e, "recetas") == "recetas/tortilla.txt"
    assert "lista.txt" in g["listar"](e).splitlines()
    assert g["buscar"](e, "SÁBADO") == "notas.txt: El sábado vienen cuatro a cenar."
    assert g["buscar"](e, "caviar") == "ninguna línea contiene caviar"
    assert g["escribir"](e, "nuevo.txt", "hola") == "escrito nuevo.txt"
    assert e["nuevo.txt"] == "hola"
    assert "nuevo.txt" not in g["ENTORNO"], "escribir en una copia no toca ENTORNO"
