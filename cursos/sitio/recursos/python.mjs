// El intérprete de una página de lección: el Web Worker de trabajador.mjs y lo que se le pide.
// Se carga con <script type="module" async> en la cabecera, así que el worker nace mientras
// el navegador aún lee la página; leccion.mjs importa este mismo módulo (la misma instancia).
// Lo ligero (los módulos del curso y el cargador de Pyodide, unos KB) se pide al abrir; el
// intérprete, unos 15 MB la primera vez, sólo cuando alguien va a ejecutar (arranca), o ya al
// abrir si una visita anterior lo dejó en la caché del navegador.
const RAIZ = new URL("../", import.meta.url);  // la raíz del sitio, esté donde esté servido
const config = JSON.parse(document.getElementById("python").textContent);
const CLAVE_CACHE = "curso-agentes-llm:pyodide";

let trabajador = null;
let pedido = false;       // ¿se ha pedido ya el intérprete a este worker?
let oyente = null;        // recibe(mensaje) de leccion.mjs
const pendientes = [];    // lo que llega antes de que haya oyente (p. ej. "listo")

function entrega(mensaje) {
  if (mensaje.tipo === "listo") {
    recuerdaQueEstaEnCache();
    bajado = mensaje.descargado ?? [];
    setTimeout(libera, 3000);  // listo y sin nada que ejecutar: el service worker ya no estorba
  } else if (mensaje.tipo === "fallo") {
    libera();
  }
  oyente ? oyente(mensaje) : pendientes.push(mensaje);
}

export function escucha(funcion) {
  oyente = funcion;
  pendientes.splice(0).forEach(funcion);
}

function creaTrabajador() {
  if (trabajador) return;
  trabajador = new Worker(new URL("./trabajador.mjs", import.meta.url), { type: "module" });
  trabajador.onmessage = ({ data }) => entrega(data);
  trabajador.onerror = (e) => {
    e.preventDefault();  // lo dice la celda, en español; no es además un error sin atender de la página
    entrega({ tipo: "fallo", mensaje: /fetch|import|network/i.test(e.message ?? "")
      ? "No se ha podido descargar Python: revisa la conexión y vuelve a pulsar."
      : `El intérprete no ha podido arrancar: ${e.message || "error desconocido"}.` });
  };
  trabajador.postMessage({
    tipo: "precarga",
    pyodide: new URL(config.pyodide, RAIZ).href,
    ejecutor: new URL("./ejecutor.py", import.meta.url).href,
    modulos: config.modulos.map((nombre) => ({ nombre, url: new URL(config.curso + nombre, RAIZ).href })),
    // Con Pyodide ya en caché no hay descarga que enseñar (y el wasm se compila de la caché, sin envolver).
    descarga: estaEnCache() ? {} : config.descarga,
  });
}

/** Pide el intérprete; true si lo pide ahora (y no estaba ya pedido). */
export function arranca() {
  creaTrabajador();
  if (pedido) return false;
  pedido = true;
  document.documentElement.dataset.python = "arrancando";  // fuera-de-linea.mjs espera a libera()
  performance.mark("python-pedido");  // marcas para medir el arranque (pestaña Rendimiento)
  trabajador.postMessage({ tipo: "prepara" });
  return true;
}

export function yaPedido() {
  return pedido;
}

export function envia(mensaje) {
  arranca();
  trabajador.postMessage(mensaje);
}

// Un bucle infinito no se puede interrumpir dentro del worker: se termina entero.
export function termina() {
  trabajador?.terminate();
  trabajador = null;
  pedido = false;
}

// Lo que bajó el worker (Pyodide y las ruedas) puede haber llegado antes que el service worker:
// se le dice qué es y lo copia de la caché HTTP, sin red. leccion.mjs lo pide cuando la primera
// celda ha terminado y el navegador está libre: ni esa copia ni el editor que el service worker
// guarda a la vez compiten con la primera salida. Sólo lo bajado: nada de barrer cientos de URLs.
let bajado = null;
export function guardaLoBajado() {
  libera();
  if (!bajado) return;
  const urls = [location.href, ...bajado];  // la página también: la «Sin conexión» la enlaza
  bajado = null;
  // ready y no controller: en la primera visita el service worker se registra ahora mismo (libera) y
  // aún no controla la página; sin esto, lo bajado no se guardaba hasta la segunda visita.
  const red = config.cuaderno ? [new URL(config.cuaderno, location.href).href] : [];
  const envia = () => navigator.serviceWorker?.ready.then((registro) =>
    registro.active?.postMessage({ tipo: "curso:guarda", urls, tardia: true, red }));
  if ("requestIdleCallback" in self) requestIdleCallback(envia, { timeout: 5000 }); else setTimeout(envia, 2000);
}

// El arranque ha terminado (primera salida, fallo, o listo y ocioso): el service worker, que al
// instalarse pide ~100 KB, ya se puede registrar (fuera-de-linea.mjs) sin competir con Pyodide.
function libera() {
  if (document.documentElement.dataset.python !== "arrancando") return;
  document.documentElement.dataset.python = "libre";
  window.dispatchEvent(new Event("curso:python-libre"));
}

// Pyodide vive en una URL inmutable: una vez descargado, arrancar al abrir no descarga nada.
function recuerdaQueEstaEnCache() {
  try { localStorage.setItem(CLAVE_CACHE, config.pyodide); } catch { /* sin almacenamiento */ }
}
function estaEnCache() {
  try { return localStorage.getItem(CLAVE_CACHE) === config.pyodide; } catch { return false; }
}

if (estaEnCache()) arranca(); else creaTrabajador();
