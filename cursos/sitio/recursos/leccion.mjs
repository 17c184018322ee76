// Página de una lección: cada celda de código se ejecuta en su sitio con Pyodide, que corre
// en un Web Worker de módulo (python.mjs lo crea; trabajador.mjs es el worker).
// Lo único que está en el camino de la primera salida es python.mjs y los botones de ejecutar:
// el editor, las preguntas, las pistas y el progreso se importan después, sin que el clic espere.
import * as python from "./python.mjs";

let editor = null;  // editor.mjs, cuando ha llegado

const articulo = document.querySelector("article.leccion");
const estado = articulo.querySelector(".estado");
const celdas = new Map(JSON.parse(document.getElementById("celdas").textContent)
  .map((c) => [c.numero, c]));
const hechas = new Set();      // celdas que han terminado bien en este intérprete
const enCurso = new Map();     // id de ejecución -> {salida, fin}
let ultimoId = 0;
let cola = Promise.resolve();  // una ejecución detrás de otra, como en un cuaderno
let pythonFallo = false;       // ¿la última celda que falló fue porque Python no arrancó?
const PREFIJO = "curso-agentes-llm";
const { curso, leccion } = articulo.dataset;
const editables = new Map();   // número -> {codigo()}: lo que hay que ejecutar (editado o no)
const ESPERA_DETENER = 3000;   // ms de código del alumno corriendo antes de ofrecer «Detener»

function seccion(numero) {
  return document.getElementById(`celda-${numero}`);
}

const ESPERA = "Preparando Python…";
function arranca() {
  if (python.arranca()) estado.textContent = ESPERA;
}

// La primera descarga de Python, en la celda pulsada: una barra con los MB que llevan y los que
// faltan, y cuánto queda al ritmo de esta conexión (medido, no supuesto). Arriba, sólo la fase.
let clicada = null;   // la última celda pulsada: ahí mira el alumno
let descarga = null;  // {caja, barra, texto, inicio}
const MB = (bytes) => (bytes / 1e6).toLocaleString("es", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function cajaDeDescarga() {
  const celda = clicada ? seccion(clicada) : null;
  if (!celda) return null;
  if (descarga?.celda !== celda) {
    quitaDescarga();
    const caja = document.createElement("div");
    caja.className = "descarga-python";
    const texto = document.createElement("span");
    texto.id = `descarga-python-${clicada}`;
    const barra = document.createElement("progress");
    barra.setAttribute("aria-labelledby", texto.id);
    caja.append(barra, texto);
    celda.querySelector(".salida").before(caja);
    descarga = { celda, caja, barra, texto, inicio: performance.now() };
  }
  return descarga;
}

function quitaDescarga() {
  descarga?.caja.remove();
  descarga = null;
}

function muestraDescarga({ recibidos, total, completa }) {
  const fase = completa ? "Arrancando Python…" : `Descargando Python (${MB(total)} MB, sólo la primera vez)…`;
  if (estado.textContent !== fase) estado.textContent = fase;
  const d = cajaDeDescarga();
  if (!d) return;
  if (completa) {
    d.barra.removeAttribute("value");  // sin valor: «trabajando», sin porcentaje
    d.texto.textContent = "Arrancando Python…";
    return;
  }
  d.barra.max = total;
  d.barra.value = recibidos;
  const segundos = (performance.now() - d.inicio) / 1000;
  const ritmo = recibidos / segundos;
  let texto = `Descargando Python: ${MB(recibidos)} de ${MB(total)} MB`;
  if (segundos >= 2 && ritmo > 0) {
    const quedan = (total - recibidos) / ritmo;
    texto += quedan < 60 ? ` · quedan unos ${Math.max(1, Math.ceil(quedan / 5) * 5)} s`
      : ` · quedan unos ${Math.ceil(quedan / 60)} min`;
  }
  d.texto.textContent = texto;
}

function recibe(mensaje) {
  if (mensaje.tipo === "listo") {
    performance.mark("python-listo");
    quitaDescarga();
    estado.textContent = "Python está listo.";
  } else if (mensaje.tipo === "descarga") {
    muestraDescarga(mensaje);
  } else if (mensaje.tipo === "fallo") {
    quitaDescarga();
    falla(mensaje.mensaje);
  } else if (mensaje.tipo === "empieza") {
    enCurso.get(mensaje.id)?.empieza?.();
  } else if (mensaje.tipo === "salida") {
    escribe(enCurso.get(mensaje.id)?.salida, mensaje.texto, mensaje.flujo === "error");
  } else if (mensaje.tipo === "fin") {
    const ejecucion = enCurso.get(mensaje.id);
    enCurso.delete(mensaje.id);
    ejecucion?.fin(mensaje.ok, mensaje.resultado);
    python.guardaLoBajado();  // después de la primera salida, no antes
  }
}

// Si Python no arranca, cada celda pendiente lo dice, y el próximo clic lo vuelve a intentar.
// fin(false, null, texto): no ha fallado su código, sino Python (el desafío no culpa al alumno).
function falla(texto) {
  estado.textContent = texto;
  for (const { salida, fin } of enCurso.values()) {
    escribe(salida, texto + "\n", true);
    fin(false, null, texto);
  }
  enCurso.clear();
  python.termina();
  // Sus salidas siguen a la vista, pero lo que definieron ya no existe: que se note.
  for (const numero of hechas) seccion(numero).dataset.estado = "anterior";
  hechas.clear();
}

// Las líneas de más de LARGA caracteres son prosa (transcripciones): se parten (estilo.css .larga);
// las demás, como una tabla de texto, se quedan enteras y la caja se desliza.
const LARGA = 160;
function escribe(salida, texto, esError) {
  if (!salida) return;
  const trozo = document.createElement("span");
  if (esError) trozo.className = "error";
  for (const linea of texto.split(/(?<=\n)/)) {
    if (linea.length > LARGA && !esError) {
      const larga = document.createElement("span");
      larga.className = "larga";
      larga.textContent = linea;
      trozo.append(larga);
    } else {
      trozo.append(linea);
    }
  }
  salida.append(trozo);
}

// Primero se miden todas y después se escriben los avisos: una sola maquetación, no una por caja.
function revisaDesbordes() {
  const cajas = [...articulo.querySelectorAll("pre.codigo, pre.salida, .tabla")].map((c) => [c, c]);
  for (const c of articulo.querySelectorAll(".cm-scroller")) cajas.push([c, c.closest(".cm-editor")]);
  const medidas = cajas.map(([caja]) => caja.scrollWidth > caja.clientWidth + 1);
  cajas.forEach(([caja, despues], i) => editor?.avisaDesborde(caja, despues, medidas[i]));
}
let temporizadorDesbordes = 0;
addEventListener("resize", () => {
  clearTimeout(temporizadorDesbordes);
  temporizadorDesbordes = setTimeout(revisaDesbordes, 150);
});

// «Detener» sólo cuando el código del alumno lleva un rato corriendo: arrancar Python no cuenta.
function vigilaDuracion(boton) {
  let reloj = 0;
  return {
    empieza: () => { reloj = setTimeout(() => { boton.hidden = false; }, ESPERA_DETENER); },
    termina: () => { clearTimeout(reloj); boton.hidden = true; },
  };
}

function ejecutaUna(numero) {
  arranca();
  const caja = seccion(numero);
  const salida = caja.querySelector(".salida");
  salida.replaceChildren();
  quitaAvisoDeAnterior(numero);
  caja.dataset.estado = "ejecutando";
  const id = ++ultimoId;
  const reloj = vigilaDuracion(caja.querySelector("button.detener"));
  return new Promise((resuelve) => {
    enCurso.set(id, { salida, empieza: reloj.empieza, fin: (ok, resultado, sinPython) => {
      pythonFallo = Boolean(sinPython);
      reloj.termina();
      caja.dataset.estado = ok ? "hecha" : "error";
      if (ok) hechas.add(numero); else hechas.delete(numero);
      editor?.avisaDesborde(salida);
      resuelve(ok);
    } });
    python.envia({ tipo: "ejecuta", id, codigo: codigoDe(numero), nombre: `<celda ${numero}>` });
  });
}

// Una celda que usa lo que definen otras ejecuta antes las que aún no se han ejecutado.
async function ejecutaConLasAnteriores(numero) {
  quitaAvisoDeAnterior(numero);
  for (const anterior of celdas.get(numero).depende_de) {
    if (!hechas.has(anterior) && !(await ejecutaUna(anterior))) return noSeEjecuta(numero, anterior);
  }
  return ejecutaUna(numero);
}

// La celda pulsada no se queda muda si una anterior ha fallado: lo dice ahí, con la celda que
// falló y un botón que lleva a ella (con el foco, para quien usa el teclado o un lector).
function noSeEjecuta(numero, anterior) {
  const caja = seccion(numero);
  const aviso = document.createElement("p");
  aviso.className = "aviso-anterior";
  aviso.setAttribute("role", "alert");
  const motivo = pythonFallo ? "Python no ha podido arrancar (lo dice la celda " + anterior + ")"
    : `la celda ${anterior}, que usa esta, ha dado un error`;
  aviso.textContent = `No se ha ejecutado: ${motivo}. `;
  const ir = document.createElement("button");
  ir.type = "button";
  ir.className = "ir-a-celda";
  ir.textContent = `Ir a la celda ${anterior}`;
  ir.addEventListener("click", () => {
    const destino = seccion(anterior).querySelector(".salida");
    if (!destino.hasAttribute("tabindex")) destino.tabIndex = -1;
    destino.scrollIntoView({ block: "center" });
    destino.focus({ preventScroll: true });
  });
  aviso.append(ir);
  caja.querySelector(".salida").before(aviso);
  caja.dataset.estado = "no-ejecutada";
  return false;
}

function quitaAvisoDeAnterior(numero) {
  seccion(numero).querySelector(".aviso-anterior")?.remove();
}

async function ejecutaTodas() {
  for (const numero of celdas.keys()) {
    if (!(await ejecutaUna(numero))) return false;
  }
  return true;
}

function encola(tarea) {
  cola = cola.then(tarea);
  return cola;
}

// El desafío usa el mismo intérprete, en la misma cola que las celdas (nunca a la vez), y
// escribe en su propia caja. Devuelve {prueba: pasa}, null si su código no ha llegado a las pruebas,
// o {sinPython: motivo} si no ha podido correr (Python no se ha descargado, o se ha detenido).
// alEmpezar() avisa de cuándo empieza a correr su código (para ofrecer «Detener»).
function compruebaDesafio(peticion, salida, alEmpezar = () => {}) {
  return encola(() => {
    arranca();
    const id = ++ultimoId;
    return new Promise((resuelve) => {
      enCurso.set(id, { salida, empieza: alEmpezar, fin: (ok, resultado, sinPython) =>
        resuelve(ok ? resultado : sinPython ? { sinPython } : null) });
      python.envia({ tipo: "desafio", id, peticion: JSON.stringify(peticion) });
    });
  });
}

// Un bucle infinito en el código del alumno no se puede interrumpir dentro del worker: se
// termina el worker entero (las celdas ya ejecutadas tendrán que volver a ejecutarse).
export const DETENIDO = "Has detenido Python. Si el código no terminaba, quizá tenía un bucle sin fin " +
  "(un while cuya condición nunca deja de cumplirse, o un bucle que no llega a su return). " +
  "La próxima ejecución arranca Python de nuevo (y vuelve a ejecutar las celdas que hagan falta).";
function detiene() {
  falla(DETENIDO);
}

function codigoDe(numero) {
  const guardado = guardadas[numero];  // si se pulsa antes de que llegue el editor
  return editables.get(numero)?.codigo() ?? (typeof guardado === "string" ? guardado : celdas.get(numero).fuente);
}

// Cada celda se puede editar; lo escrito se guarda en este navegador, celda a celda.
function claveDeCeldas() {
  return `${PREFIJO}:${curso}:${leccion}:celdas`;
}
function leeCeldas() {
  try { return JSON.parse(localStorage.getItem(claveDeCeldas())) || {}; } catch { return {}; }
}
function guardaCelda(numero, texto) {
  const todas = leeCeldas();
  if (texto === null) delete todas[numero]; else todas[numero] = texto;
  try {
    if (Object.keys(todas).length) localStorage.setItem(claveDeCeldas(), JSON.stringify(todas));
    else localStorage.removeItem(claveDeCeldas());
  } catch { /* sin almacenamiento: se puede editar, no guardar */ }
}
const guardadas = leeCeldas();
function montaEditables(modulo) {
  editor = modulo;
  for (const [numero, celda] of celdas) {
    editables.set(numero, modulo.montaEditable(seccion(numero), {
      original: celda.fuente, guardado: typeof guardadas[numero] === "string" ? guardadas[numero] : null,
      etiqueta: `Código de la celda ${numero}`, guarda: (texto) => guardaCelda(numero, texto),
      pregunta: `¿Volver al código original de la celda ${numero}? Lo que has escrito en ella se pierde.`,
    }));
  }
}

articulo.addEventListener("click", (evento) => {
  if (evento.target.closest("button.detener")) return detiene();
  const boton = evento.target.closest("button[data-accion]");
  if (!boton) return;
  if (boton.dataset.accion === "ejecutar-todo") {
    clicada = celdas.keys().next().value;
    encola(ejecutaTodas);
  }
  if (boton.dataset.accion === "ejecutar") {
    const numero = Number(boton.closest(".celda").dataset.celda);
    clicada = numero;
    encola(() => ejecutaConLasAnteriores(numero));
  }
});

if (python.yaPedido()) estado.textContent = ESPERA;  // visita con Pyodide en caché: ya arranca
python.escucha(recibe);  // después: si ya está listo, que lo diga

// Quien pone el puntero o el foco en un botón de ejecutar va a pulsarlo: arrancar Python ya
// adelanta la espera. La primera vez, sólo entonces: quien sólo lee no descarga el intérprete.
for (const evento of ["pointerover", "focusin"]) {
  articulo.addEventListener(evento, (e) => e.target.closest("button[data-accion]") && arranca());
}

// Cuando el navegador está libre: no compite con el arranque de Python ni con la primera salida.
if ("requestIdleCallback" in self) requestIdleCallback(revisaDesbordes, { timeout: 3000 });
else setTimeout(revisaDesbordes, 500);

// La portada ofrece «Sigue donde lo dejaste»: la última lección abierta en este navegador.
try { localStorage.setItem(`${PREFIJO}:${curso}:ultima`, leccion); } catch { /* sin almacenamiento */ }

// El editor, las preguntas y el desafío se activan aparte, sin retrasar los botones de ejecutar.
// Si no llegan (sin conexión, sin caché), la página se sigue leyendo y ejecutando tal cual.
Promise.all([import("./editor.mjs"), import("./ganchos.mjs")]).then(([modulo, { activa }]) => {
  montaEditables(modulo);
  // Si el editor llega después de la primera revisión, ésta no pudo marcar nada: otra vez.
  if ("requestIdleCallback" in self) requestIdleCallback(revisaDesbordes, { timeout: 1000 });
  else setTimeout(revisaDesbordes, 100);
  for (const gancho of document.querySelectorAll("[data-gancho]")) activa(gancho, { compruebaDesafio, arranca, detiene });
}).catch((error) => {
  estado.textContent = `No se ha podido cargar el editor de esta página (${error.message}): recárgala cuando tengas conexión.`;
});
