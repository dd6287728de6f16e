// Who plays whom in a match or round-robin tournament: with which opening and colours, in
// which round, and which games pair up for the pentanomial statistics. A pure function of
// the settings, so that a resumed run plays exactly the games missing from its records.
#ifndef DIVERCITE_TOOLS_MATCH_SCHEDULER_H_
#define DIVERCITE_TOOLS_MATCH_SCHEDULER_H_

#include <vector>

#include "tools/match/match_settings.h"

namespace divercite {

struct ScheduledGame {
  int game;   // index in the schedule, from 0
  int round;  // from 0
  int pair;   // the colour swap the game belongs to (-repeat), else -1
  int first;  // the engine (index into the settings' engines) that moves first
  int second;
  int opening;  // index into the openings

  friend bool operator==(const ScheduledGame&, const ScheduledGame&) = default;
};

// Games per pair of engines per round (-games), times rounds, times pairs of engines.
int TotalGames(const MatchSettings& settings);

// The games in the order they are numbered and played: round by round, pair of engines by
// pair, `games` games each, on `opening_count` openings used in turn (and again from the
// first when there are fewer openings than games).
std::vector<ScheduledGame> Schedule(const MatchSettings& settings, int opening_count);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_SCHEDULER_H_
