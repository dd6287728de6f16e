// The rules for the page's main thread (divercite-rules.{js,wasm}): a C API over engine/
// whose answers are JSON text, so the page never re-implements a rule. Strings in and out
// are UTF-8. An answer lives in a static buffer of its function, valid until that function is
// called again: copy it (Emscripten's ccall with the return type 'string' does) before the
// next call. Nothing is for the caller to free.
#ifndef DIVERCITE_TOOLS_WEB_RULES_API_H_
#define DIVERCITE_TOOLS_WEB_RULES_API_H_

extern "C" {

// The position after `moves` from `start`.
//   start: a position string ("1/3/5/7/9/7/5/3/1 w") or "startpos";
//   moves: move texts separated by spaces ("RC14 GR04"), possibly empty.
// Answer:
//   {"ok":true, "fen":"<position string>", "ply":N, "side":"first"|"second",
//    "scores":[first, second], "result":"*"|"1-0"|"0-1"|"1/2-1/2",
//    "legal":["RC14", ...] (every legal move, in the rules' order; [] once the game is over),
//    "supply":{"first":{"city":{"R":2,"G":2,"B":2,"Y":2},"resource":{"R":3,...}},
//              "second":{...}} (pieces left),
//    "tiebreak": null, or once the 40th move left the scores equal:
//       {"before":[first, second] (the scores before the tie-break),
//        "steps":[{"rule":"divercites"|"own colour 4"|"own colour 3"|"own colour 2",
//                  "counts":[first, second], "point":"first"|"second"|null}, ...,
//                 {"rule":"first player", "point":"first"}]}
//       (the steps the rules took, in order: the scores are `before` plus the points),
//    "moves":["RC14", ...] (the moves as given, normalised)}
// or {"ok":false, "error":"<the rules' reason>", "at":<0-based index of the bad move, or
// null when the start is at fault>}.
const char* divercite_state(const char* start, const char* moves);

// "" when `move` is legal in the position `fen` (a position string or "startpos"), else the
// rules' reason (a malformed move, an occupied cell, no such piece left, the game over, or
// what is wrong with `fen`).
const char* divercite_move_reason(const char* fen, const char* move);

// The board without pieces, as tools/board_svg draws it (BoardSkeletonSvg): web/board.js
// mounts it and places each position's pieces on it, so the page's board is the one drawing.
const char* divercite_board_skeleton();

// The game of a course recording's JSON text (tools/records/course_recording.h, the reader
// divercite-analyze and Python use):
//   {"ok":true, "names":[first, second], "moves":["RC14", ...],
//    "scores":[[first, second], ...] (every state's, the initial one's included)}
// or {"ok":false, "error":"state K: <what is wrong>"} (or the JSON's own error).
const char* divercite_read_course_recording(const char* recording);

// The course recording of the game of `moves` (move texts separated by spaces) from the
// start, the players named `first` and `second` (the writer Python uses):
//   {"ok":true, "recording":[<the states>]}
// or {"ok":false, "error":"move K of N: <the rules' reason>"}.
const char* divercite_write_course_recording(const char* moves, const char* first,
                                             const char* second);

}  // extern "C"

#endif  // DIVERCITE_TOOLS_WEB_RULES_API_H_
