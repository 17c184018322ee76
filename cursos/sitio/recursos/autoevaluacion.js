// Preguntas de autoevaluación en la página de la lección.
// Los datos son los mismos que usan los widgets del cuaderno (<lección>.preguntas.json).
// Las respuestas se guardan en localStorage: sobreviven a recargas y a cerrar el navegador.

const PREFIJO = "curso-agentes-llm";

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

// La corrección enseña. Si acierta (o pide «Ver la solución»), la clave: cada opción con su
// explicación. Si falla, sólo la explicación de lo que eligió, no la clave: así volver a
// intentarlo sigue teniendo sentido.
function correccion(pregunta, elegidas, { clave }) {
  const acierto = corrige(pregunta, elegidas);
  const lista = elemento("ul");
  pregunta.opcion.forEach((o, i) => {
    const tuya = elegidas.includes(i);
    if (!clave && !tuya) return;
    const marca = o.correcta ? "✔ correcta" : "✘ incorrecta";
    lista.append(elemento("li", { class: o.correcta ? "opcion-correcta" : "opcion-incorrecta" },
      elemento("em", { texto: o.texto }), `${tuya ? " (la marcaste)" : ""}: ${marca}. ${o.explicacion}`));
  });
  const faltan = !acierto && elegidas.every((i) => pregunta.opcion[i].correcta);
  const cabecera = acierto ? "✔ Correcto." : clave ? "La solución:" :
    faltan ? "✘ No es correcto: lo que marcaste es correcto, pero falta alguna opción. Inténtalo otra vez." :
    "✘ No es correcto. Lee por qué e inténtalo otra vez.";
  const clase = acierto ? "acierto" : clave ? "solucion" : "fallo";
  return [acierto, elemento("p", { class: clase }, elemento("strong", { texto: cabecera })), lista];
}

// pintada: el <fieldset> que trae la página, con enunciado y opciones ya en HTML (Markdown).
function montaPregunta(numero, pregunta, guardado, alCambiar, pintada) {
  const id = `pregunta-${pregunta.id}`;
  const tipoEntrada = pregunta.tipo === "varias" ? "checkbox" : "radio";
  // El lector de pantalla anuncia con el grupo su tipo (una, varias: todo o nada).
  // Su nombre accesible: «Pregunta N» y el enunciado entero.
  const grupo = elemento("fieldset", { class: "pregunta", id, "data-pregunta": pregunta.id,
                                       "aria-describedby": `${id}-aviso`,
                                       "aria-labelledby": `${id}-titulo ${id}-enunciado` });
  grupo.append(elemento("legend", { id: `${id}-titulo` }, elemento("strong", { texto: `Pregunta ${numero}` })));
  const enunciado = pintada?.querySelector(".enunciado")?.cloneNode(true)
    ?? elemento("p", { class: "enunciado", texto: pregunta.enunciado });
  enunciado.id = `${id}-enunciado`;
  grupo.append(enunciado);
  grupo.append(elemento("p", { class: "aviso-tipo", id: `${id}-aviso`, texto: pregunta.aviso }));  // de preguntas.py
  const textos = [...(pintada?.querySelectorAll(".opcion") ?? [])];
  const etiquetas = [];
  const entradas = pregunta.opcion.map((o, i) => {
    const entrada = elemento("input", { type: tipoEntrada, name: id, id: `${id}-${i}`, value: String(i) });
    entrada.checked = (guardado?.elegidas || []).includes(i);
    const texto = textos[i] ? [...textos[i].childNodes].filter((n) => n.nodeName !== "INPUT" && !(n.nodeType === 3 && !n.textContent.trim())).map((n) => n.cloneNode(true))
                            : [o.texto];
    const etiqueta = elemento("label", { for: `${id}-${i}`, class: "opcion" }, entrada, " ", ...texto);
    grupo.append(etiqueta);
    etiquetas.push(etiqueta);
    return entrada;
  });
  const boton = elemento("button", { type: "button", class: "comprobar", texto: "Comprobar" });
  const solucion = elemento("button", { type: "button", class: "ver-solucion", texto: "Ver la solución" });
  const zona = elemento("div", { class: "correccion", role: "status", "aria-live": "polite" });
  grupo.append(elemento("div", { class: "acciones-pregunta" }, boton, solucion), zona);

  const elegidas = () => entradas.flatMap((e, i) => (e.checked ? [i] : []));
  // Color y texto en cada opción: las marcadas si falla; todas con la clave.
  const marca = (marcadas, clave) => etiquetas.forEach((etiqueta, i) => {
    const visible = clave || marcadas.includes(i);
    if (visible) etiqueta.dataset.marca = pregunta.opcion[i].correcta ? "correcta" : "incorrecta";
    else delete etiqueta.dataset.marca;
  });
  const enseña = (marcadas, clave) => {
    const [acierto, ...nodos] = correccion(pregunta, marcadas, { clave: clave || corrige(pregunta, marcadas) });
    zona.replaceChildren(...nodos);
    grupo.dataset.resultado = acierto ? "acierto" : clave ? "solucion" : "fallo";
    marca(marcadas, clave || acierto);
    return acierto;
  };
  // Una corrección vieja no se queda a la vista cuando cambia lo marcado.
  const limpia = () => {
    zona.replaceChildren();
    delete grupo.dataset.resultado;
    marca([], false);
  };
  for (const entrada of entradas) entrada.addEventListener("change", limpia);
  boton.addEventListener("click", () => {
    const marcadas = elegidas();
    if (marcadas.length === 0) {
      zona.replaceChildren(elemento("p", { texto: "Marca al menos una opción antes de comprobar." }));
      return;
    }
    // Después de «Ver la solución», acertar ya no cuenta (salvo que la hubiera acertado antes).
    const vista = Boolean(guardado?.solucion_vista);
    const correcta = enseña(marcadas, false);
    const cuenta = correcta && (!vista || Boolean(guardado?.acierto));
    guardado = { elegidas: marcadas, acierto: cuenta, solucion_vista: vista,
                 ...(correcta && !cuenta ? { tras_solucion: true } : {}) };
    if (guardado.tras_solucion) avisaTrasSolucion();
    alCambiar(pregunta.id, guardado);
  });
  const avisaTrasSolucion = () => {
    grupo.dataset.cuenta = "no";
    zona.prepend(elemento("p", { class: "tras-solucion", texto:
      "Está bien, pero la has contestado después de ver la solución: no cuenta como acertada." }));
  };
  solucion.addEventListener("click", () => {
    const marcadas = elegidas();
    enseña(marcadas, true);
    guardado = { ...guardado, solucion_vista: true };
    alCambiar(pregunta.id, { elegidas: guardado.elegidas ?? [], acierto: Boolean(guardado.acierto), solucion_vista: true });
  });
  if (guardado?.elegidas?.length || guardado?.solucion_vista) enseña(guardado.elegidas ?? [], Boolean(guardado.solucion_vista));
  if (guardado?.tras_solucion) avisaTrasSolucion();
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
  // La primera vez, las preguntas que pintó la construcción; al borrar, las que se montaron.
  const pintadas = new Map([...contenedor.querySelectorAll("fieldset[data-pregunta]")]
    .map((f) => [f.dataset.pregunta, f]));
  contenedor.replaceChildren(
    ...preguntas.map((p, i) => montaPregunta(i + 1, p, progreso[p.id], alCambiar, pintadas.get(p.id))),
    resumen, borrar);
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
