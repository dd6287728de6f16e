// Every tuning constant of the search and the endgame solver, one line each, with what it
// does. Values are in centipoints (100 = one point of the final margin) unless said otherwise;
// the measurements behind them are in search/NOTES.md.
#ifndef DIVERCITE_SEARCH_SEARCH_PARAMS_H_
#define DIVERCITE_SEARCH_SEARCH_PARAMS_H_

namespace divercite::params {

// Aspiration window half-width at the first try, widened x4 on each failure.
inline constexpr int kAspirationWindow = 60;
// The solver takes over once the end of the game is this many plies beyond the next
// iteration's depth (the evaluation's iterations only order moves for it).
inline constexpr int kSolverReach = 6;
// ...and the proof of the root's result, when it alone is asked for (`go prove`) or the win is
// known, this many: a few shallow iterations order it as well as deep ones, for less.
inline constexpr int kProofReach = 14;
// Solving nodes with at most this many plies left go to the lean endgame solver.
inline constexpr int kEndgameSolverPlies = 14;
// The endgame solver uses the table from this many plies left up.
inline constexpr int kEndgameTableMinPlies = 3;
// ...orders its moves by the evaluation after them from this many plies left up...
inline constexpr int kEndgameEvalOrderingMinPlies = 10;
// ...and looks its children up in the table before searching from this many plies left up.
inline constexpr int kEndgameEtcMinPlies = 6;
// While solving, moves are ordered by the evaluation after them from this depth up.
inline constexpr int kEvalOrderingMinDepth = 5;
// With several threads, nodes from this depth up defer the moves another thread is searching
// (Simplified ABDADA; measured: see NOTES.md, "Issue 13: two threads").
inline constexpr int kDeferMinDepth = 6;
// While solving, children are looked up in the table before searching from this depth up.
inline constexpr int kEtcMinDepth = 4;
// Late move reductions: no reduction for the first moves or at shallow depth.
inline constexpr int kLmrMinDepth = 3;
inline constexpr int kLmrFirstReducedMove = 4;
// reduction = log(depth) * log(move number) / kLmrDivisor (in hundredths).
inline constexpr int kLmrDivisor = 200;

}  // namespace divercite::params

#endif  // DIVERCITE_SEARCH_SEARCH_PARAMS_H_
