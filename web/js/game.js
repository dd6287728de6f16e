// A game on the page: where it starts, its moves, and the ply shown (a cursor into them).
// Every position comes from the rules module; a move refused leaves the game as it was.

// A score (centipoints, the mover's view, as the engine gives it) in the first player's view,
// the view of the game's values.
export function firstView(score, side) {
  return side === 'first' ? score : -score;
}

// A move's text in the canonical case: the rules read "RC14", people type "rc14" too.
const canonical = (move) => String(move).trim().toUpperCase();

export class Game {
  constructor(rules, start = 'startpos', moves = [], names = ['first', 'second']) {
    this.rules = rules;
    this.reset(start, moves, names);
  }

  // A new game from `start` with `moves`, shown at its end; throws (with the rules' reason)
  // without changing anything when a move does not play.
  reset(start, moves, names = ['first', 'second']) {
    // Moves in any case ("rc14"), kept in the canonical one ("RC14").
    const final = this.rules.state(start, moves.map(canonical));  // throws on a bad move
    this.start = start;
    this.moves = [...final.moves];
    this.names = names;
    this.cache = new Map([[this.moves.length, final]]);
    this.values = [];  // per ply: the engine's value of the position, first player's view
    this.cursor = this.moves.length;
  }

  // The position after the first `k` moves.
  stateAt(k) {
    if (!this.cache.has(k)) this.cache.set(k, this.rules.state(this.start, this.moves.slice(0, k)));
    return this.cache.get(k);
  }

  get current() {
    return this.stateAt(this.cursor);
  }

  get final() {
    return this.stateAt(this.moves.length);
  }

  get atEnd() {
    return this.cursor === this.moves.length;
  }

  // Plays `move` at the ply shown; the moves after it (if the cursor was back) are dropped.
  // Returns the new state; throws an Error with the rules' reason, nothing changed.
  play(text) {
    const move = canonical(text);
    const before = this.current;
    const reason = before.result !== '*' ? 'the game is over: all 40 pieces are placed'
      : this.rules.moveReason(before.fen, move);
    // The rules' reason names the move when it reads one: said once.
    if (reason) throw new Error(reason.includes(move) ? reason : `${move}: ${reason}`);
    const moves = [...this.moves.slice(0, this.cursor), move];
    const after = this.rules.state(this.start, moves);
    for (const k of [...this.cache.keys()]) if (k > this.cursor) this.cache.delete(k);
    this.values.length = Math.min(this.values.length, this.cursor + 1);
    this.moves = moves;
    this.cursor = moves.length;
    this.cache.set(this.cursor, after);
    return after;
  }

  // Takes back the last `count` moves (the ones after the cursor first).
  takeBack(count = 1) {
    const length = Math.max(0, Math.min(this.cursor, this.moves.length) - count);
    this.moves = this.moves.slice(0, length);
    for (const k of [...this.cache.keys()]) if (k > length) this.cache.delete(k);
    this.values.length = Math.min(this.values.length, length + 1);
    this.cursor = length;
  }

  // Drops the moves after the ply shown.
  truncate() {
    this.takeBack(0);
  }

  goTo(k) {
    this.cursor = Math.max(0, Math.min(this.moves.length, k));
    return this.current;
  }
}
