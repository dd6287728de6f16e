// The registry of the course agents: names and construction by name.
#include "agents/agent.h"

#include "agents/agents_internal.h"

namespace divercite {

const std::vector<absl::string_view>& AgentNames() {
  static const auto* const kNames =
      new std::vector<absl::string_view>{"random",     "greedy",     "little_garden", "water_seven",
                                         "skypiea_v2", "skypiea_v5", "mcts",          "impel_down"};
  return *kNames;
}

std::unique_ptr<Agent> MakeAgent(absl::string_view name, std::uint64_t seed) {
  if (name == "random") return MakeRandomAgent(seed);
  if (name == "greedy") return MakeGreedyAgent();  // deterministic: no randomness to seed
  if (name == "little_garden") return MakeLittleGardenAgent(seed);
  if (name == "water_seven") return MakeWaterSevenAgent(seed);
  if (name == "skypiea_v2") return MakeSkypieaV2Agent(seed);
  if (name == "skypiea_v5") return MakeSkypieaV5Agent(seed);
  if (name == "mcts") return MakeMctsAgent(seed);
  if (name == "impel_down") return MakeImpelDownAgent(seed);
  return nullptr;
}

}  // namespace divercite
