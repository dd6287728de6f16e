// The page: play the engine, analyse, load and save games. It wires the board (board.js),
// the rules module (rules.js), the engine's worker (engine.js) and the margin graph, and
// publishes `window.divercite`, the page's API for embedding and tests.

import { DiverciteBoard } from '../board.js';
import { Engine } from './engine.js';
import { Game } from './game.js';
import { MarginGraph } from './graph.js';
import { courseRecording, moveListText, readGames } from './formats.js';
import { loadRules } from './rules.js';
import { LEVELS, levelLimits } from './levels.js';
import { Clock } from './clock.js';

const $ = (id) => document.getElementById(id);
const COLOURS = ['R', 'G', 'B', 'Y'];
const COLOUR_NAMES = { R: 'red', G: 'green', B: 'blue', Y: 'yellow' };
const SIDES = ['first', 'second'];

class App {
  constructor(rules, engine) {
    this.rules = rules;
    this.engine = engine;
    this.game = new Game(rules);
    this.human = { first: true, second: false };  // who plays by hand
    this.level = LEVELS[1];
    this.selected = null;  // the piece chosen in the supply: "RC", "GR", ...
    this.analysing = false;
    this.analysis = null;  // the running live analysis (a promise)
    this.lines = [];
    this.thinking = null;  // the engine's move being searched (a promise)
    this.clock = null;
    this.board = DiverciteBoard.mount($('board'), rules.skeleton());
    this.board.onCellClick = (cell) => this.clickCell(cell);
    this.graph = new MarginGraph($('graph'), (ply) => this.goTo(ply));
  }

  // -- what is shown

  render() {
    const game = this.game;
    const state = game.current;
    const last = game.cursor > 0 ? game.moves[game.cursor - 1] : null;
    const humanToMove = this.humanToMove();
    const legal = this.selected && humanToMove
      ? state.legal.filter((m) => m.startsWith(this.selected)).map((m) => m.slice(2)) : [];
    const arrows = this.analysing ? this.lines.slice(0, 3).filter((l) => l.move)
      .map((l, k) => ({ move: l.move, mover: state.side, kind: k === 0 ? 'best' : 'alt' })) : [];
    this.board.show(state.fen, { lastMove: last, arrows, legal });
    this.renderPlayers(state);
    this.renderStatus(state);
    this.renderMoves();
    this.renderAnalysis(state);
    const margins = [];
    for (let k = 0; k <= game.moves.length; k += 1) {
      const s = game.stateAt(k).scores;
      margins.push(s[0] - s[1]);
    }
    this.graph.draw(margins, game.values.map((v) => (v === undefined ? null : v / 100)),
      game.cursor);
    $('ply-text').textContent = `${game.cursor} / ${game.moves.length}`;
    this.writeHash();
  }

  renderPlayers(state) {
    const flipped = this.board.flipped;
    for (const [box, side] of [['player-top', flipped ? 'first' : 'second'],
      ['player-bottom', flipped ? 'second' : 'first']]) {
      const element = $(box);
      const index = SIDES.indexOf(side);
      const who = this.human[side] ? 'you' : this.engineName();
      element.querySelector('.name').textContent =
        `${side === 'first' ? 'First (white)' : 'Second (dark)'}: ${who}`;
      element.querySelector('.score').textContent = state.scores[index];
      element.classList.toggle('to-move', state.result === '*' && state.side === side);
      element.querySelector('.clock').textContent = this.clock ? this.clock.text(side) : '';
      const supply = element.querySelector('.supply');
      supply.replaceChildren();
      for (const kind of ['city', 'resource']) {
        for (const colour of COLOURS) {
          const left = state.supply[side][kind][colour];
          const piece = `${colour}${kind === 'city' ? 'C' : 'R'}`;
          const button = document.createElement('button');
          button.className = `supply-piece ${kind} colour-${colour} owner-${side}`;
          button.dataset.piece = piece;
          button.title = `${COLOUR_NAMES[colour]} ${kind}: ${left} left`;
          button.textContent = `${left}`;
          button.disabled = left === 0 || side !== state.side || !this.humanToMove();
          button.classList.toggle('selected', this.selected === piece && side === state.side);
          button.onclick = () => this.selectPiece(piece);
          supply.append(button);
        }
      }
    }
  }

  renderStatus(state) {
    const status = $('status');
    if (state.result !== '*') {
      const [a, b] = state.scores;
      const winner = state.result === '1-0' ? 'The first player wins'
        : state.result === '0-1' ? 'The second player wins' : 'A draw';
      status.textContent = `${winner}, ${a}-${b}.`;
      if (state.tiebreak) status.textContent += ` ${tiebreakText(state.tiebreak)}`;
    } else if (this.clock?.flagged) {
      status.textContent = `${this.clock.flagged === 'first' ? 'First' : 'Second'} player ` +
        'lost on time.';
    } else {
      const who = this.humanToMove() ? 'your move' : this.thinking ? 'the engine thinks…'
        : 'the engine to move';
      status.textContent = `Ply ${state.ply}, ${state.side} player to move: ${who}.`;
    }
  }

  renderMoves() {
    const list = $('moves');
    list.replaceChildren();
    this.game.moves.forEach((move, k) => {
      const item = document.createElement('li');
      item.textContent = move;
      item.className = 'move';
      item.dataset.ply = k + 1;
      item.classList.toggle('current', k + 1 === this.game.cursor);
      item.onclick = () => this.goTo(k + 1);
      list.append(item);
    });
    list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  renderAnalysis(state) {
    const box = $('lines');
    box.replaceChildren();
    if (!this.analysing) return;
    for (const line of this.lines) {
      const item = document.createElement('li');
      item.className = 'line';
      item.textContent = `${scoreText(line)}  ${(line.pv ?? []).join(' ')}`;
      item.title = `depth ${line.depth ?? '?'}, ${line.nodes ?? '?'} nodes`;
      box.append(item);
    }
    if (!this.lines.length) box.textContent = state.result === '*' ? 'thinking…' : '';
  }

  engineName() {
    return this.level.name;
  }

  message(text, kind = 'info') {
    const box = $('message');
    box.textContent = text;
    box.className = kind;
  }

  writeHash() {
    const moves = this.game.moves.join(',');
    const parts = [];
    if (this.game.start !== 'startpos') parts.push(`fen=${encodeURIComponent(this.game.start)}`);
    if (moves || !parts.length) parts.push(`moves=${moves}`);
    const hash = `#${parts.join('&')}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    this.hash = hash;
  }

  // -- playing

  humanToMove() {
    const state = this.game.current;
    return state.result === '*' && !this.clock?.flagged && this.human[state.side] &&
      !this.thinking;
  }

  selectPiece(piece) {
    this.selected = this.selected === piece ? null : piece;
    this.render();
  }

  clickCell(cell) {
    if (!this.humanToMove()) {
      this.message(this.game.current.result !== '*' ? 'The game is over.'
        : 'Not your move: the engine is to move.', 'error');
      return;
    }
    if (!this.selected) {
      this.message('Choose one of your pieces first (the buttons by your name).', 'error');
      return;
    }
    this.humanMove(this.selected + cell).catch((error) => this.message(error.message, 'error'));
  }

  // A move by hand: refused with the rules' reason (nothing changed), else played and, in a
  // game against the engine, answered.
  async humanMove(move) {
    await this.stopAnalysis();
    this.game.play(move);
    this.clock?.switchTo(this.game.current.side);
    this.selected = null;
    this.message('');
    this.afterMove();
    return move;
  }

  afterMove() {
    this.render();
    if (this.analysing) this.startAnalysis();
    if (this.engineToMove()) this.engineTurn();
  }

  engineToMove() {
    const state = this.game.current;
    return state.result === '*' && !this.human[state.side] && this.game.atEnd &&
      !this.clock?.flagged;
  }

  async engineTurn() {
    if (this.thinking) return;
    try {
      await this.engineMove(levelLimits(this.level, this.clock));
    } catch (error) {
      this.message(`The engine could not move: ${error.message}`, 'error');
    }
  }

  // The engine's move in the position shown, played. Resolves with the move.
  async engineMove(limits) {
    await this.stopAnalysis();
    const state = this.game.current;
    if (state.result !== '*') throw new Error('the game is over: all 40 pieces are placed');
    await this.useChooser(this.level.agent ?? 'engine');
    const search = this.engine.search(state.fen, limits);
    this.thinking = search;
    this.render();
    let answer;
    try {
      answer = await search;
    } finally {
      this.thinking = null;
    }
    if (this.game.current !== state) {
      this.render();
      throw new Error('the position changed while the engine thought');
    }
    this.game.play(answer.bestmove);
    if (answer.lines[0]?.score !== undefined) {
      this.game.values[this.game.cursor - 1] = firstView(answer.lines[0].score, state.side);
    }
    this.clock?.switchTo(this.game.current.side);
    this.afterMove();
    return answer.bestmove;
  }

  async useChooser(agent) {
    if (this.chooser === agent) return;
    await this.engine.setOption('Agent', agent);
    this.chooser = agent;
  }

  // -- analysis

  async setMultiPV(count) {
    if (this.multipv === count) return;
    await this.engine.setOption('MultiPV', count);
    this.multipv = count;
  }

  toggleAnalysis() {
    this.analysing = !this.analysing;
    $('analyse').classList.toggle('on', this.analysing);
    $('analyse').textContent = this.analysing ? 'Stop analysis' : 'Analyse';
    if (this.analysing) this.startAnalysis();
    else this.stopAnalysis().then(() => this.render());
  }

  async startAnalysis() {
    await this.stopAnalysis();
    const state = this.game.current;
    const cursor = this.game.cursor;
    this.lines = [];
    this.render();
    if (state.result !== '*' || !this.analysing) return;
    await this.useChooser('engine');
    await this.setMultiPV(3);
    const run = this.engine.search(state.fen, { infinite: true }, (lines) => {
      if (this.game.cursor !== cursor || this.analysis !== run) return;
      this.lines = lines;
      if (lines[0]?.score !== undefined) {
        this.game.values[cursor] = firstView(lines[0].score, state.side);
      }
      this.render();
    });
    this.analysis = run;
    run.catch((error) => this.message(`Analysis stopped: ${error.message}`, 'error'));
  }

  async stopAnalysis() {
    const run = this.analysis;
    if (!run) return;
    this.analysis = null;
    this.engine.stop();
    await run.catch(() => {});
  }

  // One analysis of the position shown (the API's): the final report's line(s).
  async analyse(limits = {}) {
    const { multipv = 1, ...rest } = limits;
    if (this.analysing) this.toggleAnalysis();
    await this.stopAnalysis();
    const state = this.game.current;
    await this.useChooser('engine');
    await this.setMultiPV(multipv);
    const answer = await this.engine.search(state.fen, rest);
    if (answer.lines[0]?.score !== undefined) {
      this.game.values[this.game.cursor] = firstView(answer.lines[0].score, state.side);
      this.render();
    }
    const lines = answer.lines.map((line) => ({ ...line, pv: line.pv ?? [] }));
    return multipv > 1 ? lines : (lines[0] ?? { move: answer.bestmove, pv: [] });
  }

  // -- navigation, games

  goTo(ply) {
    this.game.goTo(ply);
    this.selected = null;
    this.render();
    if (this.analysing) this.startAnalysis();
  }

  async newGame() {
    await this.stopAnalysis();
    this.engine.stop();
    await this.thinking?.catch(() => {});
    this.human = { first: $('side').value !== 'second', second: $('side').value === 'second' };
    if ($('side').value === 'both') this.human = { first: true, second: true };
    this.level = LEVELS[Number($('level').value)];
    this.game.reset('startpos', []);
    this.clock?.stop();
    this.clock = this.level.clock ? new Clock(this.level.clock, () => this.render(),
      (side) => this.message(`${side === 'first' ? 'First' : 'Second'} player lost on time.`,
        'error')) : null;
    this.board.setFlipped(this.human.second && !this.human.first);
    await this.engine.newGame();
    this.message('');
    this.clock?.switchTo('first');
    this.afterMove();
  }

  async takeBack() {
    await this.stopAnalysis();
    this.engine.stop();
    await this.thinking?.catch(() => {});
    // Back to the last position where a human is to move.
    let count = 1;
    while (count < this.game.cursor && !this.human[this.game.stateAt(this.game.cursor - count).side]) {
      count += 1;
    }
    this.game.takeBack(count);
    this.clock?.switchTo(this.game.current.side);
    this.afterMove();
  }

  // Loads {moves, fen} (the API's, the URL's) or a game read from a text; in analysis
  // mode (both sides by hand): a loaded game is to be looked at, not played out.
  async load(game) {
    const start = game.fen ?? game.start ?? 'startpos';
    const moves = game.moves ?? [];
    if (!Array.isArray(moves)) throw new Error('moves: expected a list of move texts');
    await this.stopAnalysis();
    this.engine.stop();
    await this.thinking?.catch(() => {});
    this.game.reset(start, moves, game.names ?? ['first', 'second']);
    (game.values ?? []).forEach((value, k) => {
      if (value !== null) {
        this.game.values[k] = firstView(value, this.game.stateAt(k).side);
      }
    });
    this.human = { first: true, second: true };
    $('side').value = 'both';
    this.clock?.stop();
    this.clock = null;
    this.selected = null;
    this.message(game.label ? `Loaded ${game.label}.` : '');
    this.render();
    if (this.analysing) this.startAnalysis();
    return this.state();
  }

  async loadText(text) {
    const games = readGames(text, this.rules);
    if (games.length > 1) this.message(`${games.length} games in the text: the first shown.`);
    return this.load(games[0]);
  }

  state() {
    const state = this.game.current;
    return {
      fen: state.fen, start: this.game.start, moves: [...this.game.moves],
      ply: state.ply, scores: [...state.scores], result: state.result,
    };
  }

  // -- saving

  download(name, text, type = 'text/plain') {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type }));
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  // The game as text: 'moves' (the move list, after its start's position string if it
  // has one), 'fen' (the position shown), 'recording' (the course's recording, JSON).
  exportText(format) {
    const { start, moves } = this.game;
    if (format === 'moves') {
      return start === 'startpos' ? moveListText(moves) : `${start} moves ${moveListText(moves)}`;
    }
    if (format === 'fen') return this.game.current.fen;
    if (format === 'recording') {
      if (start !== 'startpos') {
        throw new Error('a course recording holds a game from the empty board; this game ' +
          'starts from a position');
      }
      const names = SIDES.map((side, k) => this.game.names[k] ??
        (this.human[side] ? 'you' : this.engineName()));
      return JSON.stringify(courseRecording(moves, this.rules, names));
    }
    throw new Error(`unknown format '${format}' (moves, fen, recording)`);
  }

  save(format) {
    try {
      const text = this.exportText(format);
      if (format === 'fen') {
        $('io-text').value = text;
      } else if (format === 'moves') {
        $('io-text').value = text;
        this.download('divercite-game.txt', `${text}\n`);
      } else {
        this.download(`__REC__divercite_${Date.now()}.json`, text, 'application/json');
      }
    } catch (error) {
      this.message(error.message, 'error');
    }
  }
}

// The score (centipoints, the mover's view) from the first player's view.
function firstView(score, side) {
  return side === 'first' ? score : -score;
}

function scoreText(line) {
  if (line.score === undefined) return '…';
  const points = (line.score / 100).toFixed(2);
  const sign = line.score > 0 ? '+' : '';
  const bound = line.bound === 'lower' ? '≥' : line.bound === 'upper' ? '≤' : '';
  const marks = [line.exact ? 'exact' : '', line.proven ? `proven ${line.proven}` : '']
    .filter(Boolean).join(', ');
  return `${bound}${sign}${points}${marks ? ` (${marks})` : ''}`;
}

function tiebreakText(tiebreak) {
  const steps = (tiebreak.steps ?? []).map((step) => {
    const counts = step.counts ? ` ${step.counts[0]}-${step.counts[1]}` : '';
    const point = step.point ? `+1 to the ${step.point} player` : 'no point';
    return `${step.rule}${counts}: ${point}`;
  });
  const before = tiebreak.before ? `Level at ${tiebreak.before.join('-')} after the 40th ` +
    'move, the course\'s tie-break: ' : 'The course\'s tie-break: ';
  return `${before}${steps.join('; ')}.`;
}

function bindControls(app) {
  $('new-game').onclick = () => app.newGame();
  $('take-back').onclick = () => app.takeBack();
  $('flip').onclick = () => {
    app.board.setFlipped(!app.board.flipped);
    app.render();
  };
  $('analyse').onclick = () => app.toggleAnalysis();
  $('first').onclick = () => app.goTo(0);
  $('previous').onclick = () => app.goTo(app.game.cursor - 1);
  $('next').onclick = () => app.goTo(app.game.cursor + 1);
  $('last').onclick = () => app.goTo(app.game.moves.length);
  $('move-form').onsubmit = (event) => {
    event.preventDefault();
    const move = $('move-input').value.trim().toUpperCase();
    app.humanMove(move).then(() => { $('move-input').value = ''; })
      .catch((error) => app.message(error.message, 'error'));
  };
  $('load').onclick = () => app.loadText($('io-text').value)
    .catch((error) => app.message(error.message, 'error'));
  $('file').onchange = async () => {
    const file = $('file').files[0];
    if (file) app.loadText(await file.text()).catch((e) => app.message(e.message, 'error'));
  };
  $('save-moves').onclick = () => app.save('moves');
  $('save-fen').onclick = () => app.save('fen');
  $('save-recording').onclick = () => app.save('recording');
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', async (event) => {
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    const text = file ? await file.text() : event.dataTransfer.getData('text');
    app.loadText(text).catch((error) => app.message(error.message, 'error'));
  });
  document.addEventListener('keydown', (event) => {
    if (event.target.closest('input, textarea, select')) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
    if (moves === undefined) return;
    event.preventDefault();
    const target = Number.isFinite(moves) ? app.game.cursor + moves
      : moves < 0 ? 0 : app.game.moves.length;
    app.goTo(target);
  });
  window.addEventListener('hashchange', () => {
    if (location.hash !== app.hash) loadFromHash(app);
  });
  for (const [k, level] of LEVELS.entries()) {
    const option = document.createElement('option');
    option.value = k;
    option.textContent = level.name;
    $('level').append(option);
  }
  $('level').value = 1;
}

// `#moves=RC14,GR04,...`, `#fen=<position string>`, or both joined by `&`.
function gameOfHash(hash) {
  const fields = new URLSearchParams(hash.replace(/^#/, ''));
  if (!fields.has('moves') && !fields.has('fen')) return null;
  const moves = (fields.get('moves') ?? '').split(/[,\s]+/).filter(Boolean);
  return { fen: fields.get('fen') ?? 'startpos', moves, label: 'the game of the link' };
}

function loadFromHash(app) {
  const game = gameOfHash(location.hash);
  if (!game) return Promise.resolve();
  return app.load(game).catch((error) => app.message(`The link's game: ${error.message}`, 'error'));
}

// The page's API: window.divercite.
function publish(app) {
  const serial = (task) => {
    const run = (publish.queue ?? Promise.resolve()).then(task, task);
    publish.queue = run.catch(() => {});
    return run;
  };
  window.divercite = {
    load: (game) => serial(() => app.load(game ?? {})),
    state: () => app.state(),
    play: (move) => serial(() => app.humanMove(String(move)).then(() => app.state())),
    analyse: (limits) => serial(() => app.analyse(limits ?? {})),
    engineMove: (limits) => serial(() => app.engineMove(limits ?? { movetime: 1000 })),
    save: (format) => serial(async () => app.exportText(format)),
    engine: app.engine,
    ready: true,
  };
}

async function main() {
  const engine = new Engine('engine-worker.js');
  const [rules] = await Promise.all([loadRules(), engine.start()]);
  await engine.setOption('Threads', Math.max(1, Math.min(
    navigator.hardwareConcurrency || 1, engine.option('Threads')?.max ?? 1)));
  const app = new App(rules, engine);
  bindControls(app);
  app.render();
  publish(app);
  await loadFromHash(app);
  document.body.classList.add('ready');
  $('engine-name').textContent = `${engine.name ?? 'divercite'} · ` +
    `${crossOriginIsolated ? `${engine.option('Threads')?.max ?? 1} threads` : 'one thread'}`;
}

main().catch((error) => {
  const box = document.getElementById('message');
  box.textContent = `The page could not start: ${error.message}`;
  box.className = 'error';
  console.error(error);
});
