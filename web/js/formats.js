// Games in and out of the page: a move list, a position string, a line of our records
// (`divercite-match -records`), a line of `divercite-analyze --json`, and the course's
// recordings (`__REC__*.json`, a JSON array of its master's states). Reading gives
// {start, moves, names, values, label}: `values` the analysis's value before each move
// (centipoints, the mover's view) where the text has them. Every game is checked by the rules.

const MOVE = /^[RGBY][CR][0-8][0-8]$/;
const POSITION = /^[0-9RGBYrgby]+(\/[0-9RGBYrgby]+){8} [wb]$/;

export class FormatError extends Error {}

const isMove = (text) => MOVE.test(text);
const isPositionString = (text) => POSITION.test(text.trim().replace(/\s+/g, ' '));

// The games a text holds (one, or one a line of a records file), each checked by `rules`.
export function readGames(text, rules) {
  const trimmed = text.trim();
  if (!trimmed) throw new FormatError('nothing to load: the text is empty');
  let games;
  if (trimmed.startsWith('[')) {
    games = [readCourseRecording(trimmed, rules)];
  } else if (trimmed.startsWith('{')) {
    games = trimmed.split('\n').map((line, k) => [line.trim(), k + 1])
      .filter(([line]) => line)
      .map(([line, number]) => readRecordLine(parseJson(line, `line ${number}`), number));
  } else if (isPositionString(trimmed)) {
    games = [{ start: trimmed.replace(/\s+/g, ' '), moves: [], label: 'a position' }];
  } else {
    games = [readMoveList(trimmed)];
  }
  for (const game of games) check(game, rules);
  return games;
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FormatError(`${what} is not JSON (${error.message})`);
  }
}

// "RC14 GR04 ...", commas or new lines between moves also taken; a position string may come
// first ("<rows> <side> moves ...").
function readMoveList(text) {
  let rest = text;
  let start = 'startpos';
  const lead = text.match(/^([0-9RGBYrgby/]+\s+[wb])(\s+moves)?\s+/);
  if (lead && isPositionString(lead[1])) {
    start = lead[1].replace(/\s+/g, ' ');
    rest = text.slice(lead[0].length);
  }
  const words = rest.split(/[\s,;]+/).filter(Boolean);
  const bad = words.findIndex((word) => !isMove(word.toUpperCase()));
  if (bad >= 0) {
    throw new FormatError(`'${words[bad].slice(0, 40)}' (word ${bad + 1}) is neither a move ` +
      '(colour R G B Y, kind C or R, row, column: RC14) nor a position string, a records ' +
      'line, an analysis line or a course recording');
  }
  return { start, moves: words.map((word) => word.toUpperCase()), label: 'a move list' };
}

function startOf(record, number) {
  const start = record.start ?? 'startpos';
  if (start === 'startpos') return 'startpos';
  if (typeof start === 'string' && start.startsWith('fen ')) return start.slice(4);
  throw new FormatError(`line ${number}: its start '${String(start).slice(0, 60)}' is ` +
    "neither 'startpos' nor 'fen <position string>'");
}

function moveTexts(list, number) {
  if (!Array.isArray(list)) throw new FormatError(`line ${number}: 'moves' is not a list`);
  return list.map((entry, k) => {
    const move = typeof entry === 'string' ? entry : entry?.move;
    if (typeof move !== 'string') {
      throw new FormatError(`line ${number}: move ${k + 1} has no 'move'`);
    }
    return move;
  });
}

// A line of `divercite-match -records` (its opening's moves, then the moves played) or of
// `divercite-analyze --json` (told apart by its `settings` or `summary`).
function readRecordLine(record, number) {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new FormatError(`line ${number}: not a JSON object`);
  }
  if (!('moves' in record)) throw new FormatError(`line ${number}: no 'moves'`);
  const analysis = 'settings' in record || 'summary' in record;
  const opening = !analysis && typeof record.opening === 'string'
    ? record.opening.split(/\s+/).filter(Boolean) : [];
  const played = moveTexts(record.moves, number);
  const game = {
    start: startOf(record, number),
    moves: [...opening, ...played],
    names: [record.p1 ?? 'first', record.p2 ?? 'second'],
    label: `${analysis ? 'analysis' : 'game'} ${record.game ?? number}`,
    result: record.result ?? null,
  };
  if (analysis) {
    game.values = record.moves.map((move) => (typeof move.value === 'number' ? move.value : null));
  }
  return game;
}

// The course's recording (its states from the empty board, one piece more each), read by the
// rules module's reader: every state's scores checked against the rules.
export function readCourseRecording(text, rules) {
  let game;
  try {
    game = rules.readCourseRecording(text);
  } catch (error) {
    throw new FormatError(`a course recording: ${error.message}`);
  }
  return { start: 'startpos', moves: game.moves, names: game.names, label: 'a course recording' };
}

function check(game, rules) {
  try {
    rules.state(game.start, game.moves);
  } catch (error) {
    throw new FormatError(`${game.label}: ${error.message}`);
  }
}

// The moves as text, one space between.
export const moveListText = (moves) => moves.join(' ');

// The course recording of a game from the empty board (the states its master records), as
// text: the course's GUI replays it with "Load JSON".
export function courseRecording(moves, rules, names = ['first', 'second']) {
  return JSON.stringify(rules.courseRecording(moves, names));
}
