// El editor de código de las celdas y del desafío: CodeMirror 6 (codemirror.mjs, empaquetado en
// la construcción), con números de línea, colores de Python y deshacer.
//
// Quien sólo lee no lo descarga: el código llega pintado en un <pre> y codemirror.mjs se importa
// cuando el alumno pulsa «Editar» (o hace clic en el código), o al abrir si ya había editado.
//
// Un editor no atrapa el teclado. Tiene dos estados:
//   - leyendo (al llegar con Tab): el código no cambia; Tab y Mayús+Tab siguen por la página;
//     Intro empieza a editar;
//   - editando (tras Intro, un clic o «Editar»): Tab sangra, Mayús+Tab quita sangría, Ctrl+Z
//     deshace; Esc vuelve a «leyendo», y entonces Tab sale del editor.
// Así, recorrer la página con Tab nunca cambia el código.

let modulo = null;
export function cargaCodeMirror() {
  modulo ??= import("./codemirror.mjs");
  return modulo;
}

const AYUDA = {
  leyendo: "Pulsa Intro (o haz clic) para editar. Tab sigue por la página sin tocar el código.",
  editando: "Editando: Tab sangra, Mayús+Tab quita sangría, Ctrl+Z deshace. Esc deja de editar; después, Tab sale.",
};

// Los colores son las clases de Pygments (resaltado.css): los mismos que el código de la página,
// con su contraste comprobado por las pruebas.
function estiloDeColores(cm) {
  const t = cm.tags;
  return cm.HighlightStyle.define([
    { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword], class: "k" },
    { tag: [t.bool, t.null], class: "kc" },
    { tag: [t.string, t.special(t.string)], class: "s" },
    { tag: t.comment, class: "c1" },
    { tag: t.number, class: "mi" },
    { tag: [t.function(t.definition(t.variableName)), t.function(t.variableName)], class: "nf" },
    { tag: t.definition(t.className), class: "nc" },
    { tag: [t.self, t.standard(t.variableName)], class: "nb" },
    { tag: t.escape, class: "se" },
    { tag: t.invalid, class: "err" },
  ]);
}

let contador = 0;

// Una salida o un código más ancho que su caja se desliza entero (una tabla no parte sus
// columnas); el aviso, debajo de `despues`, dice que hay más a la derecha.
// `desborda` se puede medir antes, para medir muchas cajas sin rehacer la maquetación entre una y otra.
export function avisaDesborde(caja, despues = caja, desborda = caja.scrollWidth > caja.clientWidth + 1) {
  const siguiente = despues.nextElementSibling;
  let aviso = siguiente?.classList.contains("aviso-desborde") ? siguiente : null;
  if (desborda && !aviso) {
    aviso = document.createElement("p");
    aviso.className = "aviso-desborde";
    aviso.textContent = "↔ Hay más a la derecha: desliza esta caja a los lados (o usa las flechas tras hacer clic en ella).";
    despues.after(aviso);
  } else if (!desborda && aviso) {
    aviso.remove();
  }
  if (caja.matches("pre, .tabla")) {  // que se pueda deslizar con el teclado
    if (desborda) caja.tabIndex = 0; else caja.removeAttribute("tabindex");
  }
}

/**
 * Monta CodeMirror en `padre` con `codigo`. Devuelve {valor(), pon(texto), edita(), vista}.
 * alCambiar(texto) recibe cada cambio del alumno; etiqueta es el nombre accesible.
 */
export async function creaEditor(padre, { codigo, etiqueta, alCambiar }) {
  const cm = await cargaCodeMirror();
  const ayuda = document.createElement("p");
  ayuda.className = "ayuda-editor";
  ayuda.id = `ayuda-editor-${++contador}`;
  let editando = false;
  const modo = new cm.Compartment();
  const soloLectura = () => cm.EditorState.readOnly.of(!editando);
  let vista;
  const cambiaModo = (nuevo) => {
    editando = nuevo;
    padre.dataset.modo = editando ? "editando" : "leyendo";
    ayuda.textContent = AYUDA[padre.dataset.modo];
    vista?.dispatch({ effects: modo.reconfigure(soloLectura()) });
  };
  const teclas = cm.Prec.highest(cm.keymap.of([
    { key: "Enter", run: () => (editando ? false : (cambiaModo(true), true)) },
    { key: "Escape", run: () => (editando ? (cambiaModo(false), true) : false) },
    // Sin editar, false: el navegador mueve el foco como en el resto de la página.
    { key: "Tab", run: (v) => editando && cm.indentMore(v), shift: (v) => editando && cm.indentLess(v) },
  ]));
  // Leyendo, ninguna tecla (ni pegar, ni cortar) cambia el código; sí Restaurar, que no es del alumno.
  const sinCambiosLeyendo = cm.EditorState.transactionFilter.of(
    (tr) => (!editando && tr.docChanged && tr.annotation(cm.Transaction.userEvent) ? [] : tr));
  vista = new cm.EditorView({
    parent: padre,
    doc: codigo,
    extensions: [
      cm.lineNumbers(), cm.history(), cm.drawSelection(), cm.indentOnInput(), cm.bracketMatching(),
      cm.pythonLanguage, cm.indentUnit.of("    "), cm.EditorState.tabSize.of(4),
      cm.syntaxHighlighting(estiloDeColores(cm)),
      modo.of(soloLectura()), sinCambiosLeyendo, teclas,
      cm.keymap.of([...cm.defaultKeymap, ...cm.historyKeymap]),
      cm.EditorView.contentAttributes.of({ "aria-label": etiqueta, "aria-describedby": ayuda.id,
                                            "aria-multiline": "true" }),
      cm.EditorView.updateListener.of((u) => {
        if (u.docChanged && u.transactions.some((tr) => tr.annotation(cm.Transaction.userEvent))) {
          alCambiar(u.state.doc.toString());
        }
      }),
      // El ratón es editar; perder el foco, dejar de editar.
      cm.EditorView.domEventHandlers({ mousedown: () => { if (!editando) cambiaModo(true); }, blur: () => { cambiaModo(false); } }),
    ],
  });
  padre.append(ayuda);
  cambiaModo(false);
  return {
    vista,
    valor: () => vista.state.doc.toString(),
    pon: (texto) => vista.dispatch({ changes: { from: 0, to: vista.state.doc.length, insert: texto } }),
    edita: () => { cambiaModo(true); vista.focus(); },
  };
}

/**
 * Un bloque de código que el alumno puede editar: el <pre> pintado hasta que edita.
 * `caja` contiene .codigo-editable (con el <pre>), un botón .editar y uno .restaurar.
 * original: el código de la lección; guardado: lo que escribió (null si nada);
 * guarda(texto | null) lo apunta (null: vuelve al original); alRestaurar() tras «Restaurar».
 * Devuelve {codigo()}: el texto que hay que ejecutar ahora.
 */
export function montaEditable(caja, { original, guardado, etiqueta, guarda, pregunta, alRestaurar }) {
  let actual = guardado ?? original;
  let montado = null;
  const zona = caja.querySelector(".codigo-editable");
  const editar = caja.querySelector("button.editar");
  const restaurar = caja.querySelector("button.restaurar");
  const marca = () => {
    restaurar.hidden = actual === original;
    caja.dataset.editada = actual === original ? "no" : "si";
  };
  const monta = () => {
    montado ??= creaEditor(zona, { codigo: actual, etiqueta, alCambiar: (texto) => {
      actual = texto;
      guarda(texto === original ? null : texto);
      marca();
    } }).then((editor) => {
      const pre = zona.querySelector("pre");
      if (pre?.nextElementSibling?.classList.contains("aviso-desborde")) pre.nextElementSibling.remove();
      pre?.remove();
      editar.hidden = true;
      avisaDesborde(editor.vista.scrollDOM, editor.vista.dom);
      return editor;
    }, (e) => {
      montado = null;  // el próximo clic lo vuelve a intentar
      editar.textContent = "Editar (no se ha podido cargar el editor: vuelve a pulsar)";
      throw e;
    });
    return montado;
  };
  const edita = () => monta().then((editor) => editor.edita(), () => {});
  editar.addEventListener("click", edita);
  zona.addEventListener("click", () => { if (!montado) edita(); });
  restaurar.addEventListener("click", () => {
    if (!confirm(pregunta)) return;
    actual = original;
    guarda(null);
    montado?.then((editor) => editor.pon(original));
    marca();
    alRestaurar?.();
    editar.hidden ? montado.then((editor) => editor.vista.focus()) : editar.focus();
  });
  editar.hidden = false;
  marca();
  if (guardado !== null && guardado !== undefined && guardado !== original) monta().catch(() => {});
  caja.codigoActual = () => actual;  // para la descarga del progreso (y las pruebas)
  // pon(texto): el código que llega de fuera (el cuaderno de JupyterLite), como si lo hubiera escrito.
  const pon = (texto) => {
    actual = texto;
    guarda(texto === original ? null : texto);
    marca();
    if (montado) montado.then((editor) => editor.pon(texto)); else monta().catch(() => {});
  };
  return { codigo: () => actual, pon };
}
