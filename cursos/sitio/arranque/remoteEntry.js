/* Arranque del núcleo mientras JupyterLite pinta la interfaz: una extensión federada escrita a mano.
 *
 * Por qué: JupyterLite crea el worker del núcleo cuando el cuaderno ya está pintado y su sesión se
 * abre, ~4,8 s después de navegar; Pyodide, las ruedas y los imports de IPython/ipykernel van después,
 * en serie con la interfaz (docs/decisiones/004-el-nucleo-arranca-con-la-aplicacion.md). Este
 * plugin abre la sesión del cuaderno de la URL (?path=…) en cuanto arranca la aplicación, así que el
 * worker trabaja mientras se pinta la interfaz. El SessionContext del cuaderno, al iniciarse, busca
 * una sesión con su ruta y se conecta a ella (SessionContext._initialize de @jupyterlab/apputils):
 * un solo núcleo, el mismo que habría abierto él. De paso, evita que la segunda visita borre y vuelva
 * a registrar el service worker de JupyterLite (apuntaLaVersion, abajo), que retrasaba el núcleo.
 *
 * Sin webpack: el contrato de las extensiones federadas (bootstrap.js de JupyterLite y el cargador de
 * plugins de la aplicación) es que este script defina window._JUPYTERLAB[nombre] con init(ámbito
 * compartido) y get(módulo), que devuelve una promesa de una fábrica del módulo; el módulo,
 * {__esModule: true, default: [plugins]}. No aporta módulos compartidos; el único objeto de otro
 * paquete que necesita, el token IServiceWorkerManager de @jupyterlite/apputils, lo toma del ámbito
 * compartido de la aplicación, como haría el código que genera webpack.
 */
(function () {
  const NOMBRE = "@agentes-llm/arranque-del-nucleo";
  const APPUTILS = "@jupyterlite/apputils";
  let compartido = {};

  // La versión más alta del paquete en el ámbito compartido: la que webpack elige para un singleton.
  function masAlta(versiones) {
    const partes = (v) => v.split(/[.+-]/).map((p) => parseInt(p, 10) || 0);
    return versiones.sort((a, b) => {
      const [x, y] = [partes(a), partes(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) {
        if ((x[i] || 0) !== (y[i] || 0)) return (y[i] || 0) - (x[i] || 0);
      }
      return 0;
    })[0];
  }

  async function tokenDelServiceWorker() {
    const versiones = compartido[APPUTILS];
    if (!versiones || !Object.keys(versiones).length) return null;
    const fabrica = await versiones[masAlta(Object.keys(versiones))].get();
    return fabrica().IServiceWorkerManager || null;
  }

  // El cuaderno que abre esta página: ?path=… de las aplicaciones de JupyterLite (notebooks/, lab/).
  function rutaDeLaUrl() {
    const ruta = new URLSearchParams(window.location.search).get("path");
    return ruta && ruta.endsWith(".ipynb") ? ruta.replace(/^\/+/, "") : null;
  }

  // El núcleo por omisión, el que el cuaderno elige cuando el suyo (python3) no existe aquí. El
  // plugin del núcleo de Pyodide puede activarse después de éste: se espera a que registre su
  // núcleo (el gestor avisa con specsChanged) o, como mucho, a que se hayan activado todos.
  async function nucleoPorOmision(app, kernelspecs) {
    const nombre = () => {
      const specs = kernelspecs.specs;
      return specs && specs.kernelspecs[specs.default] ? specs.default : null;
    };
    await kernelspecs.ready;
    if (nombre()) return nombre();
    let avisa;
    const registrado = new Promise((resuelve) => {
      avisa = () => nombre() && resuelve();
      kernelspecs.specsChanged.connect(avisa);
    });
    try {
      await Promise.race([registrado, app.started.then(() => kernelspecs.refreshSpecs())]);
    } finally {
      kernelspecs.specsChanged.disconnect(avisa);
    }
    return nombre();
  }

  // La sesión abierta para el cuaderno (su `model`, como lo da startNew), o null si no hay que abrirla aquí.
  async function abreLaSesion(app, serviceWorker, ruta, startNew) {
    const { contents, kernelspecs, sessions } = app.serviceManager;
    // Sólo si el cuaderno existe (lee el índice de su carpeta, que el cuaderno leerá igual y queda
    // guardado); y con el service worker ya registrado: sin él, el núcleo se crearía sin los
    // ficheros del cuaderno (mountDrive), que es el service worker quien se los sirve.
    const [modelo, nucleo] = await Promise.all([
      contents.get(ruta, { content: false }).catch(() => null),
      nucleoPorOmision(app, kernelspecs),
      serviceWorker.ready.catch(() => undefined),
    ]);
    if (!modelo || modelo.type !== "notebook" || !nucleo) return null;
    await sessions.refreshRunning();
    if ([...sessions.running()].some((s) => s.path === ruta)) return null; // ya tiene núcleo
    // El mismo nombre y ruta que da el cuaderno a su sesión (Context de @jupyterlab/docregistry).
    const opciones = { path: ruta, name: ruta.split("/").pop(), type: "notebook", kernel: { name: nucleo } };
    const conexion = await startNew.call(sessions, opciones);
    const sesion = conexion.model;
    conexion.dispose(); // la sesión y su núcleo siguen; el cuaderno abre su propia conexión
    return sesion;
  }

  // En la segunda visita, el ServiceWorkerManager de JupyterLite borra su service worker y lo
  // registra otra vez (la consola dice «New version, unregistering existing service workers»),
  // y el núcleo espera a ese registro: la versión de la aplicación que compara la apunta en
  // localStorage sólo cuando la página ya estaba controlada, no al registrarlo la primera vez.
  // Se apunta aquí, con la misma clave y el mismo valor, si falta; una versión nueva de la
  // aplicación sigue borrando el service worker viejo.
  async function apuntaLaVersion() {
    const registro = await navigator.serviceWorker.getRegistration();
    const worker = registro && (registro.active || registro.waiting || registro.installing);
    const texto = document.getElementById("jupyter-config-data");
    const version = texto && JSON.parse(texto.textContent || "{}").appVersion;
    if (!worker || !version) return;
    const clave = `${worker.scriptURL}-version`;
    if (localStorage.getItem(clave) === null) localStorage.setItem(clave, version);
  }

  // Archivo › Descargar en el cuaderno de un desafío baja lo mismo que «Descargar para entregar» de la
  // página: el cuaderno con su nombre de nbgrader (el-bucle-de-texto.ipynb), guardado, con quién y
  // cuándo en metadata.curso. El identificador es el que guarda la página en este navegador; se pide
  // siempre antes de bajar, con el último escrito para confirmar (en un ordenador compartido se ve).
  const IDENTIFICADOR = /^[\p{L}\p{N}_][\p{L}\p{N}_.@+-]{0,63}$/u;

  function configuracion() {
    const texto = document.getElementById("jupyter-config-data");
    return texto ? JSON.parse(texto.textContent || "{}") : {};
  }

  function pideIdentificador(clave) {
    let valor = "";
    try { valor = localStorage.getItem(clave) || ""; } catch (e) { /* sin almacenamiento */ }
    let pregunta = "Tu identificador, el que te dio el profesor (va dentro del cuaderno que entregas). " +
      "Si el de abajo no es el tuyo, cámbialo:";
    for (;;) {
      const escrito = window.prompt(pregunta, valor);
      if (escrito === null) return null;
      valor = escrito.trim();
      if (IDENTIFICADOR.test(valor)) break;
      pregunta = "Ese identificador no vale: sólo letras, cifras y _ . @ + - (hasta 64, sin espacios). Escribe el tuyo:";
    }
    try {
      localStorage.setItem(clave, valor);
      localStorage.setItem(clave + "-usado", new Date().toISOString());
    } catch (e) { /* sin almacenamiento */ }
    return valor;
  }

  const REPARTIDO = {
    kernelspec: { display_name: "Python 3 (ipykernel)", language: "python", name: "python3" },
    language_info: { name: "python" },
  };

  async function descargaParaEntregar(contexto, curso) {
    const alumno = pideIdentificador(`curso-agentes-llm:${curso}:alumno`);
    if (alumno === null) return;
    await contexto.save();
    const cuaderno = contexto.model.toJSON();
    const descargado = new Date().toISOString();
    cuaderno.metadata.curso = Object.assign({}, cuaderno.metadata.curso, { alumno, descargado });
    // El núcleo de Pyodide pone los suyos («Python (Pyodide)», 3.8); la entrega lleva los del cuaderno
    // repartido, como «Descargar para entregar» de la página: el mismo fichero, y el calificador
    // lo ejecuta con python3.
    Object.assign(cuaderno.metadata, REPARTIDO);
    const enlace = document.createElement("a");
    enlace.href = URL.createObjectURL(new Blob([JSON.stringify(cuaderno, null, 1) + "\n"],
                                               { type: "application/x-ipynb+json" }));
    enlace.download = contexto.path.split("/").pop();
    document.body.append(enlace);
    enlace.click();
    enlace.remove();
    setTimeout(() => URL.revokeObjectURL(enlace.href), 60000);
    window.ultimaEntrega = { alumno, descargado, nombre: enlace.download };  // para las pruebas
  }

  function descargaDelDesafio(app) {
    const curso = configuracion().cursoAgentesLlm;
    if (!curso) return;
    app.restored.then(() => {
      // Lumino guarda cada orden en commands._commands (id → {execute, …}): se envuelve la suya.
      const orden = app.commands._commands && app.commands._commands.get("docmanager:download");
      if (!orden) return console.warn("Descarga del desafío: no está la orden docmanager:download.");
      const original = orden.execute;
      orden.execute = function (argumentos) {
        const widget = app.shell.currentWidget;
        const contexto = widget && widget.context;
        const meta = contexto && contexto.model && contexto.model.getMetadata && contexto.model.getMetadata("curso");
        if (!meta || !meta.desafio) return original.call(this, argumentos);
        return descargaParaEntregar(contexto, curso);
      };
    });
  }

  function activa(app, serviceWorker) {
    descargaDelDesafio(app);
    if (!serviceWorker) return;
    serviceWorker.ready.then(apuntaLaVersion).catch(() => undefined);
    const ruta = rutaDeLaUrl();
    if (!ruta) return;
    const sessions = app.serviceManager.sessions;
    const startNew = sessions.startNew;
    const pendiente = abreLaSesion(app, serviceWorker, ruta, startNew).catch((e) => {
      console.warn(`Arranque del núcleo: ${e}`);
      return null;
    });
    // Mientras se abre, si el cuaderno pide su sesión (no la ha encontrado en marcha), espera a
    // ésta y se conecta a ella: nunca dos núcleos para el mismo cuaderno.
    sessions.startNew = function (opciones, conectar) {
      if (!opciones || opciones.path !== ruta) return startNew.call(sessions, opciones, conectar);
      return pendiente.then((sesion) =>
        sesion ? sessions.connectTo({ ...conectar, model: sesion }) : startNew.call(sessions, opciones, conectar));
    };
    pendiente.then((sesion) => {
      sessions.startNew = startNew; // el de siempre
      window.arranqueDelNucleo = { ruta, sesion: sesion && sesion.id }; // para las pruebas
    });
  }

  function plugin(token) {
    return {
      id: `${NOMBRE}:plugin`,
      description: "Abre la sesión del cuaderno de la URL al arrancar, mientras se pinta la interfaz.",
      autoStart: true,
      optional: [token],
      activate: activa,
    };
  }

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NOMBRE] = {
    init(ambito) {
      compartido = ambito || {};
    },
    async get() {
      const token = await tokenDelServiceWorker();
      if (!token) {
        console.warn("Arranque del núcleo: sin IServiceWorkerManager; el núcleo arrancará con el cuaderno.");
        return () => ({ __esModule: true, default: [] });
      }
      return () => ({ __esModule: true, default: [plugin(token)] });
    },
  };
})();
