// The engine in a browser (or under node): the protocol of tools/uci over lines that
// JavaScript hands in one by one with divercite_command(), answers through Emscripten's
// `print` (the engine worker, web/engine-worker.js, posts them to the page).
//
// Threaded build (-pthread, -sPROXY_TO_PTHREAD): main() runs on a pthread of its own and
// reads the lines from a queue that divercite_command() feeds from the worker's JavaScript
// thread; the search runs on threads of its own, as natively.
//
// Single-threaded build (no SharedArrayBuffer, for hosts that send no COOP/COEP headers):
// divercite_command() handles the line at once, and a `go` searches before it returns
// (DIVERCITE_INLINE_SEARCH). Every ~kPollPeriodMs of search the poll hands control back to
// the browser for a moment (ASYNCIFY: YieldToEventLoop), so the worker's onmessage can
// call divercite_command() again: those calls only queue their line, and the poll then
// hands the queued lines to the protocol, which obeys `stop` and `isready` during a search
// and refuses what needs it ended, exactly as the native command loop does.
//
// Arguments (Module.arguments): --hardware-threads=N, the processors the browser reports
// (navigator.hardwareConcurrency): the Threads option's maximum (1 without threads).
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>

#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "tools/uci/protocol.h"

namespace divercite {
namespace {

// The lines handed in and not yet read, in order; pushed from the JavaScript thread, read by
// the protocol's.
class LineQueue {
 public:
  void Push(std::string line) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(std::move(line));
    }
    ready_.notify_one();
  }
  std::optional<std::string> TryPop() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (lines_.empty()) return std::nullopt;
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }
  std::string Pop() {  // blocks: only on a thread that may wait (the threaded build's main)
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return !lines_.empty(); });
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::string> lines_;
};

LineQueue& Lines() {
  static LineQueue lines;
  return lines;
}

// The wasm memory left to the table once the rest of the engine has its share (the code's
// data, the threads' stacks, the search's own allocations): the largest power of two MiB
// that fits beside kReservedMegabytes, as the table is a power of two clusters anyway.
constexpr std::int64_t kReservedMegabytes = 256;
std::int64_t MaxHashMegabytes() {
  const std::int64_t heap_megabytes = static_cast<std::int64_t>(emscripten_get_heap_max() >> 20);
  return std::bit_floor(
      static_cast<std::uint64_t>(std::max<std::int64_t>(heap_megabytes - kReservedMegabytes, 1)));
}

#ifdef __EMSCRIPTEN_PTHREADS__

int HardwareThreads(int argc, char** argv) {
  constexpr absl::string_view kFlag = "--hardware-threads=";
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (absl::StartsWith(arg, kFlag) && !absl::SimpleAtoi(arg.substr(kFlag.size()), &threads)) {
      std::cerr << "divercite: ignoring " << arg << ": not a number\n";
    }
  }
  return std::clamp(threads, 1, 256);
}

int Run(int argc, char** argv) {
  Protocol protocol(std::cout, {.max_threads = HardwareThreads(argc, argv),
                                .max_hash_megabytes = MaxHashMegabytes()});
  while (protocol.HandleLine(Lines().Pop())) {
  }
  protocol.WaitForSearch();
  return 0;
}

void Command(const char* line) { Lines().Push(line); }

#else  // the single-threaded build

// How often a search lets the browser deliver messages: `stop` is obeyed within this time.
constexpr double kPollPeriodMs = 20;

// Pauses the search (ASYNCIFY unwinds the stack) until the browser has run the tasks queued
// so far, the worker's onmessage among them, then resumes it. A message to ourselves comes
// back as soon as those tasks ran; emscripten_sleep(0) is a setTimeout, which browsers clamp
// to 4 ms: measured in Chromium, a pause every 40 ms cost the search a tenth of its speed.
// (Emscripten 3.1.6's JavaScript minifier cannot read EM_ASYNC_JS's async arrow: the
// older handleSleep form, named in ASYNCIFY_IMPORTS.)
EM_JS(void, YieldToEventLoop, (), {
  Asyncify.handleSleep(function(wakeUp) {
    if (typeof MessageChannel != 'function') return setTimeout(wakeUp, 0);
    var channel = new MessageChannel();
    channel.port1.onmessage = function() {
      channel.port1.close();
      wakeUp();
    };
    channel.port2.postMessage(0);
  });
});

std::unique_ptr<Protocol> protocol;
bool handling = false;  // a line is being handled (a search may be paused inside it)
bool quit = false;

// Hands the queued lines to the protocol. Within a search (`in_search`), up to a `stop` or
// `quit` only: the lines after it are meant for after the search (a `go` sent right after
// `stop`), and are handled once the paused `go` has returned.
void HandleQueuedLines(bool in_search) {
  while (!quit) {
    std::optional<std::string> line = Lines().TryPop();
    if (!line) return;
    quit = !protocol->HandleLine(*line);
    absl::string_view command = absl::StripLeadingAsciiWhitespace(*line);
    command = command.substr(0, command.find_first_of(" \t\r\n"));
    if (in_search && (command == "stop" || command == "quit")) return;
  }
}

void Poll() {
  static double last = emscripten_get_now();
  const double now = emscripten_get_now();
  if (now - last < kPollPeriodMs) return;
  YieldToEventLoop();  // the worker's messages are delivered here
  last = emscripten_get_now();
  HandleQueuedLines(/*in_search=*/true);
}

int Run(int, char**) {
  protocol = std::make_unique<Protocol>(
      std::cout,
      EngineHost{.max_threads = 1, .max_hash_megabytes = MaxHashMegabytes(), .poll = Poll});
  return 0;  // the runtime stays: the lines come through divercite_command()
}

void Command(const char* line) {
  Lines().Push(line);
  if (handling || !protocol) return;  // a paused search's poll (or main) takes it
  handling = true;
  HandleQueuedLines(/*in_search=*/false);
  handling = false;
}

#endif

}  // namespace
}  // namespace divercite

// One protocol line, without its newline (UTF-8). The caller keeps the memory; it is copied
// before the call returns.
extern "C" EMSCRIPTEN_KEEPALIVE void divercite_command(const char* line) {
  divercite::Command(line);
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return divercite::Run(argc, argv);
}
