// The engine in a Web Worker (a classic worker: new Worker('engine-worker.js')).
//
// The page and the worker exchange protocol lines as strings, exactly the native engine's:
// the page posts `uci`, `isready`, `setoption name … value …`, `position …`, `go …`,
// `stop`, `d`, `bench`, … and receives every line the engine sends (`id …`, `option …`,
// `uciok`, `readyok`, `info …`, `bestmove …`). No other kind of message: a page knows the
// engine is ready when `uciok` answers its `uci`; lines sent before the engine has loaded are
// kept and handed over in order once it has.
//
// With cross-origin isolation (the server sends COOP/COEP: tools/web/serve.py), the threaded
// build runs (divercite-engine.js: SharedArrayBuffer, Threads up to
// navigator.hardwareConcurrency); without it the single-threaded one
// (divercite-engine-st.js: Threads 1; a search pauses every 20 ms so `stop` and `isready`
// still come in). As natively, a `go` sent before the previous search's `bestmove` is refused:
// wait for `bestmove` after `stop`.
//
// A failure to load (a missing or refused .wasm) reaches the page as the line
// `info string error: <reason>` and on the console. Everything is loaded from this script's
// own folder.
'use strict';

const threaded = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const build = threaded ? 'divercite-engine' : 'divercite-engine-st';
const factoryName = threaded ? 'DiverciteEngine' : 'DiverciteEngineSingle';
const here = (file) => new URL(file, self.location.href).href;

let engine = null;
const waiting = [];
let failed = false;

function fail(reason) {
  if (failed) return;
  failed = true;
  self.postMessage(`info string error: ${reason}`);
  console.error(`engine-worker: ${reason}`);
}

// What the server says of `file` when loading failed: a missing file otherwise shows only as
// the error page's bytes failing to compile.
async function serverSays(file) {
  try {
    const response = await fetch(here(file), {method: 'HEAD'});
    return response.ok ? '' : ` (${file}: HTTP ${response.status} ${response.statusText})`;
  } catch (error) {
    return ` (${file}: ${error.message || error})`;
  }
}

function send(line) {
  const text = engine.allocateUTF8(line);
  try {
    engine._divercite_command(text);
  } finally {
    engine._free(text);
  }
}

// Set first: the lines posted while the engine loads are kept.
self.onmessage = (event) => {
  // One line per message; a message holding several lines is taken line by line.
  for (const line of String(event.data).split(/\r?\n/)) {
    if (line.trim() === '') continue;
    if (engine) {
      send(line);
    } else if (!failed) {
      waiting.push(line);
    }
  }
};

try {
  importScripts(here(`${build}.js`));
} catch (error) {
  fail(`could not load ${build}.js: ${error.message || error}`);
  throw error;
}

self[factoryName]({
  locateFile: (file) => here(file),
  // The threaded build's threads are workers that load this script again.
  mainScriptUrlOrBlob: here(`${build}.js`),
  arguments: [`--hardware-threads=${threaded ? navigator.hardwareConcurrency || 1 : 1}`],
  print: (line) => self.postMessage(line),
  printErr: (line) => console.warn(`engine: ${line}`),
  onAbort: (what) => {
    serverSays(`${build}.wasm`).then((said) => fail(`the engine stopped${said}: ${what}`));
  },
}).then(
  (module) => {
    engine = module;
    for (const line of waiting.splice(0)) send(line);
  },
  (error) => {
    serverSays(`${build}.wasm`).then((said) => fail(`could not start the engine${said}: ` +
      `${error.message || error}`));
  },
);
