// The page's readers (web/js/formats.js, over the site's rules module) read the course's
// recordings and the records lines every reader must read alike (tests/data/recordings.json,
// tests/data/records.json): the same players and moves (for records, also the start, the
// result and the final scores) from those read, an error for those refused (for recordings,
// naming the state). The C++ and Python readers read the same files (tests/analysis_test.cc,
// tests/records_test.cc, tests/python/test_course.py, tests/python/test_records.py).
//
// The course recordings the page writes (the rules module's writer) read back whole.
//
//   node tests/web/formats_js_test.mjs SITE_DIR REFERENCE_GAMES_JSONL
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  FormatError, courseRecording, readCourseRecording, readGames,
} from '../../web/js/formats.js';
import { Rules } from '../../web/js/rules.js';

const [site, reference] = process.argv.slice(2);
if (!site || !reference) {
  process.stderr.write('usage: node formats_js_test.mjs SITE_DIR REFERENCE_GAMES_JSONL\n');
  process.exit(2);
}
const data = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');
let failures = 0;

function check(condition, what) {
  if (!condition) {
    failures += 1;
    process.stdout.write(`FAIL ${what}\n`);
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// What a reader makes of its input: the game, or the words of its refusal (a FormatError).
function attempt(read) {
  try {
    return { game: read(), refusal: null };
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    return { game: null, refusal: error.message };
  }
}

const script = resolve(site, 'divercite-rules.js');
const factory = createRequire(import.meta.url)(script);
const rules = new Rules(await factory({ wasmBinary: readFileSync(script.replace(/\.js$/, '.wasm')) }));

const { recordings } = JSON.parse(readFileSync(join(data, 'recordings.json'), 'utf8'));
for (const expected of recordings) {
  const name = expected.file;
  const text = readFileSync(join(data, 'recordings', name), 'utf8');
  const { game, refusal } = attempt(() => readCourseRecording(text, rules));
  if (expected.moves) {
    check(game !== null, `${name}: refused (${refusal}), but the others read it`);
    if (game === null) continue;
    check(same(game.moves, expected.moves), `${name}: moves ${game.moves.join(' ')}`);
    check(same(game.names, expected.names), `${name}: names ${JSON.stringify(game.names)}`);
  } else {
    check(refusal !== null, `${name}: read, but ${expected.why}`);
    if (refusal !== null && expected.refused_at) {
      check(refusal.includes(`${expected.refused_at}: `),
        `${name}: refused with '${refusal}', which names no ${expected.refused_at}`);
    }
  }
}
check(recordings.length >= 8, `only ${recordings.length} recordings`);

// The recording the page saves (the rules module's writer, Python's too) reads back whole:
// the reference games, the names with characters JSON escapes and beyond ASCII.
const games = readFileSync(reference, 'utf8').trim().split('\n').slice(0, 4)
  .map((line) => JSON.parse(line).moves);
for (const [k, moves] of games.entries()) {
  const names = ['élan', 'b "2"'];
  const { game, refusal } = attempt(() => readCourseRecording(
    courseRecording(moves, rules, names), rules));
  check(game !== null, `reference game ${k}: its recording refused (${refusal})`);
  if (game === null) continue;
  check(same(game.moves, moves), `reference game ${k}: moves read back ${game.moves.join(' ')}`);
  check(same(game.names, names), `reference game ${k}: names read back ${game.names}`);
}
check(games.length === 4, `only ${games.length} reference games`);
let written = null;
try {
  written = courseRecording(['RC14', 'RC14'], rules);
} catch (error) {
  check(error.message.startsWith('move 2 of 2: '), `an illegal move's error: ${error.message}`);
}
check(written === null, 'a recording written with an illegal move');

const { records } = JSON.parse(readFileSync(join(data, 'records.json'), 'utf8'));
for (const expected of records) {
  const name = expected.name;
  const { game, refusal } = attempt(() => readGames(expected.line, rules)[0]);
  if (!expected.moves) {
    check(refusal !== null, `${name}: read, but ${expected.why}`);
    continue;
  }
  check(game !== null, `${name}: refused (${refusal}), but the others read it`);
  if (game === null) continue;
  check(same(game.names, expected.names), `${name}: names ${JSON.stringify(game.names)}`);
  check((game.start === 'startpos' ? game.start : `fen ${game.start}`) === expected.start,
    `${name}: start ${game.start}`);
  check(same(game.moves, expected.moves), `${name}: moves ${game.moves.join(' ')}`);
  check(game.result === expected.result, `${name}: result ${game.result}`);
  const { scores } = rules.state(game.start, game.moves);
  check(same(scores, expected.scores), `${name}: scores ${JSON.stringify(scores)}`);
}
check(records.length >= 13, `only ${records.length} records lines`);
process.stdout.write(`${recordings.length} recordings, ${records.length} records lines, ` +
  `${failures} failures\n`);
process.exit(failures ? 1 : 0);
