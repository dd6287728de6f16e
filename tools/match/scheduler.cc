#include "tools/match/scheduler.h"

#include <map>
#include <utility>

namespace divercite {

int TotalGames(const MatchSettings& settings) {
  const int n = static_cast<int>(settings.engines.size());
  return settings.rounds * settings.games * n * (n - 1) / 2;
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
    for (int a = 0; a < n; ++a) {
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

}  // namespace divercite
