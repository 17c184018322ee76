// Service worker del curso: lo que el alumno ya ha visitado sigue funcionando sin conexión.
// La construcción escribe dos copias con su configuración delante: <sitio>/sw.js (ámbito: todo el
// sitio menos lite/) y lite/service-worker.js (ámbito: JupyterLite), que termina con el service
// worker propio de JupyterLite (el que da al núcleo acceso a los ficheros del cuaderno).
//
// Dos cachés: «curso-inmutable» para lo que nunca cambia en la misma URL (Pyodide, las ruedas,
// los recursos con huella: se sirve de la caché sin preguntar) y «curso-<huella del sitio>» para
// lo que se revalida (páginas, módulos del curso, configuración de JupyterLite): se pide a la red
// y, si no hay red, sale de la caché. Si algo no está en ninguna de las dos, se prueba la caché
// HTTP del navegador (only-if-cached), que tiene lo que se bajó antes de que este worker existiera.
const RAIZ = new URL(CONFIG.raiz, self.location).href;
const INMUTABLE = "curso-inmutable";
const VARIABLE = `curso-${CONFIG.huella}`;
const esInmutable = (ruta) => CONFIG.inmutables.some((patron) => new RegExp(patron).test(ruta));

self.addEventListener("install", (evento) => {
  self.skipWaiting();
  evento.waitUntil(guarda(CONFIG.precarga, "red"));
});

self.addEventListener("activate", (evento) => {
  evento.waitUntil((async () => {
    for (const nombre of await caches.keys()) {  // las de construcciones anteriores
      if (nombre.startsWith("curso-") && nombre !== INMUTABLE && nombre !== VARIABLE) await caches.delete(nombre);
    }
    await self.clients.claim();
  })());
});

// La página dice qué ha bajado (al irse, y el worker de la lección cuando Python está listo): lo
// que llegó antes que este service worker pasa de la caché HTTP a la nuestra, sin red. Sólo esas
// URLs y sólo si son del sitio (barrido): lo que ya está guardado no se vuelve a pedir. Y lo que
// se dejó fuera de la precarga para no competir con Pyodide (el editor), ahora, de la red.
const BARRIDO = new Set(CONFIG.barrido);
const aRutas = (urls) => urls.filter((url) => typeof url === "string" && url.startsWith(RAIZ))
  .map((url) => url.slice(RAIZ.length).split(/[?#]/)[0]).filter((ruta) => BARRIDO.has(ruta));
self.addEventListener("message", (evento) => {
  if (evento.data?.tipo !== "curso:guarda" || !Array.isArray(evento.data.urls)) return;
  const rutas = aRutas(evento.data.urls);
  // El editor, de la red, sólo cuando lo pide la lección tras su primera salida (no al irse: competiría
  // con la página siguiente).
  const tardia = evento.data.tardia ? guarda(CONFIG.tardia, "red") : null;
  // Lo que la lección necesitará sin conexión y aún no ha pedido (el cuaderno para entregar), de la red.
  const red = Array.isArray(evento.data.red) ? guarda(aRutas(evento.data.red), "red") : null;
  evento.waitUntil(Promise.all([guarda([...new Set(rutas)], "only-if-cached"), tardia, red]));
});

self.addEventListener("fetch", (evento) => {
  const peticion = evento.request;
  if (peticion.method !== "GET" || !peticion.url.startsWith(RAIZ)) return;
  const ruta = peticion.url.slice(RAIZ.length).split("#")[0];
  if (CONFIG.excluir.some((prefijo) => ruta.startsWith(prefijo))) {
    // JupyterLite nunca visitado (su service worker aún no existe) y sin red: la página del curso
    // «Sin conexión», no la del navegador.
    if (peticion.mode === "navigate") evento.respondWith(fetch(peticion).catch(() => paginaSinConexion()));
    return;
  }
  evento.stopImmediatePropagation();  // en lite/, el fetch de JupyterLite no responde también
  evento.respondWith(responde(evento, peticion, ruta.split("?")[0]));
});

async function responde(evento, peticion, ruta) {
  if (esInmutable(ruta)) {
    const cache = await caches.open(INMUTABLE);
    const guardada = await cache.match(peticion);
    if (guardada) return guardada;
    const respuesta = await deLaRedODelNavegador(peticion);
    if (respuesta.status === 200) evento.waitUntil(cache.put(peticion, respuesta.clone()).catch(() => {}));
    return respuesta;
  }
  const cache = await caches.open(VARIABLE);
  try {
    const respuesta = await fetch(peticion);
    if (respuesta.status === 200 && respuesta.type === "basic") evento.waitUntil(actualiza(cache, peticion, respuesta.clone()));
    return respuesta;
  } catch (error) {
    const guardada = await buscaSinRed(cache, peticion);
    if (guardada) return guardada;
    if (peticion.mode === "navigate") return paginaSinConexion();
    throw error;
  }
}

// Sin conexión, una página que aún no se ha visitado no está guardada: en vez del error del
// navegador, una página del curso que lo dice y enlaza las lecciones que sí se pueden abrir.
async function paginaSinConexion() {
  const guardadas = new Set((await (await caches.open(VARIABLE)).keys()).map((p) => p.url));
  const enlaces = CONFIG.lecciones.filter((l) => guardadas.has(new URL(l.ruta, RAIZ).href))
    .map((l) => `<li><a href="${new URL(l.ruta, RAIZ).href}">${escapa(l.titulo)}</a></li>`);
  const portada = new URL("index.html", RAIZ).href;
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sin conexión · ${escapa(CONFIG.titulo)}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="${new URL(CONFIG.estilo, RAIZ).href}"></head>
<body><header class="cabecera"><a href="${portada}">${escapa(CONFIG.titulo)}</a></header>
<main id="contenido" class="sin-conexion"><h1>Sin conexión</h1>
<p>Esta página aún no la has abierto en este navegador y, sin conexión, no se puede descargar.
Cuando vuelvas a tener conexión, recárgala.</p>
${enlaces.length ? `<p>Mientras, puedes seguir con las lecciones que ya has abierto aquí:</p><ul>${enlaces.join("")}</ul>`
    : "<p>Aún no has abierto ninguna lección en este navegador con conexión.</p>"}
${guardadas.has(portada) ? `<p><a href="${portada}">Volver a la portada</a></p>` : ""}</main></body></html>`;
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function escapa(texto) {
  return String(texto).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function actualiza(cache, peticion, respuesta) {
  // Una visita repetida recibe lo mismo (304 revalidado): no se reescribe.
  const vieja = await cache.match(peticion);
  const igual = vieja && ["last-modified", "content-length"].every((c) => vieja.headers.get(c) === respuesta.headers.get(c));
  if (!igual) await cache.put(peticion, respuesta).catch(() => {});
}

async function buscaSinRed(cache, peticion) {
  const url = new URL(peticion.url);
  const navegacion = peticion.mode === "navigate";
  const candidatas = [peticion.url];
  if (url.pathname.endsWith("/")) candidatas.push(url.origin + url.pathname + "index.html" + url.search);
  for (const candidata of candidatas) {
    // lite/notebooks/index.html?path=…: la página es la misma para cualquier cuaderno.
    const guardada = (await cache.match(candidata, { ignoreSearch: navegacion }))
      || (await caches.match(candidata, { ignoreSearch: navegacion }));
    if (guardada) return guardada;
    const delNavegador = await soloCacheHttp(candidata);
    if (delNavegador) return delNavegador;
  }
  return null;
}

async function deLaRedODelNavegador(peticion) {
  try {
    return await fetch(peticion);
  } catch (error) {
    const delNavegador = await soloCacheHttp(peticion.url);
    if (delNavegador) return delNavegador;
    throw error;
  }
}

async function soloCacheHttp(url) {
  try {
    const respuesta = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
    return respuesta.ok ? respuesta : null;
  } catch {
    return null;
  }
}

// modo «red»: la precarga al instalar (páginas y módulos, unos cientos de KB);
// «only-if-cached»: sólo copia lo que ya está en la caché HTTP del navegador, sin red.
async function guarda(rutas, modo) {
  const inmutable = await caches.open(INMUTABLE);
  const variable = await caches.open(VARIABLE);
  await Promise.all(rutas.map(async (ruta) => {
    const url = new URL(ruta, RAIZ).href;
    const cache = esInmutable(ruta) ? inmutable : variable;
    if (await cache.match(url)) return;
    try {
      const respuesta = modo === "red" ? await fetch(url) : await soloCacheHttp(url);
      if (respuesta && respuesta.status === 200) await cache.put(url, respuesta);
    } catch {
      // sin red o sin ese fichero: se guardará cuando se pida
    }
  }));
}
