#include "tools/common/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

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

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `text` cut at its front: without the continuation bytes (at most 3) of a UTF-8 sequence
// whose first bytes were cut off, which would read as garbage.
absl::string_view WithoutCutSequence(absl::string_view text) {
  for (int i = 0; i < 3 && !text.empty() && IsContinuationByte(text.front()); ++i) {
    text.remove_prefix(1);
  }
  return text;
}

}  // namespace

std::string ValidUtf8(absl::string_view text) {
  static constexpr absl::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  std::string valid;
  valid.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      valid.push_back(static_cast<char>(lead));
      ++i;
      continue;
    }
    // The sequence's length by its lead byte, and the range of its second byte, which rules
    // out overlong forms, surrogates and code points past U+10FFFF (Unicode's table 3-7).
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    // The bytes that fit the sequence so far: all of them, or the maximal ill-formed subpart.
    size_t fitting = 1;
    while (fitting < length && i + fitting < text.size()) {
      const unsigned char next = static_cast<unsigned char>(text[i + fitting]);
      if (next < (fitting == 1 ? low : 0x80) || next > (fitting == 1 ? high : 0xBF)) break;
      ++fitting;
    }
    if (length > 0 && fitting == length) {
      valid.append(text.data() + i, length);
    } else {
      valid.append(kReplacement.data(), kReplacement.size());
    }
    i += fitting;
  }
  return valid;
}

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

// Reads the child's stderr on a thread of its own (a child that fills the pipe while nobody
// reads it would block), copies it to ours, and keeps the last kKept bytes.
class ChildProcess::StderrRelay {
 public:
  explicit StderrRelay(UniqueFd errors) : errors_(std::move(errors)), thread_([this] { Run(); }) {}
  ~StderrRelay() {
    stop_ = true;
    thread_.join();
  }
  StderrRelay(const StderrRelay&) = delete;
  StderrRelay& operator=(const StderrRelay&) = delete;

  // What was kept, once the pipe's end was read or `wait` has passed.
  std::string Kept(absl::Duration wait) {
    std::unique_lock<std::mutex> lock(mutex_);
    closed_changed_.wait_for(lock, absl::ToChronoMilliseconds(wait), [this] { return closed_; });
    return kept_;
  }

 private:
  static constexpr size_t kKept = 4096;

  void Run() {
    // Polled in short steps: a grandchild may hold the pipe open after the child is gone,
    // and the owner's stop must still end the thread. On stop, what is there is read first.
    while (true) {
      pollfd poller{errors_.get(), POLLIN, 0};
      const int ready = poll(&poller, 1, stop_ ? 0 : 50);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {
        if (stop_) break;
        continue;
      }
      char chunk[4096];
      const ssize_t n = read(errors_.get(), chunk, sizeof chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) break;
      (void)!write(STDERR_FILENO, chunk, static_cast<size_t>(n));
      std::lock_guard<std::mutex> lock(mutex_);
      kept_.append(chunk, static_cast<size_t>(n));
      if (kept_.size() > kKept) {
        kept_.erase(0, kept_.size() - kKept);
        kept_.erase(0, kept_.size() - WithoutCutSequence(kept_).size());
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    closed_changed_.notify_all();
  }

  UniqueFd errors_;
  std::atomic<bool> stop_ = false;
  std::mutex mutex_;
  std::condition_variable closed_changed_;
  std::string kept_;
  bool closed_ = false;
  std::thread thread_;  // last: it starts once every member above exists
};

ChildProcess::ChildProcess(pid_t pid, UniqueFd input, UniqueFd output, UniqueFd errors)
    : pid_(pid),
      input_(std::move(input)),
      output_(std::move(output)),
      stderr_relay_(std::make_unique<StderrRelay>(std::move(errors))) {}

std::string ChildProcess::StderrTail(size_t max_bytes, absl::Duration wait) {
  std::string kept = stderr_relay_->Kept(wait);
  absl::string_view text = absl::StripTrailingAsciiWhitespace(kept);
  if (text.size() > max_bytes) {
    text.remove_prefix(text.size() - max_bytes);
    if (const size_t start = text.find('\n'); start != absl::string_view::npos) {
      text.remove_prefix(start + 1);
    } else {
      text = WithoutCutSequence(text);
    }
  }
  std::vector<absl::string_view> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) lines.push_back(line);
  }
  return ValidUtf8(absl::StrJoin(lines, " / "));
}

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return absl::InvalidArgumentError("no command to run");
  signal(SIGPIPE, SIG_IGN);
  absl::StatusOr<Pipe> to_child = MakePipe();
  if (!to_child.ok()) return to_child.status();
  absl::StatusOr<Pipe> from_child = MakePipe();
  if (!from_child.ok()) return from_child.status();
  absl::StatusOr<Pipe> errors_from_child = MakePipe();
  if (!errors_from_child.ok()) return errors_from_child.status();

  // The child gets the pipes' other ends as stdin, stdout and stderr (dup2 clears close-on-exec on
  // the copies; the originals close at exec), and SIGPIPE back to its default: we ignore it.
  SpawnSetup setup;
  posix_spawn_file_actions_adddup2(setup.actions(), to_child->read.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(setup.actions(), from_child->write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(setup.actions(), errors_from_child->write.get(), STDERR_FILENO);
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
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, std::move(to_child->write),
                                                        std::move(from_child->read),
                                                        std::move(errors_from_child->read)));
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
