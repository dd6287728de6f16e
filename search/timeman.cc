#include "search/timeman.h"

#include <algorithm>
#include <cmath>

#include "search/search_params.h"

namespace divercite {

double MoveWeight(int ply) {
  if (ply < params::kOpeningEndPly) return params::kOpeningMoveWeight;
  if (ply < params::kMiddleGameEndPly) return params::kMiddleGameMoveWeight;
  if (ply < params::kFirstSolvesEndPly) return params::kFirstSolvesMoveWeight;
  return params::kLastPliesMoveWeight;
}

TimeBudget PlanTime(const SearchLimits& limits, Player us, int ply, std::int64_t move_overhead_ms) {
  TimeBudget budget;
  // A move time is what the user asked to search: the overhead is kept from clocks only
  // (with 250 ms of overhead, `go movetime 300` searched 50 ms and 200 about 1 ms).
  if (limits.movetime_ms > 0) return {limits.movetime_ms, limits.movetime_ms, limits.movetime_ms};
  const std::int64_t clock = limits.time_ms[Index(us)];
  if (clock < 0 || limits.infinite) return budget;

  const std::int64_t increment = limits.increment_ms[Index(us)];
  int moves_left = MovesLeft(ply);
  if (limits.movestogo > 0) moves_left = std::min(moves_left, limits.movestogo);
  // Split what is left over our remaining moves by their weights.
  double weight_left = 0;
  for (int k = 0; k < moves_left; ++k) weight_left += MoveWeight(ply + 2 * k);
  // The transport's overhead for every move still to play, but not most of the clock unless
  // the moves' own overshoots need it.
  const std::int64_t reserve = std::min<std::int64_t>(
      move_overhead_ms * moves_left,
      std::max<std::int64_t>(static_cast<std::int64_t>(clock * params::kOverheadClockShare),
                             std::int64_t{params::kMinReservePerMoveMs} * moves_left));
  const std::int64_t usable =
      std::max<std::int64_t>(0, clock + increment * (moves_left - 1) - reserve);
  const double share = MoveWeight(ply) / weight_left;
  budget.soft_ms = static_cast<std::int64_t>(usable * share);
  // The hard limit allows an iteration to finish, but never more than a share of the clock
  // (never all of it, whatever the clock says), and always leaves the overhead.
  const std::int64_t ceiling = std::max<std::int64_t>(
      1, std::min<std::int64_t>(clock / params::kHardLimitClockDivisor + increment,
                                clock - move_overhead_ms));
  budget.hard_ms = std::clamp<std::int64_t>(budget.soft_ms * params::kHardLimitFactor, 1, ceiling);
  budget.soft_ms = std::clamp<std::int64_t>(budget.soft_ms, 1, budget.hard_ms);
  // The solve's limit keeps the reserve for the moves still to play.
  const std::int64_t solve_ceiling = std::min<std::int64_t>(
      static_cast<std::int64_t>(clock * params::kSolveClockShare) + increment, clock - reserve);
  budget.solve_hard_ms = std::max(budget.hard_ms, solve_ceiling);
  return budget;
}

double TypicalSolveNodes(int plies_left) {
  return params::kSolveNodesAt16 * std::pow(params::kSolveGrowthPerPly, plies_left - 16);
}

double TypicalProofNodes(int plies_left) {
  return params::kProofNodesAt16 * std::pow(params::kProofGrowthPerPly, plies_left - 16);
}

namespace {

// Milliseconds to search `typical_nodes` at the speed of the iterations so far (the solver's
// is higher: on the safe side); 0 before any speed is known.
double TypicalMs(double typical_nodes, std::int64_t elapsed_ms, std::uint64_t nodes) {
  const double nodes_per_ms = static_cast<double>(nodes) / std::max<std::int64_t>(1, elapsed_ms);
  return nodes_per_ms > 0 ? typical_nodes / nodes_per_ms : 0;
}

}  // namespace

bool SolveFitsBudget(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                     std::uint64_t nodes) {
  const std::int64_t limit = budget.SolveLimitMs();
  if (limit <= 0) return true;
  return TypicalMs(TypicalSolveNodes(plies_left), elapsed_ms, nodes) <=
         static_cast<double>(limit - elapsed_ms);
}

bool ProofFitsBudget(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                     std::uint64_t nodes) {
  if (budget.hard_ms <= 0) return true;
  return TypicalMs(TypicalProofNodes(plies_left), elapsed_ms, nodes) <=
         static_cast<double>(budget.hard_ms - elapsed_ms);
}

std::int64_t ProofLimitMs(const TimeBudget& budget, int plies_left, std::int64_t elapsed_ms,
                          std::uint64_t nodes) {
  if (budget.hard_ms <= 0) return 0;
  const double patience =
      params::kProofPatience * TypicalMs(TypicalProofNodes(plies_left), elapsed_ms, nodes);
  const std::int64_t until = elapsed_ms + static_cast<std::int64_t>(patience);
  return std::min(budget.hard_ms, std::max(budget.soft_ms, until));
}

double TimeFactors::BestMoveStability(int iterations_since_change) {
  return std::clamp(params::kStabilityMax - params::kStabilityStep * iterations_since_change,
                    params::kStabilityMin, params::kStabilityMax);
}

double TimeFactors::ScoreDrop(int previous_score, int score) {
  const int drop = previous_score - score;
  return std::clamp(1.0 + drop / params::kScoreDropPerUnit, 1.0, params::kScoreDropMax);
}

}  // namespace divercite
