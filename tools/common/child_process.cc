#include "tools/common/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
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

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) close(fd_);
  fd_ = fd;
}

namespace {

struct Pipe {
  UniqueFd read, write;
};

absl::StatusOr<Pipe> MakePipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return ErrnoError("pipe");
  return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// posix_spawn's file actions and attributes, destroyed on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attributes_);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  posix_spawn_file_actions_t* actions() { return &actions_; }
  posix_spawnattr_t* attributes() { return &attributes_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return absl::InvalidArgumentError("no command to run");
  signal(SIGPIPE, SIG_IGN);
  absl::StatusOr<Pipe> to_child = MakePipe();
  if (!to_child.ok()) return to_child.status();
  absl::StatusOr<Pipe> from_child = MakePipe();
  if (!from_child.ok()) return from_child.status();

  // The child gets the pipes' other ends as stdin and stdout (dup2 clears close-on-exec on
  // the copies; the originals close at exec), and SIGPIPE back to its default: we ignore it.
  SpawnSetup setup;
  posix_spawn_file_actions_adddup2(setup.actions(), to_child->read.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(setup.actions(), from_child->write.get(), STDOUT_FILENO);
  sigset_t default_signals;
  sigemptyset(&default_signals);
  sigaddset(&default_signals, SIGPIPE);
  posix_spawnattr_setsigdefault(setup.attributes(), &default_signals);
  posix_spawnattr_setflags(setup.attributes(), POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  // glibc reports a failed exec here, as the error code.
  const int error =
      posix_spawnp(&pid, args[0], setup.actions(), setup.attributes(), args.data(), environ);
  if (error != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run '", argv[0], "': ", std::strerror(error)));
  }
  return std::unique_ptr<ChildProcess>(
      new ChildProcess(pid, std::move(to_child->write), std::move(from_child->read)));
}

ChildProcess::~ChildProcess() {
  if (!exit_code_) Kill();
}

absl::Status ChildProcess::WriteLine(absl::string_view line) {
  if (!input_.valid()) return absl::FailedPreconditionError("input already closed");
  std::string data = absl::StrCat(line, "\n");
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = write(input_.get(), data.data() + written, data.size() - written);
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
    pollfd poller{output_.get(), POLLIN, 0};
    const int ready = poll(&poller, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("poll");
    }
    if (ready == 0) continue;
    char chunk[4096];
    const ssize_t n = read(output_.get(), chunk, sizeof chunk);
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

void ChildProcess::CloseInput() { input_.reset(); }

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
