// A child process spoken to line by line over pipes (its stdin and stdout), with deadlines,
// for driving engines. Its stderr goes through a third pipe, relayed to ours by a thread that
// keeps its last lines: when an engine crashes or hangs, why (a Python traceback, an import
// error) is then known. Started with posix_spawnp; every descriptor is owned by a UniqueFd,
// and the pipes are close-on-exec, so no other child inherits them.
//
// What a process writes is bytes, not text: an engine (a hostile agent, on purpose) may write
// anything. ValidUtf8 makes text of them for a record, a message or a log.
#ifndef DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_
#define DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace divercite {

// `text` with every ill-formed UTF-8 sequence (a stray byte, a cut or overlong sequence, a
// surrogate, a code point past U+10FFFF) replaced by U+FFFD, one for each maximal ill-formed
// subpart, as Unicode recommends (and Python's errors="replace" does); valid text is returned
// unchanged.
std::string ValidUtf8(absl::string_view text);

// Owns a file descriptor: closes it once, on destruction or reset.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

class ChildProcess {
 public:
  // Starts argv[0] (looked up in PATH) with the arguments argv[1..]. Writing to a process
  // that has died must not kill us, so SIGPIPE is ignored from the first call on.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(const std::vector<std::string>& argv);

  ~ChildProcess();  // kills the process if it still runs, reaps it, ends the relay
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and a newline. Fails if the process has closed its input.
  absl::Status WriteLine(absl::string_view line);

  // The next line of its output, without the newline. DeadlineExceeded after `timeout`
  // (the partial line is kept for the next call); Unavailable once the output is closed.
  absl::StatusOr<std::string> ReadLine(absl::Duration timeout);

  // Closes our end of its stdin (the process sees end of input).
  void CloseInput();

  // Waits up to `timeout` for the process to exit; its exit code (or 128 + signal).
  std::optional<int> WaitForExit(absl::Duration timeout);

  // SIGKILL, then reap. The exit code as in WaitForExit.
  int Kill();

  pid_t pid() const { return pid_; }

  // The last lines the process wrote on its stderr, at most about `max_bytes` (cut where a
  // line starts, else where a UTF-8 sequence starts; the lines joined by " / "), as valid
  // UTF-8 (ValidUtf8), once what it wrote up to its exit has been read (waiting up to `wait`
  // for that); "" if it wrote nothing. Of all it wrote, the last 4096 bytes are kept.
  std::string StderrTail(size_t max_bytes = 400, absl::Duration wait = absl::Milliseconds(300));

 private:
  class StderrRelay;

  ChildProcess(pid_t pid, UniqueFd input, UniqueFd output, UniqueFd errors);

  pid_t pid_;
  UniqueFd input_;   // its stdin
  UniqueFd output_;  // its stdout
  std::string buffer_;
  bool output_closed_ = false;
  std::optional<int> exit_code_;
  std::unique_ptr<StderrRelay> stderr_relay_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_
