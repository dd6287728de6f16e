// One engine as the match runner and the analysis see it: a child process spoken to through
// the protocol only. Every failure (cannot start, crash, stall, garbage, time, a resource
// limit it hit) comes back as a status the runner turns into a lost game; the engine can then
// be restarted. What the engine writes reaches the reasons as valid UTF-8 (ValidUtf8): every
// line received, and its stderr's tail.
#ifndef DIVERCITE_TOOLS_CLIENT_ENGINE_CLIENT_H_
#define DIVERCITE_TOOLS_CLIENT_ENGINE_CLIENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "tools/client/engine_options.h"
#include "tools/client/engine_reply.h"
#include "tools/client/protocol_log.h"
#include "tools/common/child_process.h"

namespace divercite {

struct EngineConfig {
  std::string name;
  std::string command;
  std::vector<std::string> arguments;
  // setoption name/value, in order; each must be one the engine advertises, with a value it
  // takes (engine_options.h).
  std::vector<std::pair<std::string, std::string>> options;
};

// " (engine said: X)" for the error text X an engine sent before failing, "" for none: the
// end of the reason recorded for a game it lost.
std::string EngineSaid(absl::string_view error);

// The reason recorded for a resource limit the engine `name` said it hit (`info string limit:
// X`, engine_reply.h): X first ("resource limit" if it gave none), then " (NAME)", or
// " (NAME<detail>)" with what happened next, e.g. "memory limit: its processes may use 2048
// MB together (2057 MB in use) (mine)".
std::string LimitReason(absl::string_view limit, absl::string_view name,
                        absl::string_view detail = "");

// Why an exchange failed; the runner records it as the game's termination. kOptions: an
// option of the config is not one the engine advertises, or not a value it takes, or the
// engine answered its `setoption` with an error; the engine cannot be used as configured.
// kLimit: the engine said a resource limit of its sandbox ended its move or its start (an
// `info string limit:` line), whatever came after (`bestmove`, its exit, nothing).
enum class EngineFailure { kNone, kCrash, kStall, kTime, kGarbage, kOptions, kLimit };

class EngineClient {
 public:
  explicit EngineClient(EngineConfig config) : config_(std::move(config)) {}

  const EngineConfig& config() const { return config_; }
  bool running() const { return process_ != nullptr; }
  // The engine's process id while it runs (its processor use is measured from it).
  std::optional<pid_t> pid() const {
    return process_ ? std::optional<pid_t>(process_->pid()) : std::nullopt;
  }

  // Starts the process (if not running), does the handshake (`uci` -> `uciok`, reading the
  // options it advertises), checks every option of the config against them, then sets each
  // and waits for `readyok` after it, an `info string error` before it being the engine's
  // refusal. Each wait has `timeout`. Failure: the engine cannot be used; a refused option
  // (kOptions) says "engine 'NAME': option 'X=V' refused: <why>"; an `info string limit:`
  // line in any answer fails it at once (kLimit, LimitReason's message).
  absl::Status EnsureStarted(absl::Duration timeout);

  // `ucinewgame`, then `isready` answered within `timeout` (else a stall).
  absl::Status NewGame(absl::Duration timeout);

  // Sends the position and the go line, and waits for `bestmove` until `deadline` after
  // sending. On DeadlineExceeded the engine is told to stop and given a short grace. An
  // answer with an `info string limit:` line fails with kLimit, however it ends (a
  // `bestmove`, the engine's exit, its time running out), and a message that starts with the
  // limit's reason (LimitReason; after an exit, its stderr's tail follows).
  absl::StatusOr<EngineReply> Go(const std::string& position_line, const std::string& go_line,
                                 absl::Duration deadline);

  // Kills the process; the next EnsureStarted restarts it. How the process ended: its exit
  // code, or 128 + the signal that ended it (SIGKILL's, if it still ran); none if none ran.
  std::optional<int> Kill();
  // `quit`, a short wait, then kill.
  void Quit();

  // How the last failed exchange failed.
  EngineFailure last_failure() const { return last_failure_; }

  // The options the engine advertised at its last start.
  const std::vector<AdvertisedOption>& advertised_options() const { return advertised_; }

  // From now on every line sent and received goes to `log` (none: nullptr), as lines of
  // game `game` (from 1; 0 between games). `log` must outlive the client's use of it.
  void SetLog(ProtocolLog* log, int game) {
    log_ = log;
    log_game_ = game;
  }

 private:
  absl::Status Fail(EngineFailure failure, absl::Status status);
  // `status` with the last lines of the engine's stderr after its message, if it wrote any.
  absl::Status WithStderrTail(absl::Status status);
  // Reads lines until one starts with `prefix`; those before it go to `before`, if given.
  absl::Status WaitFor(absl::string_view prefix, absl::Duration timeout,
                       std::vector<std::string>* before = nullptr);
  // Checks the config's options against those advertised, then sets them one by one.
  absl::Status SetOptions(absl::Duration timeout);
  // The process's WriteLine and ReadLine, logged; a line received is made valid UTF-8.
  absl::Status Send(const std::string& line);
  absl::StatusOr<std::string> Receive(absl::Duration timeout);
  void Note(absl::string_view note);

  EngineConfig config_;
  ProtocolLog* log_ = nullptr;
  int log_game_ = 0;
  std::unique_ptr<ChildProcess> process_;
  EngineFailure last_failure_ = EngineFailure::kNone;
  std::vector<AdvertisedOption> advertised_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_CLIENT_ENGINE_CLIENT_H_
