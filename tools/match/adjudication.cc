#include "tools/match/adjudication.h"

#include "search/search.h"
#include "search/timeman.h"
#include "search/value.h"

namespace divercite {
namespace {

// Enough for the last plies of a game, and quick to clear before each solve.
constexpr std::size_t kSolverHashMegabytes = 32;

}  // namespace

std::optional<int> AgreedExactValue(const std::vector<std::optional<int>>& exact_values,
                                    int plies) {
  if (plies < 1 || static_cast<int>(exact_values.size()) < plies) return std::nullopt;
  const std::optional<int>& last = exact_values.back();
  for (size_t i = exact_values.size() - plies; i < exact_values.size(); ++i) {
    if (!exact_values[i] || exact_values[i] != last) return std::nullopt;
  }
  return last;
}

ExactSolver::ExactSolver() : searcher_(std::make_unique<Searcher>(kSolverHashMegabytes)) {}

ExactSolver::~ExactSolver() = default;

std::optional<ExactSolution> ExactSolver::Solve(const Position& position) {
  if (position.IsGameOver() || kTotalPlies - position.Ply() > kMaxSolvePlies) return std::nullopt;
  searcher_->NewGame();
  SearchLimits limits;
  limits.depth = kTotalPlies;  // to the end of any game: the search proves its value
  ExactSolution solution;
  Position line = position;
  bool first = true;
  std::uint64_t nodes_left = kSolveNodes;
  while (!line.IsGameOver()) {
    limits.nodes = nodes_left;
    const SearchResult result = searcher_->Search(line, limits, SearchCallbacks{});
    if (result.nodes >= nodes_left) return std::nullopt;
    nodes_left -= result.nodes;
    if (!result.best.exact || result.best.move.IsNone()) return std::nullopt;
    const int first_view =
        line.SideToMove() == Player::kFirst ? result.best.score : -result.best.score;
    if (first) {
      solution.value = first_view;
      first = false;
    } else if (first_view != solution.value) {
      return std::nullopt;  // the best line must keep the value it was solved with
    }
    line.Play(result.best.move);
  }
  solution.final_scores = {line.Score(Player::kFirst), line.Score(Player::kSecond)};
  const int margin = kPoint * (solution.final_scores[0] - solution.final_scores[1]);
  if (margin != solution.value) return std::nullopt;
  solution.result = margin > 0   ? GameResult::kFirstWins
                    : margin < 0 ? GameResult::kSecondWins
                                 : GameResult::kDraw;
  return solution;
}

}  // namespace divercite
