// Ganchos de la página de lección para lo que no es ejecutar celdas.
// Cada <section data-gancho="..."> llega ya pintada desde la construcción (enunciados,
// opciones, el texto del desafío), así que la página se lee aunque falle el JavaScript.
// activa(seccion) le da vida a cada una; lo llama leccion.mjs una vez por sección.
import { montaPreguntas } from "./autoevaluacion.js";

const ACTIVADORES = {
  // Las preguntas se corrigen en el navegador con autoevaluacion.js, con los mismos datos
  // que los widgets del cuaderno (incrustados en la página: ninguna petición más).
  preguntas(seccion) {
    const datos = document.getElementById("preguntas-datos");
    if (!datos) return;
    montaPreguntas(seccion.querySelector(".contenedor-preguntas"), JSON.parse(datos.textContent),
                   { curso: seccion.dataset.curso, leccion: seccion.dataset.leccion });
  },
  // El desafío (editor y pruebas en el navegador) es de otro módulo: aquí irá su montaje.
  desafio() {},
};

export function activa(seccion) {
  ACTIVADORES[seccion.dataset.gancho]?.(seccion);
}
