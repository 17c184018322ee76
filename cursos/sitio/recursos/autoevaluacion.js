// Preguntas de autoevaluación en la página de la lección.
// Los datos son los mismos que usan los widgets del cuaderno (<lección>.preguntas.json).
// Las respuestas se guardan en localStorage: sobreviven a recargas y a cerrar el navegador.

const PREFIJO = "curso-agentes-llm";

const AVISO_DEL_TIPO = {
  verdadero_falso: "Verdadero o falso.",
  una: "Elige una respuesta.",
  varias: "Marca todas las correctas. Se califica todo o nada: no hay puntuación parcial.",
};

// Acierta quien elige exactamente las correctas, ni una más ni una menos.
export function corrige(pregunta, elegidas) {
  const correctas = pregunta.opcion.flatMap((o, i) => (o.correcta ? [i] : []));
  return correctas.length === elegidas.length && correctas.every((i) => elegidas.includes(i));
}

function claveDe(curso, leccion) {
  return `${PREFIJO}:${curso}:${leccion}:preguntas`;
}

export function leeProgreso(curso, leccion) {
  try {
    return JSON.parse(localStorage.getItem(claveDe(curso, leccion))) || {};
  } catch {
    return {}; // un valor estropeado no debe impedir contestar
  }
}

function guardaProgreso(curso, leccion, progreso) {
  localStorage.setItem(claveDe(curso, leccion), JSON.stringify(progreso));
}

function elemento(etiqueta, atributos = {}, ...hijos) {
  const el = document.createElement(etiqueta);
  for (const [k, v] of Object.entries(atributos)) {
    if (k === "texto") el.textContent = v;
    else el.setAttribute(k, v);
  }
  el.append(...hijos);
  return el;
}

function correccion(pregunta, elegidas) {
  const acierto = corrige(pregunta, elegidas);
  const lista = elemento("ul");
  pregunta.opcion.forEach((o, i) => {
    const marca = o.correcta ? "correcta" : "incorrecta";
    const tuya = elegidas.includes(i) ? " (la marcaste)" : "";
    lista.append(elemento("li", { class: o.correcta ? "opcion-correcta" : "opcion-incorrecta" },
      elemento("em", { texto: o.texto }), `: ${marca}${tuya}. ${o.explicacion}`));
  });
  const cabecera = acierto ? "✔ Correcto." : "✘ No es correcto. Lee por qué e inténtalo otra vez.";
  return [acierto, elemento("p", { class: acierto ? "acierto" : "fallo" }, elemento("strong", { texto: cabecera })), lista];
}

function montaPregunta(numero, pregunta, guardado, alCambiar) {
  const id = `pregunta-${pregunta.id}`;
  const tipoEntrada = pregunta.tipo === "varias" ? "checkbox" : "radio";
  // El lector de pantalla anuncia con el grupo su tipo (una, varias: todo o nada).
  const grupo = elemento("fieldset", { class: "pregunta", id, "data-pregunta": pregunta.id,
                                       "aria-describedby": `${id}-aviso` });
  grupo.append(elemento("legend", {}, elemento("strong", { texto: `${numero}. ${pregunta.enunciado}` })));
  grupo.append(elemento("p", { class: "aviso-tipo", id: `${id}-aviso`, texto: AVISO_DEL_TIPO[pregunta.tipo] }));
  const entradas = pregunta.opcion.map((o, i) => {
    const entrada = elemento("input", { type: tipoEntrada, name: id, id: `${id}-${i}`, value: String(i) });
    entrada.checked = (guardado?.elegidas || []).includes(i);
    grupo.append(elemento("label", { for: `${id}-${i}`, class: "opcion" }, entrada, " ", o.texto));
    return entrada;
  });
  const boton = elemento("button", { type: "button", class: "comprobar", texto: "Comprobar" });
  const zona = elemento("div", { class: "correccion", role: "status", "aria-live": "polite" });
  grupo.append(boton, zona);

  const elegidas = () => entradas.flatMap((e, i) => (e.checked ? [i] : []));
  const enseña = (marcadas) => {
    const [acierto, ...nodos] = correccion(pregunta, marcadas);
    zona.replaceChildren(...nodos);
    grupo.dataset.resultado = acierto ? "acierto" : "fallo";
    return acierto;
  };
  boton.addEventListener("click", () => {
    const marcadas = elegidas();
    if (marcadas.length === 0) {
      zona.replaceChildren(elemento("p", { texto: "Marca al menos una opción antes de comprobar." }));
      return;
    }
    alCambiar(pregunta.id, { elegidas: marcadas, acierto: enseña(marcadas) });
  });
  if (guardado?.elegidas?.length) enseña(guardado.elegidas);
  return grupo;
}

// Monta todas las preguntas en el contenedor, con su resumen y el botón para empezar de nuevo.
export function montaPreguntas(contenedor, preguntas, { curso, leccion }) {
  let progreso = leeProgreso(curso, leccion);
  const resumen = elemento("p", { class: "resumen-preguntas", "aria-live": "polite" });
  const actualizaResumen = () => {
    const aciertos = preguntas.filter((p) => progreso[p.id]?.acierto).length;
    resumen.textContent = `Has acertado ${aciertos} de ${preguntas.length}. Tus respuestas se guardan en este navegador.`;
  };
  const alCambiar = (id, estado) => {
    progreso = { ...progreso, [id]: { ...estado, fecha: new Date().toISOString() } };
    guardaProgreso(curso, leccion, progreso);
    actualizaResumen();
  };
  const borrar = elemento("button", { type: "button", class: "borrar-respuestas", texto: "Borrar mis respuestas" });
  borrar.addEventListener("click", () => {
    if (!confirm("¿Borrar tus respuestas de esta lección? No se puede deshacer.")) return;
    localStorage.removeItem(claveDe(curso, leccion));
    montaPreguntas(contenedor, preguntas, { curso, leccion });
  });
  contenedor.replaceChildren(
    ...preguntas.map((p, i) => montaPregunta(i + 1, p, progreso[p.id], alCambiar)), resumen, borrar);
  actualizaResumen();
}

// Todo lo que el alumno ha hecho en la lección, para descargarlo y entregarlo o guardarlo.
export function progresoCompleto(curso, leccion, extra = {}) {
  return { curso, leccion, fecha: new Date().toISOString(), preguntas: leeProgreso(curso, leccion), ...extra };
}

export function descargaProgreso(curso, leccion, extra = {}) {
  const datos = JSON.stringify(progresoCompleto(curso, leccion, extra), null, 2);
  const enlace = elemento("a", {
    href: URL.createObjectURL(new Blob([datos], { type: "application/json" })),
    download: `progreso-${curso}-${leccion}.json`,
  });
  document.body.append(enlace);
  enlace.click();
  enlace.remove();
}
