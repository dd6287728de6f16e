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
#include <cstdint>
#include <memory>
#include <numbers>

#include "agents/agents_internal.h"
#include "agents/uct_tree.h"

namespace divercite {
namespace {

// A node's value: its wins from the view of the player who moved into it.
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
    tree_.Reset(position);
    nodes_ = 0;
    for (int iteration = 0;; ++iteration) {
      if (iteration > 0) {
        if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) break;
        if (timed ? Clock::now() >= deadline : iteration >= iterations_) break;
      }
      Iterate();
    }
    const int best = tree_.MostVisitedChild(UctTree::kRoot);
    return best == UctTree::kNoNode ? RandomLegalMove(position, rng_) : tree_[best].move;
  }

  std::uint64_t nodes() const override { return nodes_; }

 private:
  void Iterate() {
    // 1. Selection.
    int node = UctTree::kRoot;
    while (tree_[node].untried_count == 0 && tree_[node].first_child != UctTree::kNoNode) {
      node = tree_.BestChild(node, kUctExploration);
      ++nodes_;
    }
    // 2. Expansion.
    if (!tree_[node].position.IsGameOver() && tree_[node].untried_count != 0) {
      node = tree_.ExpandRandom(node, rng_);
      ++nodes_;
    }
    // 3. Simulation: uniformly random moves to the end.
    const GameResult result = PlayOutRandomly(tree_[node].position, rng_, nodes_).Result();
    // 4. Backpropagation.
    for (; node != UctTree::kNoNode; node = tree_[node].parent) {
      ++tree_[node].visits;
      tree_[node].value += Credit(result, Opponent(tree_[node].position.SideToMove()));
    }
  }

  AgentRng rng_;
  int iterations_;
  UctTree tree_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeMctsAgent(std::uint64_t seed, int iterations) {
  return std::make_unique<MctsAgent>(seed, iterations);
}

}  // namespace divercite
