// El desafío en la página de la lección: un editor con el esqueleto del cuaderno repartido,
// «Comprobar» (las pruebas visibles en el intérprete de la página) y el código guardado en
// localStorage, para que recargar o cerrar el navegador no pierda el trabajo.
// La comprobación sólo orienta: la nota la pone el calificador del profesor, con el cuaderno
// que baja «Descargar para entregar» (el repartido, con el código del editor en la solución).

import { montaEditable } from "./editor.mjs";

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

// Lo que va en la descarga del progreso: el código de ahora, la última comprobación,
// cuántas veces ha comprobado y cuántas pistas ha visto.
export function estadoDelDesafio(seccion) {
  const { curso, leccion, desafio } = seccion.dataset;
  const guardado = lee(claveDe(curso, leccion));
  return { desafio, codigo: seccion.codigoActual?.() ?? guardado.codigo ?? null,
           ultima_comprobacion: guardado.resultado ?? null, comprobaciones: guardado.intentos ?? 0,
           pistas_vistas: guardado.pistas ?? 0 };
}

function pintaResultado(caja, seccion, resultado) {
  caja.textContent = resultado.salida;
  caja.hidden = false;
  seccion.dataset.resultado = resultado.estado;
}

// Tras varias comprobaciones sin pasar, la página sugiere la pista siguiente; nunca enseña la
// solución ni las pruebas ocultas: el desafío se califica (docs/arquitectura.md, «Pistas y comprobaciones»).
const INSISTE = 3;

export function montaDesafio(seccion, datos, { compruebaDesafio, arranca, detiene }) {
  const clave = claveDe(seccion.dataset.curso, seccion.dataset.leccion);
  const caja = seccion.querySelector(".resultado-desafio");
  const comprobar = seccion.querySelector(".comprobar-desafio");
  const contador = seccion.querySelector(".comprobaciones");
  let estado = lee(clave);
  if (estado.resultado) pintaResultado(caja, seccion, estado.resultado);

  const apunta = (cambios) => {
    estado = { ...estado, ...cambios, fecha: new Date().toISOString() };
    guarda(clave, estado);
  };
  const editor = montaEditable(seccion, {
    original: datos.esqueleto, guardado: typeof estado.codigo === "string" ? estado.codigo : null,
    etiqueta: "Tu solución del desafío",
    guarda: (texto) => apunta({ codigo: texto ?? undefined }),
    pregunta: "¿Cambiar tu código por el código de partida? Lo que has escrito se pierde.",
    // Las comprobaciones y las pistas vistas siguen contando: son historia, no código.
    alRestaurar: () => {
      apunta({ codigo: undefined, resultado: undefined });
      caja.replaceChildren();
      caja.hidden = true;
      delete seccion.dataset.resultado;
    },
  });
  const pistas = montaPistas(seccion, datos.pistas ?? [], () => estado.pistas ?? 0,
                             (n) => apunta({ pistas: n }));
  const cuenta = () => {
    const n = estado.intentos ?? 0;
    contador.textContent = n ? `Has comprobado ${n} ${n === 1 ? "vez" : "veces"}.` : "";
  };
  cuenta();

  // Quien va a comprobar, va a necesitar Python: arrancarlo ya adelanta la espera.
  const entregar = seccion.querySelector(".entregar-desafio");
  for (const evento of ["pointerover", "focus"]) {
    comprobar.addEventListener(evento, arranca);
    entregar?.addEventListener(evento, arranca);
  }

  // Si su código tarda (un bucle que no acaba), puede parar el intérprete sin recargar la página.
  const detener = seccion.querySelector(".detener-desafio");
  let detenido = false;
  detener.addEventListener("click", () => { detenido = true; detiene(); });

  // Pasa las pruebas visibles con el código del editor, pinta el resultado y lo guarda.
  const comprueba = async () => {
    comprobar.disabled = true;
    detenido = false;
    let reloj = 0;
    // «Detener» cuenta desde que empieza a correr su código, no desde que arranca Python.
    const empieza = () => { reloj = setTimeout(() => { detener.hidden = false; }, 3000); };
    seccion.dataset.resultado = "comprobando";
    caja.replaceChildren("Comprobando con las pruebas visibles…\n");
    caja.hidden = false;
    const salida = document.createElement("span");
    caja.append(salida);
    let pasan;
    try {
      pasan = await compruebaDesafio({ desafio: datos.desafio, archivos: datos.archivos,
        partida: datos.partida, codigo: editor.codigo(), pruebas: datos.pruebas }, salida, empieza);
    } finally {
      clearTimeout(reloj);
      detener.hidden = true;
      comprobar.disabled = false;
    }
    caja.firstChild.remove();  // el «Comprobando…»
    if (pasan === null && !detenido) {
      caja.append("\nTu código no ha llegado a las pruebas: corrige el error de arriba y vuelve a comprobar.\n");
    }
    const valores = Object.values(pasan ?? {});
    const resultado = { pasan, salida: caja.textContent, fecha: new Date().toISOString(),
      estado: pasan === null ? "error" : valores.every(Boolean) ? "todas" : "faltan" };
    seccion.dataset.resultado = resultado.estado;
    apunta({ codigo: editor.codigo() === datos.esqueleto ? undefined : editor.codigo(), resultado,
             intentos: (estado.intentos ?? 0) + 1 });
    cuenta();
    if (resultado.estado !== "todas" && estado.intentos >= INSISTE) pistas.sugiere(estado.intentos);
    return resultado;
  };
  comprobar.addEventListener("click", comprueba);
  montaEntrega(seccion, datos, editor, comprueba);
  comprobar.disabled = false;  // ya responde
}

// Las pistas del desafío (desafios/<slug>/pistas.toml), de una en una y a petición; cuántas
// se han visto se guarda con el desafío.
function montaPistas(seccion, pistas, vistas, apunta) {
  const zona = seccion.querySelector(".pistas");
  if (!zona || !pistas.length) return { sugiere: () => {} };
  const lista = zona.querySelector(".lista-pistas");
  const boton = zona.querySelector(".pedir-pista");
  const aviso = zona.querySelector(".sugerencia-pista");
  const pinta = () => {
    const n = Math.min(vistas(), pistas.length);
    lista.replaceChildren(...pistas.slice(0, n).map((html, i) => {
      const item = document.createElement("li");
      item.innerHTML = html;  // sale de Markdown en la construcción, como el enunciado
      item.id = `pista-${i + 1}`;
      return item;
    }));
    boton.hidden = n >= pistas.length;
    boton.textContent = `Ver la pista ${n + 1} de ${pistas.length}`;
    zona.querySelector(".cuenta-pistas").textContent =
      n ? `Has visto ${n} de ${pistas.length} pistas.` : `Hay ${pistas.length} pistas, de menos a más.`;
  };
  boton.addEventListener("click", () => {
    apunta(Math.min(vistas() + 1, pistas.length));
    aviso.textContent = "";
    pinta();
    lista.lastElementChild?.setAttribute("tabindex", "-1");
    lista.lastElementChild?.focus();
  });
  boton.disabled = false;
  pinta();
  return {
    sugiere: (intentos) => {
      aviso.textContent = vistas() < pistas.length
        ? `Llevas ${intentos} comprobaciones sin pasarlas todas: quizá te ayude la pista ${vistas() + 1}.`
        : `Llevas ${intentos} comprobaciones sin pasarlas todas y has visto todas las pistas: vuelve a la parte ` +
          "de la lección que trata esto, lee con calma el primer fallo de arriba o pregunta a tu profesor.";
    },
  };
}

// El identificador del alumno: el mismo que pide `curso recoger` (recoger.py, ALUMNO) para
// poder ser su carpeta en submitted/.
const IDENTIFICADOR = /^[\p{L}\p{N}_][\p{L}\p{N}_.@+-]{0,63}$/u;

function claveDelAlumno(curso) {
  return `${PREFIJO}:${curso}:alumno`;
}

function leeAlumno(curso) {
  try { return localStorage.getItem(claveDelAlumno(curso)) ?? ""; } catch { return ""; }
}

// El cuaderno que se entrega: el repartido (release/, servido junto a la página), con el
// código del editor en la celda de la solución, y quién y cuándo en los metadatos.
export function cuadernoParaEntregar(repartido, { celda, codigo, alumno, descargado }) {
  const cuaderno = structuredClone(repartido);
  const solucion = cuaderno.cells.find((c) => c.metadata?.nbgrader?.grade_id === celda);
  if (!solucion) throw new Error(`el cuaderno del desafío no tiene la celda de la solución «${celda}»`);
  solucion.source = codigo;
  cuaderno.metadata.curso = { ...(cuaderno.metadata.curso ?? {}), alumno, descargado };
  return cuaderno;
}

function descarga(nombre, texto) {
  const enlace = document.createElement("a");
  enlace.href = URL.createObjectURL(new Blob([texto], { type: "application/x-ipynb+json" }));
  enlace.download = nombre;
  document.body.append(enlace);
  enlace.click();
  enlace.remove();
  setTimeout(() => URL.revokeObjectURL(enlace.href), 60_000);
}

function montaEntrega(seccion, datos, editor, comprueba) {
  const { curso } = seccion.dataset;
  const campo = seccion.querySelector("input.identificador");
  const boton = seccion.querySelector(".entregar-desafio");
  const estado = seccion.querySelector(".estado-entrega");
  if (!campo || !boton) return;
  campo.value = leeAlumno(curso);
  campo.addEventListener("change", () => {
    try { localStorage.setItem(claveDelAlumno(curso), campo.value.trim()); } catch { /* sin almacenamiento */ }
  });

  boton.addEventListener("click", async () => {
    const alumno = campo.value.trim();
    if (!IDENTIFICADOR.test(alumno)) {
      estado.textContent = alumno
        ? "Ese identificador no vale: sólo letras, cifras y _ . @ + - (hasta 64, sin espacios). Escribe el que te dio el profesor."
        : "Escribe antes tu identificador, el que te dio el profesor: sin él no se sabe de quién es la entrega.";
      seccion.dataset.entrega = "sin-identificador";
      campo.focus();
      return;
    }
    try { localStorage.setItem(claveDelAlumno(curso), alumno); } catch { /* sin almacenamiento */ }
    boton.disabled = true;
    seccion.dataset.entrega = "comprobando";
    estado.textContent = "Comprobando tu código con las pruebas visibles antes de descargarlo…";
    try {
      let resultado;
      try {
        resultado = await comprueba();
      } catch {
        resultado = { estado: "error" };  // sin Python no hay comprobación, pero se puede entregar
      }
      const respuesta = await fetch(new URL(datos.cuaderno, location.href));
      if (!respuesta.ok) throw new Error(`el servidor ha respondido ${respuesta.status} al pedir ${datos.cuaderno}`);
      const cuaderno = cuadernoParaEntregar(await respuesta.json(), { celda: datos.celda_solucion,
        codigo: editor.codigo(), alumno, descargado: new Date().toISOString() });
      descarga(datos.cuaderno, JSON.stringify(cuaderno, null, 1) + "\n");
      const bien = resultado.estado === "todas";
      seccion.dataset.entrega = bien ? "descargada" : "descargada-con-fallos";
      estado.textContent = (bien ? "Pasa las pruebas visibles. " :
        "Atención: tu código no pasa todas las pruebas visibles (mira el resultado de arriba). Se ha descargado igualmente; " +
        "si lo corriges, vuelve a descargarlo: el profesor recoge la descarga más reciente. ") +
        `Descargado ${datos.cuaderno} como «${alumno}»: entrégalo tal cual donde diga tu profesor.`;
    } catch (e) {
      seccion.dataset.entrega = "error";
      estado.textContent = `No se ha podido preparar el cuaderno para entregar (${e.message}). Recarga la página y vuelve a intentarlo; tu código sigue guardado en este navegador.`;
    } finally {
      boton.disabled = false;
    }
  });
  boton.disabled = false;
}
