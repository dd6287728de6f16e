// The two agents without search: `random` (uniform over the legal moves) and `greedy` (the
// course's one-move greedy player, quirk included).
#include <cstdint>
#include <memory>

#include "agents/agents_internal.h"
#include "engine/movegen.h"

namespace divercite {

Move RandomCityMove(const Position& position, AgentRng& rng) {
  MoveList cities;
  ForEachLegalMove(position, [&cities](Move move) {
    if (move.kind() == Kind::kCity) cities.Add(move);
  });
  // Cannot happen on the plies the seeds use it (0 and 1), but keep the move legal anyway.
  if (cities.empty()) return RandomLegalMove(position, rng);
  return cities[RandomIndex(rng, cities.size())];
}

// The course code:
//   best_action = next(possible_actions)
//   best_score = best_action.get_next_game_state().scores[self.get_id()]
//   for action in possible_actions:
//       if action.get_next_game_state().scores[self.get_id()] > best_score:
//           best_action = action
// best_score is never updated, so the result is the *last* move beating the first one (from
// the empty board nothing beats the first move, RC14).
Move GreedyMove(const Position& position, std::uint64_t& nodes) {
  const Player me = position.SideToMove();
  MoveList moves;
  GenerateMoves(position, moves);
  Position first = position;
  first.Play(moves[0]);
  ++nodes;
  const int first_score = first.Score(me);
  Move best = moves[0];
  for (int i = 1; i < moves.size(); ++i) {
    // Play(), not ScoreChange(): after the 40th move the score includes the tie-break.
    Position child = position;
    child.Play(moves[i]);
    ++nodes;
    if (child.Score(me) > first_score) best = moves[i];
  }
  return best;
}

namespace {

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  Move ChooseMove(const Position& position, const AgentLimits&) override {
    return RandomLegalMove(position, rng_);
  }

 private:
  AgentRng rng_;
};

class GreedyAgent final : public Agent {
 public:
  Move ChooseMove(const Position& position, const AgentLimits&) override {
    nodes_ = 0;
    return GreedyMove(position, nodes_);
  }
  std::uint64_t nodes() const override { return nodes_; }

 private:
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeRandomAgent(std::uint64_t seed) {
  return std::make_unique<RandomAgent>(seed);
}

std::unique_ptr<Agent> MakeGreedyAgent() { return std::make_unique<GreedyAgent>(); }

}  // namespace divercite
