// divercite-match's command line, in the manner of cutechess-cli and fastchess:
//
//   divercite-match -engine cmd=PATH name=NAME [arg=A]... [option.NAME=VALUE]... [TC]
//                   -engine ...  [-each KEY=VALUE...]
//                   [-games N] [-rounds N] [-repeat] [-concurrency N]
//                   [-openings file=PATH [order=sequential|random] [start=N]
//                    | -openings random plies=N [start=N]] [-seed N]
//                   [-records FILE] [-text FILE] [-log file=FILE] [-live FILE]
//                   [-ratinginterval N]
//                   [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-tournament roundrobin|gauntlet]
//                   [-adjudicate exact plies=N] [-maxplies N] [-cputime]
//                   [-startuptimeout SECONDS]
//                   [-stalltimeout SECONDS] [-maxmovetime SECONDS] [-shard K/N]
//   divercite-match -merge FILE... [-records FILE] [-text FILE] <the match's flags>
//   divercite-match -ratings FILE...    (merge.h)
//   divercite-match -compliance CMD [arg=A]... [option.NAME=VALUE]... (compliance.h)
//
// TC is a time control (time_control.h); the engine fields are in engine_spec.h. Each flag
// is one entry of a table (cli.cc): its name, how many values it takes, and the handler that
// applies them to the settings.
#ifndef DIVERCITE_TOOLS_MATCH_CLI_H_
#define DIVERCITE_TOOLS_MATCH_CLI_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/match/match_settings.h"

namespace divercite {

// Parses argv[1..]; errors name the offending argument.
absl::StatusOr<MatchSettings> ParseMatchSettings(const std::vector<std::string>& args);

// The text of --help.
std::string UsageText();

// A warning when the games played at once can ask for more threads than the machine has
// `cores`: each game thinks with one engine at a time, so a game needs its engines' larger
// `Threads` option (1 when not set). Engines that share cores lose time on their clocks, and
// a thread-scaling match measures the machine instead. Empty when the threads fit.
std::string OversubscriptionWarning(const MatchSettings& settings, int cores);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_CLI_H_
