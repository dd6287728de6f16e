// A game being played, followed on the arena's game page: GET /api/games/ID/live
// (python/divercite/arena/api.py, live_json) polled every second, and the mover's clock ticked
// down between polls. Polling rather than Server-Sent Events: the arena's servers (Django's
// threaded one, gunicorn's sync workers) would hold a thread per open stream (docs/arena.md).
//
// What a poll answers while the game is played (python/divercite/arena/live.py, state):
//   {"status": "playing", "plies": [{fen, move, ms, clocks, scores}, ...], "to_move": "p1",
//    "clocks": [ms, ms], "updated": TIME, "now": TIME, "elapsed_ms": N, "end": null, ...}
// and once it is not: {"status": "done" | "failed" | "queued", "ended", "page", ...}.

export const POLL_MS = 1000;
export const TICK_MS = 100;

// The clocks shown `sinceMs` after `state` was answered: the mover's less the time it has
// been thinking since the last line (as the server measured it, then as this page does);
// `mover` is 0, 1 or null. A clock the runner does not keep (null) stays null.
export function clocksNow(state, sinceMs) {
  const clocks = [...(state.clocks ?? [null, null])];
  const mover = state.end ? null : {p1: 0, p2: 1}[state.to_move] ?? null;
  if (mover !== null && clocks[mover] !== null) {
    clocks[mover] = Math.max(0, clocks[mover] - (state.elapsed_ms ?? 0) - Math.max(0, sinceMs));
  }
  return {clocks, mover};
}

// Follows the game from `first` (the state the page was drawn with): `onState(state)` with
// each state while it is played, `onClocks(clocks, mover)` every TICK_MS, and `onEnded(state)`
// once the game is no longer played (done, failed, or queued again), after which nothing
// more is called. A poll that fails (the server restarting) is tried again a second later.
export function followLive(first, url, {onState, onClocks, onEnded}) {
  let state = first;
  let answeredAt = performance.now();
  let ticker = null;
  const playing = () => {
    if (state.status === 'playing') return true;
    clearInterval(ticker);
    onEnded(state);
    return false;
  };
  const tick = () => {
    const {clocks, mover} = clocksNow(state, performance.now() - answeredAt);
    onClocks(clocks, mover);
  };
  async function poll() {
    try {
      const response = await fetch(url, {headers: {Accept: 'application/json'}, cache: 'no-store'});
      if (response.ok || response.status === 404) {
        state = response.ok ? await response.json() : {status: 'gone'};
        answeredAt = performance.now();
        if (!playing()) return;
        onState(state);
        tick();
      }
    } catch {
      // No answer: the next poll asks again.
    }
    setTimeout(poll, POLL_MS);
  }
  if (!playing()) return;
  onState(state);
  tick();
  ticker = setInterval(tick, TICK_MS);
  setTimeout(poll, POLL_MS);
}
