// The rules for the page: the engine's own rules library (engine/), compiled to a small
// WebAssembly module without threads (divercite-rules.js), asked synchronously. Nothing of
// the rules is written in JavaScript.

let loading = null;

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.append(script);
  });
}

export class Rules {
  constructor(module) {
    this.stateJson = module.cwrap('divercite_state', 'string', ['string', 'string']);
    this.reasonText = module.cwrap('divercite_move_reason', 'string', ['string', 'string']);
    this.skeletonText = module.cwrap('divercite_board_skeleton', 'string', []);
  }

  // The position after `moves` (move texts) from `start` (a position string or "startpos"):
  // {fen, ply, side, scores, result, legal, supply, tiebreak, moves}; an Error with the
  // rules' reason (and `at`, the index of the move refused) when a move or `start` is bad.
  state(start, moves = []) {
    const answer = JSON.parse(this.stateJson(start || 'startpos', moves.join(' ')));
    if (!answer.ok) {
      const error = new Error(answer.error);
      error.at = answer.at ?? null;
      throw error;
    }
    return answer;
  }

  // "" when `move` is legal in the position `fen`, else the rules' reason.
  moveReason(fen, move) {
    return this.reasonText(fen, move);
  }

  // The board without pieces, as tools/board_svg draws it, for board.js to place pieces on.
  skeleton() {
    return this.skeletonText();
  }
}

// The rules module, loaded once.
export function loadRules(url = 'divercite-rules.js') {
  loading ??= (async () => {
    await loadScript(url);
    const module = await globalThis.DiverciteRules();
    return new Rules(module);
  })();
  return loading;
}
