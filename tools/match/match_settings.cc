#include "tools/match/match_settings.h"

#include <fstream>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

absl::Status Bad(absl::string_view message) { return absl::InvalidArgumentError(message); }

absl::StatusOr<double> Seconds(absl::string_view key, absl::string_view text) {
  double value = 0;
  if (!absl::SimpleAtod(text, &value) || !(value >= 0)) {
    return Bad(absl::StrCat(key, "=", text, ": expected a number of seconds"));
  }
  return value;
}

// Applies one KEY=VALUE of -engine or -each to `spec`.
absl::Status ApplyEngineField(absl::string_view field, EngineSpec& spec) {
  const size_t equals = field.find('=');
  if (equals == absl::string_view::npos || equals == 0) {
    return Bad(absl::StrCat("'", field, "': expected KEY=VALUE"));
  }
  const absl::string_view key = field.substr(0, equals);
  const absl::string_view value = field.substr(equals + 1);
  if (key == "cmd") {
    spec.config.command = std::string(value);
  } else if (key == "name") {
    spec.config.name = std::string(value);
  } else if (key == "arg") {
    spec.config.arguments.emplace_back(value);
  } else if (absl::StartsWith(key, "option.") && key.size() > 7) {
    const std::string name(key.substr(7));
    auto& options = spec.config.options;
    auto existing = std::find_if(options.begin(), options.end(),
                                 [&](const auto& option) { return option.first == name; });
    if (existing != options.end()) {
      existing->second = std::string(value);
    } else {
      options.emplace_back(name, std::string(value));
    }
  } else if (key == "tc" || key == "st" || key == "depth" || key == "nodes") {
    absl::StatusOr<TimeControl> tc = ParseTimeControl(key, value);
    if (!tc.ok()) return tc.status();
    spec.time_control = *tc;
  } else {
    return Bad(absl::StrCat("'", field, "': unknown engine setting '", key,
                            "' (cmd, name, arg, option.NAME, tc, st, depth, nodes)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> PositiveInt(absl::string_view flag, absl::string_view text) {
  int value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < 1) {
    return Bad(absl::StrCat(flag, " ", text, ": expected a positive integer"));
  }
  return value;
}

}  // namespace

absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view key, absl::string_view value) {
  TimeControl tc;
  tc.text = absl::StrCat(key, "=", value);
  if (key == "tc") {
    if (value == "inf") {
      tc.kind = TimeControl::Kind::kUnlimited;
      return tc;
    }
    const std::vector<absl::string_view> parts = absl::StrSplit(value, '+');
    if (parts.size() > 2) return Bad(absl::StrCat(tc.text, ": expected BASE or BASE+INC"));
    absl::StatusOr<double> base = Seconds(key, parts[0]);
    if (!base.ok()) return base.status();
    double increment = 0;
    if (parts.size() == 2) {
      absl::StatusOr<double> inc = Seconds(key, parts[1]);
      if (!inc.ok()) return inc.status();
      increment = *inc;
    }
    if (*base <= 0) return Bad(absl::StrCat(tc.text, ": the base time must be positive"));
    tc.kind = TimeControl::Kind::kClock;
    tc.base_ms = static_cast<std::int64_t>(*base * 1000);
    tc.increment_ms = static_cast<std::int64_t>(increment * 1000);
  } else if (key == "st") {
    absl::StatusOr<double> seconds = Seconds(key, value);
    if (!seconds.ok()) return seconds.status();
    if (*seconds <= 0) return Bad(absl::StrCat(tc.text, ": must be positive"));
    tc.kind = TimeControl::Kind::kMoveTime;
    tc.movetime_ms = static_cast<std::int64_t>(*seconds * 1000);
  } else if (key == "depth") {
    absl::StatusOr<int> depth = PositiveInt(key, value);
    if (!depth.ok()) return depth.status();
    tc.kind = TimeControl::Kind::kDepth;
    tc.depth = *depth;
  } else if (key == "nodes") {
    std::uint64_t nodes = 0;
    if (!absl::SimpleAtoi(value, &nodes) || nodes == 0) {
      return Bad(absl::StrCat(tc.text, ": expected a positive integer"));
    }
    tc.kind = TimeControl::Kind::kNodes;
    tc.nodes = nodes;
  } else {
    return Bad(absl::StrCat("unknown time control '", key, "'"));
  }
  return tc;
}

absl::StatusOr<MatchSettings> ParseMatchSettings(const std::vector<std::string>& args) {
  MatchSettings settings;
  std::vector<std::string> each;
  size_t i = 0;
  // The values of the flag at args[i]: the arguments up to the next flag.
  auto values = [&]() {
    std::vector<std::string> out;
    while (i + 1 < args.size() && !absl::StartsWith(args[i + 1], "-")) out.push_back(args[++i]);
    return out;
  };
  auto single = [&](absl::string_view flag) -> absl::StatusOr<std::string> {
    const std::vector<std::string> v = values();
    if (v.size() != 1) return Bad(absl::StrCat(flag, " takes exactly one value"));
    return v[0];
  };
  for (; i < args.size(); ++i) {
    const std::string flag = args[i];
    if (flag == "-engine") {
      EngineSpec spec;
      for (const std::string& field : values()) {
        if (absl::Status s = ApplyEngineField(field, spec); !s.ok()) {
          return Bad(absl::StrCat("-engine ", s.message()));
        }
      }
      settings.engines.push_back(spec);
    } else if (flag == "-each") {
      for (const std::string& field : values()) each.push_back(field);
    } else if (flag == "-games" || flag == "-rounds" || flag == "-concurrency" ||
               flag == "-ratinginterval") {
      absl::StatusOr<std::string> text = single(flag);
      if (!text.ok()) return text.status();
      absl::StatusOr<int> n = PositiveInt(flag, *text);
      if (!n.ok()) return n.status();
      (flag == "-games"           ? settings.games
       : flag == "-rounds"        ? settings.rounds
       : flag == "-concurrency"   ? settings.concurrency
                                  : settings.rating_interval) = *n;
    } else if (flag == "-repeat") {
      settings.repeat = true;
    } else if (flag == "-seed") {
      absl::StatusOr<std::string> text = single(flag);
      if (!text.ok()) return text.status();
      if (!absl::SimpleAtoi(*text, &settings.seed)) {
        return Bad(absl::StrCat("-seed ", *text, ": expected an integer"));
      }
    } else if (flag == "-records" || flag == "-text") {
      absl::StatusOr<std::string> text = single(flag);
      if (!text.ok()) return text.status();
      (flag == "-records" ? settings.records_path : settings.text_path) = *text;
    } else if (flag == "-stalltimeout" || flag == "-maxmovetime") {
      absl::StatusOr<std::string> text = single(flag);
      if (!text.ok()) return text.status();
      absl::StatusOr<double> seconds = Seconds(flag, *text);
      if (!seconds.ok()) return seconds.status();
      (flag == "-stalltimeout" ? settings.stall_timeout : settings.max_move_time) =
          absl::Milliseconds(*seconds * 1000);
    } else if (flag == "-openings") {
      const std::vector<std::string> v = values();
      if (v.size() == 1 && absl::StartsWith(v[0], "file=")) {
        settings.openings_file = v[0].substr(5);
      } else if (v.size() == 2 && v[0] == "random" && absl::StartsWith(v[1], "plies=")) {
        int plies = 0;
        if (!absl::SimpleAtoi(v[1].substr(6), &plies) || plies < 0 || plies >= kTotalPlies) {
          return Bad(absl::StrCat("-openings random ", v[1], ": plies must be 0 to 39"));
        }
        settings.random_opening_plies = plies;
      } else {
        return Bad("-openings: expected 'file=PATH' or 'random plies=N'");
      }
    } else if (flag == "-sprt") {
      SprtParameters sprt;
      for (const std::string& field : values()) {
        const std::vector<std::string> kv = absl::StrSplit(field, absl::MaxSplits('=', 1));
        double value = 0;
        if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &value)) {
          return Bad(absl::StrCat("-sprt ", field, ": expected KEY=NUMBER"));
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
          return Bad(absl::StrCat("-sprt ", field, ": unknown key (elo0, elo1, alpha, beta)"));
        }
      }
      if (!(sprt.alpha > 0 && sprt.alpha < 1 && sprt.beta > 0 && sprt.beta < 1) ||
          sprt.elo1 <= sprt.elo0) {
        return Bad("-sprt: need 0 < alpha, beta < 1 and elo0 < elo1");
      }
      settings.sprt = sprt;
    } else if (flag == "-tournament") {
      absl::StatusOr<std::string> text = single(flag);
      if (!text.ok()) return text.status();
      if (*text != "roundrobin") {
        return Bad(absl::StrCat("-tournament ", *text, ": only 'roundrobin' is supported"));
      }
      settings.round_robin = true;
    } else {
      return Bad(absl::StrCat("unknown argument '", flag, "'"));
    }
  }
  for (EngineSpec& spec : settings.engines) {
    // -each fills in what an engine did not set itself.
    EngineSpec defaults;
    for (const std::string& field : each) {
      if (absl::Status s = ApplyEngineField(field, defaults); !s.ok()) {
        return Bad(absl::StrCat("-each ", s.message()));
      }
    }
    if (spec.config.command.empty()) spec.config.command = defaults.config.command;
    if (spec.config.arguments.empty()) spec.config.arguments = defaults.config.arguments;
    if (spec.time_control.kind == TimeControl::Kind::kNone) {
      spec.time_control = defaults.time_control;
    }
    for (const auto& option : defaults.config.options) {
      auto& options = spec.config.options;
      if (std::none_of(options.begin(), options.end(),
                       [&](const auto& o) { return o.first == option.first; })) {
        options.insert(options.begin(), option);
      }
    }
  }
  if (settings.engines.size() < 2) return Bad("at least two -engine are needed");
  if (settings.engines.size() > 2 && !settings.round_robin) {
    return Bad("more than two engines need -tournament roundrobin");
  }
  if (settings.sprt && settings.engines.size() != 2) return Bad("-sprt needs exactly two engines");
  for (size_t e = 0; e < settings.engines.size(); ++e) {
    EngineSpec& spec = settings.engines[e];
    if (spec.config.command.empty()) {
      return Bad(absl::StrCat("engine ", e + 1, " has no cmd="));
    }
    if (spec.time_control.kind == TimeControl::Kind::kNone) {
      return Bad(absl::StrCat("engine ", e + 1,
                              " has no time control (tc=, st=, depth= or nodes=)"));
    }
    if (spec.config.name.empty()) spec.config.name = spec.config.command;
    for (size_t other = 0; other < e; ++other) {
      if (settings.engines[other].config.name == spec.config.name) {
        return Bad(absl::StrCat("two engines are named '", spec.config.name,
                                "': give them different name="));
      }
    }
  }
  return settings;
}

absl::StatusOr<Opening> ParseOpening(absl::string_view line) {
  Opening opening;
  opening.text = std::string(absl::StripAsciiWhitespace(line));
  std::vector<absl::string_view> words = absl::StrSplit(opening.text, ' ', absl::SkipEmpty());
  size_t next = 0;
  opening.start = Position::Start();
  opening.start_string = "startpos";
  if (!words.empty() && words[0] == "startpos") {
    next = 1;
  } else if (!words.empty() && absl::StrContains(words[0], '/')) {
    if (words.size() < 2) return Bad(absl::StrCat("opening '", line, "': missing the side"));
    absl::StatusOr<Position> start = ParsePositionString(absl::StrCat(words[0], " ", words[1]));
    if (!start.ok()) {
      return Bad(absl::StrCat("opening '", line, "': ", start.status().message()));
    }
    opening.start = *start;
    opening.start_string = absl::StrCat("fen ", words[0], " ", words[1]);
    next = 2;
  }
  if (next < words.size() && words[next] == "moves") ++next;
  const std::vector<absl::string_view> moves(words.begin() + next, words.end());
  absl::StatusOr<Position> end = PlayMoveTexts(opening.start, moves);
  if (!end.ok()) return Bad(absl::StrCat("opening '", line, "': ", end.status().message()));
  if (end->IsGameOver()) return Bad(absl::StrCat("opening '", line, "': the game is over"));
  for (absl::string_view move : moves) opening.moves.emplace_back(move);
  return opening;
}

absl::StatusOr<std::vector<Opening>> LoadOpenings(const MatchSettings& settings, int count) {
  std::vector<Opening> openings;
  if (!settings.openings_file.empty()) {
    std::ifstream in(settings.openings_file);
    if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", settings.openings_file));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const absl::string_view text = absl::StripAsciiWhitespace(line);
      if (text.empty() || text[0] == '#') continue;
      absl::StatusOr<Opening> opening = ParseOpening(text);
      if (!opening.ok()) {
        return Bad(absl::StrCat(settings.openings_file, ":", number, ": ",
                                opening.status().message()));
      }
      openings.push_back(*opening);
    }
    if (openings.empty()) return Bad(absl::StrCat(settings.openings_file, ": no opening"));
    return openings;
  }
  // Random openings: uniform legal moves, reproducible from the seed.
  std::mt19937_64 rng(settings.seed);
  for (int k = 0; k < count; ++k) {
    Opening opening;
    opening.start = Position::Start();
    opening.start_string = "startpos";
    Position position = opening.start;
    for (int ply = 0; ply < settings.random_opening_plies; ++ply) {
      const MoveList moves = LegalMoves(position);
      const Move move = moves[static_cast<int>(rng() % moves.size())];
      opening.moves.push_back(MoveToString(move));
      position.Play(move);
    }
    opening.text = opening.moves.empty() ? "startpos" : absl::StrJoin(opening.moves, " ");
    openings.push_back(opening);
  }
  return openings;
}

std::string UsageText() {
  return R"(divercite-match: engine-versus-engine matches and tournaments over the protocol.

  divercite-match -engine cmd=PATH name=NAME [arg=A]... [option.NAME=VALUE]... TC
                  -engine ... [-each KEY=VALUE...]
                  [-games N] [-rounds N] [-repeat] [-concurrency N]
                  [-openings file=PATH | -openings random plies=N] [-seed N]
                  [-records FILE.jsonl] [-text FILE] [-ratinginterval N]
                  [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-tournament roundrobin]
                  [-stalltimeout SECONDS] [-maxmovetime SECONDS]

  TC: tc=BASE[+INC] seconds per game (the course: tc=900), st=SECONDS per move,
      depth=N, nodes=N, or tc=inf (the engine's own schedule).
  Games per pair = games x rounds; -repeat plays each opening with both colours.
  -records appends one JSON line per finished game; started again with the same file, the
  match resumes where it stopped.
)";
}

}  // namespace divercite
