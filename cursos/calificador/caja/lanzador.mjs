// El proceso del alumno con el Python del navegador: Pyodide bajo Node, dentro del encierro.
//
// hijo.py (en el Python de la máquina) encierra el proceso y se convierte en este programa:
//   node --experimental-permission --allow-fs-read=<carpeta>/* lanzador.mjs <carpeta> <instantánea>
// <carpeta> tiene el núcleo de Pyodide y las instantáneas (interprete.py).
// Con `--instantanea <hijo.py> <destino>` (lo corre el calificador, fuera de la caja, sin código
// de nadie) hace la instantánea de memoria del intérprete sin paquetes con hijo.py ya cargado
// como módulo `hijo` (definido, sin correr): arrancar de ella cuesta ~0,3 s y no 2,5 s, y el
// proceso del alumno no compila hijo.py (~0,1 s de CPU en Pyodide).
// Con `--cache <instantánea> <destino>` (también fuera de la caja, justo después) guarda la caché de
// código de V8 de pyodide.asm.mjs tras arrancar de la instantánea: el proceso del alumno no vuelve a
// compilar ese JavaScript de 1,2 MB (~35 ms de CPU menos por entrega, ver moduloDePyodide).
//
// Antes del código del alumno se quitan los caminos de Pyodide a Node (`import js` llega a
// globalThis): sin `process`, `require`, `Buffer`, ni el sistema de ficheros de Node dentro de
// Pyodide. Es una segunda pared: la primera es el encierro del sistema, y Node además sólo puede
// leer esta carpeta.
import fs from "node:fs";
import os from "node:os";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const [carpeta, orden, hijo, destino] = process.argv.slice(2);
const ENTRADA = 3, SALIDA = 4; // el canal (hijo.py lo ha puesto ahí); 0, 1 y 2 son /dev/null

// Con el modelo de permisos, process.binding está prohibido y Pyodide sólo lo usa para leer
// las constantes de fs (NODEFS): se las damos sin él.
const binding = process.binding;
process.binding = (nombre) => (nombre === "constants" ? { fs: fs.constants, os: os.constants } : binding(nombre));

const { loadPyodide } = await import(`${carpeta}/pyodide.mjs`);
const callado = () => {};

// pyodide.asm.mjs compilado como script, con la caché de código de V8 si se da. Un módulo ES no
// admite caché en este Node; un script sí (vm.Script, cachedData). El texto pasa a ser una función
// que devuelve la fábrica de Pyodide (la opción createPyodideModule de loadPyodide), con
// import.meta.url e import() de parámetros. V8 rechaza una caché de otro texto, otro V8 u otras
// opciones, y entonces compila sin ella; si el texto no acaba como se espera, null: el import de siempre.
function moduloDePyodide(cache) {
  const ruta = `${carpeta}/pyodide.asm.mjs`;
  const fin = /\bexport default _createPyodideModule;\s*$/;
  const texto = fs.readFileSync(ruta, "utf8");
  if (!fin.test(texto)) return null;
  const cuerpo = texto.replace(fin, "").replaceAll("import.meta.url", "__url__").replace(/(?<![\w$.])import\(/g, "__importa__(");
  const script = new vm.Script(`(function (__url__, __importa__) {${cuerpo}\nreturn _createPyodideModule;\n})`, {
    filename: ruta,
    cachedData: cache,
  });
  return { script, crea: script.runInThisContext()(pathToFileURL(ruta).href, (nombre) => import(nombre)) };
}

if (orden === "--cache") {
  const modulo = moduloDePyodide();
  const py = await loadPyodide({
    indexURL: `${carpeta}/`, _loadSnapshot: fs.readFileSync(hijo), createPyodideModule: modulo.crea,
    stdin: () => null, stdout: callado, stderr: callado,
  });
  py.runPython("import hijo");
  const cache = modulo.script.createCachedData();
  // Con las opciones de la caja (interprete.py la corre con ellas): si V8 no la acepta, no se guarda.
  process.exit(moduloDePyodide(cache).script.cachedDataRejected ? 1 : (fs.writeFileSync(destino, cache), 0));
}

if (orden === "--instantanea") {
  const py = await loadPyodide({ indexURL: `${carpeta}/`, _makeSnapshot: true });
  // El texto va como literal (JSON es un literal de Python válido): ninguna referencia a JS queda viva.
  py.runPython(`import sys, types
_hijo = types.ModuleType("hijo")
exec(compile(${JSON.stringify(fs.readFileSync(hijo, "utf8"))}, "hijo.py", "exec"), _hijo.__dict__)
sys.modules["hijo"] = _hijo
del _hijo`);
  fs.writeFileSync(destino, py.makeMemorySnapshot());
  process.exit(0);
}

if (!/^instantanea-[0-9a-f]+\.bin$/.test(orden)) throw new Error("falta la instantánea");
const cache = `${carpeta}/${orden.replace(/\.bin$/, ".v8")}`;
const modulo = moduloDePyodide(fs.existsSync(cache) ? fs.readFileSync(cache) : undefined);
const py = await loadPyodide({
  indexURL: `${carpeta}/`, _loadSnapshot: fs.readFileSync(`${carpeta}/${orden}`), createPyodideModule: modulo?.crea,
  // Sin entrada: input() lanza EOFError enseguida, como un cuaderno sin entrada.
  stdin: () => null, stdout: callado, stderr: callado,
});

// El canal, con lecturas y escrituras síncronas: el código del alumno se ejecuta dentro de una
// llamada y nunca se vuelve al bucle de eventos (un setTimeout o una promesa suyos no corren).
const { readSync, writeSync } = fs;
const trozo = new Uint8Array(65536);
const texto = new TextDecoder("utf-8");
const codifica = new TextEncoder();
py.registerJsModule("_canal_del_calificador", {
  lee() {
    const n = readSync(ENTRADA, trozo, 0, trozo.length, null);
    return n ? texto.decode(trozo.subarray(0, n), { stream: true }) : null;
  },
  escribe(datos) {
    let bytes = codifica.encode(datos);
    while (bytes.length) bytes = bytes.subarray(writeSync(SALIDA, bytes));
  },
});

for (const nombre of ["process", "require", "module", "exports", "Buffer", "fetch", "WebSocket", "Worker",
  "EventSource", "setImmediate", "global"]) {
  delete globalThis[nombre];
}
delete py.mountNodeFS;
delete py.FS.filesystems.NODEFS;

py.runPython("import hijo\nhijo.principal_pyodide()");
