#!/usr/bin/env node
// ctest web_bench_signature: the site's two wasm engines against the native one.
//   - `bench` gives the native engine's node count, in both builds (the search's signature);
//   - Hash above its maximum (what wasm's memory allows) is refused with an error line, and
//     at its maximum it is taken and a `go depth 4` still finds a move;
//   - `stop` ends `go infinite`; the threaded build searches with Threads 2.
// Prints the nodes per second of each, measured in this run.
//
//   node tools/web/check_engines.js SITE_DIR NATIVE_DIVERCITE
'use strict';

const {execFileSync, spawnSync} = require('child_process');
const path = require('path');

const [site, native] = process.argv.slice(2);
if (!site || !native) {
  process.stderr.write('usage: node check_engines.js SITE_DIR NATIVE_DIVERCITE\n');
  process.exit(2);
}
const runner = path.join(__dirname, 'node_run.js');
let failures = 0;

function check(condition, what) {
  process.stdout.write(`${condition ? 'ok  ' : 'FAIL'} ${what}\n`);
  if (!condition) ++failures;
}

// The engine's lines for these protocol lines (node_run.js), whatever its exit status.
function run(engine, lines) {
  const result = spawnSync(process.execPath, [runner, '--timeout=300', engine, ...lines],
    {encoding: 'utf8', maxBuffer: 64 << 20});
  if (result.status === 2 || result.error) {
    throw new Error(`${path.basename(engine)} ${lines.join(' | ')}: ` +
      `${result.error || result.stderr}`);
  }
  return result.stdout.split('\n');
}

function benchFigures(lines) {
  const number = (prefix) => {
    const line = lines.find((l) => l.startsWith(prefix));
    return line === undefined ? NaN : Number(line.slice(prefix.length));
  };
  return {nodes: number('Nodes searched: '), nps: number('Nodes/second: ')};
}

const nativeBench = benchFigures(execFileSync(native, ['bench'], {encoding: 'utf8'}).split('\n'));
process.stdout.write(`native: ${nativeBench.nodes} nodes, ${nativeBench.nps} nodes/s\n`);
check(Number.isInteger(nativeBench.nodes), 'native divercite bench prints its node count');

for (const [name, threaded] of [['divercite-engine.js', true], ['divercite-engine-st.js', false]]) {
  const engine = path.join(site, name);
  const bench = benchFigures(run(engine, ['bench']));
  process.stdout.write(`${name}: ${bench.nodes} nodes, ${bench.nps} nodes/s\n`);
  check(bench.nodes === nativeBench.nodes, `${name} bench: ${bench.nodes} nodes, as native`);

  const uci = run(engine, ['uci']);
  const hash = /^option name Hash type spin default \d+ min 1 max (\d+)$/
    .exec(uci.find((l) => l.startsWith('option name Hash')) || '');
  check(hash !== null, `${name} lists the Hash option with its maximum`);
  if (hash === null) continue;
  const max = Number(hash[1]);
  const over = run(engine, [`setoption name Hash value ${max + 1}`]);
  check(over.some((l) => l.startsWith(`info string error: setoption: Hash must be an ` +
    `integer from 1 to ${max}`)), `${name}: Hash ${max + 1} refused with an error line`);
  const atMax = run(engine, [`setoption name Hash value ${max}`, 'go depth 4']);
  check(!atMax.some((l) => l.startsWith('info string error')) &&
    atMax.some((l) => /^bestmove [RGBY][CR]\d\d$/.test(l)),
  `${name}: Hash ${max} taken, go depth 4 finds a move`);

  const stopped = run(engine, ['go infinite', 'sleep:300', 'stop']);
  check(stopped.some((l) => l.startsWith('bestmove')), `${name}: stop ends go infinite`);

  const threads = uci.find((l) => l.startsWith('option name Threads')) || '';
  if (threaded) {
    const two = run(engine, ['setoption name Threads value 2', 'go depth 7']);
    check(!two.some((l) => l.startsWith('info string error')) &&
      two.some((l) => l.startsWith('bestmove')), `${name}: Threads 2, go depth 7`);
  } else {
    check(/ max 1$/.test(threads), `${name}: Threads at most 1 (${threads})`);
  }
}

process.stdout.write(failures === 0 ? 'all checks passed\n' : `${failures} check(s) failed\n`);
process.exit(failures === 0 ? 0 : 1);
