#!/usr/bin/env node
// Runs a web build of the engine under node, as the browser's worker does: each argument is a
// protocol line handed to divercite_command() in order (`sleep:MS` waits MS milliseconds
// first), and the engine's lines are printed as they come. It ends once every line was
// answered: after a last `isready` its `readyok`, and a `bestmove` for every `go` (so a
// `go infinite` needs its `stop` among the arguments).
//
//   node tools/web/node_run.js build-web/site/divercite-engine.js bench
//   node tools/web/node_run.js build-web/site/divercite-engine-st.js 'go infinite' sleep:500 stop
//
// Exit status: 0, or 1 if the engine sent an `info string error` line (as the native
// `divercite COMMAND` does), 2 if it could not be loaded or did not finish within
// --timeout=SECONDS (default 600).
'use strict';

const { loadEngine } = require('./node_engine.js');

function usage(message) {
  process.stderr.write(`node_run.js: ${message}\n` +
    'usage: node node_run.js [--timeout=SECONDS] ENGINE.js [LINE | sleep:MS]...\n');
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  let timeoutSeconds = 600;
  while (args.length > 0 && args[0].startsWith('--')) {
    const option = args.shift();
    const match = /^--timeout=(\d+)$/.exec(option);
    if (!match) usage(`unknown option '${option}'`);
    timeoutSeconds = Number(match[1]);
  }
  if (args.length === 0) usage('no engine given');
  const script = args.shift();
  const lines = args;

  let errors = 0;
  let bestmovesDue = 0;
  let readyDue = true;
  let sentAll = false;  // then the `readyok` that counts is the last `isready`'s
  let finish = null;
  const finished = new Promise((resolve) => { finish = resolve; });
  const checkDone = () => {
    if (!readyDue && bestmovesDue <= 0) finish();
  };
  const onLine = (line) => {
    process.stdout.write(`${line}\n`);
    if (line.startsWith('info string error')) {
      ++errors;
      // A refused `go` sends no bestmove.
      if (/^info string error: go\b/.test(line)) --bestmovesDue;
    } else if (line.startsWith('bestmove')) {
      --bestmovesDue;
    } else if (line === 'readyok' && sentAll) {
      readyDue = false;
    }
    checkDone();
  };

  const timer = setTimeout(() => {
    process.stderr.write(`node_run.js: no answer to all lines within ${timeoutSeconds} s\n`);
    process.exit(2);
  }, timeoutSeconds * 1000);

  const send = await loadEngine(script, onLine);
  for (const line of lines) {
    const sleep = /^sleep:(\d+)$/.exec(line);
    if (sleep) {
      await new Promise((resolve) => setTimeout(resolve, Number(sleep[1])));
      continue;
    }
    if (/^go\b/.test(line) && !/^go\s+perft\b/.test(line)) ++bestmovesDue;
    send(line);
  }
  sentAll = true;
  send('isready');
  await finished;
  clearTimeout(timer);
  process.exit(errors > 0 ? 1 : 0);
}

main().catch((error) => {
  process.stderr.write(`node_run.js: ${error && error.stack ? error.stack : error}\n`);
  process.exit(2);
});
