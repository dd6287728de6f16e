#!/usr/bin/env node
// A web build of the engine as an engine of our protocol on standard input and output, under
// node (whose V8 is Chromium's): what the browser runs, played by the match runner or any tool
// that drives an engine, line for line as the native `divercite`.
//
//   build/bin/divercite-match -engine cmd=node arg=tools/web/node_protocol.js \
//       arg=build-web/site/divercite-engine-st.js name=wasm \
//     -engine cmd=build/bin/divercite name=native -each tc=10+0.1 -games 20 -repeat
//
// The single-threaded build (divercite-engine-st.js) searches in the event loop's turns: a
// line read during a search (`stop`, `isready`) reaches it at the search's next pause, as in
// the browser's worker. `quit`, or the end of the input, ends the process once the lines
// before it are answered (the threaded build handles them on a thread of its own).
//
// --file=PATH (any number): a host file the engine may open, copied into its memory file
// system at the same (absolute) path, as a page would hand it one: `--file=w.net` then
// `setoption name EvalFile value /abs/path/w.net`.
'use strict';

const readline = require('readline');
const { loadEngine } = require('./node_engine.js');

async function main() {
  const args = process.argv.slice(2);
  const files = [];
  while (args.length > 0 && args[0].startsWith('--file=')) files.push(args.shift().slice(7));
  if (args.length !== 1 || args[0].startsWith('-')) {
    process.stderr.write('usage: node node_protocol.js [--file=PATH]... ENGINE.js\n');
    process.exit(2);
  }
  // The isready lines not answered yet: at the end, one more, and the process waits for
  // them all (the answers to every line before it).
  let unanswered = 0;
  let allAnswered = null;
  const send = await loadEngine(args[0], (line) => {
    process.stdout.write(`${line}\n`);
    if (line === 'readyok' && --unanswered === 0 && allAnswered) allAnswered();
  }, files);
  const sendLine = (line) => {
    if (line.trim() === 'isready') ++unanswered;
    send(line);
  };
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of input) {
    if (line.trim() === 'quit') break;
    sendLine(line);
  }
  await new Promise((resolve) => {
    allAnswered = resolve;
    sendLine('stop');
    sendLine('isready');
  });
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`node_protocol.js: ${error && error.stack ? error.stack : error}\n`);
  process.exit(2);
});
