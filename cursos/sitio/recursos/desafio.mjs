// El desafío en la página de la lección: un editor con el esqueleto del cuaderno repartido,
// «Comprobar» (las pruebas visibles en el intérprete de la página) y el código guardado en
// localStorage, para que recargar o cerrar el navegador no pierda el trabajo.
// La comprobación sólo orienta: la nota la pone el calificador del profesor.

import { editorDePython } from "./editor.mjs";

const PREFIJO = "curso-agentes-llm";

function claveDe(curso, leccion) {
  return `${PREFIJO}:${curso}:${leccion}:desafio`;
}

function lee(clave) {
  try {
    return JSON.parse(localStorage.getItem(clave)) || {};
  } catch {
    return {};  // un valor estropeado no debe impedir trabajar
  }
}

function guarda(clave, estado) {
  try {
    localStorage.setItem(clave, JSON.stringify(estado));
  } catch { /* sin almacenamiento (modo privado estricto): se puede trabajar, no guardar */ }
}

// Lo que va en la descarga del progreso: el código que hay ahora en el editor y la última comprobación.
export function estadoDelDesafio(seccion) {
  const { curso, leccion, desafio } = seccion.dataset;
  const guardado = lee(claveDe(curso, leccion));
  return { desafio, codigo: seccion.querySelector("textarea.editor").value,
           ultima_comprobacion: guardado.resultado ?? null };
}

function pintaResultado(caja, seccion, resultado) {
  caja.textContent = resultado.salida;
  caja.hidden = false;
  seccion.dataset.resultado = resultado.estado;
}

export function montaDesafio(seccion, datos, { compruebaDesafio, arranca, detiene }) {
  const clave = claveDe(seccion.dataset.curso, seccion.dataset.leccion);
  const editor = seccion.querySelector("textarea.editor");
  const caja = seccion.querySelector(".resultado-desafio");
  const comprobar = seccion.querySelector(".comprobar-desafio");
  let estado = lee(clave);
  if (typeof estado.codigo === "string") editor.value = estado.codigo;
  if (estado.resultado) pintaResultado(caja, seccion, estado.resultado);

  const apunta = (cambios) => {
    estado = { ...estado, ...cambios, fecha: new Date().toISOString() };
    guarda(clave, estado);
  };
  editorDePython(editor);
  editor.addEventListener("input", () => apunta({ codigo: editor.value }));
  // Quien va a comprobar, va a necesitar Python: arrancarlo ya adelanta la espera.
  for (const evento of ["pointerover", "focus"]) comprobar.addEventListener(evento, arranca);

  // Si tarda (un bucle que no acaba), el alumno puede parar el intérprete sin recargar la página.
  const detener = seccion.querySelector(".detener-desafio");
  detener.addEventListener("click", detiene);

  comprobar.addEventListener("click", async () => {
    comprobar.disabled = true;
    const aviso = setTimeout(() => { detener.hidden = false; }, 3000);
    seccion.dataset.resultado = "comprobando";
    caja.replaceChildren("Comprobando con las pruebas visibles…\n");
    caja.hidden = false;
    const salida = document.createElement("span");
    caja.append(salida);
    const pasan = await compruebaDesafio({ desafio: datos.desafio, archivos: datos.archivos,
      partida: datos.partida, codigo: editor.value, pruebas: datos.pruebas }, salida);
    clearTimeout(aviso);
    detener.hidden = true;
    caja.firstChild.remove();  // el «Comprobando…»
    if (pasan === null) {
      caja.append("\nTu código no ha llegado a las pruebas: corrige el error de arriba y vuelve a comprobar.\n");
    }
    const valores = Object.values(pasan ?? {});
    const resultado = { pasan, salida: caja.textContent, fecha: new Date().toISOString(),
      estado: pasan === null ? "error" : valores.every(Boolean) ? "todas" : "faltan" };
    seccion.dataset.resultado = resultado.estado;
    apunta({ codigo: editor.value, resultado });
    comprobar.disabled = false;
  });

  const restaurar = seccion.querySelector(".restaurar-desafio");
  restaurar.addEventListener("click", () => {
    if (!confirm("¿Cambiar tu código por el código de partida? Lo que has escrito se pierde.")) return;
    editor.value = datos.esqueleto;
    estado = {};
    try { localStorage.removeItem(clave); } catch { /* nada que borrar */ }
    caja.replaceChildren();
    caja.hidden = true;
    delete seccion.dataset.resultado;
    editor.focus();
  });
  comprobar.disabled = restaurar.disabled = false;  // ya responden
}
