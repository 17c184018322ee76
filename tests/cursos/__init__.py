"""Las pruebas de los módulos de cursos/, una por módulo y con su nombre (test_carga.py ↔ cursos/carga.py)."""
