// What an engine answers to one `go`, and the reading of that answer line by line, apart from
// any process or clock: EngineClient feeds it the lines it receives, and the tests feed it the
// transcripts of docs/protocol.md.
#ifndef DIVERCITE_TOOLS_CLIENT_ENGINE_REPLY_H_
#define DIVERCITE_TOOLS_CLIENT_ENGINE_REPLY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/game_result.h"

namespace divercite {

// The prefix of an engine's error line; what follows it is the engine's reason.
inline constexpr absl::string_view kEngineErrorPrefix = "info string error:";
// The prefix of the line by which an engine says that a resource limit of the sandbox it runs
// in (memory, processes) ended its move; what follows it is the limit's reason. It then
// answers `bestmove (none)` or exits: either way the game is lost by `limit`.
inline constexpr absl::string_view kEngineLimitPrefix = "info string limit:";
// The prefix of the line by which an engine says that it failed on its move by a fault of its
// own code (a course agent's exception: its type, file and line); what follows is the crash's
// description. It then answers `bestmove (none)`: the game is lost by `crash`, not by an
// illegal move.
inline constexpr absl::string_view kEngineCrashPrefix = "info string crash:";

// What a score line's `lowerbound` or `upperbound` says of its score: none, the score is the
// search's value; a proven win reports the margin it is sure of as a lower bound, a proven
// loss as an upper bound (an aspiration window's fail high or low does too, unproven).
enum class ScoreBound { kNone, kLower, kUpper };

// One line of the engine's last report (MultiPV k): its score line and the `info string
// exact` / `proven` lines that followed it.
struct EngineLine {
  int score_cp = 0;
  ScoreBound score_bound = ScoreBound::kNone;
  bool exact = false;
  ProvenResult proven = ProvenResult::kUnknown;  // the side to move's view
  std::vector<std::string> pv;                   // as sent, unvalidated; pv[0] is the line's move
};

// What the engine answered to one `go`.
struct EngineReply {
  std::string bestmove;                        // as sent, unvalidated
  std::optional<int> score_cp;                 // from the last info line with a score
  ScoreBound score_bound = ScoreBound::kNone;  // that line's bound
  bool exact = false;                          // an `info string exact` was seen
  // The `info string proven win|draw|loss` that followed the last score line (the search's
  // final report, which the move comes from), the side to move's view; kUnknown if none did.
  ProvenResult proven = ProvenResult::kUnknown;
  // The lines of the last report, best first: line k from the last `multipv k` score line
  // (one line without MultiPV, from the last score line). The fields above are line 1's.
  std::vector<EngineLine> lines;
  std::string error;  // the last `info string error: X` seen: X
  // The last `info string limit: X` seen: X (perhaps ""); none if none was.
  std::optional<std::string> limit;
  // The last `info string crash: X` seen: X; none if none was.
  std::optional<std::string> crash;
  absl::Duration elapsed;  // from sending `go` to receiving `bestmove` (EngineClient's)
};

// Reads the answer to one `go`, a line at a time, until its `bestmove`. Lines it does not
// understand are skipped, as UCI asks (any word but `info` and `bestmove` first).
class ReplyReader {
 public:
  enum class Step {
    kMore,      // the answer goes on
    kBestmove,  // `bestmove <move>` ended it: reply().bestmove is the move
    kNoMove,    // `bestmove` with no move ended it
  };

  Step Read(absl::string_view line);

  const EngineReply& reply() const { return reply_; }
  EngineReply& reply() { return reply_; }

 private:
  EngineReply reply_;
  size_t rank_ = 0;  // the line (MultiPV k) the last score line opened; 0 before any
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_CLIENT_ENGINE_REPLY_H_
