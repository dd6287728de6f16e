#include "tools/match/scheduler.h"

#include <algorithm>
#include <map>
#include <utility>

namespace divercite {

int TotalGames(const MatchSettings& settings) {
  const int n = static_cast<int>(settings.engines.size());
  const int pairs = settings.gauntlet() ? n - 1 : n * (n - 1) / 2;
  return settings.rounds * settings.games * pairs;
}

// Each pair of engines counts its games across rounds and swaps colours on every other one
// (with -games 1 too: the first player has an edge); with -repeat, the two games of a colour
// swap share an opening.
std::vector<ScheduledGame> Schedule(const MatchSettings& settings, int opening_count) {
  std::vector<ScheduledGame> games;
  const int n = static_cast<int>(settings.engines.size());
  struct PairState {
    int played = 0;   // games of these two engines scheduled so far
    int opening = 0;  // the opening of their current colour swap, which also numbers the
                      // swap for the pentanomial statistics
  };
  std::map<std::pair<int, int>, PairState> pairs;
  int next_opening = 0;
  for (int round = 0; round < settings.rounds; ++round) {
    for (int a = 0; a < (settings.gauntlet() ? std::min(n, 1) : n); ++a) {
      for (int b = a + 1; b < n; ++b) {
        PairState& state = pairs[{a, b}];
        for (int g = 0; g < settings.games; ++g, ++state.played) {
          ScheduledGame game;
          game.game = static_cast<int>(games.size());
          game.round = round;
          const bool swapped = state.played % 2 == 1;
          game.first = swapped ? b : a;
          game.second = swapped ? a : b;
          if (settings.repeat) {
            if (!swapped) state.opening = next_opening++;
            game.opening = state.opening;
            game.pair = state.opening;
          } else {
            game.opening = next_opening++;
            game.pair = -1;
          }
          game.opening %= opening_count;
          games.push_back(game);
        }
      }
    }
  }
  return games;
}

std::vector<int> ShardAssignment(const std::vector<ScheduledGame>& schedule, int shards) {
  // The units in the order of their first game: each a list of game indices.
  std::vector<std::vector<int>> units;
  std::map<int, size_t> unit_of_pair;
  for (const ScheduledGame& game : schedule) {
    if (game.pair >= 0) {
      const auto [it, inserted] = unit_of_pair.try_emplace(game.pair, units.size());
      if (inserted) units.emplace_back();
      units[it->second].push_back(game.game);
    } else {
      units.push_back({game.game});
    }
  }
  std::vector<int> shard_of(schedule.size(), 0);
  std::vector<int> sizes(std::max(shards, 1), 0);
  for (const std::vector<int>& unit : units) {
    const int shard =
        static_cast<int>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
    sizes[shard] += static_cast<int>(unit.size());
    for (int game : unit) shard_of[game] = shard;
  }
  return shard_of;
}

std::vector<ScheduledGame> ShardOf(const std::vector<ScheduledGame>& schedule,
                                   const ShardSpec& shard) {
  const std::vector<int> shard_of = ShardAssignment(schedule, shard.count);
  std::vector<ScheduledGame> games;
  for (const ScheduledGame& game : schedule) {
    if (shard_of[game.game] == shard.index - 1) games.push_back(game);
  }
  return games;
}

}  // namespace divercite
