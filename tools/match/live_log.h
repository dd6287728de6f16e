// The live file of a match (-live FILE): the games as they are played, one JSON line per
// event, for whoever follows them (the arena's live game pages). Each line is written whole
// and flushed at once, lines of games played at the same time never interleave within a
// line, and the file is appended to. Every line has "event", "game" (the game's number in the
// records, from 0) and "time" (when the runner wrote it, UTC to the millisecond):
//
//   {"event":"start","game":0,"time":"2026-11-24T03:41:07.512Z","p1":"engine","p2":"v5",
//    "start":"startpos","opening":"RC14","tc":["tc=10","tc=10"],"ply":1,
//    "clocks":[10000,10000],"to_move":"p2"}
//   {"event":"move","game":0,"time":"2026-11-24T03:41:07.845Z","ply":2,"move":"BC23",
//    "ms":331,"clocks":[10000,9669],"to_move":"p1"}
//   ...
//   {"event":"end","game":0,"time":"2026-11-24T03:41:19.020Z","ply":40,"result":"1-0",
//    "termination":"normal","reason":"","final":[21,14]}
//
// "start": once both engines are ready, with the players (p1 moves first), the start
// position and opening as the record has them (`start`, `opening`, `tc`), "ply" the plies
// already played from `start` (the opening's), the clocks and who moves. "move": after each
// engine move, "ply" the plies played from `start` once it is on the board (the opening's
// included, as in the records), the move, the wall time it used ("ms", as recorded), both
// clocks after it was charged (its increment included), and who moves next (null once the
// board is full). "end": how the game ended, as its record says (`result`, `termination`,
// `reason`, `final`), "ply" the plies played; a game whose engine could not start has no
// "start" line. "clocks" are the time left on each side's game clock in ms, null for a side
// without one (st=, depth=, nodes=, tc=inf); "to_move" is "p1" or "p2".
#ifndef DIVERCITE_TOOLS_MATCH_LIVE_LOG_H_
#define DIVERCITE_TOOLS_MATCH_LIVE_LOG_H_

#include <array>
#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/common/json.h"
#include "tools/records/game_record.h"

namespace divercite {

// Both sides' clocks: ms left, none for a side without a game clock.
using LiveClocks = std::array<std::optional<std::int64_t>, 2>;

class LiveLog {
 public:
  // Opens `path` to append to it; an error naming the flag and the path if it cannot.
  static absl::StatusOr<std::unique_ptr<LiveLog>> Open(const std::string& path);

  // The lines above; `record` holds the game's players, start, opening and time controls
  // (GameStarted) or its end (GameEnded). `to_move`: 0 (p1), 1 (p2), none once over.
  // Each is safe from several threads.
  void GameStarted(int game, const GameRecord& record, int ply, const LiveClocks& clocks,
                   std::optional<int> to_move);
  void MovePlayed(int game, int ply, absl::string_view move, std::int64_t ms,
                  const LiveClocks& clocks, std::optional<int> to_move);
  void GameEnded(int game, const GameRecord& record, int ply);

 private:
  explicit LiveLog(std::ofstream out) : out_(std::move(out)) {}

  // The event's first members: "event", "game", "time".
  static Json Event(absl::string_view event, int game);
  void Write(const Json& line);

  std::mutex mutex_;
  std::ofstream out_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_LIVE_LOG_H_
