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

// The engine's search runs WebAssembly SIMD (128-bit) instructions, which every current
// browser runs; an older one would only fail to compile the module. This module of one SIMD
// instruction (i8x16.popcnt of a splat) validates only where they run.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2,
  1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
if (!WebAssembly.validate(SIMD_PROBE)) {
  fail('this browser does not run WebAssembly SIMD, which the engine needs: Chrome or Edge 91, ' +
    'Firefox 89, Safari 16.4 or later run it');
  throw new Error('no WebAssembly SIMD');
}

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
