// Ganchos de la página de lección para lo que no es ejecutar celdas.
// Cada <section data-gancho="..."> llega ya pintada desde la construcción (enunciados,
// opciones, el texto del desafío y su esqueleto), así que la página se lee aunque falle el
// JavaScript. activa(seccion, interprete) le da vida a cada una; lo llama leccion.mjs una vez
// por sección, con lo que el desafío necesita del intérprete de la página.
import { descargaProgreso, montaPreguntas } from "./autoevaluacion.js";
import { estadoDelDesafio, montaDesafio } from "./desafio.mjs";

function datosDe(id) {
  const nodo = document.getElementById(id);
  return nodo ? JSON.parse(nodo.textContent) : null;
}

const ACTIVADORES = {
  // Las preguntas se corrigen en el navegador con autoevaluacion.js, con los mismos datos
  // que los widgets del cuaderno (incrustados en la página: ninguna petición más).
  preguntas(seccion) {
    const datos = datosDe("preguntas-datos");
    if (!datos) return;
    montaPreguntas(seccion.querySelector(".contenedor-preguntas"), datos,
                   { curso: seccion.dataset.curso, leccion: seccion.dataset.leccion });
  },
  // Editor y pruebas visibles, con los datos que la construcción sacó del desafío.
  desafio(seccion, interprete) {
    const datos = datosDe("desafio-datos");
    if (datos) montaDesafio(seccion, datos, interprete);
  },
  // La descarga junta las preguntas (autoevaluacion.js) y, si lo hay, el desafío.
  progreso(seccion) {
    const { curso, leccion } = seccion.dataset;
    const boton = seccion.querySelector(".descargar-progreso");
    boton.addEventListener("click", () => {
      const desafio = document.querySelector("section[data-gancho=desafio]");
      descargaProgreso(curso, leccion, desafio ? { desafio: estadoDelDesafio(desafio) } : {});
    });
    boton.disabled = false;
  },
};

export function activa(seccion, interprete) {
  ACTIVADORES[seccion.dataset.gancho]?.(seccion, interprete);
}
