// The tree both MCTS agents grow (`mcts`, and `impel_down` on plies 2-9): nodes in one arena,
// children kept in the order they were added (the course code's dicts), untried moves drawn
// uniformly, and UCT selection where the first child wins ties. What a node's value means
// (whose view, which outcome) is the agent's business.
#ifndef DIVERCITE_AGENTS_UCT_TREE_H_
#define DIVERCITE_AGENTS_UCT_TREE_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include "agents/agents_internal.h"
#include "engine/movegen.h"
#include "engine/position.h"

namespace divercite {

// The course's MCTS agents' exploration constant c (both use the square root of 2).
inline constexpr double kUctExploration = std::numbers::sqrt2;

class UctTree {
 public:
  static constexpr int kNoNode = -1;
  static constexpr int kRoot = 0;

  struct Node {
    Position position;
    double value = 0.0;  // the sum of the outcomes credited to this node
    int visits = 0;
    int parent = kNoNode;
    int first_child = kNoNode;
    int last_child = kNoNode;
    int next_sibling = kNoNode;
    int children = 0;
    // The moves not expanded yet: untried_count of them from untried_begin in the arena;
    // untried_count < 0 until the node is first expanded (the course code lists them at
    // creation; listing them lazily changes nothing, a node without children is never
    // descended).
    int untried_begin = 0;
    int untried_count = -1;
    Move move;
  };

  void Reset(const Position& root) {
    nodes_.clear();
    untried_.clear();
    nodes_.push_back(Node{.position = root, .move = Move::None()});
  }

  Node& operator[](int index) { return nodes_[index]; }
  const Node& operator[](int index) const { return nodes_[index]; }

  // Appends the position after `move` as the last child of `parent`; returns its index.
  int AddChild(int parent, Move move) {
    Node child{.position = nodes_[parent].position, .parent = parent, .move = move};
    child.position.Play(move);
    const int index = static_cast<int>(nodes_.size());
    Node& node = nodes_[parent];
    if (node.last_child == kNoNode) {
      node.first_child = index;
    } else {
      nodes_[node.last_child].next_sibling = index;
    }
    node.last_child = index;
    ++node.children;
    nodes_.push_back(child);  // invalidates `node`
    return index;
  }

  // Adds a uniformly drawn untried move of `parent` as its last child; returns the child.
  int ExpandRandom(int parent, AgentRng& rng) {
    if (nodes_[parent].untried_count < 0) {
      MoveList moves;
      GenerateMoves(nodes_[parent].position, moves);
      nodes_[parent].untried_begin = static_cast<int>(untried_.size());
      nodes_[parent].untried_count = moves.size();
      untried_.insert(untried_.end(), moves.begin(), moves.end());
    }
    Node& node = nodes_[parent];
    const int pick = node.untried_begin + RandomIndex(rng, node.untried_count);
    const Move move = untried_[pick];
    untried_[pick] = untried_[node.untried_begin + --node.untried_count];
    return AddChild(parent, move);
  }

  // The child of best UCT value, value/visits + c * sqrt(ln(parent visits) / visits), an
  // unvisited child first; the first of equal values.
  int BestChild(int parent, double exploration) const {
    const double log_visits = std::log(static_cast<double>(nodes_[parent].visits));
    int best = kNoNode;
    double best_value = -std::numeric_limits<double>::infinity();
    for (int child = nodes_[parent].first_child; child != kNoNode;
         child = nodes_[child].next_sibling) {
      const Node& node = nodes_[child];
      const double value = node.visits == 0 ? std::numeric_limits<double>::infinity()
                                            : node.value / node.visits +
                                                  exploration * std::sqrt(log_visits / node.visits);
      if (best == kNoNode || value > best_value) {
        best = child;
        best_value = value;
      }
    }
    return best;
  }

  // The most visited child of `parent` (the first on ties), kNoNode if it has none.
  int MostVisitedChild(int parent) const {
    int best = kNoNode;
    for (int child = nodes_[parent].first_child; child != kNoNode;
         child = nodes_[child].next_sibling) {
      if (best == kNoNode || nodes_[child].visits > nodes_[best].visits) best = child;
    }
    return best;
  }

 private:
  std::vector<Node> nodes_;
  std::vector<Move> untried_;
};

// A playout: uniformly random moves from `position` to the end of the game, each counted in
// `nodes`; returns the final position.
inline Position PlayOutRandomly(Position position, AgentRng& rng, std::uint64_t& nodes) {
  while (!position.IsGameOver()) {
    position.Play(RandomLegalMove(position, rng));
    ++nodes;
  }
  return position;
}

}  // namespace divercite

#endif  // DIVERCITE_AGENTS_UCT_TREE_H_
