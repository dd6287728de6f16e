// `mcts`: plain UCT with uniform random playouts, in the conventional form of the course's
// Connect-4 notebook (seeds/003, `mcts_search`), since the Divercité seeds show no pure MCTS:
//   - every node keeps its wins from the view of the player who moved into it (1 for a win,
//     0.5 for a draw), so each level maximises for the player choosing there;
//   - selection descends by UCB1 = wins/visits + c * sqrt(ln(parent visits) / visits) while the
//     node is fully expanded and has children; expansion adds one untried move drawn
//     uniformly; the playout is uniformly random to the end of the game;
//   - the move played is the root child with the most visits (the first one on ties).
// c is sqrt(2) (the notebook writes 1.414). nodes() counts the positions visited: the tree
// steps of the selections, the expanded children and every position of the playouts.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <vector>

#include "engine/movegen.h"
#include "search/agents/agents_internal.h"

namespace divercite {
namespace {

constexpr double kExploration = std::numbers::sqrt2;
constexpr int kNoNode = -1;

struct Node {
  Position position;
  double wins = 0.0;  // from the view of the player who moved into this node
  int visits = 0;
  int parent = kNoNode;
  int first_child = kNoNode;  // children in the order they were added
  int last_child = kNoNode;
  int next_sibling = kNoNode;
  // The moves not expanded yet: untried_count of them from untried_begin in the arena;
  // untried_count < 0 until the node is first expanded (the notebook lists them at creation;
  // generating them lazily changes nothing, a node without children is never descended).
  int untried_begin = 0;
  int untried_count = -1;
  Move move;
};

double Credit(GameResult result, Player mover) {
  if (result == GameResult::kDraw) return 0.5;
  const Player winner = result == GameResult::kFirstWins ? Player::kFirst : Player::kSecond;
  return winner == mover ? 1.0 : 0.0;
}

class MctsAgent final : public Agent {
 public:
  MctsAgent(std::uint64_t seed, int iterations) : rng_(seed), iterations_(iterations) {}

  Move ChooseMove(const Position& position, const AgentLimits& limits) override {
    using Clock = std::chrono::steady_clock;
    const bool timed = limits.movetime_ms > 0;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(limits.movetime_ms);
    tree_.clear();
    untried_.clear();
    nodes_ = 0;
    tree_.push_back(Node{.position = position, .move = Move::None()});
    for (int iteration = 0;; ++iteration) {
      if (iteration > 0) {
        if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) break;
        if (timed ? Clock::now() >= deadline : iteration >= iterations_) break;
      }
      Iterate();
    }
    int best = kNoNode;
    for (int child = tree_[0].first_child; child != kNoNode; child = tree_[child].next_sibling) {
      if (best == kNoNode || tree_[child].visits > tree_[best].visits) best = child;
    }
    return best == kNoNode ? RandomLegalMove(position, rng_) : tree_[best].move;
  }

  std::uint64_t nodes() const override { return nodes_; }

 private:
  static Player Mover(const Node& node) { return Opponent(node.position.SideToMove()); }

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
              : node.wins / node.visits + kExploration * std::sqrt(log_visits / node.visits);
      if (best == kNoNode || value > best_value) {
        best = child;
        best_value = value;
      }
    }
    return best;
  }

  // Adds a uniformly drawn untried move of `parent` as its last child; returns the child.
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
    Node child{.position = node.position, .parent = parent, .move = move};
    child.position.Play(move);
    ++nodes_;
    const int index = static_cast<int>(tree_.size());
    if (node.last_child == kNoNode) {
      node.first_child = index;
    } else {
      tree_[node.last_child].next_sibling = index;
    }
    node.last_child = index;
    tree_.push_back(child);  // invalidates `node`
    return index;
  }

  void Iterate() {
    // 1. Selection.
    int node = 0;
    while (tree_[node].untried_count == 0 && tree_[node].first_child != kNoNode) {
      node = BestChild(node);
      ++nodes_;
    }
    // 2. Expansion.
    if (!tree_[node].position.IsGameOver() && tree_[node].untried_count != 0) {
      node = Expand(node);
    }
    // 3. Simulation: uniformly random moves to the end.
    Position playout = tree_[node].position;
    while (!playout.IsGameOver()) {
      playout.Play(RandomLegalMove(playout, rng_));
      ++nodes_;
    }
    // 4. Backpropagation.
    const GameResult result = playout.Result();
    for (; node != kNoNode; node = tree_[node].parent) {
      ++tree_[node].visits;
      tree_[node].wins += Credit(result, Mover(tree_[node]));
    }
  }

  AgentRng rng_;
  int iterations_;
  std::vector<Node> tree_;
  std::vector<Move> untried_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeMctsAgent(std::uint64_t seed, int iterations) {
  return std::make_unique<MctsAgent>(seed, iterations);
}

}  // namespace divercite
