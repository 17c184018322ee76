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

const suma = { lecciones: 0, completas: 0, preguntas: 0, acertadas: 0, desafios: 0, superados: 0 };
for (const item of document.querySelectorAll("li[data-leccion]")) {
  suma.lecciones += 1;
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
    totalDelCurso(acertadas, total);
  }
  if (desafio) {
    const estado = lee(`${PREFIJO}:${curso}:${leccion}:desafio`);
    partes.push(textoDelDesafio(estado));
    hecho &&= estado.resultado?.estado === "todas";
    suma.desafios += 1;
    suma.superados += estado.resultado?.estado === "todas" ? 1 : 0;
    empezada ||= Boolean(estado.resultado || estado.intentos || typeof estado.codigo === "string");
  }
  if (hecho && partes.length) suma.completas += 1;
  if (!partes.length) continue;
  const texto = item.querySelector(".progreso-leccion");
  texto.textContent = "Tu progreso: " + partes.join("; ") + ".";
  item.dataset.progreso = hecho ? "completa" : empezada ? "empezada" : "nueva";
}

function totalDelCurso(acertadas, preguntas) {
  suma.acertadas += acertadas;
  suma.preguntas += preguntas;
}

// Arriba del todo: por dónde seguir (la última lección abierta aquí) y cuánto llevas en el curso.
const ultima = (() => { try { return localStorage.getItem(`${PREFIJO}:${curso}:ultima`); } catch { return null; } })();
const item = ultima && document.querySelector(`li[data-leccion="${CSS.escape(ultima)}"]`);
const ir = document.querySelector(".empieza .ir");
if (item && ir) {
  ir.href = item.querySelector("a").href;
  ir.textContent = `Sigue donde lo dejaste: lección ${item.dataset.numero}, ${item.dataset.titulo} →`;
}
const resumen = document.querySelector(".empieza .progreso-total");
if (resumen && (ultima || suma.acertadas || suma.superados)) {
  resumen.textContent = `Llevas ${suma.completas} de ${suma.lecciones} lecciones completas: ` +
    `${suma.acertadas} de ${suma.preguntas} preguntas acertadas y ${suma.superados} de ${suma.desafios} ` +
    "desafíos superados (en este navegador).";
}
