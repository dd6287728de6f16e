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
    // A recording is passed on the heap (the stack is small): its address, not the text.
    this.readRecordingAt = module.cwrap('divercite_read_course_recording', 'string', ['number']);
    this.writeRecording = module.cwrap('divercite_write_course_recording', 'string',
      ['string', 'string', 'string']);
    this.module = module;
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

  // The game of a course recording's text, by the reader divercite-analyze and Python use:
  // {names: [first, second], moves, scores: every state's [first, second]}; an Error naming
  // the state at fault.
  readCourseRecording(text) {
    const address = this.module.allocateUTF8(text);
    let answer;
    try {
      answer = JSON.parse(this.readRecordingAt(address));
    } finally {
      this.module._free(address);
    }
    if (!answer.ok) throw new Error(answer.error);
    return answer;
  }

  // The course recording (its states, as its master writes them) of the game of `moves` from
  // the start, its players `names` [first, second], by the writer Python uses; an Error naming
  // the first bad move.
  courseRecording(moves, names) {
    const answer = JSON.parse(this.writeRecording(moves.join(' '), names[0], names[1]));
    if (!answer.ok) throw new Error(answer.error);
    return answer.recording;
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
