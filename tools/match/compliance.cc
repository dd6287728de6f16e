#include "tools/match/compliance.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/enum_names.h"
#include "engine/move.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/client/engine_options.h"
#include "tools/match/compliance_search.h"
#include "tools/match/compliance_session.h"
#include "tools/match/engine_spec.h"

namespace divercite {
namespace {

using compliance_internal::CheckGo;
using compliance_internal::CheckInfinite;
using compliance_internal::ComplianceSession;
using compliance_internal::EngineUnderTest;
using compliance_internal::kFen;
using compliance_internal::kMoves;
using compliance_internal::Ms;
using compliance_internal::PlayedMove;
using compliance_internal::QuotedStart;
using compliance_internal::Wrong;

// The first word of a check's line, by its status.
constexpr EnumName<CheckStatus> kCheckStatusWords[] = {
    {CheckStatus::kOk, "ok"}, {CheckStatus::kFail, "FAIL"}, {CheckStatus::kSkip, "skip"}};
static_assert(NamesAreDistinct(kCheckStatusWords));

// The go limits the checks send: small, so that any engine answers at once.
constexpr int kDepth = 3;
constexpr int kNodes = 1000;
constexpr int kMovetimeMs = 300;
// `go clock`: the second player to move, its clock short and the other long, so that an
// engine reading the wrong clock shows.
constexpr int kClockMs = 1000;
constexpr int kOtherClockMs = 60000;
constexpr int kIncrementMs = 100;

// The first words of UCI's lines from an engine.
bool IsProtocolLine(absl::string_view line) {
  const absl::string_view word = line.substr(0, line.find(' '));
  return word == "id" || word == "option" || word == "uciok" || word == "readyok" ||
         word == "info" || word == "bestmove" || word == "copyprotection" || word == "registration";
}

// The values the option check sets, its default first: a spin's bounds, a check's two
// values, each of a combo's choices. Hash's maximum is memory this machine may not have.
std::vector<std::string> ValuesToTry(const AdvertisedOption& option) {
  std::vector<std::string> values;
  auto add = [&values](const std::string& value) {
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  };
  switch (option.type) {
    case AdvertisedOption::Type::kSpin:
      add(option.default_value);
      if (option.min != std::numeric_limits<std::int64_t>::min()) add(absl::StrCat(option.min));
      if (option.max != std::numeric_limits<std::int64_t>::max() &&
          !absl::EqualsIgnoreCase(option.name, "Hash")) {
        add(absl::StrCat(option.max));
      }
      break;
    case AdvertisedOption::Type::kCheck:
      add(option.default_value);
      add("true");
      add("false");
      break;
    case AdvertisedOption::Type::kCombo:
      add(option.default_value);
      for (const std::string& choice : option.vars) add(choice);
      break;
    case AdvertisedOption::Type::kButton:
      add("");
      break;
    case AdvertisedOption::Type::kString:
    case AdvertisedOption::Type::kOther:
      if (!option.default_value.empty()) add(option.default_value);
      break;
  }
  return values;
}

absl::Status CheckHandshake(ComplianceSession& session) {
  EngineUnderTest& engine = session.engine();
  if (const absl::Status started = engine.Start(session.settings().engine); !started.ok()) {
    session.set_blocked("the engine did not start");
    return Wrong(started.message());
  }
  session.set_blocked("no handshake (no uciok)");
  const absl::Time deadline = session.Deadline();
  if (absl::Status sent = engine.Send("uci"); !sent.ok()) return Wrong(session.Exited("at once"));
  bool name = false, author = false;
  std::vector<std::string> problems;
  while (true) {
    absl::StatusOr<std::string> line = engine.Read(deadline);
    if (!line.ok()) return session.WaitFailed(line.status(), "uciok", session.settings().timeout);
    if (*line == "uciok") break;
    name = name || absl::StartsWith(*line, "id name ");
    author = author || absl::StartsWith(*line, "id author ");
    if (!absl::StartsWith(*line, "option")) continue;
    std::optional<AdvertisedOption> option = ParseOptionLine(*line);
    if (!option || option->type == AdvertisedOption::Type::kOther) {
      problems.push_back(absl::StrCat(QuotedStart(*line), " is no option line of UCI's types"));
    } else {
      session.options().push_back(*std::move(option));
    }
  }
  session.set_handshake_done();
  if (!name) problems.push_back("no 'id name' line");
  if (!author) problems.push_back("no 'id author' line");
  if (!problems.empty()) return Wrong(absl::StrJoin(problems, "; "));
  session.set_blocked("");
  return absl::OkStatus();
}

absl::Status CheckIsready(ComplianceSession& session) {
  EngineUnderTest& engine = session.engine();
  const absl::Time sent = absl::Now();
  absl::Status ready = engine.Ready(sent + kComplianceIsready);
  if (ready.ok()) return absl::OkStatus();
  if (!absl::IsDeadlineExceeded(ready))
    return session.WaitFailed(ready, "readyok", kComplianceIsready);
  ready = engine.AwaitReady(session.Deadline());
  return Wrong(absl::StrCat(
      "no readyok within ", absl::FormatDuration(kComplianceIsready),
      ready.ok() ? absl::StrCat(" (it came after ", Ms(absl::Now() - sent), ")") : ""));
}

absl::Status CheckOptionValues(ComplianceSession& session, const AdvertisedOption& option) {
  std::vector<std::string> problems;
  if (option.type == AdvertisedOption::Type::kSpin) {
    std::int64_t value = 0;
    if (!absl::SimpleAtoi(option.default_value, &value) || value < option.min ||
        value > option.max) {
      problems.push_back(absl::StrCat("its default '", option.default_value,
                                      "' is not an integer from ", option.min, " to ", option.max));
    }
  }
  if (option.type == AdvertisedOption::Type::kCombo &&
      std::find(option.vars.begin(), option.vars.end(), option.default_value) ==
          option.vars.end()) {
    problems.push_back(
        absl::StrCat("its default '", option.default_value, "' is not one of its choices"));
  }
  std::vector<std::string> values = ValuesToTry(option);
  // Back to the default at the end (a button is only pressed).
  if (values.size() > 1 && !option.default_value.empty()) values.push_back(option.default_value);
  for (const std::string& value : values) {
    if (absl::Status status = session.Accepted(SetOptionLine(option, value)); !status.ok()) {
      problems.push_back(std::string(status.message()));
      if (!absl::IsInvalidArgument(status)) break;  // no answer: no use trying the others
    }
  }
  if (!problems.empty()) return Wrong(absl::StrJoin(problems, "; "));
  return absl::OkStatus();
}

absl::Status CheckOptionsGiven(ComplianceSession& session) {
  for (const auto& [name, value] : session.settings().engine.options) {
    absl::StatusOr<AdvertisedOption> option = CheckOption(session.options(), name, value);
    if (!option.ok()) {
      return Wrong(
          absl::StrCat("option '", name, "=", value, "' refused: ", option.status().message()));
    }
    if (absl::Status status = session.Accepted(SetOptionLine(*option, value)); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

CheckResult LegalBestmoves(const ComplianceSession& session) {
  const std::string name = "legal bestmove";
  if (session.played().empty()) {
    return {name, session.blocked().empty() ? CheckStatus::kFail : CheckStatus::kSkip,
            session.blocked().empty() ? "no bestmove came" : session.blocked()};
  }
  std::vector<std::string> illegal;
  for (const PlayedMove& played : session.played()) {
    absl::Status status;
    if (played.move == "(none)") {
      if (!played.position.IsGameOver()) status = Wrong("the position has legal moves");
    } else {
      absl::StatusOr<Move> move = ParseMove(played.move);
      status = move.ok() ? played.position.CheckLegal(*move) : move.status();
    }
    if (!status.ok()) {
      illegal.push_back(absl::StrCat(played.check, ": '", played.move, "' in ",
                                     ToPositionString(played.position), ": ", status.message()));
    }
  }
  if (illegal.empty()) return {name, CheckStatus::kOk, ""};
  return {name, CheckStatus::kFail, absl::StrJoin(illegal, "; ")};
}

CheckResult ProtocolLines(const ComplianceSession& session) {
  std::vector<std::string> others;
  for (const std::string& line : session.engine().lines()) {
    if (!IsProtocolLine(line)) others.push_back(line);
  }
  if (others.empty()) return {"protocol lines", CheckStatus::kOk, ""};
  return {"protocol lines", CheckStatus::kFail,
          others.size() == 1
              ? absl::StrCat("1 line is not a protocol line: ", QuotedStart(others.front()))
              : absl::StrCat(others.size(), " lines are not protocol lines, the first ",
                             QuotedStart(others.front()))};
}

// quit, then the checks of everything seen: legal moves, protocol lines, and quit's own.
void CheckQuitAndWhatWasSeen(ComplianceSession& session) {
  EngineUnderTest& engine = session.engine();
  CheckResult quit{"quit", CheckStatus::kOk, ""};
  if (!engine.started()) {
    quit = {"quit", CheckStatus::kSkip, session.blocked()};
  } else if (engine.closed() || !engine.Send("quit").ok()) {
    quit = {"quit", CheckStatus::kSkip, "the engine had exited"};
  } else if (!engine.process().WaitForExit(kComplianceQuit)) {
    quit = {"quit", CheckStatus::kFail,
            absl::StrCat("the engine still ran ", absl::FormatDuration(kComplianceQuit),
                         " after quit")};
    engine.process().Kill();
  }
  // What it wrote up to its end, for the check of protocol lines.
  while (engine.started() && engine.Read(absl::Now() + absl::Milliseconds(50)).ok()) {
  }
  session.Report(LegalBestmoves(session));
  session.Report(ProtocolLines(session));
  session.Report(quit);
}

// Every check in order against `session`'s engine.
void RunChecks(ComplianceSession& session) {
  session.Check("handshake", [&session] { return CheckHandshake(session); });
  if (!session.blocked().empty() && session.handshake_done()) session.set_blocked("");
  session.Check("isready", [&session] { return CheckIsready(session); });
  for (const AdvertisedOption& option : session.options()) {
    session.Check(absl::StrCat("option ", option.name),
                  [&session, &option] { return CheckOptionValues(session, option); });
  }
  if (!session.settings().engine.options.empty()) {
    session.Check("options given", [&session] { return CheckOptionsGiven(session); });
  }
  session.Check("ucinewgame", [&session] { return session.Accepted("ucinewgame"); });
  session.Check("position startpos", [&session] { return session.Accepted("position startpos"); });
  session.Check("position fen",
                [&session] { return session.Accepted(absl::StrCat("position fen ", kFen)); });
  session.Check("position moves", [&session] {
    return session.Accepted(absl::StrCat("position startpos moves ", kMoves));
  });
  session.Check("go depth", [&session] {
    return CheckGo(session, "go depth", "startpos", absl::StrCat("go depth ", kDepth),
                   std::nullopt);
  });
  session.Check("go nodes", [&session] {
    return CheckGo(session, "go nodes", absl::StrCat("fen ", kFen),
                   absl::StrCat("go nodes ", kNodes), std::nullopt);
  });
  session.Check("go movetime", [&session] {
    return CheckGo(session, "go movetime", absl::StrCat("startpos moves ", kMoves),
                   absl::StrCat("go movetime ", kMovetimeMs),
                   absl::Milliseconds(kMovetimeMs) + kComplianceMovetimeMargin);
  });
  session.Check("go clock", [&session] {
    return CheckGo(session, "go clock", "startpos moves RC14",
                   absl::StrCat("go wtime ", kOtherClockMs, " btime ", kClockMs, " winc ",
                                kIncrementMs, " binc ", kIncrementMs),
                   absl::Milliseconds(kClockMs));
  });
  CheckInfinite(session);
  CheckQuitAndWhatWasSeen(session);
}

}  // namespace

absl::StatusOr<ComplianceSettings> ParseComplianceArgs(const std::vector<std::string>& args) {
  ComplianceSettings settings;
  EngineSpec spec;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (i == 0 && arg.find('=') == std::string::npos) {
      spec.config.command = arg;
    } else if (absl::StartsWith(arg, "timeout=")) {
      double seconds = 0;
      if (!absl::SimpleAtod(arg.substr(8), &seconds) || !(seconds > 0)) {
        return absl::InvalidArgumentError(
            absl::StrCat("-compliance ", arg, ": expected a number of seconds above 0"));
      }
      settings.timeout = absl::Milliseconds(seconds * 1000);
    } else if (absl::StartsWith(arg, "cmd=") || absl::StartsWith(arg, "arg=") ||
               absl::StartsWith(arg, "option.")) {
      if (absl::Status status = ApplyEngineField(arg, spec); !status.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("-compliance ", status.message()));
      }
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("-compliance: unknown argument '", arg,
                       "' (CMD, then arg=A, option.NAME=VALUE, timeout=SECONDS)"));
    }
  }
  if (spec.config.command.empty()) {
    return absl::InvalidArgumentError("-compliance: expected the engine's command");
  }
  settings.engine = spec.config;
  settings.engine.name = settings.engine.command;
  return settings;
}

std::string CheckLine(const CheckResult& result) {
  return absl::StrCat(NameOf(kCheckStatusWords, result.status), " ", result.check,
                      result.status == CheckStatus::kOk ? "" : ": ",
                      result.status == CheckStatus::kOk ? "" : result.detail);
}

std::vector<CheckResult> RunCompliance(const ComplianceSettings& settings, std::ostream& out) {
  ComplianceSession session(settings, out);
  RunChecks(session);
  return session.results();
}

int ComplianceExitStatus(const std::vector<CheckResult>& results) {
  return std::all_of(results.begin(), results.end(),
                     [](const CheckResult& r) { return r.status == CheckStatus::kOk; })
             ? 0
             : 1;
}

}  // namespace divercite
