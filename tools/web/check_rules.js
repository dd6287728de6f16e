#!/usr/bin/env node
// ctest web_rules: the site's rules module (divercite-rules.js) against the course code's
// reference games: every game replayed move by move gives the recorded scores and the final
// result; where the last move's tie-break applied, its explanation adds up to the final
// scores; errors name the bad move; divercite_move_reason accepts and refuses as the rules do.
//
//   node tools/web/check_rules.js SITE_DIR REFERENCE_GAMES_JSONL
'use strict';

const fs = require('fs');
const path = require('path');

const [site, gamesFile] = process.argv.slice(2);
if (!site || !gamesFile) {
  process.stderr.write('usage: node check_rules.js SITE_DIR REFERENCE_GAMES_JSONL\n');
  process.exit(2);
}
let failures = 0;
function check(condition, what) {
  if (!condition) {
    ++failures;
    process.stdout.write(`FAIL ${what}\n`);
  }
  return condition;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function main() {
  const script = path.resolve(site, 'divercite-rules.js');
  const rules = await require(script)({wasmBinary: fs.readFileSync(script.replace(/\.js$/, '.wasm'))});
  const state = (start, moves) =>
    JSON.parse(rules.ccall('divercite_state', 'string', ['string', 'string'], [start, moves]));
  const reason = (fen, move) =>
    rules.ccall('divercite_move_reason', 'string', ['string', 'string'], [fen, move]);

  const start = state('startpos', '');
  check(start.ok && start.fen === '1/3/5/7/9/7/5/3/1 w' && start.ply === 0 &&
    start.side === 'first' && same(start.scores, [0, 0]) && start.result === '*' &&
    start.legal.length === 164 && start.tiebreak === null && same(start.moves, []) &&
    same(start.supply.first.city, {R: 2, G: 2, B: 2, Y: 2}) &&
    same(start.supply.second.resource, {R: 3, G: 3, B: 3, Y: 3}),
  `the start: ${JSON.stringify(start).slice(0, 300)}`);

  const games = fs.readFileSync(gamesFile, 'utf8').split('\n').filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  let tiebreaks = 0;
  for (const game of games) {
    for (let k = 0; k < game.moves.length; ++k) {
      const s = state('startpos', game.moves.slice(0, k + 1).join(' '));
      if (!check(s.ok && same(s.scores, game.scores[k]) && s.ply === k + 1,
        `game ${game.seed} after move ${k + 1}: ${JSON.stringify(s.scores)} ` +
        `(reference ${JSON.stringify(game.scores[k])})`)) break;
    }
    const end = state('startpos', game.moves.join(' '));
    const result = end.scores[0] > end.scores[1] ? '1-0' : end.scores[0] < end.scores[1] ? '0-1' :
      '1/2-1/2';
    check(end.ok && same(end.scores, game.final) && end.result === result &&
      same(end.legal, []) && same(end.moves, game.moves),
    `game ${game.seed}: final ${JSON.stringify(end.scores)} ${end.result}, reference ` +
      `${JSON.stringify(game.final)}`);
    if (end.tiebreak !== null) {
      ++tiebreaks;
      const scores = [...end.tiebreak.before];
      for (const step of end.tiebreak.steps) {
        if (step.point !== null) ++scores[step.point === 'first' ? 0 : 1];
      }
      const last = end.tiebreak.steps[end.tiebreak.steps.length - 1];
      check(end.tiebreak.before[0] === end.tiebreak.before[1] && same(scores, end.scores) &&
        last.point !== null,
      `game ${game.seed}: the tie-break ${JSON.stringify(end.tiebreak)} gives ` +
        `${JSON.stringify(end.scores)}`);
    }
    const again = state(end.fen, '');
    check(again.ok && same(again.scores, end.scores) && again.fen === end.fen &&
      same(again.tiebreak, end.tiebreak), `game ${game.seed}: its final position string`);
  }

  const bad = state('startpos', 'RC14 GR04 RC14');
  check(!bad.ok && bad.at === 2 && /^move 3 of 3: .*occupied/.test(bad.error),
    `an illegal third move: ${JSON.stringify(bad)}`);
  const malformed = state('startpos', 'RC14 XX99');
  check(!malformed.ok && malformed.at === 1 && /^move 2 of 2: /.test(malformed.error),
    `a malformed second move: ${JSON.stringify(malformed)}`);
  const badStart = state('1/3/5 w', '');
  check(!badStart.ok && badStart.at === null && badStart.error !== '',
    `a malformed position string: ${JSON.stringify(badStart)}`);
  check(reason('startpos', 'RC14') === '', 'RC14 is legal at the start');
  const after = state('startpos', 'RC14').fen;
  check(/occupied/.test(reason(after, 'GC14')), `GC14 after RC14: ${reason(after, 'GC14')}`);
  check(reason('startpos', 'RC99') !== '', `RC99: ${reason('startpos', 'RC99')}`);
  check(/^position: /.test(reason('nonsense', 'RC14')), `a bad position: ${reason('nonsense', 'RC14')}`);

  process.stdout.write(`${games.length} reference games replayed (${tiebreaks} with the ` +
    `tie-break); ${failures === 0 ? 'all checks passed' : `${failures} check(s) failed`}\n`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`check_rules.js: ${error && error.stack ? error.stack : error}\n`);
  process.exit(2);
});
