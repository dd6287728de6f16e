// The record of one finished game, as appended to the -records file (one JSON line):
//
//   {"game":12,"round":3,"pair":6,"p1":"engine","p2":"skypiea_v5","result":"1-0",
//    "termination":"normal","reason":"","start":"startpos","opening":"RC14 GR04",
//    "engines":[0,1],"tc":["tc=10+0.1","tc=inf"],
//    "moves":[{"move":"BC23","ms":120,"score":35,"exact":false},...,
//             {"move":"GR46","ms":310,"score":300,"exact":false,"proven":"win"},...],
//    "final":[21,14]}
//
// p1 moves first. `moves` are the engines' moves after the opening; `score` is the last
// score the mover reported (centipoints, its own view), absent if none; `exact`: that score
// is the exact final margin; `proven`: the mover reported a proven result with its move
// (`info string proven win|draw|loss`, its own view), absent if it proved none. A proven
// result that is not exact makes the score a bound: at least that margin for a win, at most
// for a loss. `termination` is normal, time, illegal, crash, stall, limit, adjudication or
// maxplies;
// `reason` says more for the others than normal (for limit it starts with the limit's reason,
// the engine's words: "memory limit: its processes may use 2048 MB together (2057 MB in use)
// (mine)"). An adjudicated game (-adjudicate) ends before the board is full: `final` is then
// the scores at the end of the runner's solved best line. A game cut by -maxplies is a draw
// ("maxplies") with the scores on the board when it was cut. With -cputime, each move has
// "cpu" and "wait" (ms: the mover's processor time, and its threads' wait for a core), and
// the record "cpu" and "wait" per engine (p1's first) over the whole game, the move that
// lost it included. A record is valid UTF-8: an
// engine's words reach its reason through ValidUtf8 (child_process.h), and the writer
// (DumpJson) replaces any other ill-formed byte.
//
// Reading: "game", "result", "p1" and "p2" are required; every other member may be absent
// (its default below) but, when present, must have its type. A result or termination text
// other than those above is an error naming it.
#ifndef DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_
#define DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/game_result.h"
#include "tools/common/json.h"

namespace divercite {

// How a game ended, from the first player's (p1's) view, is a GameResult
// (engine/game_result.h), written by GameResultText: "1-0", "0-1", "1/2-1/2". A record's game
// is over: reading any other text, the ongoing game's "*" included, is an error naming it.
absl::StatusOr<GameResult> ParseGameResult(absl::string_view text);

// Why a game ended: on the board, or lost by an engine on time, by an illegal or garbled
// move, by a crash, by not answering, or by a resource limit of the sandbox it runs in (it
// said so: `info string limit:`, docs/protocol.md), or decided by the runner's exact solve
// once both engines agreed on the exact result (-adjudicate), or cut after -maxplies moves.
// Text: "normal", "time", "illegal", "crash", "stall", "limit", "adjudication", "maxplies".
enum class Termination {
  kNormal,
  kTime,
  kIllegal,
  kCrash,
  kStall,
  kLimit,
  kAdjudication,
  kMaxPlies
};
absl::string_view TerminationText(Termination termination);
absl::StatusOr<Termination> ParseTermination(absl::string_view text);

struct MoveRecord {
  std::string move;
  std::int64_t ms = 0;
  std::optional<int> score_cp;
  bool exact = false;
  ProvenResult proven = ProvenResult::kUnknown;  // the mover's view
  // -cputime: the mover's processor time and run-queue wait during the move, in ms.
  std::optional<std::int64_t> cpu_ms = std::nullopt, wait_ms = std::nullopt;
};

struct GameRecord {
  int game = 0;  // index in the match schedule, from 0
  int round = 0;
  int pair = -1;  // games on the same opening with colours swapped share it (-repeat)
  int first_engine = 0, second_engine = 1;  // indices into the match's engines
  std::string p1, p2;
  GameResult result = GameResult::kDraw;  // never kOngoing
  Termination termination = Termination::kNormal;
  std::string reason;
  std::string start;    // "startpos" or "fen <rows> <side>"
  std::string opening;  // the opening moves, space separated
  std::array<std::string, 2> time_controls;
  std::vector<MoveRecord> moves;
  std::array<int, 2> final_scores{};
  // -cputime: each engine's processor time and run-queue wait over the game, in ms.
  std::optional<std::array<std::int64_t, 2>> cpu_ms, wait_ms;

  // Points for the first player: 1, 1/2 or 0.
  double FirstPlayerPoints() const;
  // Points for the match's engine `engine` (first_engine or second_engine): 1, 1/2 or 0.
  double PointsOf(int engine) const;

  Json ToJson() const;
  // Errors name the member that is missing, mistyped or unknown.
  static absl::StatusOr<GameRecord> FromJson(const Json& json);
  // A readable form for -text.
  std::string ToText() const;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_RECORDS_GAME_RECORD_H_
