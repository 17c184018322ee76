// Portada: el progreso de cada lección, de lo que ya guardan las páginas de lección en este
// navegador (localStorage): las preguntas contestadas y acertadas (autoevaluacion.js) y la
// última comprobación del desafío (desafio.mjs). Nada sale del navegador.
const PREFIJO = "curso-agentes-llm";
const curso = JSON.parse(document.getElementById("curso-datos").textContent).curso;

function lee(clave) {
  try { return JSON.parse(localStorage.getItem(clave)) || {}; } catch { return {}; }
}

function textoDelDesafio(estado) {
  const ultima = estado.resultado?.estado;
  const veces = estado.intentos ?? 0;
  if (ultima === "todas") return "desafío superado (pasa las pruebas visibles; la nota la pone el calificador)";
  if (ultima || veces) return `desafío empezado, aún sin pasar las pruebas visibles${veces ? ` (${veces} ${veces === 1 ? "comprobación" : "comprobaciones"})` : ""}`;
  if (typeof estado.codigo === "string") return "desafío empezado, sin comprobar";
  return "desafío sin empezar";
}

for (const item of document.querySelectorAll("li[data-leccion]")) {
  const { leccion, desafio } = item.dataset;
  const total = Number(item.dataset.preguntas);
  const partes = [];
  let hecho = true;
  let empezada = false;
  if (total) {
    const respuestas = Object.values(lee(`${PREFIJO}:${curso}:${leccion}:preguntas`));
    const contestadas = Math.min(respuestas.filter((r) => r?.elegidas?.length).length, total);
    const acertadas = Math.min(respuestas.filter((r) => r?.acierto).length, total);
    partes.push(`preguntas: ${contestadas} de ${total} contestadas, ${acertadas} acertadas`);
    hecho &&= acertadas === total;
    empezada ||= contestadas > 0;
  }
  if (desafio) {
    const estado = lee(`${PREFIJO}:${curso}:${leccion}:desafio`);
    partes.push(textoDelDesafio(estado));
    hecho &&= estado.resultado?.estado === "todas";
    empezada ||= Boolean(estado.resultado || estado.intentos || typeof estado.codigo === "string");
  }
  if (!partes.length) continue;
  const texto = item.querySelector(".progreso-leccion");
  texto.textContent = "Tu progreso: " + partes.join("; ") + ".";
  item.dataset.progreso = hecho ? "completa" : empezada ? "empezada" : "nueva";
}
