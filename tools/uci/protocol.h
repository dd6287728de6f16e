// The UCI-style text protocol (also spoken in its UGI dialect), specified in docs/protocol.md:
// one command loop that dispatches by first token to a small method per command. It only reads
// tokens and formats text; the engine itself (position, options, search thread) is an
// EngineSession, and the rules and the search never read or write a stream. `go` runs on the
// session's thread while the loop keeps reading, so `isready`, `stop` and `quit` are answered
// at once; every `go` gets exactly one `bestmove`. The transcripts of docs/protocol.md tagged
// `engine` are replayed against it (tests/protocol_transcript_test.cc).
#ifndef DIVERCITE_TOOLS_UCI_PROTOCOL_H_
#define DIVERCITE_TOOLS_UCI_PROTOCOL_H_

#include <atomic>
#include <istream>
#include <mutex>
#include <ostream>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "search/search.h"
#include "tools/uci/engine_session.h"

namespace divercite {

class Protocol {
 public:
  // Every protocol line goes to `out`, flushed line by line. `host` bounds the options
  // (the browser's memory and processors) and polls a search (EngineHost).
  explicit Protocol(std::ostream& out, EngineHost host = {});
  ~Protocol();  // stops and joins a running search

  // Reads commands until `quit` or the end of the input (then waits for a running search
  // to finish, as a pipe that closes after `go` still expects its `bestmove`).
  void Loop(std::istream& in);

  // Handles one line. Returns false when the engine must exit (`quit`).
  bool HandleLine(absl::string_view line);

  // Blocks until the running search, if any, has sent its bestmove.
  void WaitForSearch() { session_.WaitForSearch(); }

  const Position& position() const { return session_.position(); }

  // How many `info string error` lines were sent: a command given on the command line exits
  // with a failure status when its answer was an error.
  int errors_sent() const { return errors_sent_; }

 private:
  using Arguments = std::vector<absl::string_view>;

  void Identify(absl::string_view dialect);
  void SetOption(const Arguments& args);
  void SetPosition(const Arguments& args);
  void Go(const Arguments& args);
  void GoPerft(const Arguments& args);
  void Bench(const Arguments& args);
  void Display();
  void ShowEvaluation();
  void Query(const Arguments& args);

  // Refuses (with an error line) a command that would change what a running search uses.
  bool RefuseWhileSearching(absl::string_view command);
  void SendInfo(const IterationInfo& info);
  void SendChoice(const MoveChoice& choice);

  void Send(absl::string_view line);
  void SendError(absl::string_view reason);

  std::ostream& out_;
  std::mutex out_mutex_;
  std::atomic<int> errors_sent_ = 0;
  EngineSession session_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_UCI_PROTOCOL_H_
