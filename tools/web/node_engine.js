// A web build of the engine (build-web/site/divercite-engine*.js) loaded under node, as the
// browser's worker loads it: shared by node_run.js (lines given as arguments) and
// node_protocol.js (lines read from standard input).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

// Loads the engine of `script` (its .wasm beside it); each line it prints goes to `onLine`;
// each host file of `files` is copied into the engine's memory file system at the same path
// (what it may open: EvalFile's weights). Resolves with send(line), which hands one protocol
// line to the engine.
async function loadEngine(script, onLine, files = []) {
  const file = path.resolve(script);
  // The build's own loader fetches the wasm file with fetch(), which node cannot do from a
  // path: hand it the bytes.
  const factory = require(file);
  const engine = await factory({
    wasmBinary: fs.readFileSync(file.replace(/\.js$/, '.wasm')),
    arguments: [`--hardware-threads=${os.cpus().length}`],
    print: onLine,
    printErr: (line) => process.stderr.write(`${line}\n`),
  });
  for (const file of files) {
    const where = path.resolve(file);
    engine.FS.mkdirTree(path.dirname(where));
    engine.FS.writeFile(where, fs.readFileSync(where));
  }
  return (line) => {
    const text = engine.allocateUTF8(line);
    try {
      engine._divercite_command(text);
    } finally {
      engine._free(text);
    }
  };
}

module.exports = { loadEngine };
