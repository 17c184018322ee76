// Web Worker de módulo de las páginas de lección: carga Pyodide, escribe los módulos del
// curso en su directorio de trabajo y ejecuta celdas. Trabajar aquí y no en la página
// hace que la página siga respondiendo mientras Python arranca o calcula.
// Mensajes que recibe:  {tipo: "precarga", pyodide, ejecutor, modulos: [{nombre, url}],
//                        archivos?: [{nombre, url}], arranque?: url}  (la página del laboratorio:
//                        más ficheros para el directorio de trabajo y un Python que corre tras ejecutor.py)
//                       {tipo: "prepara"}
//                       {tipo: "clave", clave}  (la clave del modelo: sólo vive en este worker)
//                       {tipo: "laboratorio", id, peticion}  (JSON para laboratorio() de laboratorio.py)
//                       {tipo: "ejecuta", id, codigo, nombre}
//                       {tipo: "desafio", id, peticion}  (JSON para comprueba_desafio de ejecutor.py)
// Mensajes que envía:   {tipo: "listo", descargado: [urls]} | {tipo: "fallo", mensaje}
//                       {tipo: "empieza", id}  (Python ya está listo: empieza a correr el código)
//                       {tipo: "salida", id, flujo, texto} | {tipo: "fin", id, ok, resultado?}
//                       {tipo: "progreso", id, hechas, total}
//                       {tipo: "descarga", recibidos, total, completa}  (bytes de Python por la red)

let descargas = null;  // lo ligero: los textos y pyodide.mjs (decenas de KB)
let preparado = null;  // lo pesado: el intérprete (unos 15 MB la primera vez)
// La clave del modelo de verdad, si el alumno la da: aquí y en ningún otro sitio. No se guarda ni
// se devuelve a la página; laboratorio() la recibe en cada ejecución y no la conserva.
let claveDelModelo = null;

// Sin red, Pyodide descarga varios ficheros a la vez y cada uno rechaza su promesa: el primero
// lo cuenta "fallo" (en español); los demás no son un error más de la página.
self.addEventListener("unhandledrejection", (evento) => evento.preventDefault());

const SIN_RED = "No se ha podido descargar Python: revisa la conexión y vuelve a pulsar.";

// Un fallo de red (fetch o import() que no llegan) se dice como tal, no como un error del código.
function explica(error) {
  const texto = String(error?.message ?? error);
  if (error?.delSitio) return texto;
  if (error instanceof TypeError || /fetch|network|import|load/i.test(texto)) return SIN_RED;
  return `El intérprete no ha podido arrancar: ${texto}`;
}

// Progreso de la descarga de Python: Pyodide baja el wasm y la biblioteca con fetch(); se cuentan
// los bytes que llegan de cada uno. El cuerpo llega ya descomprimido: se pasa a bytes de la red
// con los tamaños que escribió la construcción (descarga: {nombre: {identity, br, gzip}}).
let medidos = null;  // nombre -> {total, recibidos, factor}
const fetchOriginal = self.fetch.bind(self);
self.fetch = async (recurso, opciones) => {
  const respuesta = await fetchOriginal(recurso, opciones);
  const nombre = String(recurso?.url ?? recurso).split(/[?#]/)[0].split("/").pop();
  const medido = medidos?.get(nombre);
  if (!medido || !respuesta.ok || !respuesta.body) return respuesta;
  return cuenta(respuesta, medido);
};

function mide(descarga = {}) {
  medidos = new Map(Object.entries(descarga).map(([nombre, t]) =>
    [nombre, { tamanos: t, total: t.br ?? t.identity, recibidos: 0, factor: 1, acabado: false }]));
}

function cuenta(respuesta, medido) {
  const codificacion = respuesta.headers.get("content-encoding") || "identity";
  medido.total = medido.tamanos[codificacion] ?? medido.tamanos.identity;
  medido.factor = medido.total / medido.tamanos.identity;
  let leidos = 0;
  const contador = new TransformStream({
    transform(trozo, control) {
      leidos += trozo.byteLength;
      medido.recibidos = Math.min(medido.total, leidos * medido.factor);
      avisaDescarga(false);
      control.enqueue(trozo);
    },
    flush() {
      medido.recibidos = medido.total;
      medido.acabado = true;
      avisaDescarga(true);
    },
  });
  const { status, statusText, headers } = respuesta;
  return new Response(respuesta.body.pipeThrough(contador), { status, statusText, headers });
}

let ultimoAviso = 0;
function avisaDescarga(forzado) {
  const ahora = performance.now();
  if (!forzado && ahora - ultimoAviso < 200) return;  // unas cinco veces por segundo basta
  ultimoAviso = ahora;
  const todos = [...medidos.values()];
  self.postMessage({ tipo: "descarga", recibidos: todos.reduce((s, m) => s + m.recibidos, 0),
                     total: todos.reduce((s, m) => s + m.total, 0), completa: todos.every((m) => m.acabado) });
}

self.onmessage = async ({ data }) => {
  if (data.tipo === "precarga") {
    mide(data.descarga);
    descargas = precarga(data);
    descargas.catch(() => {});  // si falla, lo dirá "prepara", cuando alguien quiera ejecutar
    return;
  }
  if (data.tipo === "prepara") {
    preparado ??= descargas.then(prepara);  // ya, sin esperar: las celdas que llegan detrás la esperan
    preparado.then(() => self.postMessage({ tipo: "listo", descargado: descargadoHastaAhora() }),
                   (e) => self.postMessage({ tipo: "fallo", mensaje: explica(e) }));
    return;
  }
  if (data.tipo === "clave") {
    claveDelModelo = data.clave || null;
    return;
  }
  let python;
  try {
    python = await preparado;
  } catch {
    return self.postMessage({ tipo: "fin", id: data.id, ok: false });  // el fallo ya se ha contado
  }
  // Desde aquí corre el código del alumno: lo que tarde ya no es arrancar Python.
  self.postMessage({ tipo: "empieza", id: data.id });
  const escribe = (flujo, texto) => self.postMessage({ tipo: "salida", id: data.id, flujo, texto });
  if (data.tipo === "ejecuta") {
    const ok = python.ejecuta(data.codigo, data.nombre, escribe);
    self.postMessage({ tipo: "fin", id: data.id, ok });
  } else if (data.tipo === "desafio") {
    const resultado = JSON.parse(python.compruebaDesafio(data.peticion, escribe));
    self.postMessage({ tipo: "fin", id: data.id, ok: resultado !== null, resultado });
  } else if (data.tipo === "laboratorio") {
    const avisa = (hechas, total) => self.postMessage({ tipo: "progreso", id: data.id, hechas, total });
    let resultado = null;
    try {
      resultado = JSON.parse(python.laboratorio(data.peticion, claveDelModelo, avisa));
    } catch (e) {  // un fallo de Python: el mensaje, sin nada más (la clave no está en él)
      escribe("error", String(e?.message ?? e));
    }
    self.postMessage({ tipo: "fin", id: data.id, ok: resultado !== null, resultado });
  }
};

// Al abrir la página: quien sólo lee descarga unos KB, y quien pulsa «Ejecutar» ya no espera
// por ellos. El intérprete no se descarga hasta "prepara".
function precarga({ pyodide: urlPyodide, ejecutor, modulos, archivos = [], arranque = null }) {
  const todos = [...modulos, ...archivos];
  const textos = Promise.all([
    descarga(ejecutor, "el ejecutor de celdas (ejecutor.py)"),
    arranque ? descarga(arranque, "el laboratorio (laboratorio.py)") : "",
    ...todos.map((m) => descarga(m.url, `el módulo del curso ${m.nombre}`)),
  ]);
  const cargador = import(urlPyodide + "pyodide.mjs");
  return Promise.all([textos, cargador]).then(([t, { loadPyodide }]) => ({ urlPyodide, todos, textos: t, loadPyodide }));
}

async function prepara(listos) {
  const { urlPyodide, todos, textos: [codigoEjecutor, codigoArranque, ...fuentes], loadPyodide } = listos;
  const py = await loadPyodide({ indexURL: urlPyodide });
  // Las celdas cargan los módulos con open("harness.py"): van al directorio de trabajo.
  todos.forEach((m, i) => {
    const carpeta = m.nombre.split("/").slice(0, -1).join("/");
    if (carpeta) py.FS.mkdirTree(carpeta);
    py.FS.writeFile(m.nombre, fuentes[i]);
  });
  const espacio = py.toPy({});
  py.runPython(codigoEjecutor, { globals: espacio });
  if (codigoArranque) py.runPython(codigoArranque, { globals: espacio });
  return { ejecuta: espacio.get("ejecuta"), compruebaDesafio: espacio.get("comprueba_desafio"),
           laboratorio: codigoArranque ? espacio.get("laboratorio") : null };
}

async function descarga(url, que) {
  const respuesta = await fetch(url);  // sin red, TypeError: explica() lo dice como tal
  if (!respuesta.ok) {
    const error = new Error(`No se ha podido descargar ${que}: el servidor ha respondido ` +
                            `${respuesta.status} ${respuesta.statusText} para ${url}. ` +
                            "Al sitio le falta ese fichero: vuelve a construirlo con ./curso construir.");
    error.delSitio = true;
    throw error;
  }
  return respuesta.text();
}

// Lo que este worker ha bajado (Pyodide y sus ruedas): el service worker lo guarda para sin conexión.
function descargadoHastaAhora() {
  return performance.getEntriesByType("resource").map((r) => r.name);
}
