#include "tools/match/compliance_session.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/client/engine_reply.h"

namespace divercite::compliance_internal {
namespace {

// The error lines among `lines`, quoted and joined.
std::string ErrorLines(const std::vector<std::string>& lines) {
  std::vector<std::string> errors;
  for (const std::string& line : lines) {
    if (absl::StartsWith(line, kEngineErrorPrefix)) errors.push_back(QuotedStart(line));
  }
  return absl::StrJoin(errors, ", ");
}

}  // namespace

std::string QuotedStart(absl::string_view line) {
  constexpr size_t kMost = 80;
  return absl::StrCat("'", line.size() > kMost ? absl::StrCat(line.substr(0, kMost), "...") : line,
                      "'");
}

std::string Ms(absl::Duration duration) {
  return absl::StrCat(absl::ToInt64Milliseconds(duration), " ms");
}

absl::Status EngineUnderTest::Start(const EngineConfig& config) {
  std::vector<std::string> argv = {config.command};
  argv.insert(argv.end(), config.arguments.begin(), config.arguments.end());
  absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(argv);
  if (!process.ok()) return process.status();
  process_ = *std::move(process);
  return absl::OkStatus();
}

absl::Status EngineUnderTest::Send(absl::string_view line) {
  if (line == "isready") ++isready_sent_;
  return process_->WriteLine(line);
}

absl::StatusOr<std::string> EngineUnderTest::Read(absl::Time deadline) {
  // At least a poll: a line already in the pipe is read even at a deadline just passed.
  absl::StatusOr<std::string> line =
      process_->ReadLine(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
  if (absl::IsUnavailable(line.status())) closed_ = true;
  if (!line.ok()) return line;
  lines_.push_back(*line);
  if (*line == "readyok") ++readyok_read_;
  return line;
}

std::vector<std::string> EngineUnderTest::Drain() {
  std::vector<std::string> lines;
  while (true) {
    absl::StatusOr<std::string> line = Read(absl::Now() + absl::Milliseconds(5));
    if (!line.ok()) return lines;
    lines.push_back(*std::move(line));
  }
}

absl::Status EngineUnderTest::Ready(absl::Time deadline, std::vector<std::string>* before) {
  if (absl::Status sent = Send("isready"); !sent.ok()) return sent;
  return AwaitReady(deadline, before);
}

absl::Status EngineUnderTest::AwaitReady(absl::Time deadline, std::vector<std::string>* before) {
  while (readyok_read_ < isready_sent_) {
    absl::StatusOr<std::string> line = Read(deadline);
    if (!line.ok()) return line.status();
    if (*line != "readyok" && before != nullptr) before->push_back(*std::move(line));
  }
  return absl::OkStatus();
}

void ComplianceSession::Check(const std::string& name, const std::function<absl::Status()>& body) {
  if (!blocked_.empty()) return Report({name, CheckStatus::kSkip, blocked_});
  const absl::Status status = body();
  Report(
      {name, status.ok() ? CheckStatus::kOk : CheckStatus::kFail, std::string(status.message())});
  if (!status.ok()) Resync();
}

void ComplianceSession::Report(CheckResult result) {
  out_ << CheckLine(result) << std::endl;
  results_.push_back(std::move(result));
}

void ComplianceSession::Resync() {
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

std::string ComplianceSession::Exited(absl::string_view doing) {
  const std::optional<int> code = engine_.process().WaitForExit(absl::Milliseconds(500));
  const std::string said = engine_.process().StderrTail();
  std::string text =
      absl::StrCat("the engine exited", doing.empty() ? "" : " ", doing, " (",
                   code ? absl::StrCat("exit code ", *code) : "its output closed",
                   said.empty() ? "" : absl::StrCat("; its stderr ended: ", said), ")");
  if (blocked_.empty()) blocked_ = "the engine exited";
  return text;
}

absl::Status ComplianceSession::WaitFailed(const absl::Status& status, absl::string_view what,
                                           absl::Duration limit) {
  if (engine_.closed() || absl::IsUnavailable(status)) {
    return Wrong(Exited(absl::StrCat("before ", what)));
  }
  if (absl::IsDeadlineExceeded(status)) {
    return Wrong(absl::StrCat("no ", what, " within ", absl::FormatDuration(limit)));
  }
  return Wrong(status.message());
}

absl::Status ComplianceSession::Accepted(const std::string& command) {
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

}  // namespace divercite::compliance_internal
