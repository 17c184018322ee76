// El cuaderno del desafío en el almacenamiento de JupyterLite, para que la página y JupyterLite
// sean un solo curso: lo que se escribe en uno se encuentra en el otro.
//
// JupyterLite guarda los cuadernos del alumno en IndexedDB con localforage: la base
// «JupyterLite Storage - <baseUrl>» (baseUrl: la ruta de lite/ en el sitio), el almacén «files»,
// la clave es la ruta del cuaderno y el valor su modelo de contenidos ({name, path, type:
// "notebook", format: "json", content: el cuaderno, last_modified, …}). Lo que no está ahí lo
// sirve del sitio (lite/files/). Escribir aquí el modelo es lo mismo que guardar desde JupyterLite.
// Ver docs/decisiones/alumno-pagina-y-jupyterlite.md.

const ALMACEN = "files";

function nombreDeLaBase(raiz) {
  return `JupyterLite Storage - ${new URL("lite/", raiz).pathname}`;
}

function promesa(peticion) {
  return new Promise((resuelve, rechaza) => {
    peticion.onsuccess = () => resuelve(peticion.result);
    peticion.onerror = () => rechaza(peticion.error);
  });
}

// Abre la base de JupyterLite con su almacén de ficheros; la crea como lo haría localforage si
// el alumno aún no ha abierto JupyterLite (versión 1; localforage añade después los suyos).
async function abre(raiz) {
  const nombre = nombreDeLaBase(raiz);
  const abrir = (version) => {
    const peticion = version ? indexedDB.open(nombre, version) : indexedDB.open(nombre);
    peticion.onupgradeneeded = () => {
      if (!peticion.result.objectStoreNames.contains(ALMACEN)) peticion.result.createObjectStore(ALMACEN);
    };
    return promesa(peticion);
  };
  const base = await abrir();
  if (base.objectStoreNames.contains(ALMACEN)) return base;
  const version = base.version + 1;
  base.close();
  return abrir(version);
}

async function conAlmacen(raiz, modo, tarea) {
  const base = await abre(raiz);
  try {
    const transaccion = base.transaction(ALMACEN, modo);
    const resultado = await tarea(transaccion.objectStore(ALMACEN));
    await new Promise((resuelve, rechaza) => {
      transaccion.oncomplete = resuelve;
      transaccion.onerror = () => rechaza(transaccion.error);
      transaccion.onabort = () => rechaza(transaccion.error);
    });
    return resultado;
  } finally {
    base.close();
  }
}

/** El modelo del cuaderno guardado en JupyterLite, o null si el alumno nunca lo ha guardado allí. */
export function leeDeJupyterLite(raiz, ruta) {
  return conAlmacen(raiz, "readonly", (almacen) => promesa(almacen.get(ruta))).then((m) => m ?? null);
}

/** Guarda el cuaderno en JupyterLite como lo guardaría él (ruta: la de lite/files/). */
export function guardaEnJupyterLite(raiz, ruta, cuaderno, anterior) {
  const ahora = new Date().toISOString();
  const texto = JSON.stringify(cuaderno);
  const modelo = {
    ...(anterior ?? {}),
    name: ruta.split("/").pop(), path: ruta, type: "notebook", format: "json", mimetype: "application/json",
    content: cuaderno, writable: true, created: anterior?.created ?? ahora, last_modified: ahora,
    size: new TextEncoder().encode(texto).length,
  };
  return conAlmacen(raiz, "readwrite", (almacen) => promesa(almacen.put(modelo, ruta))).then(() => modelo);
}

/** El código de la celda de la solución (grade_id `celda`) de un cuaderno, o null si no la tiene. */
export function codigoDeLaSolucion(cuaderno, celda) {
  const solucion = cuaderno?.cells?.find((c) => c.metadata?.nbgrader?.grade_id === celda);
  if (!solucion) return null;
  return Array.isArray(solucion.source) ? solucion.source.join("") : solucion.source;
}
