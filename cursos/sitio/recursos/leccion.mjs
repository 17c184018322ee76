// Página de una lección: cada celda de código se ejecuta en su sitio con Pyodide, que corre
// en un Web Worker de módulo (python.mjs lo crea; trabajador.mjs es el worker).
import * as python from "./python.mjs";

const articulo = document.querySelector("article.leccion");
const estado = articulo.querySelector(".estado");
const celdas = new Map(JSON.parse(document.getElementById("celdas").textContent)
  .map((c) => [c.numero, c]));
const hechas = new Set();      // celdas que han terminado bien en este intérprete
const enCurso = new Map();     // id de ejecución -> {salida, fin}
let ultimoId = 0;
let cola = Promise.resolve();  // una ejecución detrás de otra, como en un cuaderno

function seccion(numero) {
  return document.getElementById(`celda-${numero}`);
}

const ESPERA = "Descargando y arrancando Python (sólo la primera vez tarda unos segundos)…";
function arranca() {
  if (python.arranca()) estado.textContent = ESPERA;
}

function recibe(mensaje) {
  if (mensaje.tipo === "listo") {
    performance.mark("python-listo");
    estado.textContent = "Python está listo.";
  } else if (mensaje.tipo === "fallo") {
    falla(mensaje.mensaje);
  } else if (mensaje.tipo === "salida") {
    escribe(enCurso.get(mensaje.id)?.salida, mensaje.texto, mensaje.flujo === "error");
  } else if (mensaje.tipo === "fin") {
    enCurso.get(mensaje.id)?.fin(mensaje.ok, mensaje.resultado);
    enCurso.delete(mensaje.id);
  }
}

// Si Python no arranca, cada celda pendiente lo dice, y el próximo clic lo vuelve a intentar.
function falla(texto) {
  estado.textContent = texto;
  for (const { salida, fin } of enCurso.values()) {
    escribe(salida, texto + "\n", true);
    fin(false);
  }
  enCurso.clear();
  python.termina();
  // Sus salidas siguen a la vista, pero lo que definieron ya no existe: que se note.
  for (const numero of hechas) seccion(numero).dataset.estado = "anterior";
  hechas.clear();
}

function escribe(salida, texto, esError) {
  if (!salida) return;
  const trozo = document.createElement("span");
  if (esError) trozo.className = "error";
  trozo.textContent = texto;
  salida.append(trozo);
  salida.hidden = false;
}

function ejecutaUna(numero) {
  arranca();
  const caja = seccion(numero);
  const salida = caja.querySelector(".salida");
  salida.replaceChildren();
  salida.hidden = true;
  caja.dataset.estado = "ejecutando";
  const id = ++ultimoId;
  return new Promise((resuelve) => {
    enCurso.set(id, { salida, fin: (ok) => {
      caja.dataset.estado = ok ? "hecha" : "error";
      if (ok) hechas.add(numero); else hechas.delete(numero);
      resuelve(ok);
    } });
    python.envia({ tipo: "ejecuta", id, codigo: celdas.get(numero).fuente, nombre: `<celda ${numero}>` });
  });
}

// Una celda que usa lo que definen otras ejecuta antes las que aún no se han ejecutado.
async function ejecutaConLasAnteriores(numero) {
  for (const anterior of celdas.get(numero).depende_de) {
    if (!hechas.has(anterior) && !(await ejecutaUna(anterior))) return false;
  }
  return ejecutaUna(numero);
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
// escribe en su propia caja. Devuelve {prueba: pasa} o null si su código no ha llegado a las pruebas.
function compruebaDesafio(peticion, salida) {
  return encola(() => {
    arranca();
    const id = ++ultimoId;
    return new Promise((resuelve) => {
      enCurso.set(id, { salida, fin: (ok, resultado) => resuelve(ok ? resultado : null) });
      python.envia({ tipo: "desafio", id, peticion: JSON.stringify(peticion) });
    });
  });
}

// Un bucle infinito en el código del alumno no se puede interrumpir dentro del worker: se
// termina el worker entero (las celdas ya ejecutadas tendrán que volver a ejecutarse).
function detiene() {
  falla("Has detenido Python. La próxima ejecución lo arranca de nuevo (y vuelve a ejecutar las celdas que hagan falta).");
}

articulo.addEventListener("click", (evento) => {
  const boton = evento.target.closest("button[data-accion]");
  if (!boton) return;
  if (boton.dataset.accion === "ejecutar-todo") encola(ejecutaTodas);
  if (boton.dataset.accion === "ejecutar") {
    const numero = Number(boton.closest(".celda").dataset.celda);
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

// Preguntas y desafío se activan aparte, sin retrasar los botones de ejecutar.
import("./ganchos.mjs").then(({ activa }) => {
  for (const gancho of document.querySelectorAll("[data-gancho]")) activa(gancho, { compruebaDesafio, arranca, detiene });
});
