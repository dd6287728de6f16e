// The app's state and what can be done with it: the game (game.js), who plays which side and
// at what level, the clock, the live analysis, loading and saving. The engine is only ever
// asked through its protocol (engine.js); what is shown is view.js's.

import { Clock } from './clock.js';
import { courseRecording, moveListText, readGames } from './formats.js';
import { Game, firstView } from './game.js';
import { DEFAULT_LEVEL, LEVELS, levelLimits } from './levels.js';
import {
  mountViews, renderClocks, renderPage, showCopied, showMessage, showSideChoice, showText,
} from './view.js';

const SIDES = ['first', 'second'];

export class App {
  constructor(rules, engine) {
    this.rules = rules;
    this.engine = engine;
    this.game = new Game(rules);
    this.human = { first: true, second: false };  // who plays by hand
    this.level = LEVELS.find((level) => level.name === DEFAULT_LEVEL);
    this.selected = null;  // the piece chosen in the supply: "RC", "GR", ...
    this.analysing = false;
    this.analysis = null;  // the running live analysis (a promise)
    this.lines = [];
    this.thinking = null;  // the engine's move being searched (a promise)
    this.clock = null;
    ({ board: this.board, graph: this.graph } = mountViews(
      rules.skeleton(), (cell) => this.clickCell(cell), (ply) => this.goTo(ply)));
  }

  // -- what is shown

  render() {
    renderPage(this);
  }

  engineName() {
    return this.level.name;
  }

  message(text, kind = 'info') {
    showMessage(text, kind);
  }

  // The address follows the game, but for a link's game as loaded: kept as the user gave it
  // (a bad move in it included) until the game changes.
  writeHash() {
    if (this.keepAddress) {
      this.hash = location.hash;
      return;
    }
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
    this.keepAddress = false;
    this.render();
    if (this.analysing) this.startAnalysis();
    if (this.engineToMove()) this.engineTurn();
  }

  engineToMove() {
    const state = this.game.current;
    return state.result === '*' && !this.human[state.side] && this.game.atEnd &&
      !this.clock?.flagged;
  }

  // The engine's turn: while its side is to move at the end of the game shown, its move is
  // searched and played. Asked again during a turn, the turn looks again before it ends; a
  // move searched for a position or players that changed meanwhile is dropped, not played.
  engineTurn() {
    this.turnAsked = true;
    this.turn ??= (async () => {
      try {
        while (this.turnAsked) {
          this.turnAsked = false;
          if (!this.engineToMove()) continue;
          const players = this.human;  // a new object whenever the players change
          const { state, answer } = await this.searchMove(levelLimits(this.level, this.clock));
          if (this.game.current !== state || this.human !== players) {
            this.turnAsked = true;
            this.render();
          } else {
            this.playSearched(state, answer);
          }
        }
      } catch (error) {
        this.message(`The engine could not move: ${error.message}`, 'error');
      } finally {
        this.turn = null;
      }
    })();
    return this.turn;
  }

  // The engine's move in the position shown, played (the API's: whoever is to move).
  // Resolves with the move.
  async engineMove(limits) {
    const { state, answer } = await this.searchMove(limits);
    if (this.game.current !== state) {
      this.render();
      throw new Error('the position changed while the engine thought');
    }
    this.playSearched(state, answer);
    return answer.bestmove;
  }

  // The engine's search of the position shown, once the analysis and any move in progress
  // have stopped: {state, answer}.
  async searchMove(limits) {
    await this.stopAnalysis();
    while (this.thinking) await this.thinking.catch(() => {});
    const state = this.game.current;
    if (state.result !== '*') throw new Error('the game is over: all 40 pieces are placed');
    await this.useChooser(this.level.agent ?? 'engine');
    const search = this.engine.search(state.fen, limits);
    this.thinking = search;
    this.render();
    try {
      return { state, answer: await search };
    } finally {
      this.thinking = null;
    }
  }

  playSearched(state, answer) {
    this.game.play(answer.bestmove);
    if (answer.lines[0]?.score !== undefined) {
      this.game.values[this.game.cursor - 1] = firstView(answer.lines[0].score, state.side);
    }
    this.clock?.switchTo(this.game.current.side);
    this.afterMove();
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
    this.message('');
    this.render();
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

  // Stops the live analysis and the engine's move in progress, and waits for both to end.
  async settle() {
    await this.stopAnalysis();
    this.engine.stop();
    await this.thinking?.catch(() => {});
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
    if (ply !== this.game.cursor) this.message('');
    this.game.goTo(ply);
    this.selected = null;
    this.render();
    if (this.analysing) this.startAnalysis();
  }

  // A new game from the empty board: `side` is the human's ('first', 'second' or 'both'),
  // `level` the engine's (an entry of LEVELS).
  async newGame(side, level) {
    await this.settle();
    this.game.reset('startpos', []);
    await this.engine.newGame();
    this.message('');
    this.setPlayers(side, level);
    this.startClock();
    this.afterMove();
  }

  // Play on from the position shown, whatever it is (a loaded game at any ply, a link, an
  // analysis): the moves after it dropped, `side` by hand and the engine at `level` the
  // other, a clock started afresh if the level has one.
  async playFromHere(side, level) {
    await this.settle();
    this.game.truncate();
    this.setPlayers(side, level);
    this.startClock();
    const who = side === 'both' ? 'both sides by hand' : `you play ${side} against ${level.name}`;
    this.message(`Playing on from ply ${this.game.cursor}: ${who}.`);
    this.afterMove();
  }

  // Another side or level, at once: the board stays; the engine moves if it is now its turn
  // at the end of the game shown; a clock starts afresh when the level changes.
  async choosePlayers(side, level) {
    if (this.thinking) await this.settle();  // a move searched for the old side or level
    const levelChanged = level !== this.level;
    this.setPlayers(side, level);
    if (levelChanged) this.startClock();
    this.render();
    if (this.engineToMove()) this.engineTurn();
  }

  setPlayers(side, level) {
    this.human = { first: side !== 'second', second: side !== 'first' };
    this.level = level;
    this.board.setFlipped(this.human.second && !this.human.first);
    showSideChoice(side);
  }

  // The level's clock, full, running for the side to move (none when the level has none).
  startClock() {
    this.clock?.stop();
    this.clock = this.level.clock ? new Clock(this.level.clock,
      () => renderClocks(this), (side) => {
        this.message(`${side === 'first' ? 'First' : 'Second'} player lost on time.`, 'error');
        this.render();
      }) : null;
    if (this.game.current.result === '*') this.clock?.switchTo(this.game.current.side);
  }

  async takeBack() {
    await this.settle();
    // Back to the last position where a human is to move.
    let count = 1;
    while (count < this.game.cursor && !this.human[this.game.stateAt(this.game.cursor - count).side]) {
      count += 1;
    }
    this.game.takeBack(count);
    this.clock?.switchTo(this.game.current.side);
    this.message('');
    this.afterMove();
  }

  // Loads {moves, fen} (the API's, the URL's) or a game read from a text; in analysis
  // mode (both sides by hand): a loaded game is to be looked at ("Play from here" plays
  // on). `keepAddress`: the game is the address's own link, which stays as it is.
  async load(game, { keepAddress = false } = {}) {
    const start = game.fen ?? game.start ?? 'startpos';
    const moves = game.moves ?? [];
    if (!Array.isArray(moves)) throw new Error('moves: expected a list of move texts');
    await this.settle();
    this.game.reset(start, moves, game.names ?? ['first', 'second']);
    (game.values ?? []).forEach((value, k) => {
      if (value !== null) {
        this.game.values[k] = firstView(value, this.game.stateAt(k).side);
      }
    });
    this.human = { first: true, second: true };
    showSideChoice('both');
    this.clock?.stop();
    this.clock = null;
    this.selected = null;
    this.keepAddress = keepAddress;
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
      return courseRecording(moves, this.rules, names);
    }
    throw new Error(`unknown format '${format}' (moves, fen, recording)`);
  }

  // The link of the game (its moves, or its position and moves) or the position string of
  // the position shown, put on the clipboard; where the browser refuses, put in the text box
  // to copy by hand.
  async copy(what) {
    const text = what === 'link' ? location.href : this.game.current.fen;
    const name = what === 'link' ? 'Link' : 'Position';
    try {
      await navigator.clipboard.writeText(text);
      showCopied(`${name} copied.`);
    } catch {
      showText(text);
      showCopied(`${name} in the box below: the browser keeps the clipboard to itself.`);
    }
    return text;
  }

  save(format) {
    try {
      const text = this.exportText(format);
      if (format === 'fen') {
        showText(text);
      } else if (format === 'moves') {
        showText(text);
        this.download('divercite-game.txt', `${text}\n`);
      } else {
        this.download(`__REC__divercite_${Date.now()}.json`, text, 'application/json');
      }
    } catch (error) {
      this.message(error.message, 'error');
    }
  }
}
