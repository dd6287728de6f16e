// Time management: a budget computed once per move, then adjusted by named, clamped factors
// as the iterations come in. The number of moves left is exact: every game is 40 plies, 20
// moves per player.
#ifndef DIVERCITE_SEARCH_TIMEMAN_H_
#define DIVERCITE_SEARCH_TIMEMAN_H_

#include <algorithm>
#include <cstdint>

#include "engine/types.h"
#include "search/search_limits.h"

namespace divercite {

struct TimeBudget {
  std::int64_t soft_ms = 0;  // start no new iteration past this (after the factors)
  std::int64_t hard_ms = 0;  // abort the search here; 0 = no limit
  // The hard limit once the root is being solved to the end: a solve that ends plays the rest
  // of the game perfectly, at almost no cost, so it may take more of the clock than an
  // iteration of the evaluation. Never below hard_ms; 0 = no limit.
  std::int64_t solve_hard_ms = 0;
  // The hard limit while the root is being solved.
  std::int64_t SolveLimitMs() const { return std::max(hard_ms, solve_hard_ms); }
};

// Our moves still to play, this one included.
constexpr int MovesLeft(int ply) { return (kTotalPlies - ply + 1) / 2; }

// How much of the clock a move at `ply` deserves relative to the others. The middle game
// decides; the last plies are solved exactly and cost little.
double MoveWeight(int ply);

// The budget for the side to move at `ply`, keeping `move_overhead_ms` per remaining move
// of a clock for transport. A fixed move time (`go movetime`) is searched whole.
TimeBudget PlanTime(const SearchLimits& limits, Player us, int ply, std::int64_t move_overhead_ms);

// What an exact solve from `plies_left` typically costs, in nodes: about the median of the
// reference games' positions (search/NOTES.md), each ply multiplying the tree. A solve is
// attempted when its typical cost fits: the cheaper half of the positions get solved a move
// earlier, and a failed attempt costs at most params::kSolveClockShare of the clock.
double TypicalSolveNodes(int plies_left);

// Whether a solve from `plies_left`, started after `elapsed_ms` of a search that has visited
// `nodes` so far, typically ends within the budget's solve limit at the speed seen so far. Without
// a hard limit (depth, nodes, infinite) it always can. Without this test, solves that could
// not end ran to the hard limit for nothing (NOTES.md, "Issue 13: the course clock").
bool SolveFitsBudget(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                     std::uint64_t nodes);

// What a proof that the side to move wins (null window at kWinBoundary) typically costs from
// `plies_left`, in nodes: about the median of the won positions of the reference games
// (NOTES.md, "Issue 23: what a proof costs"). Far below TypicalSolveNodes: the winner needs
// one move at each of its nodes.
double TypicalProofNodes(int plies_left);

// Whether a proof of a win from `plies_left` typically ends within the move's hard limit at
// the speed seen so far. Not the exact solve's limit (half the clock): a proof that fails
// (the position is not won) must not take the time the exact value needs a few moves later
// (NOTES.md, "Issue 23: the proof in play").
bool ProofFitsBudget(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                     std::uint64_t nodes);

// When a proof started after `elapsed_ms` is abandoned: at params::kProofPatience times its typical
// cost at the speed seen so far, not before the move's soft budget (the iterations would
// have used it) and never past its hard limit, so that a failed proof costs what a move
// without one may cost. 0 = no limit.
std::int64_t ProofLimitMs(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                          std::uint64_t nodes);

// Factors applied to the soft budget after each iteration, each clamped.
struct TimeFactors {
  // Fewer changes of the best move in recent iterations -> less time.
  static double BestMoveStability(int iterations_since_change);
  // A falling score -> more time.
  static double ScoreDrop(int previous_score, int score);
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_TIMEMAN_H_
