// Inside the compliance check (compliance.h), not part of its interface: the engine under the
// check as the checks speak to it (EngineUnderTest), and the run of the checks over it
// (ComplianceSession): each check reported as it is decided, the engine resynchronised after a
// failure, and what the checks learn on the way (the options advertised, the moves played).
// The checks themselves are in compliance.cc and, those of a search, compliance_search.cc.
#ifndef DIVERCITE_TOOLS_MATCH_COMPLIANCE_SESSION_H_
#define DIVERCITE_TOOLS_MATCH_COMPLIANCE_SESSION_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/position.h"
#include "tools/client/engine_client.h"
#include "tools/client/engine_options.h"
#include "tools/common/child_process.h"
#include "tools/match/compliance.h"

namespace divercite::compliance_internal {

// What the checks send. The fen position is ply 26 of a game of the course's code; the go
// limits are small, so that any engine answers at once.
inline constexpr absl::string_view kFen = "B/bG1/yy1B1/2y1rBy/2YY1rg1b/G1RYBrB/2Yyb/gR1/1 w";
inline constexpr absl::string_view kMoves = "RC14 GR04";

// A check's failure: what was wrong. Refused: the engine answered with an error line (and is
// still in step); Wrong: anything else.
inline absl::Status Wrong(absl::string_view what) { return absl::FailedPreconditionError(what); }
inline absl::Status Refused(absl::string_view what) { return absl::InvalidArgumentError(what); }

// The line in quotes, cut after its first 80 characters.
std::string QuotedStart(absl::string_view line);

// "N ms".
std::string Ms(absl::Duration duration);

// The engine as the checks speak to it: every line it wrote is kept (for the check of
// protocol lines), and its `readyok`s are counted against the `isready`s sent, so that a late
// one is never taken for the answer to a later one.
class EngineUnderTest {
 public:
  absl::Status Start(const EngineConfig& config);
  absl::Status Send(absl::string_view line);

  // The next line by `deadline`: DeadlineExceeded, or Unavailable once the output is closed.
  absl::StatusOr<std::string> Read(absl::Time deadline);

  // Every line already written, read now.
  std::vector<std::string> Drain();

  // Sends `isready` and reads until every `isready` sent has had its `readyok`; the lines
  // read before it go to `before`.
  absl::Status Ready(absl::Time deadline, std::vector<std::string>* before = nullptr);
  // Reads until every `isready` sent has had its `readyok`, as Ready does.
  absl::Status AwaitReady(absl::Time deadline, std::vector<std::string>* before = nullptr);

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

// A move an engine answered to a check's `go`, kept for the check of legal moves.
struct PlayedMove {
  std::string check;
  Position position;
  std::string move;  // as sent
};

class ComplianceSession {
 public:
  ComplianceSession(const ComplianceSettings& settings, std::ostream& out)
      : settings_(settings), out_(out) {}

  // Runs the check `name` unless an earlier one left the engine unusable; after a failure,
  // waits for every isready to be answered, so that the next check starts in step.
  void Check(const std::string& name, const std::function<absl::Status()>& body);
  // Prints the result's line and keeps it.
  void Report(CheckResult result);
  // After a failure: every isready answered, or the checks left blocked.
  void Resync();

  // "the engine exited (exit code N; its stderr ended: ...)" and, once, the checks left
  // blocked.
  std::string Exited(absl::string_view doing);
  // A failed wait: the engine's exit, or no `what` within `limit`.
  absl::Status WaitFailed(const absl::Status& status, absl::string_view what, absl::Duration limit);
  // `command`, then `isready`: its readyok, and no error line before it.
  absl::Status Accepted(const std::string& command);

  // The patience from now: an answer without a limit of its own.
  absl::Time Deadline() const { return absl::Now() + settings_.timeout; }

  const ComplianceSettings& settings() const { return settings_; }
  EngineUnderTest& engine() { return engine_; }
  const EngineUnderTest& engine() const { return engine_; }
  // Why the checks left cannot run; empty while they can.
  const std::string& blocked() const { return blocked_; }
  void set_blocked(std::string why) { blocked_ = std::move(why); }
  // The options the handshake saw advertised.
  std::vector<AdvertisedOption>& options() { return options_; }
  std::vector<PlayedMove>& played() { return played_; }
  const std::vector<PlayedMove>& played() const { return played_; }
  bool handshake_done() const { return handshake_done_; }
  void set_handshake_done() { handshake_done_ = true; }
  const std::vector<CheckResult>& results() const { return results_; }

 private:
  const ComplianceSettings& settings_;
  std::ostream& out_;
  EngineUnderTest engine_;
  std::vector<AdvertisedOption> options_;
  std::vector<PlayedMove> played_;
  std::vector<CheckResult> results_;
  bool handshake_done_ = false;
  std::string blocked_;
};

}  // namespace divercite::compliance_internal

#endif  // DIVERCITE_TOOLS_MATCH_COMPLIANCE_SESSION_H_
