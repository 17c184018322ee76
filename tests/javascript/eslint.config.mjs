// ESLint para el JavaScript del sitio. Lo pasa tests/test_javascript.py desde la raíz del
// repositorio: eslint --config tests/javascript/eslint.config.mjs cursos/sitio
import js from "@eslint/js";
import globals from "globals";

export default [
  // Lo que no es nuestro: lo empaquetado y lo descargado.
  { ignores: ["**/node_modules/**", "build/**"] },
  {
    files: ["cursos/sitio/**/*.js", "cursos/sitio/**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      // Las páginas, los workers de Pyodide y el service worker, todo del navegador.
      globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker },
    },
    rules: {
      ...js.configs.recommended.rules,
      // Un argumento que no se usa puede estar para respetar una firma (los eventos, los plugins).
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
  {
    // Scripts clásicos (no módulos): el service worker y la extensión federada de JupyterLite.
    files: ["cursos/sitio/recursos/sw.js", "cursos/sitio/arranque/remoteEntry.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // La construcción escribe `const CONFIG = {…}` delante de cada copia del service worker.
    files: ["cursos/sitio/recursos/sw.js"],
    languageOptions: { globals: { CONFIG: "readonly" } },
  },
];
