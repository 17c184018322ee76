// Teclas de Python en el <textarea> del desafío: Tab sangra 4 espacios (Mayús+Tab quita la
// sangría), Intro mantiene la sangría de la línea (y añade 4 tras «:»). Para no atrapar a quien
// navega con el teclado, Esc suelta el editor: el Tab siguiente sale de él, como en CodeMirror.
// Se escribe con execCommand("insertText") para que Ctrl+Z deshaga y salte el evento input
// (que guarda el código); si el navegador no lo admite, setRangeText y un input a mano.

const SANGRIA = "    ";

function inserta(editor, texto) {
  if (!document.execCommand?.("insertText", false, texto)) {
    editor.setRangeText(texto, editor.selectionStart, editor.selectionEnd, "end");
    editor.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

function inicioDeLinea(texto, posicion) {
  return texto.lastIndexOf("\n", posicion - 1) + 1;
}

// Cambia las líneas tocadas por la selección con `cambia(linea)`. Con una selección, las deja
// seleccionadas; sin ella, el cursor se mueve con el texto de su línea.
function cambiaLineas(editor, cambia) {
  const { value, selectionStart, selectionEnd } = editor;
  const desde = inicioDeLinea(value, selectionStart);
  const finSeleccion = selectionEnd > selectionStart && value[selectionEnd - 1] === "\n" ? selectionEnd - 1 : selectionEnd;
  const hasta = value.indexOf("\n", finSeleccion) === -1 ? value.length : value.indexOf("\n", finSeleccion);
  const nuevas = value.slice(desde, hasta).split("\n").map(cambia).join("\n");
  editor.setSelectionRange(desde, hasta);
  inserta(editor, nuevas);
  if (selectionStart === selectionEnd) {
    const cursor = Math.max(desde, selectionStart + nuevas.length - (hasta - desde));
    editor.setSelectionRange(cursor, cursor);
  } else {
    editor.setSelectionRange(desde, desde + nuevas.length);
  }
}

// Hasta el nivel anterior (múltiplo de 4): con 7 espacios quedan 4, con 8 también.
function quitaSangria(linea) {
  const espacios = linea.match(/^ */)[0].length;
  return linea.slice(espacios % 4 || Math.min(espacios, 4));
}

function tab(editor, atras) {
  const { value, selectionStart, selectionEnd } = editor;
  const variasLineas = value.slice(selectionStart, selectionEnd).includes("\n");
  if (atras) cambiaLineas(editor, quitaSangria);
  else if (variasLineas) cambiaLineas(editor, (linea) => SANGRIA + linea);
  else inserta(editor, SANGRIA);
}

function intro(editor) {
  const { value, selectionStart } = editor;
  const linea = value.slice(inicioDeLinea(value, selectionStart), selectionStart);
  const sangria = linea.match(/^ */)[0] + (/:\s*(#.*)?$/.test(linea) ? SANGRIA : "");
  inserta(editor, "\n" + sangria);
}

export function editorDePython(editor) {
  let suelto = false;  // tras Esc, Tab vuelve a moverse entre controles
  editor.addEventListener("keydown", (evento) => {
    if (evento.isComposing || evento.ctrlKey || evento.metaKey || evento.altKey) return;
    if (evento.key === "Escape") { suelto = true; return; }
    if (evento.key === "Tab" && !suelto) {
      evento.preventDefault();
      tab(editor, evento.shiftKey);
    } else if (evento.key === "Enter" && !evento.shiftKey) {
      evento.preventDefault();
      intro(editor);
    }
    if (evento.key !== "Shift") suelto = false;
  });
  editor.addEventListener("blur", () => { suelto = false; });
}
