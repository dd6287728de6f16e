// divercite-match -compliance: checks any engine against the protocol's specification
// (docs/protocol.md, "Compliance"), in the manner of fastchess's --compliance:
//
//   divercite-match -compliance CMD [arg=A]... [option.NAME=VALUE]... [timeout=SECONDS]
//
// It starts the engine and runs the checks in order (handshake, isready, each option, the
// options given, ucinewgame, the three positions, the four go limits, isready during a
// search, stop, legal bestmoves, protocol lines, quit), printing one line per check as it is
// decided:
//
//   ok <check>
//   FAIL <check>: <what was wrong>
//   skip <check>: <why it could not run>
//
// Every wait has a limit: a check's own (isready 1 s, stop 100 ms, movetime + 200 ms, the
// clock) or the patience `timeout=` sets for answers without one (10 s). A check that cannot
// run because the engine never finished its handshake, exited or stopped answering `isready`
// is a skip. The process is killed at the end if it still runs.
#ifndef DIVERCITE_TOOLS_MATCH_COMPLIANCE_H_
#define DIVERCITE_TOOLS_MATCH_COMPLIANCE_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tools/client/engine_client.h"

namespace divercite {

// The limits of the checks (docs/protocol.md's table says the same).
inline constexpr absl::Duration kComplianceIsready = absl::Seconds(1);
inline constexpr absl::Duration kComplianceStop = absl::Milliseconds(100);
inline constexpr absl::Duration kComplianceMovetimeMargin = absl::Milliseconds(200);
inline constexpr absl::Duration kComplianceQuit = absl::Seconds(2);
inline constexpr absl::Duration kComplianceDefaultTimeout = absl::Seconds(10);

struct ComplianceSettings {
  EngineConfig engine;  // command, arguments, options (its name is the command)
  // The handshake's limit, and the patience for an answer that has no limit of its own.
  absl::Duration timeout = kComplianceDefaultTimeout;
};

// The arguments after -compliance; errors name the offending argument.
absl::StatusOr<ComplianceSettings> ParseComplianceArgs(const std::vector<std::string>& args);

enum class CheckStatus { kOk, kFail, kSkip };

struct CheckResult {
  std::string check;  // "handshake", "option Hash", "go movetime", ...
  CheckStatus status = CheckStatus::kOk;
  std::string detail;  // what was wrong, or why it could not run; empty when ok
};

// The line printed for a result: "ok <check>", "FAIL <check>: <detail>", "skip ...".
std::string CheckLine(const CheckResult& result);

// Runs every check against a fresh engine, printing each line to `out` as it is decided.
std::vector<CheckResult> RunCompliance(const ComplianceSettings& settings, std::ostream& out);

// The exit status of a run: 0 when every check is ok, else 1.
int ComplianceExitStatus(const std::vector<CheckResult>& results);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_COMPLIANCE_H_
