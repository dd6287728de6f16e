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
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <vector>

#include "engine/movegen.h"
#include "search/agents/agents_internal.h"
#include "search/agents/course_evaluation.h"
#include "search/agents/course_search.h"

namespace divercite {
namespace {

constexpr int kGreedyPlies = 2;  // "if current_state.get_step() < 2"
constexpr int kMctsPlies = 10;   // "if current_state.get_step() < 10"
constexpr int kMaxRootChildren = 10;
constexpr double kExploration = std::numbers::sqrt2;
constexpr int kNoNode = -1;

struct Node {
  Position position;
  double value = 0.0;  // sum of the outcomes, all from the agent's view
  int visits = 0;
  int parent = kNoNode;
  int first_child = kNoNode;  // children in the order they were added (a Python dict)
  int last_child = kNoNode;
  int next_sibling = kNoNode;
  int children = 0;
  // Untried moves: untried_count of them from untried_begin in the arena, listed at the
  // node's first expansion (untried_count < 0 before).
  int untried_begin = 0;
  int untried_count = -1;
  Move move;
};

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
  int AddChild(int parent, Move move) {
    Node child{.position = tree_[parent].position, .parent = parent, .move = move};
    child.position.Play(move);
    ++nodes_;
    const int index = static_cast<int>(tree_.size());
    Node& node = tree_[parent];
    if (node.last_child == kNoNode) {
      node.first_child = index;
    } else {
      tree_[node.last_child].next_sibling = index;
    }
    node.last_child = index;
    ++node.children;
    tree_.push_back(child);
    return index;
  }

  // is_fully_expanded(): the root once it has its 10 children; another node once it has a
  // child for every legal move (a finished game's node has none to add). With fewer than 10
  // legal moves the course code would try to expand the root with nothing left and crash;
  // that cannot happen on plies 2-9 (over 100 moves), and counting the root as full once it
  // has all its moves keeps this replica safe anywhere.
  bool FullyExpanded(int index) const {
    const Node& node = tree_[index];
    if (index == 0) return node.children == root_children_;
    return node.children == node.position.CountLegalMoves();
  }

  int BestChild(int parent) const {
    const double log_visits = std::log(static_cast<double>(tree_[parent].visits));
    int best = kNoNode;
    double best_value = -std::numeric_limits<double>::infinity();
    for (int child = tree_[parent].first_child; child != kNoNode;
         child = tree_[child].next_sibling) {
      const Node& node = tree_[child];
      const double value =
          node.visits == 0
              ? std::numeric_limits<double>::infinity()
              : node.value / node.visits + kExploration * std::sqrt(log_visits / node.visits);
      if (best == kNoNode || value > best_value) {
        best = child;
        best_value = value;
      }
    }
    return best;
  }

  int Expand(int parent) {
    if (tree_[parent].untried_count < 0) {
      MoveList moves;
      GenerateMoves(tree_[parent].position, moves);
      tree_[parent].untried_begin = static_cast<int>(untried_.size());
      tree_[parent].untried_count = moves.size();
      untried_.insert(untried_.end(), moves.begin(), moves.end());
    }
    Node& node = tree_[parent];
    const int pick = node.untried_begin + RandomIndex(rng_, node.untried_count);
    const Move move = untried_[pick];
    untried_[pick] = untried_[node.untried_begin + --node.untried_count];
    return AddChild(parent, move);
  }

  Move Mcts(const Position& position, const CourseEvaluator& evaluate) {
    tree_.clear();
    untried_.clear();
    tree_.push_back(Node{.position = position, .move = Move::None()});

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
    for (int i = 0; i < kept; ++i) AddChild(0, scored[i].move);
    root_children_ = kept;

    for (int iteration = 0; iteration < iterations_; ++iteration) {
      // Select.
      int node = 0;
      while (tree_[node].first_child != kNoNode && FullyExpanded(node)) {
        node = BestChild(node);
        ++nodes_;
      }
      // Expand.
      if (!tree_[node].position.IsGameOver() && !FullyExpanded(node)) node = Expand(node);
      // Simulate (simpleSimulation).
      Position playout = tree_[node].position;
      while (!playout.IsGameOver()) {
        playout.Play(RandomLegalMove(playout, rng_));
        ++nodes_;
      }
      const double outcome = evaluate(playout);
      // Backpropagate: the same outcome at every level.
      for (; node != kNoNode; node = tree_[node].parent) {
        ++tree_[node].visits;
        tree_[node].value += outcome;
      }
    }

    int best = kNoNode;
    for (int child = tree_[0].first_child; child != kNoNode; child = tree_[child].next_sibling) {
      if (best == kNoNode || tree_[child].visits > tree_[best].visits) best = child;
    }
    return tree_[best].move;
  }

  AgentRng rng_;
  int iterations_;
  int root_children_ = 0;
  std::vector<Node> tree_;
  std::vector<Move> untried_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeImpelDownAgent(std::uint64_t seed, int iterations) {
  return std::make_unique<ImpelDownAgent>(seed, iterations);
}

}  // namespace divercite
