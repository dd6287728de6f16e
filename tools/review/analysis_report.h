// The analysis of a game as text for people, as one JSON line for tools, and as a picture.
//
// The JSON object (a contract other tools rely on) holds at least:
//   {"game": N|null, "p1": "...", "p2": "...", "start": "startpos"|"fen ...",
//    "result": "1-0"|"0-1"|"1/2-1/2"|"*", "final": [p1, p2],
//    "settings": {"solve_plies": 14, "depth": 8, "movetime": null, "prove_plies": 24,
//                 "prove_movetime": 1000|null},
//    "moves": [{"ply": 0, "side": "p1", "move": "RC14", "best": "BC23", "value": 120,
//               "played": 80, "loss": 40, "exact": false, "opening": false,
//               "proven_before": "win"|"draw"|"loss"|null, "proven_after": ...|null,
//               "result_changing": false,
//               "lines": [{"move": "BC23", "value": 120, "bound": "lower"|"upper"|null,
//                          "exact": false, "proven": "win"|"draw"|"loss"|null,
//                          "pv": ["BC23", ...]}, ...]}, ...],
//    "summary": {"p1": {"name": "...", "moves": 20, "loss": 310,
//                       "mistakes": [{"ply": 24, "move": "...", "best": "...", "loss": 200}],
//                       "result_changing": [{"ply": 24, "move": "...", "best": "...",
//                                            "before": "win", "after": "draw"}]},
//                "p2": {...}, "first_exact_ply": 26|null, "decided_ply": 30|null,
//                "first_proven_ply": 22|null, "proven_ply": 24|null, "seconds": 4.2}}
// ply: 0-based ply of the move (pieces on the board before it); value: centipoints before the
// move from the mover's view (the best move's value); played: the value of the move played;
// loss: centipoints the move lost (0 for a best move, never negative); exact: value and loss
// are exact. proven_before/proven_after: the result proven (or exact) before and after the
// move, the mover's view; result_changing: the move made it worse (win to draw or loss, draw
// to loss); a result-changing move's best is a move that kept the result. lines: with
// --multipv N > 1 only ("multipv": N is then in settings too), the engine's N best lines
// (fewer where fewer moves differ up to symmetry) in the position before the move, best
// first, the mover's view. Summary losses and result-changing moves are over the player's own
// moves (not the opening).
#ifndef DIVERCITE_TOOLS_REVIEW_ANALYSIS_REPORT_H_
#define DIVERCITE_TOOLS_REVIEW_ANALYSIS_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "tools/common/json.h"
#include "tools/review/analysed_game.h"

namespace divercite {

// Each player's key in the report (and the review page's data), first player first: the
// records' p1 and p2.
inline constexpr absl::string_view kPlayerKeys[2] = {"p1", "p2"};

std::string AnalysisText(const GameAnalysis& analysis);
Json AnalysisJson(const GameAnalysis& analysis);

// Draws the first player's margin over the game (exact values and search values apart, the
// largest mistakes marked) into a PNG, with matplotlib run by `python`.
absl::Status PlotAnalysis(const GameAnalysis& analysis, const std::string& png_path,
                          const std::string& python = "python3");

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_REVIEW_ANALYSIS_REPORT_H_
