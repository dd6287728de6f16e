// `impel_down`: the seeds' MCTS -> alpha-beta hybrid (seeds/000, annex "Code Impel Down"),
// with its Impel Down evaluation (rates 4 and 4) throughout:
//   - plies 0-1: the greedy move ("if current_state.get_step() < 2: return self.greedy(...)");
//   - plies 2-9: mcts_taylorsVersion(state, simple=True, max_root_children=10, 15000);
//   - from ply 10: alpha-beta, depth 4 while both players hold >= 12 pieces, else 6.
//
// Its MCTS is replicated with its peculiarities:
//   - the root's children are fixed up front: the 10 moves whose resulting position evaluates
//     best (sorted descending, ties in generation order), and the root counts as fully
//     expanded;
//   - a playout is uniformly random to the end of the game and its outcome is the evaluation
//     of the final position from the agent's own view (the final score difference: no pieces
//     are left); that same outcome is added at *every* node on the way up, so every level
//     of the tree maximises for the agent, the opponent's levels included;
//   - UCT = value/visits + sqrt(2) * sqrt(ln(parent visits) / visits), unvisited = +inf, the
//     first child wins ties; a new child is drawn uniformly among the untried moves;
//   - the move played is the root child with the most visits (the first one on ties).
// nodes(): in the MCTS phase, the positions visited (tree steps, new children, playout
// positions); otherwise as the greedy move or CourseSearch count them.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <numbers>

#include "agents/agents_internal.h"
#include "agents/course_evaluation.h"
#include "agents/course_search.h"
#include "agents/uct_tree.h"
#include "engine/movegen.h"

namespace divercite {
namespace {

constexpr int kGreedyPlies = 2;  // "if current_state.get_step() < 2"
constexpr int kMctsPlies = 10;   // "if current_state.get_step() < 10"
constexpr int kMaxRootChildren = 10;

class ImpelDownAgent final : public Agent {
 public:
  ImpelDownAgent(std::uint64_t seed, int iterations) : rng_(seed), iterations_(iterations) {}

  Move ChooseMove(const Position& position, const AgentLimits&) override {
    nodes_ = 0;
    if (position.Ply() < kGreedyPlies) return GreedyMove(position, nodes_);
    const CourseEvaluator evaluate(kImpelDownEvaluation, position.SideToMove());
    if (position.Ply() < kMctsPlies) return Mcts(position, evaluate);
    CourseSearch search(evaluate);
    const Move move = search.AlphaBeta(position, SkypieaV2Depth(position));
    nodes_ = search.nodes();
    return move;
  }

  std::uint64_t nodes() const override { return nodes_; }

 private:
  // is_fully_expanded(): the root once it has its 10 children; another node once it has a
  // child for every legal move (a finished game's node has none to add). With fewer than 10
  // legal moves the course code would try to expand the root with nothing left and crash;
  // that cannot happen on plies 2-9 (over 100 moves), and counting the root as full once it
  // has all its moves keeps this replica safe anywhere.
  bool FullyExpanded(int index) const {
    const UctTree::Node& node = tree_[index];
    if (index == UctTree::kRoot) return node.children == root_children_;
    return node.children == node.position.CountLegalMoves();
  }

  Move Mcts(const Position& position, const CourseEvaluator& evaluate) {
    tree_.Reset(position);

    // The root's children: sorted(actions, key=evaluation of the child, reverse=True)[:10].
    struct ScoredMove {
      double value;
      int order;
      Move move;
    };
    std::array<ScoredMove, kMaxMoves> scored;
    int count = 0;
    ForEachLegalMove(position, [&](Move move) {
      Position child = position;
      child.Play(move);
      scored[count] = {evaluate(child), count, move};
      ++count;
    });
    const int kept = std::min(count, kMaxRootChildren);
    std::partial_sort(scored.begin(), scored.begin() + kept, scored.begin() + count,
                      [](const ScoredMove& a, const ScoredMove& b) {
                        return a.value > b.value || (a.value == b.value && a.order < b.order);
                      });
    for (int i = 0; i < kept; ++i) {
      tree_.AddChild(UctTree::kRoot, scored[i].move);
      ++nodes_;
    }
    root_children_ = kept;

    for (int iteration = 0; iteration < iterations_; ++iteration) {
      // Select.
      int node = UctTree::kRoot;
      while (tree_[node].first_child != UctTree::kNoNode && FullyExpanded(node)) {
        node = tree_.BestChild(node, kUctExploration);
        ++nodes_;
      }
      // Expand.
      if (!tree_[node].position.IsGameOver() && !FullyExpanded(node)) {
        node = tree_.ExpandRandom(node, rng_);
        ++nodes_;
      }
      // Simulate (simpleSimulation).
      const double outcome = evaluate(PlayOutRandomly(tree_[node].position, rng_, nodes_));
      // Backpropagate: the same outcome at every level.
      for (; node != UctTree::kNoNode; node = tree_[node].parent) {
        ++tree_[node].visits;
        tree_[node].value += outcome;
      }
    }
    return tree_[tree_.MostVisitedChild(UctTree::kRoot)].move;
  }

  AgentRng rng_;
  int iterations_;
  int root_children_ = 0;
  UctTree tree_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeImpelDownAgent(std::uint64_t seed, int iterations) {
  return std::make_unique<ImpelDownAgent>(seed, iterations);
}

}  // namespace divercite
