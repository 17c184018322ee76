// Registra el service worker del sitio (sw.js, en la raíz: su ámbito es todo el curso) para que
// lo visitado funcione sin conexión. Se registra cuando la página ya ha cargado y, si está
// arrancando Python (python.mjs marca <html data-python="arrancando">), tras su primera salida:
// al instalarse pide ~100 KB, que no deben competir con Pyodide por la red ni por la CPU.
const raiz = new URL("../", import.meta.url);

function avisa() {
  // Al irse: que el service worker guarde lo que esta página bajó antes de que él la controlara
  // (Pyodide y las ruedas del worker se lo dice python.mjs al arrancar). Sólo eso: sin lista, el
  // barrido pedía a la caché HTTP cientos de ficheros que nunca se bajaron.
  const urls = performance.getEntriesByType("resource").map((r) => r.name);
  navigator.serviceWorker.controller?.postMessage({ tipo: "curso:guarda", urls: [location.href, ...urls] });
}

let registrado = false;
function registra() {
  if (registrado) return;
  if (document.documentElement.dataset.python === "arrancando") {
    window.addEventListener("curso:python-libre", registra, { once: true });
    return;
  }
  registrado = true;
  navigator.serviceWorker.register(new URL("sw.js", raiz), { scope: raiz.pathname })
    .then(registraElDeJupyterLite)
    .catch((error) => {
      console.warn("Sin modo fuera de línea: no se ha podido registrar el service worker.", error);
    });
}

// El service worker de JupyterLite (lite/service-worker.js, ámbito lite/), registrado desde aquí
// con la misma URL que usaría JupyterLite y con la clave de versión que él mira: así su primera
// página ya está controlada por el suyo y no «limpia» los demás (su pyodide-kernel desregistra
// todos los service workers si el que controla la página no tiene esa clave), y lo que baja el
// cuaderno se guarda desde la primera visita. Ver docs/decisiones/sitio-service-workers-y-jupyterlite.md.
const CLAVE_LITE = "curso-agentes-llm:sw-de-jupyterlite";
async function registraElDeJupyterLite() {
  const lite = new URL("lite/", raiz);
  let url;
  try { url = localStorage.getItem(CLAVE_LITE); } catch { return; }  // sin almacenamiento, sin clave
  if (!url || !localStorage.getItem(`${url}-version`)) {  // la configuración, sólo la primera vez
    const respuesta = await fetch(new URL("jupyter-lite.json", lite));
    if (!respuesta.ok) return;  // un sitio sin JupyterLite
    const datos = (await respuesta.json())["jupyter-config-data"] ?? {};
    const propia = new URL("service-worker.js", lite);
    propia.searchParams.set("enableCache", datos.enableServiceWorkerCache ?? "false");
    url = propia.href;
    localStorage.setItem(`${url}-version`, datos.appVersion);
    localStorage.setItem(CLAVE_LITE, url);
  }
  await navigator.serviceWorker.register(url, { scope: lite.pathname });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  // 2 s después de cargar: quien abre la lección y pulsa «Ejecutar» enseguida ya ha pedido Python,
  // y entonces el registro espera a la primera salida (registra).
  const luego = () => setTimeout(registra, 2000);
  if (document.readyState === "complete") luego();
  else window.addEventListener("load", luego, { once: true });
  window.addEventListener("pagehide", avisa);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && avisa());
}
