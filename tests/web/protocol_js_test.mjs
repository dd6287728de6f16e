// The page's parser (web/js/protocol.js) reads the protocol's transcripts as
// tests/data/protocol_readings.json says: every option line of docs/protocol.md through
// parseOption, and each search's final report through parseInfo (its score, bound and pv per
// line; which line an `info string exact` or `proven` belongs to is web/js/engine.js's
// search(), inside its I/O, and not checked here). The C++ and Python clients read the same
// file (tests/protocol_client_test.cc, tests/python/test_protocol_client.py).
//
//   node tests/web/protocol_js_test.mjs
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseInfo, parseOption } from '../../web/js/protocol.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ANY_LINES = '...';
const ERROR = 'info string error:';
let failures = 0;

function check(condition, what) {
  if (!condition) {
    failures += 1;
    process.stdout.write(`FAIL ${what}\n`);
  }
}

// Every ```transcript NAME TAG...``` block: {name, exchanges: [{command, expected}]}.
function readTranscripts(text) {
  const transcripts = [];
  let current = null;
  for (const line of text.split('\n')) {
    if (current === null) {
      const words = line.split(' ');
      if (words[0] === '```transcript') current = { name: words[1], exchanges: [] };
    } else if (line === '```') {
      transcripts.push(current);
      current = null;
    } else if (line.startsWith('> ')) {
      current.exchanges.push({ command: line.slice(2), expected: [] });
    } else if (line === '<' || line.startsWith('< ')) {
      current.exchanges[current.exchanges.length - 1].expected.push(line.slice(2));
    }
  }
  return transcripts;
}

// Each search's lines as the file's "Reading a transcript" walks them, then its final
// report's score lines read by parseInfo: [{bestmove, lines: [{score, bound?, pv}]}].
function readings(transcript) {
  const found = [];
  let open = null;
  const close = (bestmove) => {
    const byRank = new Map();
    for (const line of open) {
      if (!line.startsWith('info ') || !/ score /.test(line)) continue;
      const info = parseInfo(line);
      byRank.set(info.multipv ?? 1, info);
    }
    const lines = [...byRank.entries()].sort((a, b) => a[0] - b[0]).map(([, info]) => {
      const read = { score: info.score };
      if (info.bound !== 'exact') read.bound = info.bound;
      read.pv = (info.pv ?? []).join(' ');
      return read;
    });
    found.push({ bestmove, lines });
    open = null;
  };
  for (const { command, expected } of transcript.exchanges) {
    const opens = open === null && command.startsWith('go') && !command.startsWith('go perft');
    if (opens) open = [];
    if (open === null) continue;
    let refused = false;
    for (const line of expected) {
      if (line === ANY_LINES || open === null) continue;
      refused = refused || line.startsWith(ERROR);
      open.push(line);
      if (line.startsWith('bestmove')) close(line.split(' ')[1] ?? null);
    }
    const goesOn = expected.length > 0 && expected.every((line) => line === ANY_LINES);
    if (opens && open !== null && refused && !goesOn) {
      close(null);
    }
  }
  return found;
}

// A reading of the file, less what the page's parser does not read (exact, proven, error).
function parserPart(reading) {
  return {
    bestmove: reading.bestmove,
    lines: reading.lines.map(({ score, bound, pv }) => ({ score, ...(bound ? { bound } : {}), pv })),
  };
}

const transcripts = readTranscripts(readFileSync(join(repo, 'docs', 'protocol.md'), 'utf8'));
const expected = JSON.parse(readFileSync(join(repo, 'tests', 'data', 'protocol_readings.json'),
  'utf8'));
check(transcripts.length >= 15, `${transcripts.length} transcripts in docs/protocol.md`);

let searches = 0;
for (const transcript of transcripts) {
  const read = readings(transcript);
  const want = (expected.searches[transcript.name] ?? []).map(parserPart);
  searches += read.length;
  check(JSON.stringify(read) === JSON.stringify(want),
    `searches of ${transcript.name}: read ${JSON.stringify(read)}, expected ${JSON.stringify(want)}`);

  const options = transcript.exchanges.flatMap(({ expected: lines }) => lines)
    .map(parseOption).filter((option) => option !== null)
    .map((o) => ({
      name: o.name, type: o.type, default: o.default,
      ...(o.type === 'spin' ? { min: o.min, max: o.max } : {}),
      ...(o.vars.length ? { var: o.vars } : {}),
    }));
  const wantOptions = expected.options[transcript.name] ?? [];
  check(JSON.stringify(options) === JSON.stringify(wantOptions),
    `options of ${transcript.name}: read ${JSON.stringify(options)}`);
}
check(searches === Object.values(expected.searches).flat().length,
  `${searches} searches read, as many as the readings`);
process.stdout.write(`${transcripts.length} transcripts, ${searches} searches: ` +
  `${failures ? `${failures} failures` : 'all read as the readings say'}\n`);
process.exit(failures ? 1 : 0);
