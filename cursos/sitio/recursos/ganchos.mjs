// Ganchos de la página de lección para lo que no es ejecutar celdas.
// Cada <section data-gancho="..."> de la página (hoy "preguntas" y "desafio") llega ya
// pintada: enunciados, opciones y el texto del desafío. Quien implemente su interactividad
// (corrección de preguntas, editor y pruebas del desafío) la añade aquí, en activa(); la
// página llama a activa() una vez por sección al cargarse. Hoy no hace nada.

export function activa(seccion) {
  seccion.dataset.activa = "no";
}
