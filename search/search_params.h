// Every tuning constant of the search, its time plan and the endgame solver, one line each,
// with what it does. Values are in centipoints (100 = one point of the final margin) unless
// said otherwise; the measurements behind them are in search/NOTES.md.
#ifndef DIVERCITE_SEARCH_SEARCH_PARAMS_H_
#define DIVERCITE_SEARCH_SEARCH_PARAMS_H_

#include <cstdint>

namespace divercite::params {

// --- The iterations and the root (root_search.cc) ---

// Aspiration windows start at this depth (shallower iterations search the full window)...
inline constexpr int kAspirationMinDepth = 4;
// ...this many centipoints either side of the last score...
inline constexpr int kAspirationWindow = 60;
// ...and grow this many times on each failure.
inline constexpr int kAspirationGrowth = 4;
// A failed aspiration window is reported (a bound) once the search has run this long.
inline constexpr std::int64_t kReportBoundsAfterMs = 1000;
// The solver takes over once the end of the game is this many plies beyond the next
// iteration's depth (the evaluation's iterations only order moves for it).
inline constexpr int kSolverReach = 6;
// ...and the proof of the root's result, when it alone is asked for (`go prove`) or the win is
// known, this many: a few shallow iterations order it as well as deep ones, for less.
inline constexpr int kProofReach = 14;

// --- The node search (node_search.cc) ---

// The main worker looks at the clock and the node limit once every this many nodes (the
// endgame solver too, at its own count).
inline constexpr int kNodesBetweenChecks = 1024;
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

// --- The endgame solver (endgame.cc) ---

// Solving nodes with at most this many plies left go to the lean endgame solver.
inline constexpr int kEndgameSolverPlies = 14;
// The endgame solver uses the table from this many plies left up.
inline constexpr int kEndgameTableMinPlies = 3;
// ...orders its moves by the evaluation after them from this many plies left up...
inline constexpr int kEndgameEvalOrderingMinPlies = 10;
// ...and looks its children up in the table before searching from this many plies left up.
inline constexpr int kEndgameEtcMinPlies = 6;

// --- The time plan (timeman.cc) ---

// How much of the clock a move deserves by the stage of the game (MoveWeight): the opening,
// with huge trees and rough evaluations, has little to gain...
inline constexpr int kOpeningEndPly = 8;
inline constexpr double kOpeningMoveWeight = 0.5;
// ...the middle game decides...
inline constexpr int kMiddleGameEndPly = 20;
inline constexpr double kMiddleGameMoveWeight = 1.2;
// ...the plies where the solver can first reach the end matter most: an exact result there
// plays the rest perfectly...
inline constexpr int kFirstSolvesEndPly = 30;
inline constexpr double kFirstSolvesMoveWeight = 2.0;
// ...and the last plies are solved to the end in well under a second.
inline constexpr double kLastPliesMoveWeight = 0.15;
// The hard limit is this many times the soft budget (an iteration may finish)...
inline constexpr int kHardLimitFactor = 4;
// ...but never more than this share of the clock (plus the increment).
inline constexpr int kHardLimitClockDivisor = 3;
// An iteration costs about as much as all those before it, and more: a new one starts only
// while less than this share of the (scaled) soft budget is spent, so that it ends near the
// budget instead of running on to the hard limit, where the opening's moves overshot and
// starved the moves where the solver first reaches the end (NOTES.md, "Iteration share").
inline constexpr double kNewIterationShare = 0.5;
// The overhead kept for the moves still to play (MoveOverhead each) is at most this share of
// the clock: at a second or less a game, the default overhead for every move to come left most
// of the clock unused and the moves a few milliseconds each (NOTES.md, "Issue 33: fast
// clocks").
inline constexpr double kOverheadClockShare = 0.25;
// ...yet at least this much per move still to play: a move overshoots its limit by a few
// milliseconds on a busy machine, and at a tenth of a second a game a quarter of the clock
// did not cover them (NOTES.md, "Issue 33: fast clocks").
inline constexpr int kMinReservePerMoveMs = 5;
// The share of the clock an exact solve of the root may take. One that does not end leaves
// the rest for the next move's solve, two plies shorter and much cheaper; one that ends
// leaves moves that cost almost nothing, so a tighter limit left the clock unused (NOTES.md,
// "Issue 13: the course clock").
inline constexpr double kSolveClockShare = 0.5;
// What an exact solve typically costs: this many nodes at 16 plies left, times the growth for
// each ply more (the reference games' solves: NOTES.md, "Typical solve cost").
inline constexpr double kSolveNodesAt16 = 40e6;
inline constexpr double kSolveGrowthPerPly = 4.5;
// What a proof of a win typically costs, the same way (the won positions of the reference
// games: NOTES.md, "Issue 23: what a proof costs").
inline constexpr double kProofNodesAt16 = 3.5e6;
inline constexpr double kProofGrowthPerPly = 3.0;
// How many times its typical cost a proof may take before it is abandoned: a won position's
// proof costs within about 2x the median, a position that is not won costs as much as its
// exact value (NOTES.md, "Issue 23").
inline constexpr double kProofPatience = 4.0;
// Best-move stability: the soft budget's factor is kStabilityMax less kStabilityStep for each
// iteration since the best move changed, never below kStabilityMin.
inline constexpr double kStabilityMax = 1.6;
inline constexpr double kStabilityStep = 0.2;
inline constexpr double kStabilityMin = 0.5;
// A falling score: the factor grows by one for each kScoreDropPerUnit of drop, up to
// kScoreDropMax.
inline constexpr double kScoreDropPerUnit = 200.0;
inline constexpr double kScoreDropMax = 1.8;

}  // namespace divercite::params

#endif  // DIVERCITE_SEARCH_SEARCH_PARAMS_H_
