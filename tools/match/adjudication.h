// Exact adjudication (-adjudicate exact plies=N): a game may end early, with the result it
// would have had, once both engines have reported the same exact score (`info string exact`)
// for N consecutive moves and the runner's own exact solve, by the search library, confirms
// that value. The engines' word only triggers the solve; the solve decides. If it disagrees,
// the game is played on to its end (and not adjudicated any more).
//
// The runner's solve is bounded: it is tried only from kMaxSolvePlies plies before the end
// (an agreement earlier waits for it), within kSolveNodes nodes; a solve that does not finish
// within them decides nothing, and is tried again after the next move. Both bounds are
// counts, not times, so the same game is adjudicated the same way on any machine.
#ifndef DIVERCITE_TOOLS_MATCH_ADJUDICATION_H_
#define DIVERCITE_TOOLS_MATCH_ADJUDICATION_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/game_result.h"
#include "engine/position.h"

namespace divercite {

class Searcher;

// At most this many plies left for the runner's solve: about a second on one thread.
inline constexpr int kMaxSolvePlies = 14;
// The node budget of one solve (its best line's playout included).
inline constexpr std::uint64_t kSolveNodes = 20'000'000;

// The value (centipoints of final margin, the first player's view) on which the last `plies`
// entries of `exact_values` agree, if they are all present and equal. Each entry is one
// engine move of the game, in order: the exact score its mover reported, turned to the first
// player's view, or nullopt when the mover reported none (or no exact one).
std::optional<int> AgreedExactValue(const std::vector<std::optional<int>>& exact_values, int plies);

// A position solved to the end of the game.
struct ExactSolution {
  int value = 0;  // centipoints of final margin, the first player's view, best play
  GameResult result = GameResult::kDraw;
  std::array<int, 2> final_scores{};  // at the end of the solved best line
};

// The runner's solver: one per worker thread.
class ExactSolver {
 public:
  ExactSolver();
  ~ExactSolver();

  // Solves `position` (a game not over, at most kMaxSolvePlies from its end) exactly, from a
  // cleared table so that the same position always gets the same best line, and plays that
  // line out for the final scores. Nullopt if the search did not prove its value within
  // kSolveNodes nodes.
  std::optional<ExactSolution> Solve(const Position& position);

 private:
  std::unique_ptr<Searcher> searcher_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_ADJUDICATION_H_
