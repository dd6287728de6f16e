// The settings of a match or tournament, parsed from a cutechess-cli / fastchess style
// command line:
//
//   divercite-match -engine cmd=PATH name=NAME [arg=A]... [option.NAME=VALUE]... [TC]
//                   -engine ...  [-each KEY=VALUE...]
//                   [-games N] [-rounds N] [-repeat] [-concurrency N]
//                   [-openings file=PATH | -openings random plies=N] [-seed N]
//                   [-records FILE] [-text FILE] [-ratinginterval N]
//                   [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-tournament roundrobin]
//                   [-stalltimeout SECONDS] [-maxmovetime SECONDS]
//
// TC is one of tc=BASE[+INC] (seconds per game, plus increment per move; the course's is
// tc=900), st=SECONDS (per move), depth=N, nodes=N, or tc=inf (plain `go`: the engine's own
// schedule, bounded only by -maxmovetime).
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/position.h"
#include "tools/match/engine_client.h"
#include "tools/match/match_stats.h"

namespace divercite {

struct TimeControl {
  enum class Kind { kNone, kClock, kMoveTime, kDepth, kNodes, kUnlimited };
  Kind kind = Kind::kNone;
  std::int64_t base_ms = 0;
  std::int64_t increment_ms = 0;
  std::int64_t movetime_ms = 0;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string text;  // as given, for records
};

// Parses the value of tc=, st=, depth= or nodes=.
absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view key, absl::string_view value);

struct EngineSpec {
  EngineConfig config;
  TimeControl time_control;
};

struct Opening {
  std::string text;                // as written in the file, or the random moves
  Position start;                  // the position the moves start from
  std::string start_string;        // its position string ("startpos" when the start)
  std::vector<std::string> moves;  // played from `start` before the engines take over
};

struct MatchSettings {
  std::vector<EngineSpec> engines;
  int games = 1;   // per pair of engines per round
  int rounds = 1;
  bool repeat = false;  // each opening twice, colours swapped
  int concurrency = 1;
  std::string openings_file;
  int random_opening_plies = 0;
  std::uint64_t seed = 1;
  std::string records_path;
  std::string text_path;
  int rating_interval = 0;  // print the statistics every N games (0: at the end only)
  std::optional<SprtParameters> sprt;
  bool round_robin = false;
  absl::Duration stall_timeout = absl::Seconds(10);
  absl::Duration max_move_time = absl::Seconds(300);
};

// Parses argv[1..]; errors name the offending argument.
absl::StatusOr<MatchSettings> ParseMatchSettings(const std::vector<std::string>& args);

// The openings: from the file, or `count` random ones (uniform legal moves, from `seed`).
absl::StatusOr<std::vector<Opening>> LoadOpenings(const MatchSettings& settings, int count);

// Reads one opening line: a position string optionally followed by `moves ...`, or a move
// list (from the start), or "startpos [moves ...]".
absl::StatusOr<Opening> ParseOpening(absl::string_view line);

std::string UsageText();

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
