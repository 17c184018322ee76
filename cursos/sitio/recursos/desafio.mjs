// El desafío en la página de la lección: un editor con el esqueleto del cuaderno repartido,
// «Comprobar» (las pruebas visibles en el intérprete de la página) y el código guardado en
// localStorage, para que recargar o cerrar el navegador no pierda el trabajo.
// La comprobación sólo orienta: la nota la pone el calificador del profesor, con el cuaderno
// que baja «Descargar para entregar» (el repartido, con el código del editor en la solución).

import { montaEditable } from "./editor.mjs";

const RAIZ = new URL("../", import.meta.url);  // la raíz del sitio, esté donde esté servido

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
// solución ni las pruebas ocultas: el desafío se califica (docs/decisiones/003-que-se-revela-tras-muchos-fallos.md).
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
  // codigo_fecha: cuándo cambió el código por última vez, para saber si es más nuevo que el de JupyterLite.
  const editor = montaEditable(seccion, {
    original: datos.esqueleto, guardado: typeof estado.codigo === "string" ? estado.codigo : null,
    etiqueta: "Tu solución del desafío",
    guarda: (texto) => apunta({ codigo: texto ?? undefined, codigo_fecha: new Date().toISOString() }),
    pregunta: "¿Cambiar tu código por el código de partida? Lo que has escrito se pierde.",
    // Las comprobaciones y las pistas vistas siguen contando: son historia, no código.
    alRestaurar: () => {
      apunta({ codigo: undefined, resultado: undefined, codigo_fecha: new Date().toISOString() });
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
    // Al desactivarse, el botón pierde el foco (se va a <body>): se le devuelve al acabar.
    const teniaElFoco = document.activeElement === comprobar;
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
      if (teniaElFoco && (document.activeElement === document.body || !document.activeElement)) comprobar.focus();
    }
    caja.firstChild.remove();  // el «Comprobando…»
    if (pasan?.sinPython && !detenido) {
      // Python no ha llegado: no ha corrido ni su código ni las pruebas. No es un resultado, ni
      // cuenta como intento. (Si lo ha detenido él, la caja ya dice por qué; sigue como un error.)
      caja.replaceChildren(`No se ha comprobado tu código: ${pasan.sinPython.replace(/\.$/, "")}. ` +
                           "Tu código sigue guardado; pulsa «Comprobar» otra vez cuando quieras.\n");
      seccion.dataset.resultado = "sin-python";
      return { estado: "sin-python", salida: caja.textContent };
    }
    if (pasan?.sinPython) pasan = null;
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
  const leeEstado = () => estado;
  montaEntrega(seccion, datos, editor, comprueba, leeEstado, apunta);
  montaJupyterLite(seccion, datos, editor, leeEstado, apunta);
  comprobar.disabled = false;  // ya responde
}

// La página y JupyterLite son el mismo desafío: al abrirlo en JupyterLite (o al irse de la página)
// su código va al cuaderno de JupyterLite; al volver, si allí es más nuevo, la página lo trae. Gana
// el más reciente, y el código de partida nunca pisa uno escrito. Lo dice en .estado-lite.
function montaJupyterLite(seccion, datos, editor, leeEstado, apunta) {
  if (!datos.lite || !("indexedDB" in self)) return;
  const aviso = seccion.querySelector(".estado-lite");
  const modulo = import("./cuaderno-lite.mjs");
  const deLaPagina = () => editor.codigo();
  const escrito = (codigo) => codigo !== null && codigo !== datos.esqueleto;

  // Escribe el código de la página en JupyterLite si allí no hay uno más nuevo; devuelve si lo ha hecho.
  const lleva = async () => {
    const lite = await modulo;
    const guardado = await lite.leeDeJupyterLite(RAIZ, datos.lite);
    const allí = guardado ? lite.codigoDeLaSolucion(guardado.content, datos.celda_solucion) : null;
    const codigo = deLaPagina();
    if (codigo === allí || !escrito(codigo)) return false;  // el código de partida no pisa nada
    if (guardado && escrito(allí) && guardado.last_modified > (leeEstado().codigo_fecha ?? "")) return false;
    let cuaderno = guardado?.content;
    if (!cuaderno || allí === null) {
      const respuesta = await fetch(new URL(datos.cuaderno, location.href));
      if (!respuesta.ok) throw new Error(`el servidor ha respondido ${respuesta.status} al pedir ${datos.cuaderno}`);
      cuaderno = await respuesta.json();
    }
    cuaderno = structuredClone(cuaderno);
    cuaderno.cells.find((c) => c.metadata?.nbgrader?.grade_id === datos.celda_solucion).source = codigo;
    const modelo = await lite.guardaEnJupyterLite(RAIZ, datos.lite, cuaderno, guardado);
    apunta({ en_lite: modelo.last_modified });
    return true;
  };

  // Al llegar: si en JupyterLite hay un código escrito más nuevo que el de la página, se trae.
  const trae = async () => {
    const lite = await modulo;
    const guardado = await lite.leeDeJupyterLite(RAIZ, datos.lite);
    if (!guardado) return;
    const allí = lite.codigoDeLaSolucion(guardado.content, datos.celda_solucion);
    if (!escrito(allí) || allí === deLaPagina()) return;
    if (guardado.last_modified <= (leeEstado().codigo_fecha ?? "")) return;  // el de la página es más nuevo
    editor.pon(allí);
    apunta({ codigo: allí, codigo_fecha: guardado.last_modified, en_lite: guardado.last_modified });
    seccion.dataset.lite = "traido";
    aviso.textContent = `He traído tu código del cuaderno del desafío en JupyterLite (guardado el ` +
      `${new Date(guardado.last_modified).toLocaleString("es-ES")}): es el más reciente.`;
  };
  const listo = trae().catch((e) => { aviso.textContent = `No se ha podido leer tu cuaderno de JupyterLite (${e.message}).`; });
  seccion.lite = { listo };  // para las pruebas: cuándo ha terminado de mirar

  // Los enlaces al desafío en JupyterLite llevan antes el código de la página.
  for (const enlace of document.querySelectorAll(`a[href$="${CSS.escape(datos.lite.split("/").pop())}"]`)) {
    enlace.addEventListener("click", async (evento) => {
      if (evento.ctrlKey || evento.metaKey || evento.shiftKey || evento.button !== 0) return;
      evento.preventDefault();
      try {
        await listo;
        await lleva();
      } catch (e) {
        console.warn("No se ha podido llevar el código a JupyterLite:", e);
      }
      location.href = enlace.href;
    });
  }
  // Y al irse de la página (a otra pestaña, por ejemplo a JupyterLite abierto desde su portada).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") listo.then(lleva).catch(() => {});
  });
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
// En un ordenador compartido, el identificador que recuerda el navegador puede ser del anterior:
// pasadas estas horas sin usarlo se vuelve a pedir (docs/decisiones/alumno-identificador-compartido.md).
export const HORAS_DEL_IDENTIFICADOR = 2;

function claveDelAlumno(curso) {
  return `${PREFIJO}:${curso}:alumno`;
}

// {alumno, usado}: el identificador y cuándo se usó por última vez (escrito o en una descarga).
function leeAlumno(curso) {
  try {
    const alumno = localStorage.getItem(claveDelAlumno(curso)) ?? "";
    const usado = localStorage.getItem(claveDelAlumno(curso) + "-usado");
    return { alumno, usado };
  } catch {
    return { alumno: "", usado: null };
  }
}

function apuntaAlumno(curso, alumno) {
  try {
    localStorage.setItem(claveDelAlumno(curso), alumno);
    localStorage.setItem(claveDelAlumno(curso) + "-usado", new Date().toISOString());
  } catch { /* sin almacenamiento */ }
}

function caducado(usado) {
  return !usado || Date.now() - Date.parse(usado) > HORAS_DEL_IDENTIFICADOR * 3600_000;
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

const FECHA = { dateStyle: "long", timeStyle: "short" };

// Lo que dice la página de la última descarga para entregar: sigue ahí tras recargar.
function textoDeLaEntrega(entrega, nombre, cambiadoDespues) {
  const cuando = new Date(entrega.fecha).toLocaleString("es-ES", FECHA);
  return `Descargado para entregar el ${cuando} como «${entrega.alumno}»: ${nombre}` +
    (entrega.pasa ? ", pasando las pruebas visibles." : ", sin pasar todas las pruebas visibles.") +
    (cambiadoDespues ? " Has cambiado el código después: vuelve a descargarlo para entregar la versión nueva."
                     : " Entrégalo tal cual; si vuelves a descargarlo, cuenta el más reciente.");
}

function montaEntrega(seccion, datos, editor, comprueba, leeEstado, apunta) {
  const { curso } = seccion.dataset;
  const campo = seccion.querySelector("input.identificador");
  const boton = seccion.querySelector(".entregar-desafio");
  const estado = seccion.querySelector(".estado-entrega");
  if (!campo || !boton) return;
  const recordado = leeAlumno(curso);
  if (recordado.alumno && caducado(recordado.usado)) {
    // No se enseña: podría ser de otra persona. Quien sea, lo vuelve a escribir.
    campo.value = "";
    seccion.dataset.identificador = "pedido-otra-vez";
    seccion.querySelector(".aviso-identificador").textContent =
      `Vuelve a escribir tu identificador: hace más de ${HORAS_DEL_IDENTIFICADOR} horas que no se usa en este ` +
      "navegador y, si el ordenador es compartido, el que recuerda puede ser de otra persona.";
  } else {
    campo.value = recordado.alumno;
  }
  const etiqueta = () => {
    const alumno = campo.value.trim();
    boton.textContent = IDENTIFICADOR.test(alumno) ? `Descargar para entregar como «${alumno}»` : "Descargar para entregar";
  };
  etiqueta();
  campo.addEventListener("input", etiqueta);
  campo.addEventListener("change", () => {
    if (IDENTIFICADOR.test(campo.value.trim())) apuntaAlumno(curso, campo.value.trim());
  });
  const pintaEntrega = () => {
    const entrega = leeEstado().entrega;
    if (!entrega) return;
    const cambiado = (leeEstado().codigo_fecha ?? "") > entrega.fecha;
    estado.textContent = textoDeLaEntrega(entrega, datos.cuaderno, cambiado);
    seccion.dataset.entrega = cambiado ? "descargada-y-cambiada" : entrega.pasa ? "descargada" : "descargada-con-fallos";
  };
  pintaEntrega();

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
    apuntaAlumno(curso, alumno);
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
      const descargado = new Date().toISOString();
      const cuaderno = cuadernoParaEntregar(await respuesta.json(), { celda: datos.celda_solucion,
        codigo: editor.codigo(), alumno, descargado });
      descarga(datos.cuaderno, JSON.stringify(cuaderno, null, 1) + "\n");
      const bien = resultado.estado === "todas";
      apunta({ entrega: { fecha: descargado, alumno, pasa: bien } });
      seccion.dataset.entrega = bien ? "descargada" : "descargada-con-fallos";
      const aviso = bien ? "Pasa las pruebas visibles. " : resultado.estado === "sin-python"
        ? "Atención: no se ha podido comprobar (Python no se ha descargado). Se ha descargado igualmente. "
        : "Atención: tu código no pasa todas las pruebas visibles (mira el resultado de arriba). Se ha descargado igualmente; " +
          "si lo corriges, vuelve a descargarlo: el profesor recoge la descarga más reciente. ";
      estado.textContent = aviso + textoDeLaEntrega(leeEstado().entrega, datos.cuaderno, false);
    } catch (e) {
      seccion.dataset.entrega = "error";
      estado.textContent = e instanceof TypeError  // fetch sin red
        ? "No se ha podido preparar el cuaderno para entregar: no hay conexión y este navegador aún no " +
          "lo tenía guardado. Vuelve a pulsar cuando tengas conexión; tu código sigue guardado en este navegador."
        : `No se ha podido preparar el cuaderno para entregar (${e.message}). Recarga la página y vuelve a intentarlo; tu código sigue guardado en este navegador.`;
    } finally {
      boton.disabled = false;
      if (document.activeElement === document.body || !document.activeElement) boton.focus();
    }
  });
  boton.disabled = false;
}
