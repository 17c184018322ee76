// La página del laboratorio de inyecciones: elige el modelo, manda la clave al worker y pinta
// la tabla y el gráfico que devuelve laboratorio.py. La clave no se queda en la página: se manda
// al worker (trabajador.mjs) y el campo se vacía en el acto; no va a ningún almacenamiento, ni a
// la URL, ni a la consola, ni a la descarga de las conversaciones.
const datos = JSON.parse(document.getElementById("laboratorio-datos").textContent);
const PAGINA = new URL(".", document.baseURI);  // la carpeta de la página: ahí están sus ficheros
const $ = (selector) => document.querySelector(selector);

const formulario = $(".eleccion-del-modelo");
const servidor = $("#servidor");
const nombre = $("#nombre-del-modelo");
const clave = $("#clave");
const veces = $("#veces");
const boton = $(".ejecutar-laboratorio");
const progreso = $(".progreso-laboratorio");
const estado = $(".estado-laboratorio");
const tabla = $(".tabla-laboratorio");
const grafico = $(".grafico-laboratorio");
const descargar = $(".descargar-ejecuciones");

const trabajador = new Worker(new URL("./trabajador.mjs", import.meta.url), { type: "module" });
trabajador.postMessage({
  tipo: "precarga",
  pyodide: new URL(datos.pyodide, PAGINA).href,
  ejecutor: new URL("./ejecutor.py", import.meta.url).href,
  arranque: new URL("./laboratorio.py", import.meta.url).href,
  modulos: datos.modulos.map((m) => ({ nombre: m, url: new URL(datos.curso + m, PAGINA).href })),
  archivos: datos.archivos.map((a) => ({ nombre: a, url: new URL(a, PAGINA).href })),
});

let claveDada = false;  // ¿tiene ya el worker una clave? La página no sabe cuál.
let ejecuciones = null;

function elegido() {
  return datos.servidores[Number(servidor.value)];
}

function alCambiarDeServidor() {
  const s = elegido();
  nombre.value = s.modelo;
  $(".campo-clave").hidden = !s.clave;  // un modelo local no pide clave
  // Otra clave para otro servidor: la anterior se olvida también en el worker.
  trabajador.postMessage({ tipo: "clave", clave: null });
  claveDada = false;
  clave.placeholder = "";
}

servidor.addEventListener("change", alCambiarDeServidor);
alCambiarDeServidor();

trabajador.onmessage = ({ data }) => {
  if (data.tipo === "progreso") {
    progreso.max = data.total;
    progreso.value = data.hechas;
    estado.textContent = `Ejecución ${data.hechas} de ${data.total}…`;
  } else if (data.tipo === "fallo") {
    termina(data.mensaje);
  } else if (data.tipo === "salida" && data.flujo === "error") {
    estado.textContent = data.texto;
  } else if (data.tipo === "fin") {
    data.ok ? pinta(data.resultado) : termina(estado.textContent || "El laboratorio no ha podido terminar.");
  }
};

function termina(mensaje) {
  estado.textContent = mensaje;
  boton.disabled = false;
  progreso.hidden = true;
}

// Una celda de texto (textContent: lo que venga del servidor nunca se lee como HTML).
function celda(etiqueta, texto, atributos = {}) {
  const c = Object.assign(document.createElement(etiqueta), atributos);
  c.textContent = texto;
  return c;
}

// La tabla de verdad: una sección por clase (nunca sumadas), cada fila con el título del escenario.
function pintaTabla(resultado) {
  const t = document.createElement("table");
  t.append(celda("caption", `${resultado.cabecera.modelo} · ${resultado.cabecera.formato} · N = ${resultado.cabecera.veces} · ${resultado.cabecera.fecha}`));
  const cabeza = t.createTHead().insertRow();
  for (const nombre of ["Escenario", "Defensa", "propuesta", "ejecutada", "tarea", "errores"]) {
    cabeza.append(celda("th", nombre, { scope: "col" }));
  }
  for (const seccion of resultado.secciones) {
    const cuerpo = t.createTBody();
    cuerpo.insertRow().append(celda("th", seccion.clase, { colSpan: 6, scope: "colgroup", className: "clase" }));
    for (const f of seccion.filas) {
      const fila = cuerpo.insertRow();
      fila.append(celda("th", f.titulo, { scope: "row" }), celda("td", f.defensa), celda("td", f.propuesta),
                  celda("td", f.ejecutada), celda("td", f.tarea), celda("td", `${f.errores} de ${f.veces}`));
    }
  }
  tabla.replaceChildren(t);
}

function pinta(resultado) {
  pintaTabla(resultado);
  tabla.hidden = false;
  grafico.innerHTML = resultado.svg;  // lo dibuja medidas.grafico_svg: números y textos del curso, escapados
  ejecuciones = resultado.resultados;
  descargar.hidden = false;
  const errores = resultado.errores
    ? ` ${resultado.errores} ejecuciones han fallado; la primera: ${resultado.primer_error}` : "";
  const hechas = resultado.resultados.ejecuciones.length;
  termina(resultado.parado ? `${resultado.parado}. Corrígelo y vuelve a pulsar.` : `Hecho: ${hechas} ejecuciones.${errores}`);
}

formulario.addEventListener("submit", (evento) => {
  evento.preventDefault();
  const s = elegido();
  if (s.clave && clave.value) {
    trabajador.postMessage({ tipo: "clave", clave: clave.value });
    claveDada = true;
  }
  clave.value = "";  // la página no la guarda: sólo el worker
  if (s.clave && !claveDada) {
    estado.textContent = "Este servidor pide una clave de API: escríbela y vuelve a pulsar.";
    clave.focus();
    return;
  }
  clave.placeholder = s.clave ? "la tiene el intérprete; escribe otra para cambiarla" : "";
  const n = Math.max(1, Math.min(50, Math.trunc(Number(veces.value)) || 1));
  veces.value = n;
  boton.disabled = true;
  progreso.hidden = false;
  progreso.value = 0;
  estado.textContent = "Preparando Python (la primera vez, unos 15 MB)…";
  tabla.hidden = true;
  descargar.hidden = true;
  trabajador.postMessage({ tipo: "prepara" });
  trabajador.postMessage({ tipo: "laboratorio", id: 1, peticion: JSON.stringify(
    { url: s.url, formato: s.formato, modelo: nombre.value.trim() || s.modelo, veces: n }) });
});

descargar.addEventListener("click", () => {
  const blob = new Blob([JSON.stringify(ejecuciones, null, 1)], { type: "application/json" });
  const enlace = Object.assign(document.createElement("a"),
                               { href: URL.createObjectURL(blob), download: "laboratorio-de-inyecciones.json" });
  enlace.click();
  URL.revokeObjectURL(enlace.href);
});
