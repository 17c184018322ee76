// Registra el service worker del sitio (sw.js, en la raíz: su ámbito es todo el curso) para que
// lo visitado funcione sin conexión. Se registra cuando la página ya ha cargado, para no
// quitarle red ni CPU al arranque de Python.
const raiz = new URL("../", import.meta.url);

function avisa() {
  // Al irse: que el service worker guarde lo que esta página bajó antes de que él la controlara
  // (Pyodide y las ruedas del worker se lo dice python.mjs al arrancar). Sólo eso: sin lista, el
  // barrido pedía a la caché HTTP cientos de ficheros que nunca se bajaron.
  const urls = performance.getEntriesByType("resource").map((r) => r.name);
  navigator.serviceWorker.controller?.postMessage({ tipo: "curso:guarda", urls: [location.href, ...urls] });
}

function registra() {
  navigator.serviceWorker.register(new URL("sw.js", raiz), { scope: raiz.pathname }).catch((error) => {
    console.warn("Sin modo fuera de línea: no se ha podido registrar el service worker.", error);
  });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  if (document.readyState === "complete") registra();
  else window.addEventListener("load", registra, { once: true });
  window.addEventListener("pagehide", avisa);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && avisa());
}
