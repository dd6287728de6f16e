#include "tools/common/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"

namespace divercite {
namespace {

absl::Status ErrnoError(absl::string_view what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

int DecodeStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return absl::InvalidArgumentError("no command to run");
  signal(SIGPIPE, SIG_IGN);
  int to_child[2], from_child[2], exec_error[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) return ErrnoError("pipe");
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    return ErrnoError("pipe");
  }
  // Reports a failed exec back to the parent: the pipe closes silently on success.
  if (pipe2(exec_error, O_CLOEXEC) != 0) {
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) close(fd);
    return ErrnoError("pipe");
  }
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1], exec_error[0],
                   exec_error[1]}) {
      close(fd);
    }
    return ErrnoError("fork");
  }
  if (pid == 0) {
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execvp(args[0], args.data());
    const int error = errno;
    [[maybe_unused]] ssize_t n = write(exec_error[1], &error, sizeof error);
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  close(exec_error[1]);
  int error = 0;
  ssize_t n;
  do {
    n = read(exec_error[0], &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  close(exec_error[0]);
  if (n == sizeof error) {
    waitpid(pid, nullptr, 0);
    close(to_child[1]);
    close(from_child[0]);
    return absl::NotFoundError(
        absl::StrCat("cannot run '", argv[0], "': ", std::strerror(error)));
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, to_child[1], from_child[0]));
}

ChildProcess::~ChildProcess() {
  if (!exit_code_) Kill();
  if (input_fd_ >= 0) close(input_fd_);
  if (output_fd_ >= 0) close(output_fd_);
}

absl::Status ChildProcess::WriteLine(absl::string_view line) {
  if (input_fd_ < 0) return absl::FailedPreconditionError("input already closed");
  std::string data = absl::StrCat(line, "\n");
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(input_fd_, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(
          absl::StrCat("cannot write to the process: ", std::strerror(errno)));
    }
    written += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ChildProcess::ReadLine(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    if (const size_t end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (output_closed_) {
      if (!buffer_.empty()) return std::exchange(buffer_, std::string());
      return absl::UnavailableError("the process closed its output");
    }
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      return absl::DeadlineExceededError("no complete line in time");
    }
    pollfd poller{output_fd_, POLLIN, 0};
    const int ready =
        poll(&poller, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("poll");
    }
    if (ready == 0) continue;
    char chunk[4096];
    const ssize_t n = read(output_fd_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      output_closed_ = true;
    } else if (n == 0) {
      output_closed_ = true;
    } else {
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
}

void ChildProcess::CloseInput() {
  if (input_fd_ >= 0) close(input_fd_);
  input_fd_ = -1;
}

std::optional<int> ChildProcess::WaitForExit(absl::Duration timeout) {
  if (exit_code_) return exit_code_;
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_code_ = DecodeStatus(status);
      return exit_code_;
    }
    if (done < 0 && errno != EINTR) {
      exit_code_ = -1;
      return exit_code_;
    }
    if (absl::Now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

int ChildProcess::Kill() {
  if (exit_code_) return *exit_code_;
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_code_ = DecodeStatus(status);
  return *exit_code_;
}

}  // namespace divercite
