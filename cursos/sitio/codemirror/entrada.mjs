// Lo único de CodeMirror 6 que usa recursos/editor.mjs; esbuild lo empaqueta en codemirror.mjs.
export { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
export { EditorState, Compartment, Prec, Transaction } from "@codemirror/state";
export { defaultKeymap, history, historyKeymap, indentMore, indentLess } from "@codemirror/commands";
export { indentUnit, syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from "@codemirror/language";
export { pythonLanguage } from "@codemirror/lang-python";
export { tags } from "@lezer/highlight";
