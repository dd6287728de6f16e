// The settings of a match or tournament, as the command line gives them (cli.h parses it;
// the defaults below are those of a flag left out).
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "engine/enum_names.h"
#include "tools/match/engine_spec.h"
#include "tools/match/match_stats.h"

namespace divercite {

// Who plays whom: two engines, every engine against every other (-tournament roundrobin),
// or the first engine against each of the others (-tournament gauntlet).
enum class Tournament { kMatch, kRoundRobin, kGauntlet };
// Its words, -tournament's and the match report's ("match" is only the report's: two engines
// without -tournament).
inline constexpr EnumName<Tournament> kTournamentNames[] = {{Tournament::kMatch, "match"},
                                                            {Tournament::kRoundRobin, "roundrobin"},
                                                            {Tournament::kGauntlet, "gauntlet"}};
static_assert(NamesAreDistinct(kTournamentNames));

// -shard K/N: the K-th (from 1) of N parts of the schedule (scheduler.h).
struct ShardSpec {
  int index = 1;
  int count = 1;
};

struct MatchSettings {
  std::vector<EngineSpec> engines;
  int games = 1;  // per pair of engines per round
  int rounds = 1;
  bool repeat = false;  // each opening twice, colours swapped
  int concurrency = 1;
  std::string openings_file;
  int random_opening_plies = 0;
  bool openings_random_order = false;  // order=random: the file's openings shuffled (-seed)
  int openings_start = 1;              // start=N: the first opening used, from 1
  std::uint64_t seed = 1;
  std::string records_path;
  std::string text_path;
  std::string html_dir;     // -html DIR: the match report (match_report.h)
  std::string log_path;     // -log file=F: every protocol line, per engine and game
  std::string live_path;    // -live F: the games as they go, a JSON line per event (live_log.h)
  int rating_interval = 0;  // print the statistics every N games (0: at the end only)
  std::optional<SprtParameters> sprt;
  Tournament tournament = Tournament::kMatch;
  absl::Duration stall_timeout = absl::Seconds(10);
  // Start, `uci` -> `uciok` and the first `isready`; none: the stall timeout.
  std::optional<absl::Duration> startup_timeout;
  absl::Duration max_move_time = absl::Seconds(300);
  // -adjudicate exact plies=N: end a game once both engines reported the same exact score
  // for N consecutive moves and the runner's own solve confirms it (0: off).
  int adjudicate_plies = 0;
  // -maxplies N: end a game still going after N moves of the engines (0: off), as cut.
  int max_plies = 0;
  // -cputime: each move's processor time and run-queue wait measured and recorded.
  bool measure_cpu = false;
  std::optional<ShardSpec> shard;
  std::vector<std::string> merge_files;  // -merge: report on these records, play nothing

  bool gauntlet() const { return tournament == Tournament::kGauntlet; }
  absl::Duration StartupTimeout() const { return startup_timeout.value_or(stall_timeout); }
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_SETTINGS_H_
