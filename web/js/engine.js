// The engine as the page sees it: a Web Worker (engine-worker.js) spoken to with the native
// engine's protocol lines, one line per message in each direction. One command exchange runs
// at a time (a lock); `stop` and the lines a listener watches need no lock.

import { goCommand, parseInfo, parseOption } from './protocol.js';

const ERROR = 'info string error: ';

export class EngineError extends Error {}

export class Engine {
  constructor(workerUrl = 'engine-worker.js') {
    this.worker = new Worker(workerUrl);
    this.options = new Map();  // lower-case name -> parsed option line
    this.listeners = new Set();
    this.lock = Promise.resolve();
    this.searching = false;
    this.searches = 0;  // searches asked for so far
    this.stoppedUpTo = 0;  // the searches up to this one are to stop, even those not begun
    this.failure = null;
    this.worker.onmessage = (event) => this.receive(String(event.data));
    this.worker.onerror = (event) => {
      this.failure = `the engine's worker failed: ${event.message || 'no reason given'}`;
      this.receive(`${ERROR}${this.failure}`);
    };
  }

  // Every line the engine sends, to every listener (a function of the line).
  receive(line) {
    for (const listener of [...this.listeners]) listener(line);
  }

  send(line) {
    this.worker.postMessage(line);
  }

  // Sends `lines`, then resolves with every line received up to (and with) the first that
  // `done` accepts; rejects after `timeoutMs` or when the worker fails.
  exchange(lines, done, timeoutMs = 30000) {
    return new Promise((resolve, reject) => {
      const received = [];
      const finish = (error) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        if (error) reject(error);
        else resolve(received);
      };
      const listener = (line) => {
        received.push(line);
        if (this.failure) finish(new EngineError(this.failure));
        else if (done(line)) finish(null);
      };
      const timer = setTimeout(() => finish(new EngineError(
        `the engine did not answer '${lines.join(' / ')}' within ${timeoutMs} ms`)), timeoutMs);
      this.listeners.add(listener);
      for (const line of lines) this.send(line);
    });
  }

  // Runs `task` when the exchanges before it have ended.
  locked(task) {
    const run = this.lock.then(task, task);
    this.lock = run.catch(() => {});
    return run;
  }

  // `uci` up to `uciok` (the options read), then `isready`. Resolves with the engine's name.
  start() {
    return this.locked(async () => {
      // Before `uciok`, an error line is the worker's: the engine could not load.
      const lines = await this.exchange(['uci'],
        (line) => line === 'uciok' || line.startsWith(ERROR), 60000);
      const last = lines[lines.length - 1];
      if (last.startsWith(ERROR)) throw new EngineError(last.slice(ERROR.length));
      for (const line of lines) {
        const option = parseOption(line);
        if (option) this.options.set(option.name.toLowerCase(), option);
        if (line.startsWith('id name ')) this.name = line.slice('id name '.length);
      }
      await this.exchange(['isready'], (line) => line === 'readyok');
      return this.name;
    });
  }

  option(name) {
    return this.options.get(name.toLowerCase()) ?? null;
  }

  // `setoption`; rejects with the engine's own reason when it refuses the value.
  setOption(name, value) {
    return this.locked(async () => {
      const lines = await this.exchange([`setoption name ${name} value ${value}`, 'isready'],
        (line) => line === 'readyok');
      const errors = lines.filter((line) => line.startsWith(ERROR));
      if (errors.length) {
        throw new EngineError(errors.map((line) => line.slice(ERROR.length)).join('; '));
      }
    });
  }

  newGame() {
    return this.locked(() => this.exchange(['ucinewgame', 'isready'], (l) => l === 'readyok'));
  }

  // Searches the position (a position string) within `limits` (protocol.js's goCommand);
  // `onLines(lines)` hears every iteration's lines, best first. Resolves with
  // {bestmove, lines: [{move, score, bound, exact, proven, pv, depth, ...}, ...]}: the final
  // report, one entry a line (MultiPV). `stop()` ends it early.
  search(fen, limits, onLines = () => {}) {
    const go = goCommand(limits);
    this.searches += 1;
    const number = this.searches;
    return this.locked(async () => {
      const refusals = (await this.exchange([`position fen ${fen}`, 'isready'],
        (line) => line === 'readyok')).filter((line) => line.startsWith(ERROR));
      if (refusals.length) {
        throw new EngineError(`the engine refused the position ${fen}: ` +
          refusals.map((line) => line.slice(ERROR.length)).join('; '));
      }
      const reports = new Map();  // multipv -> {info, exact, proven}
      let current = null;
      const errors = [];
      const report = () => onLines(linesOf(reports));
      const watch = (line) => {
        if (line.startsWith('info string ')) {
          const said = line.slice('info string '.length);
          if (said === 'exact' && current) current.exact = true;
          else if (said.startsWith('proven ') && current) current.proven = said.slice(7);
          else if (line.startsWith(ERROR)) errors.push(line.slice(ERROR.length));
          if (current) report();
        } else if (line.startsWith('info ') && / score /.test(line)) {
          const info = parseInfo(line);
          const k = info.multipv ?? 1;
          if (k === 1 && current && (info.depth ?? 0) !== (reports.get(1)?.info.depth ?? 0)) {
            for (const key of [...reports.keys()]) if (key > 1) reports.delete(key);
          }
          current = { info, exact: false, proven: null };
          reports.set(k, current);
          report();
        }
      };
      this.listeners.add(watch);
      this.searching = true;
      try {
        const ending = this.exchange([go], (line) => line.startsWith('bestmove'),
          (limits.movetime ?? 0) + (limits.wtime ?? 0) + (limits.btime ?? 0) +
          (limits.infinite || limits.depth || limits.nodes || limits.prove ? 3.6e6 : 0) + 30000);
        // Stopped while it waited its turn: it ends at once, with the move found so far.
        if (number <= this.stoppedUpTo) this.send('stop');
        const lines = await ending;
        const words = lines[lines.length - 1].split(/\s+/);
        if (words.length < 2) {
          throw new EngineError(`'${lines[lines.length - 1]}' names no move` +
            (errors.length ? ` (the engine said: ${errors.join('; ')})` : ''));
        }
        return { bestmove: words[1] === '(none)' ? null : words[1], lines: linesOf(reports) };
      } finally {
        this.searching = false;
        this.listeners.delete(watch);
      }
    });
  }

  // Ends the search running and those asked for before it that have not begun.
  stop() {
    this.stoppedUpTo = this.searches;
    if (this.searching) this.send('stop');
  }
}

// The reports as analyse() lines, best first: the info's keys, `move`, `exact`, `proven`.
function linesOf(reports) {
  return [...reports.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => ({
    ...r.info, move: (r.info.pv ?? [null])[0], exact: r.exact, proven: r.proven,
  }));
}
