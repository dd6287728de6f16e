// What the agent families share inside the agents library (and what the tests look into):
// the random source, the greedy move, the factories behind MakeAgent(), and the depth
// schedules. Not part of the public interface (agent.h).
#ifndef DIVERCITE_AGENTS_AGENTS_INTERNAL_H_
#define DIVERCITE_AGENTS_AGENTS_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <random>

#include "agents/agent.h"
#include "engine/move.h"
#include "engine/movegen.h"
#include "engine/position.h"

namespace divercite {

// Every agent draws from its own generator seeded by MakeAgent's seed, so games replay.
using AgentRng = std::mt19937_64;

// Uniform in [0, size), size > 0.
inline int RandomIndex(AgentRng& rng, int size) {
  return std::uniform_int_distribution<int>(0, size - 1)(rng);
}

// A uniformly random legal move (the course agents' `random.choice` over the actions), the
// legal moves in the engine's order (NthLegalMove, engine/movegen.h).
inline Move RandomLegalMove(const Position& position, AgentRng& rng) {
  return NthLegalMove(position, RandomIndex(rng, position.CountLegalMoves()));
}

// A uniformly random legal city move; any legal move if the side to move has no city left.
Move RandomCityMove(const Position& position, AgentRng& rng);

// The course's greedy player (Impel Down's `greedy`): scans the moves in generation order,
// compares each one's resulting mover score with the *first* move's only, and keeps the last
// one that beats it. `nodes` counts the positions it looked at.
Move GreedyMove(const Position& position, std::uint64_t& nodes);

// Depth schedules, both counting every piece either player still holds (= plies left).
// skypiea_v2 and Impel Down's alpha-beta phase: 4 while >= 12 pieces are left, else 6.
int SkypieaV2Depth(const Position& position);
// skypiea_v5's calculate_depth: 2 / 4 / 5 / 7 for >= 35 / >= 24 / >= 16 / fewer pieces left.
int SkypieaV5Depth(const Position& position);

inline constexpr int kDefaultMctsIterations = 2000;
inline constexpr int kImpelDownIterations = 15000;

std::unique_ptr<Agent> MakeRandomAgent(std::uint64_t seed);
std::unique_ptr<Agent> MakeGreedyAgent();
std::unique_ptr<Agent> MakeLittleGardenAgent(std::uint64_t seed);
std::unique_ptr<Agent> MakeWaterSevenAgent(std::uint64_t seed);
std::unique_ptr<Agent> MakeSkypieaV2Agent(std::uint64_t seed);
std::unique_ptr<Agent> MakeSkypieaV5Agent(std::uint64_t seed);
// `iterations` is used when AgentLimits::movetime_ms is 0.
std::unique_ptr<Agent> MakeMctsAgent(std::uint64_t seed, int iterations = kDefaultMctsIterations);
// `iterations`: MCTS iterations of the plies 2-9 phase (the seeds' 15 000; fewer in tests).
std::unique_ptr<Agent> MakeImpelDownAgent(std::uint64_t seed,
                                          int iterations = kImpelDownIterations);

}  // namespace divercite

#endif  // DIVERCITE_AGENTS_AGENTS_INTERNAL_H_
