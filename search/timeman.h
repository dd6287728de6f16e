// Time management: a budget computed once per move, then adjusted by named, clamped factors
// as the iterations come in. The number of moves left is exact: every game is 40 plies, 20
// moves per player.
#ifndef DIVERCITE_SEARCH_TIMEMAN_H_
#define DIVERCITE_SEARCH_TIMEMAN_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/move.h"
#include "engine/types.h"

namespace divercite {

struct SearchLimits {
  int depth = 0;                                 // 0: no depth limit
  std::uint64_t nodes = 0;                       // 0: no node limit
  std::int64_t movetime_ms = 0;                  // 0: none
  std::int64_t time_ms[kNumPlayers] = {-1, -1};  // clock per player (-1: no clock)
  std::int64_t increment_ms[kNumPlayers] = {0, 0};
  int movestogo = 0;  // 0: until the end of the game
  bool infinite = false;
  // Stop once the game's result is proven, without going on to the exact value.
  bool prove = false;
  // The root's moves to search (`go searchmoves`), legal ones; empty: all of them.
  std::vector<Move> searchmoves;
};

// Whether the search, once it reaches the end of the game, proves the result first (null
// windows at the win and draw boundaries) before it solves the exact value: always, unless a
// depth was asked for (`go depth 40` solves the exact value directly, as the analysis, the
// adjudication and the tests expect).
constexpr bool ProvesFirst(const SearchLimits& limits) { return limits.prove || limits.depth == 0; }

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

// An iteration costs about as much as all those before it, and more: a new one starts only
// while less than this share of the (scaled) soft budget is spent, so that it ends near the
// budget instead of running on to the hard limit, where the opening's moves overshot and
// starved the moves where the solver first reaches the end (NOTES.md, "Iteration share").
inline constexpr double kNewIterationShare = 0.5;

// What an exact solve from `plies_left` typically costs, in nodes: about the median of the
// reference games' positions (search/NOTES.md), each ply multiplying the tree. A solve is
// attempted when its typical cost fits: the cheaper half of the positions get solved a move
// earlier, and a failed attempt costs at most kSolveClockShare of the clock.
double TypicalSolveNodes(int plies_left);

// The share of the clock an exact solve of the root may take. One that does not end leaves
// the rest for the next move's solve, two plies shorter and much cheaper; one that ends
// leaves moves that cost almost nothing, so a tighter limit left the clock unused (NOTES.md,
// "Issue 13: the course clock").
inline constexpr double kSolveClockShare = 0.5;

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

// How many times its typical cost a proof may take before it is abandoned: a won position's
// proof costs within about 2x the median, a position that is not won costs as much as its
// exact value (NOTES.md, "Issue 23").
inline constexpr double kProofPatience = 4.0;

// Whether a proof of a win from `plies_left` typically ends within the move's hard limit at
// the speed seen so far. Not the exact solve's limit (half the clock): a proof that fails
// (the position is not won) must not take the time the exact value needs a few moves later
// (NOTES.md, "Issue 23: the proof in play").
bool ProofFitsBudget(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                     std::uint64_t nodes);

// When a proof started after `elapsed_ms` is abandoned: at kProofPatience times its typical
// cost at the speed seen so far, not before the move's soft budget (the iterations would
// have used it) and never past its hard limit, so that a failed proof costs what a move
// without one may cost. 0 = no limit.
std::int64_t ProofLimitMs(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                          std::uint64_t nodes);

// Factors applied to the soft budget after each iteration, each clamped.
struct TimeFactors {
  // Fewer changes of the best move in recent iterations -> less time (0.5 .. 1.6).
  static double BestMoveStability(int iterations_since_change);
  // A falling score -> more time (1.0 .. 1.8).
  static double ScoreDrop(int previous_score, int score);
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_TIMEMAN_H_
