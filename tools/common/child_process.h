// A child process spoken to line by line over pipes (its stdin and stdout), with deadlines,
// for driving engines. Its stderr is inherited.
#ifndef DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_
#define DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace divercite {

class ChildProcess {
 public:
  // Starts argv[0] (looked up in PATH) with the arguments argv[1..]. Writing to a process
  // that has died must not kill us, so SIGPIPE is ignored from the first call on.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(
      const std::vector<std::string>& argv);

  ~ChildProcess();  // kills the process if it still runs, and reaps it
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

 private:
  ChildProcess(pid_t pid, int input_fd, int output_fd)
      : pid_(pid), input_fd_(input_fd), output_fd_(output_fd) {}

  pid_t pid_;
  int input_fd_;
  int output_fd_;
  std::string buffer_;
  bool output_closed_ = false;
  std::optional<int> exit_code_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_CHILD_PROCESS_H_
