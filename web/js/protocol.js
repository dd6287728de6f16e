// The engine protocol's lines as data, for the page: `option` lines and `info` lines, read as
// the Python client reads them (python/divercite/_protocol.py) and the native tools do.

const INFO_INTEGERS = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'hashfull',
  'time', 'tbhits', 'currmovenumber']);
const OPTION_KEYWORDS = new Set(['name', 'type', 'default', 'min', 'max', 'var']);

const isInteger = (word) => /^[+-]?\d+$/.test(word);

// An `info ...` line: depth, seldepth, multipv, nodes, nps, hashfull, time (ms) as numbers;
// `score` (centipoints, the side to move's view) with `bound` ("exact", "lower", "upper");
// `pv` (the moves, the rest of the line); `string` (the rest of the line).
export function parseInfo(line) {
  const words = line.trim().split(/\s+/);
  const info = {};
  for (let i = 1; i < words.length;) {
    const word = words[i];
    if (word === 'string') {
      info.string = line.slice(line.indexOf('string') + 'string'.length).trim();
      break;
    }
    if (word === 'pv') {
      info.pv = words.slice(i + 1);
      break;
    }
    if (INFO_INTEGERS.has(word) && isInteger(words[i + 1] ?? '')) {
      info[word] = Number(words[i + 1]);
      i += 2;
      continue;
    }
    if (word === 'score' && words[i + 1] === 'cp' && isInteger(words[i + 2] ?? '')) {
      info.score = Number(words[i + 2]);
      info.bound = 'exact';
      i += 3;
      if (words[i] === 'lowerbound' || words[i] === 'upperbound') {
        info.bound = words[i].slice(0, 5);
        i += 1;
      }
      continue;
    }
    i += 1;
  }
  return info;
}

// An `option name N type T [default D] [min A max B] [var V]...` line as
// {name, type, default, min, max, vars}; null for any other line.
export function parseOption(line) {
  const words = line.trim().split(/\s+/);
  if (words.length < 3 || words[0] !== 'option' || words[1] !== 'name') return null;
  const fields = {};
  const vars = [];
  let key = null;
  for (const word of words.slice(1)) {
    if (OPTION_KEYWORDS.has(word) && (key !== 'name' || word === 'type')) {
      key = word;
      if (key === 'var') vars.push([]);
      else fields[key] = [];
    } else if (key === 'var') {
      vars[vars.length - 1].push(word);
    } else if (key !== null) {
      fields[key].push(word);
    }
  }
  const text = (k) => (k in fields ? fields[k].join(' ') : null);
  const number = (k) => (isInteger(text(k) ?? '') ? Number(text(k)) : null);
  if (!text('name')) return null;
  return {
    name: text('name'), type: text('type') ?? '', default: text('default'),
    min: number('min'), max: number('max'), vars: vars.map((v) => v.join(' ')),
  };
}

// The `go` command for limits {depth, nodes, movetime, wtime, btime, winc, binc, infinite,
// prove}; an Error for a value that is not a whole number from 0 up or for no limit at all.
export function goCommand(limits = {}) {
  const go = ['go'];
  const known = ['wtime', 'btime', 'winc', 'binc', 'movetime', 'depth', 'nodes'];
  for (const key of Object.keys(limits)) {
    if (![...known, 'infinite', 'prove'].includes(key)) {
      throw new Error(`unknown limit '${key}' (${known.join(', ')}, infinite, prove)`);
    }
  }
  for (const key of known) {
    const value = limits[key];
    if (value === undefined || value === null) continue;
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`${key}=${JSON.stringify(value)}: a whole number from 0 up`);
    }
    go.push(key, String(value));
  }
  if (limits.prove) go.push('prove');
  if (limits.infinite) go.push('infinite');
  if (go.length === 1) {
    throw new Error('give a limit: depth, nodes, movetime, wtime/btime, prove or infinite');
  }
  return go.join(' ');
}
