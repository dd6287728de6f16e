// The course agents from the seeds (../shared/seeds/), replicated so that our engine can be
// measured against them through the same protocol (`setoption name Agent value <name>`).
// Each agent is a move chooser over the rules library; none uses the engine's search.
#ifndef DIVERCITE_AGENTS_AGENT_H_
#define DIVERCITE_AGENTS_AGENT_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

struct AgentLimits {
  // Wall-clock budget for this move in ms, 0 = none (agents with a fixed depth ignore it;
  // `mcts` uses it when it runs by time).
  std::int64_t movetime_ms = 0;
  // Set from another thread to ask for the move now (agents may ignore it if they are fast).
  const std::atomic<bool>* stop = nullptr;
};

class Agent {
 public:
  virtual ~Agent() = default;
  // A legal move for `position` (which is not over). Deterministic for a given seed and
  // sequence of calls.
  virtual Move ChooseMove(const Position& position, const AgentLimits& limits) = 0;
  // Nodes (states) visited by the last ChooseMove, for reporting.
  virtual std::uint64_t nodes() const { return 0; }
};

// The agents' names, in a stable order: random, greedy, little_garden, water_seven,
// skypiea_v2, skypiea_v5, mcts, impel_down.
const std::vector<absl::string_view>& AgentNames();

// A new agent by name, its randomness seeded by `seed`; nullptr for an unknown name.
std::unique_ptr<Agent> MakeAgent(absl::string_view name, std::uint64_t seed);

}  // namespace divercite

#endif  // DIVERCITE_AGENTS_AGENT_H_
