// The protocol log of a match (-log file=F): every line sent to and received from every
// engine, with a timestamp, the game (numbered from 1 as in "Finished game N"; 0 between
// games) and the engine's name, and notes on its process (started, exited, killed, silent):
//
//   2026-11-24T03:41:07.512Z game 3 divercite > go depth 4
//   2026-11-24T03:41:07.530Z game 3 divercite < bestmove RC14
//   2026-11-24T03:41:09.001Z game 4 mine * no 'readyok' within 10s
//
// ">" is a line sent to the engine, "<" one it sent, "*" the runner's note. Lines of the
// workers' games interleave, each written whole; the file is appended to.
#ifndef DIVERCITE_TOOLS_CLIENT_PROTOCOL_LOG_H_
#define DIVERCITE_TOOLS_CLIENT_PROTOCOL_LOG_H_

#include <fstream>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

class ProtocolLog {
 public:
  enum class Direction { kSent, kReceived, kNote };

  // Opens `path` to append to it.
  static absl::StatusOr<std::unique_ptr<ProtocolLog>> Open(const std::string& path);

  // Writes one line and flushes it; safe from several threads.
  void Write(int game, absl::string_view engine, Direction direction, absl::string_view line);

 private:
  explicit ProtocolLog(std::ofstream out) : out_(std::move(out)) {}

  std::mutex mutex_;
  std::ofstream out_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_CLIENT_PROTOCOL_LOG_H_
