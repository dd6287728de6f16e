#include "tools/match/compliance.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/client/engine_options.h"
#include "tools/client/engine_reply.h"
#include "tools/common/child_process.h"
#include "tools/match/engine_spec.h"

namespace divercite {
namespace {

// What the checks send. The fen position is ply 26 of a game of the course's code; the go
// limits are small, so that any engine answers at once.
constexpr absl::string_view kFen = "B/bG1/yy1B1/2y1rBy/2YY1rg1b/G1RYBrB/2Yyb/gR1/1 w";
constexpr absl::string_view kMoves = "RC14 GR04";
constexpr int kDepth = 3;
constexpr int kNodes = 1000;
constexpr int kMovetimeMs = 300;
// `go clock`: the second player to move, its clock short and the other long, so that an
// engine reading the wrong clock shows.
constexpr int kClockMs = 1000;
constexpr int kOtherClockMs = 60000;
constexpr int kIncrementMs = 100;
// `go infinite`: `isready` this long after it, `stop` this long after it.
constexpr absl::Duration kBeforeIsready = absl::Milliseconds(100);
constexpr absl::Duration kBeforeStop = absl::Milliseconds(300);

// The first words of UCI's lines from an engine.
bool IsProtocolLine(absl::string_view line) {
  const absl::string_view word = line.substr(0, line.find(' '));
  return word == "id" || word == "option" || word == "uciok" || word == "readyok" ||
         word == "info" || word == "bestmove" || word == "copyprotection" || word == "registration";
}

// The line in quotes, cut after its first 80 characters.
std::string QuotedStart(absl::string_view line) {
  constexpr size_t kMost = 80;
  return absl::StrCat("'", line.size() > kMost ? absl::StrCat(line.substr(0, kMost), "...") : line,
                      "'");
}

std::string Ms(absl::Duration duration) {
  return absl::StrCat(absl::ToInt64Milliseconds(duration), " ms");
}

// A check's failure: what was wrong. Refused: the engine answered with an error line (and is
// still in step); Wrong: anything else.
absl::Status Wrong(absl::string_view what) { return absl::FailedPreconditionError(what); }
absl::Status Refused(absl::string_view what) { return absl::InvalidArgumentError(what); }

// The engine as the checks speak to it: every line it wrote is kept (for the check of
// protocol lines), and its `readyok`s are counted against the `isready`s sent, so that a late
// one is never taken for the answer to a later one.
class EngineUnderTest {
 public:
  absl::Status Start(const EngineConfig& config) {
    std::vector<std::string> argv = {config.command};
    argv.insert(argv.end(), config.arguments.begin(), config.arguments.end());
    absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(argv);
    if (!process.ok()) return process.status();
    process_ = *std::move(process);
    return absl::OkStatus();
  }

  absl::Status Send(absl::string_view line) {
    if (line == "isready") ++isready_sent_;
    return process_->WriteLine(line);
  }

  // The next line by `deadline`: DeadlineExceeded, or Unavailable once the output is closed.
  absl::StatusOr<std::string> Read(absl::Time deadline) {
    // At least a poll: a line already in the pipe is read even at a deadline just passed.
    absl::StatusOr<std::string> line =
        process_->ReadLine(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
    if (absl::IsUnavailable(line.status())) closed_ = true;
    if (!line.ok()) return line;
    lines_.push_back(*line);
    if (*line == "readyok") ++readyok_read_;
    return line;
  }

  // Every line already written, read now.
  std::vector<std::string> Drain() {
    std::vector<std::string> lines;
    while (true) {
      absl::StatusOr<std::string> line = Read(absl::Now() + absl::Milliseconds(5));
      if (!line.ok()) return lines;
      lines.push_back(*std::move(line));
    }
  }

  // Sends `isready` and reads until every `isready` sent has had its `readyok`; the lines
  // read before it go to `before`.
  absl::Status Ready(absl::Time deadline, std::vector<std::string>* before = nullptr) {
    if (absl::Status sent = Send("isready"); !sent.ok()) return sent;
    return AwaitReady(deadline, before);
  }

  absl::Status AwaitReady(absl::Time deadline, std::vector<std::string>* before = nullptr) {
    while (readyok_read_ < isready_sent_) {
      absl::StatusOr<std::string> line = Read(deadline);
      if (!line.ok()) return line.status();
      if (*line != "readyok" && before != nullptr) before->push_back(*std::move(line));
    }
    return absl::OkStatus();
  }

  bool AllReady() const { return readyok_read_ >= isready_sent_; }
  bool started() const { return process_ != nullptr; }
  bool closed() const { return closed_; }
  ChildProcess& process() { return *process_; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::unique_ptr<ChildProcess> process_;
  std::vector<std::string> lines_;
  int isready_sent_ = 0;
  int readyok_read_ = 0;
  bool closed_ = false;
};

// The error lines among `lines`, quoted and joined.
std::string ErrorLines(const std::vector<std::string>& lines) {
  std::vector<std::string> errors;
  for (const std::string& line : lines) {
    if (absl::StartsWith(line, kEngineErrorPrefix)) errors.push_back(QuotedStart(line));
  }
  return absl::StrJoin(errors, ", ");
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

class Checker {
 public:
  Checker(const ComplianceSettings& settings, std::ostream& out) : settings_(settings), out_(out) {}

  std::vector<CheckResult> Run() {
    Check("handshake", [this] { return Handshake(); });
    if (!blocked_.empty() && handshake_done_) blocked_.clear();
    Check("isready", [this] { return Isready(); });
    for (const AdvertisedOption& option : options_) {
      Check(absl::StrCat("option ", option.name), [this, &option] { return OptionValues(option); });
    }
    if (!settings_.engine.options.empty()) {
      Check("options given", [this] { return OptionsGiven(); });
    }
    Check("ucinewgame", [this] { return Accepted("ucinewgame"); });
    Check("position startpos", [this] { return Accepted("position startpos"); });
    Check("position fen", [this] { return Accepted(absl::StrCat("position fen ", kFen)); });
    Check("position moves",
          [this] { return Accepted(absl::StrCat("position startpos moves ", kMoves)); });
    Check("go depth", [this] {
      return Go("go depth", "startpos", absl::StrCat("go depth ", kDepth), std::nullopt);
    });
    Check("go nodes", [this] {
      return Go("go nodes", absl::StrCat("fen ", kFen), absl::StrCat("go nodes ", kNodes),
                std::nullopt);
    });
    Check("go movetime", [this] {
      return Go("go movetime", absl::StrCat("startpos moves ", kMoves),
                absl::StrCat("go movetime ", kMovetimeMs),
                absl::Milliseconds(kMovetimeMs) + kComplianceMovetimeMargin);
    });
    Check("go clock", [this] {
      return Go("go clock", "startpos moves RC14",
                absl::StrCat("go wtime ", kOtherClockMs, " btime ", kClockMs, " winc ",
                             kIncrementMs, " binc ", kIncrementMs),
                absl::Milliseconds(kClockMs));
    });
    Infinite();
    Finish();
    return results_;
  }

 private:
  absl::Time Deadline() const { return absl::Now() + settings_.timeout; }

  // Runs the check `name` unless an earlier one left the engine unusable; after a failure,
  // waits for every isready to be answered, so that the next check starts in step.
  void Check(const std::string& name, const std::function<absl::Status()>& body) {
    if (!blocked_.empty()) return Report({name, CheckStatus::kSkip, blocked_});
    const absl::Status status = body();
    Report(
        {name, status.ok() ? CheckStatus::kOk : CheckStatus::kFail, std::string(status.message())});
    if (!status.ok()) Resync();
  }

  void Report(CheckResult result) {
    out_ << CheckLine(result) << std::endl;
    results_.push_back(std::move(result));
  }

  void Resync() {
    if (!blocked_.empty()) return;
    if (engine_.closed()) {
      blocked_ = Exited("");
      return;
    }
    if (const absl::Status ready = engine_.Ready(Deadline()); !ready.ok()) {
      blocked_ = engine_.closed() ? Exited("")
                                  : absl::StrCat("the engine no longer answers isready (within ",
                                                 absl::FormatDuration(settings_.timeout), ")");
    }
  }

  // "the engine exited (exit code N; its stderr ended: ...)" and, once, the checks left blocked.
  std::string Exited(absl::string_view doing) {
    const std::optional<int> code = engine_.process().WaitForExit(absl::Milliseconds(500));
    const std::string said = engine_.process().StderrTail();
    std::string text =
        absl::StrCat("the engine exited", doing.empty() ? "" : " ", doing, " (",
                     code ? absl::StrCat("exit code ", *code) : "its output closed",
                     said.empty() ? "" : absl::StrCat("; its stderr ended: ", said), ")");
    if (blocked_.empty()) blocked_ = "the engine exited";
    return text;
  }

  // A failed wait: the engine's exit, or no `what` within `limit`.
  absl::Status WaitFailed(const absl::Status& status, absl::string_view what,
                          absl::Duration limit) {
    if (engine_.closed() || absl::IsUnavailable(status)) {
      return Wrong(Exited(absl::StrCat("before ", what)));
    }
    if (absl::IsDeadlineExceeded(status)) {
      return Wrong(absl::StrCat("no ", what, " within ", absl::FormatDuration(limit)));
    }
    return Wrong(status.message());
  }

  absl::Status Handshake() {
    if (const absl::Status started = engine_.Start(settings_.engine); !started.ok()) {
      blocked_ = "the engine did not start";
      return Wrong(started.message());
    }
    blocked_ = "no handshake (no uciok)";
    const absl::Time deadline = Deadline();
    if (absl::Status sent = engine_.Send("uci"); !sent.ok()) return Wrong(Exited("at once"));
    bool name = false, author = false;
    std::vector<std::string> problems;
    while (true) {
      absl::StatusOr<std::string> line = engine_.Read(deadline);
      if (!line.ok()) return WaitFailed(line.status(), "uciok", settings_.timeout);
      if (*line == "uciok") break;
      name = name || absl::StartsWith(*line, "id name ");
      author = author || absl::StartsWith(*line, "id author ");
      if (!absl::StartsWith(*line, "option")) continue;
      std::optional<AdvertisedOption> option = ParseOptionLine(*line);
      if (!option || option->type == AdvertisedOption::Type::kOther) {
        problems.push_back(absl::StrCat(QuotedStart(*line), " is no option line of UCI's types"));
      } else {
        options_.push_back(*std::move(option));
      }
    }
    handshake_done_ = true;
    if (!name) problems.push_back("no 'id name' line");
    if (!author) problems.push_back("no 'id author' line");
    if (!problems.empty()) return Wrong(absl::StrJoin(problems, "; "));
    blocked_.clear();
    return absl::OkStatus();
  }

  absl::Status Isready() {
    const absl::Time sent = absl::Now();
    absl::Status ready = engine_.Ready(sent + kComplianceIsready);
    if (ready.ok()) return absl::OkStatus();
    if (!absl::IsDeadlineExceeded(ready)) return WaitFailed(ready, "readyok", kComplianceIsready);
    ready = engine_.AwaitReady(Deadline());
    return Wrong(absl::StrCat(
        "no readyok within ", absl::FormatDuration(kComplianceIsready),
        ready.ok() ? absl::StrCat(" (it came after ", Ms(absl::Now() - sent), ")") : ""));
  }

  // `command`, then `isready`: its readyok, and no error line before it.
  absl::Status Accepted(const std::string& command) {
    if (!engine_.Send(command).ok()) return Wrong(Exited(absl::StrCat("before ", command)));
    std::vector<std::string> answer;
    if (absl::Status ready = engine_.Ready(Deadline(), &answer); !ready.ok()) {
      return WaitFailed(ready, absl::StrCat("readyok after '", command, "'"), settings_.timeout);
    }
    if (const std::string errors = ErrorLines(answer); !errors.empty()) {
      return Refused(absl::StrCat("'", command, "' was answered ", errors));
    }
    return absl::OkStatus();
  }

  absl::Status OptionValues(const AdvertisedOption& option) {
    std::vector<std::string> problems;
    if (option.type == AdvertisedOption::Type::kSpin) {
      std::int64_t value = 0;
      if (!absl::SimpleAtoi(option.default_value, &value) || value < option.min ||
          value > option.max) {
        problems.push_back(absl::StrCat("its default '", option.default_value,
                                        "' is not an integer from ", option.min, " to ",
                                        option.max));
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
      if (absl::Status status = Accepted(SetOptionLine(option, value)); !status.ok()) {
        problems.push_back(std::string(status.message()));
        if (!absl::IsInvalidArgument(status)) break;  // no answer: no use trying the others
      }
    }
    if (!problems.empty()) return Wrong(absl::StrJoin(problems, "; "));
    return absl::OkStatus();
  }

  absl::Status OptionsGiven() {
    for (const auto& [name, value] : settings_.engine.options) {
      absl::StatusOr<AdvertisedOption> option = CheckOption(options_, name, value);
      if (!option.ok()) {
        return Wrong(
            absl::StrCat("option '", name, "=", value, "' refused: ", option.status().message()));
      }
      if (absl::Status status = Accepted(SetOptionLine(*option, value)); !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  }

  // A position, the position's line, and `go_line`: a `bestmove` naming a move within
  // `limit` (or within the patience, when the check has none); the move is kept for the check
  // of legal moves.
  absl::Status Go(const std::string& check, const std::string& position_text,
                  const std::string& go_line, std::optional<absl::Duration> limit) {
    absl::StatusOr<Position> position = PositionOf(position_text);
    if (!position.ok()) return Wrong(position.status().message());
    const std::string position_line = absl::StrCat("position ", position_text);
    // The position first, answered: an error after `go` is then the go's own.
    if (!engine_.Send(position_line).ok()) return Wrong(Exited("before go"));
    if (absl::Status ready = engine_.Ready(Deadline()); !ready.ok()) {
      return WaitFailed(ready, "readyok after the position", settings_.timeout);
    }
    if (!engine_.Send(go_line).ok()) return Wrong(Exited(absl::StrCat("before ", go_line)));
    const absl::Time start = absl::Now();
    ReplyReader reader;
    bool probing = false;  // an isready sent after an error line: a readyok first, a refusal
    bool searched = false;
    while (true) {
      absl::StatusOr<std::string> line = engine_.Read(start + settings_.timeout);
      if (!line.ok()) {
        return WaitFailed(line.status(), absl::StrCat("bestmove to '", go_line, "'"),
                          settings_.timeout);
      }
      if (*line == "readyok" && probing && engine_.AllReady()) {
        return Wrong(
            absl::StrCat("'", go_line, "' was refused: ", QuotedStart(reader.reply().error)));
      }
      if (absl::StartsWith(*line, kEngineErrorPrefix) && !searched && !probing) {
        probing = engine_.Send("isready").ok();
      }
      searched =
          searched || (absl::StartsWith(*line, "info ") && !absl::StartsWith(*line, "info string"));
      const ReplyReader::Step step = reader.Read(*line);
      if (step == ReplyReader::Step::kMore) continue;
      const absl::Duration elapsed = absl::Now() - start;
      if (step == ReplyReader::Step::kNoMove) {
        return Wrong(absl::StrCat(QuotedStart(*line), " names no move"));
      }
      played_.push_back({check, *position, reader.reply().bestmove});
      if (limit && elapsed > *limit) {
        return Wrong(absl::StrCat("bestmove after ", Ms(elapsed), " (at most ", Ms(*limit), ")"));
      }
      return absl::OkStatus();
    }
  }

  absl::StatusOr<Position> PositionOf(const std::string& text) const {
    const std::vector<absl::string_view> words = absl::StrSplit(text, ' ', absl::SkipEmpty());
    Position start = Position::Start();
    size_t next = 1;
    if (words[0] == "fen") {
      absl::StatusOr<Position> parsed = ParsePositionString(absl::StrCat(words[1], " ", words[2]));
      if (!parsed.ok()) return parsed.status();
      start = *parsed;
      next = 3;
    }
    if (next < words.size()) ++next;  // "moves"
    return PlayMoveTexts(start, std::vector<absl::string_view>(words.begin() + next, words.end()));
  }

  // `go infinite`: isready during the search, then stop. The position continues the game of
  // `go clock` when its move was legal (second player to move again: a course agent's process
  // for that side is already running through the bridge), else it is `startpos moves RC14 GR04`.
  void Infinite() {
    const std::string during = "isready during search";
    if (!blocked_.empty()) {
      Report({during, CheckStatus::kSkip, blocked_});
      Report({"stop", CheckStatus::kSkip, blocked_});
      return;
    }
    std::string position_text = absl::StrCat("startpos moves ", kMoves);
    if (!played_.empty() && played_.back().check == "go clock") {
      Position game = played_.back().position;
      absl::StatusOr<Move> reply = ParseMove(played_.back().move);
      if (reply.ok() && game.CheckLegal(*reply).ok()) {
        game.Play(*reply);
        position_text = absl::StrCat("startpos moves RC14 ", played_.back().move, " ",
                                     MoveToString(divercite::LegalMoves(game)[0]));
      }
    }
    const absl::StatusOr<Position> position = PositionOf(position_text);
    auto fail_both = [&](const absl::Status& status) {
      Report({during, CheckStatus::kFail, std::string(status.message())});
      Report({"stop", CheckStatus::kSkip, std::string(status.message())});
    };
    if (!engine_.Send(absl::StrCat("position ", position_text)).ok()) {
      return fail_both(Wrong(Exited("before go infinite")));
    }
    if (absl::Status ready = engine_.Ready(Deadline()); !ready.ok()) {
      return fail_both(WaitFailed(ready, "readyok after the position", settings_.timeout));
    }
    if (!engine_.Send("go infinite").ok()) return fail_both(Wrong(Exited("before go infinite")));
    const absl::Time go = absl::Now();
    std::optional<absl::Duration> ended;  // when the bestmove came, from `go infinite`
    std::string move;
    auto watch = [&](const std::string& line) {
      if (ended || !absl::StartsWith(line, "bestmove")) return;
      ended = absl::Now() - go;
      const std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
      move = words.size() >= 2 ? words[1] : "";
    };
    auto read_until = [&](absl::Time until) {
      for (absl::StatusOr<std::string> line = engine_.Read(until); line.ok();
           line = engine_.Read(until)) {
        watch(*line);
      }
    };
    read_until(go + kBeforeIsready);
    // isready during the search: its readyok at once, and no bestmove yet.
    CheckResult isready{during, CheckStatus::kOk, ""};
    std::vector<std::string> before;
    const absl::Status ready = engine_.Ready(absl::Now() + kComplianceIsready, &before);
    for (const std::string& line : before) watch(line);
    if (engine_.closed()) return fail_both(Wrong(Exited("during go infinite")));
    if (!ready.ok()) {
      isready = {during, CheckStatus::kFail,
                 absl::StrCat("no readyok within ", absl::FormatDuration(kComplianceIsready))};
    } else if (ended) {
      isready = {during, CheckStatus::kFail,
                 absl::StrCat("the search of 'go infinite' ended by itself (bestmove after ",
                              Ms(*ended), "), before isready")};
    }
    Report(isready);
    read_until(go + kBeforeStop);
    for (const std::string& line : engine_.Drain()) watch(line);
    // stop: no bestmove before it, one within the limit after it.
    CheckResult stop{"stop", CheckStatus::kOk, ""};
    if (ended) {
      stop = {"stop", CheckStatus::kFail,
              absl::StrCat("bestmove ", Ms(*ended),
                           " after 'go infinite', before stop (it must wait for stop)")};
    } else if (!engine_.Send("stop").ok()) {
      stop = {"stop", CheckStatus::kFail, Exited("before stop")};
    } else {
      const absl::Time stopped = absl::Now();
      while (!ended) {
        absl::StatusOr<std::string> line = engine_.Read(stopped + settings_.timeout);
        if (!line.ok()) {
          stop = {
              "stop", CheckStatus::kFail,
              std::string(
                  WaitFailed(line.status(), "bestmove after stop", settings_.timeout).message())};
          break;
        }
        watch(*line);
      }
      const absl::Duration elapsed = absl::Now() - stopped;
      if (ended && elapsed > kComplianceStop) {
        stop = {"stop", CheckStatus::kFail,
                absl::StrCat("bestmove ", Ms(elapsed), " after stop (at most ", Ms(kComplianceStop),
                             ")")};
      }
    }
    if (ended && position.ok()) played_.push_back({"go infinite", *position, move});
    Report(stop);
    if (isready.status != CheckStatus::kOk || stop.status != CheckStatus::kOk) Resync();
  }

  // quit, then the checks of everything seen: legal moves, protocol lines, and quit's own.
  void Finish() {
    CheckResult quit{"quit", CheckStatus::kOk, ""};
    if (!engine_.started()) {
      quit = {"quit", CheckStatus::kSkip, blocked_};
    } else if (engine_.closed() || !engine_.Send("quit").ok()) {
      quit = {"quit", CheckStatus::kSkip, "the engine had exited"};
    } else if (!engine_.process().WaitForExit(kComplianceQuit)) {
      quit = {"quit", CheckStatus::kFail,
              absl::StrCat("the engine still ran ", absl::FormatDuration(kComplianceQuit),
                           " after quit")};
      engine_.process().Kill();
    }
    // What it wrote up to its end, for the check of protocol lines.
    while (engine_.started() && engine_.Read(absl::Now() + absl::Milliseconds(50)).ok()) {
    }
    Report(LegalBestmoves());
    Report(ProtocolLines());
    Report(quit);
  }

  CheckResult LegalBestmoves() const {
    const std::string name = "legal bestmove";
    if (played_.empty()) {
      return {name, blocked_.empty() ? CheckStatus::kFail : CheckStatus::kSkip,
              blocked_.empty() ? "no bestmove came" : blocked_};
    }
    std::vector<std::string> illegal;
    for (const Played& played : played_) {
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

  CheckResult ProtocolLines() const {
    std::vector<std::string> others;
    for (const std::string& line : engine_.lines()) {
      if (!IsProtocolLine(line)) others.push_back(line);
    }
    if (others.empty()) return {"protocol lines", CheckStatus::kOk, ""};
    return {"protocol lines", CheckStatus::kFail,
            others.size() == 1
                ? absl::StrCat("1 line is not a protocol line: ", QuotedStart(others.front()))
                : absl::StrCat(others.size(), " lines are not protocol lines, the first ",
                               QuotedStart(others.front()))};
  }

  struct Played {
    std::string check;
    Position position;
    std::string move;  // as sent
  };

  const ComplianceSettings& settings_;
  std::ostream& out_;
  EngineUnderTest engine_;
  std::vector<AdvertisedOption> options_;
  std::vector<Played> played_;
  std::vector<CheckResult> results_;
  bool handshake_done_ = false;
  std::string blocked_;  // why the checks left cannot run; empty while they can
};

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
  switch (result.status) {
    case CheckStatus::kOk:
      return absl::StrCat("ok ", result.check);
    case CheckStatus::kFail:
      return absl::StrCat("FAIL ", result.check, ": ", result.detail);
    case CheckStatus::kSkip:
      break;
  }
  return absl::StrCat("skip ", result.check, ": ", result.detail);
}

std::vector<CheckResult> RunCompliance(const ComplianceSettings& settings, std::ostream& out) {
  return Checker(settings, out).Run();
}

int ComplianceExitStatus(const std::vector<CheckResult>& results) {
  return std::all_of(results.begin(), results.end(),
                     [](const CheckResult& r) { return r.status == CheckStatus::kOk; })
             ? 0
             : 1;
}

}  // namespace divercite
