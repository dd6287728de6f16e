#include "tools/client/engine_client.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace divercite {

std::string EngineSaid(absl::string_view error) {
  return error.empty() ? "" : absl::StrCat(" (engine said: ", error, ")");
}

std::string LimitReason(absl::string_view limit, absl::string_view name, absl::string_view detail) {
  return absl::StrCat(limit.empty() ? "resource limit" : limit, " (", name, detail, ")");
}

absl::Status EngineClient::WithStderrTail(absl::Status status) {
  if (process_ == nullptr) return status;
  const std::string said = process_->StderrTail();
  if (said.empty()) return status;
  return absl::Status(status.code(), absl::StrCat(status.message(), "; its stderr ended: ", said));
}

// A crash, a stall or a move out of time keeps the last lines of the engine's stderr in its
// reason (its record's, the log's, the runner's message): often the only trace of why.
absl::Status EngineClient::Fail(EngineFailure failure, absl::Status status) {
  last_failure_ = failure;
  if (failure == EngineFailure::kCrash || failure == EngineFailure::kStall ||
      failure == EngineFailure::kTime) {
    status = WithStderrTail(std::move(status));
  }
  Note(status.message());
  return status;
}

absl::Status EngineClient::Send(const std::string& line) {
  if (log_ != nullptr) log_->Write(log_game_, config_.name, ProtocolLog::Direction::kSent, line);
  return process_->WriteLine(line);
}

// Every line from the engine is made text here, before anything reads it: what it writes
// reaches the records' reasons, the log and the runner's messages.
absl::StatusOr<std::string> EngineClient::Receive(absl::Duration timeout) {
  absl::StatusOr<std::string> line = process_->ReadLine(timeout);
  if (!line.ok()) return line;
  *line = ValidUtf8(*line);
  if (log_ != nullptr) {
    log_->Write(log_game_, config_.name, ProtocolLog::Direction::kReceived, *line);
  }
  return line;
}

void EngineClient::Note(absl::string_view note) {
  if (log_ != nullptr) log_->Write(log_game_, config_.name, ProtocolLog::Direction::kNote, note);
}

// End of output is a crash, no such line in time a stall.
absl::Status EngineClient::WaitFor(absl::string_view prefix, absl::Duration timeout,
                                   std::vector<std::string>* before) {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    absl::StatusOr<std::string> line = Receive(deadline - absl::Now());
    if (absl::IsDeadlineExceeded(line.status())) {
      return Fail(EngineFailure::kStall,
                  absl::DeadlineExceededError(absl::StrCat(
                      config_.name, ": no '", prefix, "' within ", absl::FormatDuration(timeout))));
    }
    if (!line.ok()) {
      return Fail(EngineFailure::kCrash,
                  absl::UnavailableError(
                      absl::StrCat(config_.name, " exited (", line.status().message(), ")")));
    }
    if (absl::StartsWith(*line, prefix)) return absl::OkStatus();
    if (absl::StartsWith(*line, kEngineLimitPrefix)) {
      return Fail(EngineFailure::kLimit,
                  absl::ResourceExhaustedError(
                      LimitReason(absl::StripAsciiWhitespace(
                                      absl::string_view(*line).substr(kEngineLimitPrefix.size())),
                                  config_.name, absl::StrCat(", before its '", prefix, "'"))));
    }
    if (before != nullptr) before->push_back(*std::move(line));
  }
}

absl::Status EngineClient::SetOptions(absl::Duration timeout) {
  // All are checked before any is sent: a refused option leaves the engine untouched.
  std::vector<std::string> lines;
  for (const auto& [name, value] : config_.options) {
    absl::StatusOr<AdvertisedOption> option = CheckOption(advertised_, name, value);
    if (!option.ok()) {
      return Fail(EngineFailure::kOptions, absl::InvalidArgumentError(absl::StrCat(
                                               "engine '", config_.name, "': option '", name, "=",
                                               value, "' refused: ", option.status().message())));
    }
    lines.push_back(SetOptionLine(*option, value));
  }
  // One `isready` after each, so that an error the engine answers names its option.
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<std::string> answers;
    absl::Status status = Send(lines[i]);
    if (status.ok()) status = Send("isready");
    if (status.ok()) status = WaitFor("readyok", timeout, &answers);
    if (!status.ok()) return status;
    for (const std::string& answer : answers) {
      if (!absl::StartsWith(answer, kEngineErrorPrefix)) continue;
      const auto& [name, value] = config_.options[i];
      return Fail(EngineFailure::kOptions,
                  absl::InvalidArgumentError(absl::StrCat(
                      "engine '", config_.name, "': option '", name, "=", value,
                      "' refused: the engine said: ",
                      absl::StripAsciiWhitespace(
                          absl::string_view(answer).substr(kEngineErrorPrefix.size())))));
    }
  }
  return absl::OkStatus();
}

absl::Status EngineClient::EnsureStarted(absl::Duration timeout) {
  if (process_) return absl::OkStatus();
  last_failure_ = EngineFailure::kNone;
  advertised_.clear();
  std::vector<std::string> argv = {config_.command};
  argv.insert(argv.end(), config_.arguments.begin(), config_.arguments.end());
  absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(argv);
  if (!process.ok()) return Fail(EngineFailure::kCrash, process.status());
  process_ = std::move(*process);
  Note(absl::StrCat("started ", absl::StrJoin(argv, " ")));
  std::vector<std::string> handshake;
  absl::Status status = Send("uci");
  if (status.ok()) status = WaitFor("uciok", timeout, &handshake);
  if (status.ok()) {
    for (const std::string& line : handshake) {
      if (std::optional<AdvertisedOption> option = ParseOptionLine(line)) {
        advertised_.push_back(*std::move(option));
      }
    }
    status = SetOptions(timeout);
  }
  if (status.ok()) status = Send("isready");
  if (status.ok()) status = WaitFor("readyok", timeout);
  if (!status.ok()) {
    if (last_failure_ == EngineFailure::kNone) last_failure_ = EngineFailure::kCrash;
    Kill();
  }
  return status;
}

absl::Status EngineClient::NewGame(absl::Duration timeout) {
  if (!process_) return Fail(EngineFailure::kCrash, absl::FailedPreconditionError("not started"));
  absl::Status status = Send("ucinewgame");
  if (status.ok()) status = Send("isready");
  if (!status.ok()) return Fail(EngineFailure::kCrash, status);
  return WaitFor("readyok", timeout);
}

absl::StatusOr<EngineReply> EngineClient::Go(const std::string& position_line,
                                             const std::string& go_line, absl::Duration deadline) {
  last_failure_ = EngineFailure::kNone;
  if (!process_) return Fail(EngineFailure::kCrash, absl::FailedPreconditionError("not started"));
  const absl::Time start = absl::Now();
  absl::Status status = Send(position_line);
  if (status.ok()) status = Send(go_line);
  if (!status.ok()) return Fail(EngineFailure::kCrash, status);
  ReplyReader reader;
  // A limit the engine said it hit ends its move, however the answer ends.
  const std::optional<std::string>& limit = reader.reply().limit;
  while (true) {
    absl::StatusOr<std::string> line = Receive(start + deadline - absl::Now());
    if (absl::IsDeadlineExceeded(line.status())) {
      // Over its time: ask for the move anyway, so a slow engine is told apart from a dead one
      // in the record, but the game is lost either way.
      (void)Send("stop");
      absl::StatusOr<std::string> late = Receive(absl::Milliseconds(200));
      if (late.ok()) (void)reader.Read(*late);
      if (limit) {
        return Fail(EngineFailure::kLimit,
                    absl::ResourceExhaustedError(LimitReason(
                        *limit, config_.name,
                        absl::StrCat(", no bestmove within ", absl::FormatDuration(deadline)))));
      }
      return Fail(EngineFailure::kTime,
                  absl::DeadlineExceededError(absl::StrCat(
                      config_.name, ": no bestmove within ", absl::FormatDuration(deadline),
                      late.ok() ? "" : " and no answer to stop")));
    }
    if (!line.ok()) {
      if (limit) {
        return Fail(
            EngineFailure::kLimit,
            WithStderrTail(absl::ResourceExhaustedError(LimitReason(
                *limit, config_.name, absl::StrCat(" exited: ", line.status().message())))));
      }
      return Fail(EngineFailure::kCrash,
                  absl::UnavailableError(absl::StrCat(config_.name, " exited during its move (",
                                                      line.status().message(), ")")));
    }
    const ReplyReader::Step step = reader.Read(*line);
    if (step != ReplyReader::Step::kMore && limit) {
      return Fail(EngineFailure::kLimit,
                  absl::ResourceExhaustedError(LimitReason(*limit, config_.name)));
    }
    switch (step) {
      case ReplyReader::Step::kMore:
        continue;
      case ReplyReader::Step::kNoMove:
        return Fail(EngineFailure::kGarbage, absl::InvalidArgumentError(absl::StrCat(
                                                 config_.name, ": '", *line, "' names no move",
                                                 EngineSaid(reader.reply().error))));
      case ReplyReader::Step::kBestmove:
        reader.reply().elapsed = absl::Now() - start;
        return std::move(reader.reply());
    }
  }
}

std::optional<int> EngineClient::Kill() {
  std::optional<int> exit_code;
  if (process_) {
    exit_code = process_->Kill();
    Note(absl::StrCat("killed (exit code ", *exit_code, ")"));
  }
  process_.reset();
  return exit_code;
}

void EngineClient::Quit() {
  if (!process_) return;
  (void)Send("quit");
  process_->CloseInput();
  if (!process_->WaitForExit(absl::Milliseconds(500))) process_->Kill();
  process_.reset();
}

}  // namespace divercite
