// Who plays whom in a match, round robin or gauntlet: with which opening and colours, in
// which round, and which games pair up for the pentanomial statistics. A pure function of
// the settings, so that a resumed run plays exactly the games missing from its records, and
// so that the shards of a match (-shard K/N), run apart, together play it whole.
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

// Games per pair of engines per round (-games), times rounds, times pairs of engines (every
// pair in a match or round robin; the first engine's pairs in a gauntlet).
int TotalGames(const MatchSettings& settings);

// The games in the order they are numbered and played: round by round, pair of engines by
// pair, `games` games each, on `opening_count` openings used in turn (and again from the
// first when there are fewer openings than games).
std::vector<ScheduledGame> Schedule(const MatchSettings& settings, int opening_count);

// The shard (0 to shards - 1) of each game of `schedule`, by its index. The units are the
// colour swaps (the games of one `pair`, kept together) and the unpaired games, taken in
// the order of their first game; each goes to the shard with the fewest games so far (the
// lowest on a tie). So every game is in exactly one shard, the shards interleave along the
// schedule, and their sizes differ by at most one pair.
std::vector<int> ShardAssignment(const std::vector<ScheduledGame>& schedule, int shards);

// The games of `shard` (-shard K/N) of `schedule`, in schedule order, with their numbers in
// the whole schedule.
std::vector<ScheduledGame> ShardOf(const std::vector<ScheduledGame>& schedule,
                                   const ShardSpec& shard);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_SCHEDULER_H_
