// The settings of a match or tournament, as the command line gives them (cli.h parses it;
// the defaults below are those of a flag left out).
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tools/match/engine_spec.h"
#include "tools/match/match_stats.h"

namespace divercite {

struct MatchSettings {
  std::vector<EngineSpec> engines;
  int games = 1;  // per pair of engines per round
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

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
