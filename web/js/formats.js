// Games in and out of the page: a move list, a position string, a line of our records
// (`divercite-match -records`), a line of `divercite-analyze --json`, and the course's
// recordings (`__REC__*.json`, a JSON array of its master's states). Reading gives
// {start, moves, names, values, label}: `values` the analysis's value before each move
// (centipoints, the mover's view) where the text has them. Every game is checked by the rules.

const MOVE = /^[RGBY][CR][0-8][0-8]$/;
const POSITION = /^[0-9RGBYrgby]+(\/[0-9RGBYrgby]+){8} [wb]$/;
const COLOURS = ['R', 'G', 'B', 'Y'];
const RECORDING_IDS = [1, 2];
const PIECE_TYPES = ['W', 'B'];

export class FormatError extends Error {}

const isMove = (text) => MOVE.test(text);
const isPositionString = (text) => POSITION.test(text.trim().replace(/\s+/g, ' '));

// The games a text holds (one, or one a line of a records file), each checked by `rules`.
export function readGames(text, rules) {
  const trimmed = text.trim();
  if (!trimmed) throw new FormatError('nothing to load: the text is empty');
  let games;
  if (trimmed.startsWith('[')) {
    games = [readCourseRecording(parseJson(trimmed, 'a course recording'), rules)];
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

// The course's recording: its states from the empty board, one piece more each; the moves
// read from the boards' differences, each state's scores checked against the rules.
export function readCourseRecording(states, rules) {
  if (!Array.isArray(states) || !states.length) {
    throw new FormatError('a course recording is a non-empty JSON array of game states');
  }
  const players = states[0]?.players ?? [];
  const sideOfId = {};
  const names = ['first', 'second'];
  for (const player of players) {
    const side = PIECE_TYPES.indexOf(player?.piece_type);
    if (side >= 0) {
      sideOfId[String(player.id)] = side;
      names[side] = String(player.name ?? names[side]);
    }
  }
  if (Object.values(sideOfId).sort().join() !== '0,1') {
    throw new FormatError('state 0: expected two players with ids and piece types W and B');
  }
  const moves = [];
  let board = {};
  states.forEach((state, k) => {
    const env = state?.rep?.env;
    if (typeof env !== 'object' || env === null) {
      throw new FormatError(`state ${k}: no board ('rep' with 'env')`);
    }
    const now = {};
    for (const [key, piece] of Object.entries(env)) {
      // The course reads its keys with eval(): "(1,4)" is "(1, 4)".
      const cell = key.match(/^\(\s*(\d)\s*,\s*(\d)\s*\)$/);
      if (!cell) throw new FormatError(`state ${k}: board key '${key}' is not '(row, col)'`);
      now[cell[1] + cell[2]] = String(piece?.piece_type ?? '');
    }
    const added = Object.keys(now).filter((cell) => !(cell in board));
    if (Object.entries(board).some(([cell, piece]) => now[cell] !== piece)) {
      throw new FormatError(`state ${k}: a piece changed or disappeared`);
    }
    if (added.length !== (k === 0 ? 0 : 1)) {
      throw new FormatError(`state ${k}: ${added.length} pieces appeared, expected ` +
        `${k === 0 ? 0 : 1}`);
    }
    for (const cell of added) moves.push(now[cell].slice(0, 2) + cell);
    board = now;
    let position;
    try {
      position = rules.state('startpos', moves);
    } catch (error) {
      throw new FormatError(`state ${k}: ${error.message}`);
    }
    if (added.length && now[added[0]][2] !== PIECE_TYPES[position.side === 'first' ? 1 : 0]) {
      throw new FormatError(`state ${k}: ${moves[moves.length - 1]} played by the player ` +
        'not to move');
    }
    const recorded = [null, null];
    for (const [id, value] of Object.entries(state.scores ?? {})) {
      if (id in sideOfId) recorded[sideOfId[id]] = value;
    }
    if (recorded[0] !== position.scores[0] || recorded[1] !== position.scores[1]) {
      throw new FormatError(`state ${k}: the recording's scores ${JSON.stringify(recorded)}, ` +
        `the rules' ${JSON.stringify(position.scores)}`);
    }
  });
  return { start: 'startpos', moves, names, label: 'a course recording' };
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

// The course recording of a game from the empty board (the states its master records):
// the course's GUI replays it with "Load JSON".
export function courseRecording(moves, rules, names = ['first', 'second']) {
  const players = [0, 1].map((p) => ({
    name: names[p], id: RECORDING_IDS[p], piece_type: PIECE_TYPES[p],
  }));
  const states = [];
  for (let k = 0; k <= moves.length; k += 1) {
    const state = rules.state('startpos', moves.slice(0, k));
    const env = {};
    const placed = moves.slice(0, k).map((move, ply) => [move, ply % 2])
      .sort((a, b) => a[0].slice(2).localeCompare(b[0].slice(2)));
    for (const [move, side] of placed) {
      env[`(${move[2]}, ${move[3]})`] = {
        piece_type: move.slice(0, 2) + PIECE_TYPES[side], owner_id: RECORDING_IDS[side],
      };
    }
    const left = (side) => Object.fromEntries(COLOURS.flatMap((c) => [
      [`${c}C`, state.supply[side].city[c]], [`${c}R`, state.supply[side].resource[c]]]));
    states.push({
      scores: { 1: state.scores[0], 2: state.scores[1] },
      next_player: players[state.side === 'first' ? 0 : 1],
      players,
      rep: { env, dim: [9, 9] },
      max_step: 40,
      step: k,
      players_pieces_left: { 1: left('first'), 2: left('second') },
    });
  }
  return states;
}
