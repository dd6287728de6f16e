// The record of one finished game, as appended to the -records file (one JSON line):
//
//   {"game":12,"round":3,"pair":6,"p1":"engine","p2":"skypiea_v5","result":"1-0",
//    "termination":"normal","reason":"","opening":"RC14 GR04","start":"startpos",
//    "tc":["tc=10+0.1","tc=inf"],
//    "moves":[{"move":"BC23","ms":120,"score":35,"exact":false},...],"final":[21,14]}
//
// p1 moves first. `moves` are the engines' moves after the opening; `score` is the last
// score the mover reported (centipoints, its own view), absent if none. `termination` is
// normal, time, illegal, crash or stall; `reason` says more for the abnormal ones.
#ifndef DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_
#define DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/common/json.h"

namespace divercite {

struct MoveRecord {
  std::string move;
  std::int64_t ms = 0;
  std::optional<int> score_cp;
  bool exact = false;
};

struct GameRecord {
  int game = 0;  // index in the match schedule, from 0
  int round = 0;
  int pair = -1;  // games on the same opening with colours swapped share it (-repeat)
  int first_engine = 0, second_engine = 1;  // indices into the match's engines
  std::string p1, p2;
  std::string result;       // "1-0", "0-1" or "1/2-1/2"
  std::string termination;  // "normal", "time", "illegal", "crash", "stall"
  std::string reason;
  std::string start;    // "startpos" or "fen <rows> <side>"
  std::string opening;  // the opening moves, space separated
  std::array<std::string, 2> time_controls;
  std::vector<MoveRecord> moves;
  std::array<int, 2> final_scores{};

  // Points for the first player: 1, 1/2 or 0.
  double FirstPlayerPoints() const {
    return result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
  }

  JsonValue ToJson() const;
  static absl::StatusOr<GameRecord> FromJson(const JsonValue& json);
  // A readable form for -text.
  std::string ToText() const;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_
