#include "tools/match/cli.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/enum_names.h"
#include "engine/position.h"
#include "tools/match/argument_values.h"

namespace divercite {
namespace {

// The command line as it is read: the settings so far, and the -each fields, which apply
// only once every -engine is known.
struct ParsedArgs {
  MatchSettings settings;
  std::vector<std::string> each;
};

// How many values a flag takes: none, exactly one, or every argument up to the next flag
// (the next one starting with '-'), as KEY=VALUE... lists do.
enum class Arity { kNone, kOne, kUntilNextFlag };

// Applies the values of `flag` (as many as its arity says) to the parsed arguments.
using FlagHandler = std::function<absl::Status(
    absl::string_view flag, const std::vector<std::string>& values, ParsedArgs& parsed)>;

struct Flag {
  absl::string_view name;
  Arity arity;
  FlagHandler apply;
};

FlagHandler SetPositiveInt(int MatchSettings::*field) {
  return
      [field](absl::string_view flag, const std::vector<std::string>& values, ParsedArgs& parsed) {
        absl::StatusOr<int> n = ParsePositiveInt(flag, values[0]);
        if (!n.ok()) return n.status();
        parsed.settings.*field = *n;
        return absl::OkStatus();
      };
}

FlagHandler SetString(std::string MatchSettings::*field) {
  return [field](absl::string_view, const std::vector<std::string>& values, ParsedArgs& parsed) {
    parsed.settings.*field = values[0];
    return absl::OkStatus();
  };
}

FlagHandler SetSeconds(absl::Duration MatchSettings::*field) {
  return
      [field](absl::string_view flag, const std::vector<std::string>& values, ParsedArgs& parsed) {
        absl::StatusOr<double> seconds = ParseSeconds(flag, values[0]);
        if (!seconds.ok()) return seconds.status();
        parsed.settings.*field = absl::Milliseconds(*seconds * 1000);
        return absl::OkStatus();
      };
}

absl::Status ApplyEngine(absl::string_view, const std::vector<std::string>& values,
                         ParsedArgs& parsed) {
  EngineSpec spec;
  for (const std::string& field : values) {
    if (absl::Status s = ApplyEngineField(field, spec); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("-engine ", s.message()));
    }
  }
  parsed.settings.engines.push_back(spec);
  return absl::OkStatus();
}

absl::Status ApplyEach(absl::string_view, const std::vector<std::string>& values,
                       ParsedArgs& parsed) {
  for (const std::string& field : values) parsed.each.push_back(field);
  return absl::OkStatus();
}

absl::Status ApplyRepeat(absl::string_view, const std::vector<std::string>&, ParsedArgs& parsed) {
  parsed.settings.repeat = true;
  return absl::OkStatus();
}

absl::Status ApplyCpuTime(absl::string_view, const std::vector<std::string>&, ParsedArgs& parsed) {
  parsed.settings.measure_cpu = true;
  return absl::OkStatus();
}

absl::Status ApplyMaxPlies(absl::string_view, const std::vector<std::string>& values,
                           ParsedArgs& parsed) {
  int plies = 0;
  if (!absl::SimpleAtoi(values[0], &plies) || plies < 1 || plies >= kTotalPlies) {
    return absl::InvalidArgumentError(absl::StrCat("-maxplies ", values[0], ": expected 1 to ",
                                                   kTotalPlies - 1, " (a game ends after ",
                                                   kTotalPlies, " moves anyway)"));
  }
  parsed.settings.max_plies = plies;
  return absl::OkStatus();
}

absl::Status ApplySeed(absl::string_view, const std::vector<std::string>& values,
                       ParsedArgs& parsed) {
  if (!absl::SimpleAtoi(values[0], &parsed.settings.seed)) {
    return absl::InvalidArgumentError(absl::StrCat("-seed ", values[0], ": expected an integer"));
  }
  return absl::OkStatus();
}

// -openings file=PATH | random plies=N, then order=sequential|random and start=N.
absl::Status ApplyOpenings(absl::string_view, const std::vector<std::string>& values,
                           ParsedArgs& parsed) {
  MatchSettings& settings = parsed.settings;
  size_t next = 0;
  if (!values.empty() && absl::StartsWith(values[0], "file=")) {
    settings.openings_file = values[0].substr(5);
    next = 1;
  } else if (values.size() >= 2 && values[0] == "random" && absl::StartsWith(values[1], "plies=")) {
    int plies = 0;
    if (!absl::SimpleAtoi(values[1].substr(6), &plies) || plies < 0 || plies >= kTotalPlies) {
      return absl::InvalidArgumentError(
          absl::StrCat("-openings random ", values[1], ": plies must be 0 to 39"));
    }
    settings.random_opening_plies = plies;
    next = 2;
  } else {
    return absl::InvalidArgumentError("-openings: expected 'file=PATH' or 'random plies=N'");
  }
  for (; next < values.size(); ++next) {
    const std::string& option = values[next];
    if (option == "order=sequential" || option == "order=random") {
      if (settings.openings_file.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("-openings ", option, ": order= applies to an openings file"));
      }
      settings.openings_random_order = option == "order=random";
    } else if (absl::StartsWith(option, "start=")) {
      absl::StatusOr<int> start = ParsePositiveInt("-openings start=", option.substr(6));
      if (!start.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("-openings ", option, ": expected a positive integer"));
      }
      settings.openings_start = *start;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "-openings ", option, ": expected order=sequential, order=random or start=N"));
    }
  }
  return absl::OkStatus();
}

absl::Status ApplySprt(absl::string_view, const std::vector<std::string>& values,
                       ParsedArgs& parsed) {
  SprtParameters sprt;
  for (const std::string& field : values) {
    const std::vector<std::string> kv = absl::StrSplit(field, absl::MaxSplits('=', 1));
    double value = 0;
    if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &value)) {
      return absl::InvalidArgumentError(absl::StrCat("-sprt ", field, ": expected KEY=NUMBER"));
    }
    if (kv[0] == "elo0") {
      sprt.elo0 = value;
    } else if (kv[0] == "elo1") {
      sprt.elo1 = value;
    } else if (kv[0] == "alpha") {
      sprt.alpha = value;
    } else if (kv[0] == "beta") {
      sprt.beta = value;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("-sprt ", field, ": unknown key (elo0, elo1, alpha, beta)"));
    }
  }
  if (!(sprt.alpha > 0 && sprt.alpha < 1 && sprt.beta > 0 && sprt.beta < 1) ||
      sprt.elo1 <= sprt.elo0) {
    return absl::InvalidArgumentError("-sprt: need 0 < alpha, beta < 1 and elo0 < elo1");
  }
  parsed.settings.sprt = sprt;
  return absl::OkStatus();
}

absl::Status ApplyTournament(absl::string_view, const std::vector<std::string>& values,
                             ParsedArgs& parsed) {
  const std::optional<Tournament> tournament = ValueNamed(kTournamentNames, values[0]);
  if (!tournament || *tournament == Tournament::kMatch) {
    return absl::InvalidArgumentError(
        absl::StrCat("-tournament ", values[0], ": expected 'roundrobin' or 'gauntlet'"));
  }
  parsed.settings.tournament = *tournament;
  return absl::OkStatus();
}

absl::Status ApplyStartupTimeout(absl::string_view flag, const std::vector<std::string>& values,
                                 ParsedArgs& parsed) {
  absl::StatusOr<double> seconds = ParseSeconds(flag, values[0]);
  if (!seconds.ok()) return seconds.status();
  parsed.settings.startup_timeout = absl::Milliseconds(*seconds * 1000);
  return absl::OkStatus();
}

absl::Status ApplyLog(absl::string_view, const std::vector<std::string>& values,
                      ParsedArgs& parsed) {
  if (values.size() != 1 || !absl::StartsWith(values[0], "file=") || values[0].size() == 5) {
    return absl::InvalidArgumentError("-log: expected 'file=PATH'");
  }
  parsed.settings.log_path = values[0].substr(5);
  return absl::OkStatus();
}

absl::Status ApplyAdjudicate(absl::string_view, const std::vector<std::string>& values,
                             ParsedArgs& parsed) {
  int plies = 0;
  if (values.size() != 2 || values[0] != "exact" || !absl::StartsWith(values[1], "plies=") ||
      !absl::SimpleAtoi(values[1].substr(6), &plies)) {
    return absl::InvalidArgumentError("-adjudicate: expected 'exact plies=N'");
  }
  if (plies < 2 || plies > kTotalPlies) {
    return absl::InvalidArgumentError(
        absl::StrCat("-adjudicate exact ", values[1],
                     ": plies must be 2 to 40 (both engines must have said it)"));
  }
  parsed.settings.adjudicate_plies = plies;
  return absl::OkStatus();
}

absl::Status ApplyShard(absl::string_view, const std::vector<std::string>& values,
                        ParsedArgs& parsed) {
  const std::vector<std::string> parts = absl::StrSplit(values[0], '/');
  ShardSpec shard;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &shard.index) ||
      !absl::SimpleAtoi(parts[1], &shard.count) || shard.count < 1 || shard.index < 1 ||
      shard.index > shard.count) {
    return absl::InvalidArgumentError(
        absl::StrCat("-shard ", values[0], ": expected K/N with 1 <= K <= N"));
  }
  parsed.settings.shard = shard;
  return absl::OkStatus();
}

absl::Status ApplyMerge(absl::string_view, const std::vector<std::string>& values,
                        ParsedArgs& parsed) {
  if (values.empty())
    return absl::InvalidArgumentError("-merge: expected one or more records files");
  for (const std::string& file : values) parsed.settings.merge_files.push_back(file);
  return absl::OkStatus();
}

const std::vector<Flag>& Flags() {
  static const std::vector<Flag>* const kFlags = new std::vector<Flag>{
      {"-engine", Arity::kUntilNextFlag, ApplyEngine},
      {"-each", Arity::kUntilNextFlag, ApplyEach},
      {"-games", Arity::kOne, SetPositiveInt(&MatchSettings::games)},
      {"-rounds", Arity::kOne, SetPositiveInt(&MatchSettings::rounds)},
      {"-concurrency", Arity::kOne, SetPositiveInt(&MatchSettings::concurrency)},
      {"-ratinginterval", Arity::kOne, SetPositiveInt(&MatchSettings::rating_interval)},
      {"-repeat", Arity::kNone, ApplyRepeat},
      {"-seed", Arity::kOne, ApplySeed},
      {"-records", Arity::kOne, SetString(&MatchSettings::records_path)},
      {"-text", Arity::kOne, SetString(&MatchSettings::text_path)},
      {"-html", Arity::kOne, SetString(&MatchSettings::html_dir)},
      {"-stalltimeout", Arity::kOne, SetSeconds(&MatchSettings::stall_timeout)},
      {"-maxmovetime", Arity::kOne, SetSeconds(&MatchSettings::max_move_time)},
      {"-openings", Arity::kUntilNextFlag, ApplyOpenings},
      {"-sprt", Arity::kUntilNextFlag, ApplySprt},
      {"-tournament", Arity::kOne, ApplyTournament},
      {"-startuptimeout", Arity::kOne, ApplyStartupTimeout},
      {"-log", Arity::kUntilNextFlag, ApplyLog},
      {"-live", Arity::kOne, SetString(&MatchSettings::live_path)},
      {"-adjudicate", Arity::kUntilNextFlag, ApplyAdjudicate},
      {"-maxplies", Arity::kOne, ApplyMaxPlies},
      {"-cputime", Arity::kNone, ApplyCpuTime},
      {"-shard", Arity::kOne, ApplyShard},
      {"-merge", Arity::kUntilNextFlag, ApplyMerge},
  };
  return *kFlags;
}

// Once every flag is read: -each fills in what each engine did not set itself, and the
// settings must make a match.
absl::Status Complete(ParsedArgs& parsed) {
  MatchSettings& settings = parsed.settings;
  for (EngineSpec& spec : settings.engines) {
    EngineSpec defaults;
    for (const std::string& field : parsed.each) {
      if (absl::Status s = ApplyEngineField(field, defaults); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("-each ", s.message()));
      }
    }
    ApplyEngineDefaults(defaults, spec);
  }
  if (settings.engines.size() < 2)
    return absl::InvalidArgumentError("at least two -engine are needed");
  if (settings.engines.size() > 2 && settings.tournament == Tournament::kMatch) {
    return absl::InvalidArgumentError(
        "more than two engines need -tournament roundrobin or -tournament gauntlet");
  }
  if (settings.shard && !settings.merge_files.empty()) {
    return absl::InvalidArgumentError(
        "-shard plays a part of a match, -merge reports on played ones: not both");
  }
  if (!settings.live_path.empty() && !settings.merge_files.empty()) {
    return absl::InvalidArgumentError(
        "-live follows the games being played, -merge plays none: not both");
  }
  if (settings.sprt && settings.engines.size() != 2)
    return absl::InvalidArgumentError("-sprt needs exactly two engines");
  for (size_t e = 0; e < settings.engines.size(); ++e) {
    EngineSpec& spec = settings.engines[e];
    if (spec.config.command.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("engine ", e + 1, " has no cmd="));
    }
    if (spec.time_control.kind == TimeControl::Kind::kNone) {
      return absl::InvalidArgumentError(
          absl::StrCat("engine ", e + 1, " has no time control (tc=, st=, depth= or nodes=)"));
    }
    if (spec.config.name.empty()) spec.config.name = spec.config.command;
    for (size_t other = 0; other < e; ++other) {
      if (settings.engines[other].config.name == spec.config.name) {
        return absl::InvalidArgumentError(absl::StrCat("two engines are named '", spec.config.name,
                                                       "': give them different name="));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MatchSettings> ParseMatchSettings(const std::vector<std::string>& args) {
  const std::vector<Flag>& flags = Flags();
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto flag =
        std::find_if(flags.begin(), flags.end(), [&](const Flag& f) { return f.name == args[i]; });
    if (flag == flags.end())
      return absl::InvalidArgumentError(absl::StrCat("unknown argument '", args[i], "'"));
    std::vector<std::string> values;
    if (flag->arity != Arity::kNone) {
      while (i + 1 < args.size() && !absl::StartsWith(args[i + 1], "-")) {
        values.push_back(args[++i]);
      }
    }
    if (flag->arity == Arity::kOne && values.size() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(flag->name, " takes exactly one value"));
    }
    if (absl::Status status = flag->apply(flag->name, values, parsed); !status.ok()) {
      return status;
    }
  }
  if (absl::Status status = Complete(parsed); !status.ok()) return status;
  return parsed.settings;
}

std::string UsageText() {
  return R"(divercite-match: engine-versus-engine matches and tournaments over the protocol.

  divercite-match -engine cmd=PATH name=NAME [arg=A]... [option.NAME=VALUE]... TC
                  -engine ... [-each KEY=VALUE...]
                  [-games N] [-rounds N] [-repeat] [-concurrency N]
                  [-openings file=PATH [order=sequential|random] [start=N]
                   | -openings random plies=N [start=N]] [-seed N]
                  [-records FILE.jsonl] [-text FILE] [-log file=FILE] [-live FILE]
                  [-ratinginterval N] [-html DIR] [-sprt elo0=E0 elo1=E1 alpha=A beta=B]
                  [-tournament roundrobin|gauntlet] [-adjudicate exact plies=N]
                  [-maxplies N] [-cputime]
                  [-startuptimeout SECONDS] [-stalltimeout SECONDS] [-maxmovetime SECONDS]
                  [-shard K/N]
  divercite-match -merge FILE.jsonl... [-records MERGED.jsonl] [-text FILE] [-html DIR]
                  <the same flags>
  divercite-match -ratings FILE.jsonl...
  divercite-match -compliance CMD [arg=A]... [option.NAME=VALUE]... [timeout=SECONDS]

  TC: tc=BASE[+INC] seconds per game (the course: tc=900), st=SECONDS per move,
      depth=N, nodes=N, or tc=inf (the engine's own schedule).
  option.NAME=VALUE: checked before the first game against the options the engine lists
  after uci (its name, a spin's range, a combo's choices) and its answer to setoption; a
  refused option stops the run, naming the engine, the option and why.
  Games per pair = games x rounds; -repeat plays each opening with both colours.
  -records appends one JSON line per finished game; started again with the same file, the
  match resumes where it stopped.
  -html DIR: the match report, DIR/index.html (standings, table, chart, clock use, a link
  to each game's replay page in DIR/games/), rewritten after each game and at the end.
  -tournament gauntlet: the first engine against each of the others.
  -openings order=random shuffles the file's openings (with -seed); start=N begins at the
  N-th opening.
  -log file=F: every protocol line sent (>) and received (<), with a timestamp, the game and
  the engine.
  -live FILE: the games as they go, one JSON line per event, appended and flushed at once:
  "start" (players, start, opening, both clocks in ms, to_move), "move" (ply, move, ms,
  both clocks after it, to_move), "end" (result, termination, reason, final).
  -adjudicate exact plies=N: once both engines reported the same exact score for N moves,
  the runner solves the position itself; if its solve agrees, the game ends with that
  result ({adjudication}); if not, it is played on. Off by default.
  -maxplies N: a game still going after N moves (both engines' together) ends there, a
  draw ({maxplies}) with the scores on the board: a short check of an engine that is told
  the whole clock (the arena's first game of a new version). Off by default.
  -cputime: each move's processor time and the time its threads waited for a core, over
  the engine's process and all it started (Linux: the scheduler's statistics), recorded
  as the move's "cpu" and "wait" (ms) and the game's per engine: a game lost on time by
  an engine that waited long for a core was lost to a busy machine.
  -startuptimeout: for an engine's start, uci/uciok and first isready (default: the
  -stalltimeout); -stalltimeout: for isready before each game (default 10 s);
  -maxmovetime: for a move without a clock (default 300 s).
  -shard K/N plays the K-th of N parts of the schedule (colour swaps kept whole, game
  numbers of the whole match; give each shard its own -records). -merge reads the shards'
  records (with the same flags, without -shard) and reports as one run of the match; its
  -records is the merged file. See tools/match/slurm/ for Slurm and GNU parallel.
  -ratings reads any records (the engines told apart by name) and prints the round robin's
  standings as one line of JSON: per engine, best first, its Bradley-Terry Elo and the
  half-width of its 95 % interval (elo_interval, null when unbounded), points, games, score
  and ms per move.
  -compliance checks one engine against the protocol (docs/protocol.md, "Compliance"):
  handshake, isready, each option at its default and bounds, ucinewgame, positions, go
  depth/nodes/movetime/clock, isready during a search, stop within 100 ms, legal
  bestmoves, protocol lines only, quit. One line per check, "ok CHECK", "FAIL CHECK: why"
  or "skip CHECK: why"; exit status 0 if all are ok, 1 if not, 2 for a usage error.
  timeout= is the patience for answers without a limit of their own (default 10 s).
)";
}

std::string OversubscriptionWarning(const MatchSettings& settings, int cores) {
  int most_threads = 1;
  std::string busiest;
  for (const EngineSpec& engine : settings.engines) {
    for (const auto& [name, value] : engine.config.options) {
      int threads = 0;
      if (absl::EqualsIgnoreCase(name, "Threads") && absl::SimpleAtoi(value, &threads) &&
          threads > most_threads) {
        most_threads = threads;
        busiest = engine.config.name;
      }
    }
  }
  const int games_at_once = settings.concurrency;
  if (cores <= 0 || static_cast<long long>(games_at_once) * most_threads <= cores) return "";
  return absl::StrCat("-concurrency ", games_at_once, " with Threads=", most_threads,
                      busiest.empty() ? "" : absl::StrCat(" (", busiest, ")"), " asks for up to ",
                      games_at_once * most_threads, " threads on ", cores,
                      " cores: the engines will share cores and lose time on their clocks");
}

}  // namespace divercite
