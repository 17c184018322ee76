// Registra el service worker del sitio (sw.js, en la raíz: su ámbito es todo el curso) para que
// lo visitado funcione sin conexión. Se registra cuando la página ya ha cargado, para no
// quitarle red ni CPU al arranque de Python.
const raiz = new URL("../", import.meta.url);

function avisa() {
  // Al irse: que el service worker guarde lo que el navegador ya tiene (Pyodide del worker).
  navigator.serviceWorker.controller?.postMessage("curso:guarda");
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
