// A misbehaving engine for the match runner's fault tests and the compliance check's. It
// speaks the protocol well enough to be started (id name and author, five options of the five
// types), keeps the position it is given (startpos or fen, with moves) and answers a search
// at once with the first legal move, `go infinite` at `stop`. --mode says how it fails.
//
// In a game, when asked to move (after --after good moves):
//   crash    writes a Python traceback on stderr and exits without answering
//   hang     never answers (and ignores stop)
//   garbage  answers lines that are not a bestmove, then "bestmove" with no move
//   illegal  answers a move on an occupied cell
//   malformed answers "bestmove XX99"
//   explained answers "info string error: <why>", then "bestmove (none)"
//   crashed  answers "info string crash: <its exception>", then "bestmove (none)", as the
//            course bridge does for an agent whose compute_action raised
//   spin     keeps a core busy for --delay_ms, then answers a legal move
//   slow     answers a legal move after --delay_ms
//   stall    never answers isready
//   terminated  ends itself with SIGTERM, as a process stopped from outside
//   limit    answers "info string limit: memory limit: ..." (its sandbox's memory limit
//            hit), then "bestmove (none)"
//   limit-exit  answers that limit line, writes a MemoryError on stderr and exits
//   limit-start answers `uci` with a limit line (processes), then exits
//   bad-utf8 writes a line of 300 'é' then bytes that are not UTF-8 (a stray byte, a cut
//            sequence, a surrogate, an overlong form) on stderr, and exits mid-sequence
//   bad-utf8-move answers an error line and a bestmove that hold bytes that are not UTF-8
//   good     always answers the first legal move
// Each failing exactly one check of divercite-match -compliance (named after the colon):
//   no-uciok            never sends uciok (handshake)
//   slow-isready        answers its first isready 1.5 s late (isready)
//   rejects-option-max  refuses its spin option Width at its maximum (option Width)
//   rejects-ucinewgame  answers ucinewgame with an error line (ucinewgame)
//   rejects-startpos    answers `position startpos` with an error line, sets it all the same
//                       (position startpos)
//   rejects-fen         the same for `position fen` (position fen)
//   rejects-moves       the same for `position startpos moves` of two moves (position moves)
//   no-move-depth       answers `go depth` with "bestmove" and no move (go depth)
//   no-move-nodes       the same for `go nodes` (go nodes)
//   over-movetime       answers `go movetime T` after T + 400 ms (go movetime)
//   over-clock          answers a go on a clock after its side's time + 300 ms (go clock)
//   busy-isready        answers no isready during `go infinite`, until stopped
//                       (isready during search)
//   slow-stop           answers stop 500 ms late (stop)
//   illegal-bestmove    answers `go depth` with RR14, a resource on a city cell (legal bestmove)
//   chatters            writes "thinking..." on stdout when it searches (protocol lines)
//   ignores-quit        does not exit on quit (quit)
// --uci_delay_ms delays the answer to `uci` (a slow start); --exact_cp=N makes every move
// come with "score cp" and "info string exact" claiming the final margin N (centipoints, the
// first player's view), true or not (for the runner's adjudication).
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"

ABSL_FLAG(std::string, mode, "good", "how it fails: see the file's comment");
ABSL_FLAG(int, after, 0, "good moves before misbehaving");
ABSL_FLAG(int, delay_ms, 0, "delay of each answer in slow mode");
ABSL_FLAG(int, uci_delay_ms, 0, "delay of the answer to uci");
ABSL_FLAG(std::optional<int>, exact_cp, std::nullopt,
          "claim this exact final margin (first player's view) with every move");

namespace divercite {
namespace {

void Sleep(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// What the sandbox's bridge says when the agent's processes went over their memory.
constexpr char kMemoryLimit[] =
    "memory limit: its processes may use 2048 MB together (2057 MB in use)";

// `position startpos|fen <rows> <side> [moves ...]`; an error line for one it cannot read.
std::optional<Position> ReadPosition(const std::vector<std::string>& words) {
  absl::StatusOr<Position> position = Position::Start();
  size_t next = 2;
  if (words.size() >= 4 && words[1] == "fen") {
    position = ParsePositionString(absl::StrCat(words[2], " ", words[3]));
    next = 4;
  }
  if (position.ok() && next < words.size()) {
    std::vector<absl::string_view> moves(words.begin() + next + 1, words.end());
    position = PlayMoveTexts(*position, moves);
  }
  if (!position.ok()) {
    std::cout << "info string error: " << position.status().message() << std::endl;
    return std::nullopt;
  }
  return *position;
}

// The value of `key` in a go line, if it has one.
std::optional<int> Limit(const std::vector<std::string>& words, absl::string_view key) {
  for (size_t i = 1; i + 1 < words.size(); ++i) {
    int value = 0;
    if (words[i] == key && absl::SimpleAtoi(words[i + 1], &value)) return value;
  }
  return std::nullopt;
}

bool Has(const std::vector<std::string>& words, absl::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

class FakeEngine {
 public:
  explicit FakeEngine(std::string mode)
      : mode_(std::move(mode)), good_moves_left_(absl::GetFlag(FLAGS_after)) {}

  // Handles one line; false on quit.
  bool Handle(const std::string& line) {
    const std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.empty()) return true;
    const std::string& command = words[0];
    if (command == "uci") {
      Sleep(absl::GetFlag(FLAGS_uci_delay_ms));
      std::cout << "id name fake-" << mode_ << "\nid author the tests\n"
                << "option name Width type spin default 2 min 1 max 8\n"
                << "option name Ponder type check default false\n"
                << "option name Style type combo default calm var calm var wild\n"
                << "option name Notes type string default <empty>\n"
                << "option name Clear Hash type button\n";
      if (mode_ == "limit-start") {
        std::cout << "info string limit: processes limit: its processes may be 64 at most"
                  << std::endl;
        std::_Exit(1);
      }
      if (mode_ != "no-uciok") std::cout << "uciok\n";
      std::cout.flush();
    } else if (command == "isready") {
      Isready();
    } else if (command == "quit") {
      return mode_ == "ignores-quit";
    } else if (command == "setoption") {
      if (mode_ == "rejects-option-max" && line == "setoption name Width value 8") {
        std::cout << "info string error: setoption: Width 8 is too wide" << std::endl;
      }
    } else if (command == "ucinewgame") {
      position_ = Position::Start();
      if (mode_ == "rejects-ucinewgame") {
        std::cout << "info string error: ucinewgame: not today" << std::endl;
      }
    } else if (command == "position") {
      SetPosition(words, line);
    } else if (command == "go") {
      Go(words);
    } else if (command == "stop") {
      if (!infinite_) return true;
      if (mode_ == "slow-stop") Sleep(500);
      infinite_ = false;
      Answer();
      for (; deferred_readyok_ > 0; --deferred_readyok_) std::cout << "readyok" << std::endl;
    }
    return true;
  }

 private:
  void Isready() {
    if (mode_ == "stall") return;
    if (mode_ == "busy-isready" && infinite_) {
      ++deferred_readyok_;
      return;
    }
    if (mode_ == "slow-isready" && isready_answered_ == 0) Sleep(1500);
    ++isready_answered_;
    std::cout << "readyok" << std::endl;
  }

  void SetPosition(const std::vector<std::string>& words, const std::string& line) {
    if (std::optional<Position> position = ReadPosition(words)) position_ = *position;
    const bool refuse = (mode_ == "rejects-startpos" && line == "position startpos") ||
                        (mode_ == "rejects-fen" && words.size() > 1 && words[1] == "fen") ||
                        (mode_ == "rejects-moves" && words.size() == 5 && words[2] == "moves");
    if (refuse) std::cout << "info string error: position: not that one" << std::endl;
  }

  void Go(const std::vector<std::string>& words) {
    if (mode_ == "chatters") std::cout << "thinking..." << std::endl;
    if (Has(words, "infinite")) {
      infinite_ = true;  // answered at stop
      return;
    }
    if (mode_ == "no-move-depth" && Limit(words, "depth")) {
      std::cout << "bestmove" << std::endl;
      return;
    }
    if (mode_ == "no-move-nodes" && Limit(words, "nodes")) {
      std::cout << "bestmove" << std::endl;
      return;
    }
    if (mode_ == "illegal-bestmove" && Limit(words, "depth")) {
      std::cout << "bestmove RR14" << std::endl;
      return;
    }
    if (mode_ == "over-movetime") {
      if (const std::optional<int> movetime = Limit(words, "movetime")) Sleep(*movetime + 400);
    }
    if (mode_ == "over-clock") {
      const bool first = position_.SideToMove() == Player::kFirst;
      if (const std::optional<int> clock = Limit(words, first ? "wtime" : "btime")) {
        Sleep(*clock + 300);
      }
    }
    Answer();
  }

  // The match runner's faults, or the first legal move.
  void Answer() {
    const MoveList legal = LegalMoves(position_);
    if (good_moves_left_-- > 0 || !IsGameFault()) {
      if (const std::optional<int> claim = absl::GetFlag(FLAGS_exact_cp)) {
        const bool first = position_.SideToMove() == Player::kFirst;
        std::cout << "info depth 1 score cp " << (first ? *claim : -*claim)
                  << "\ninfo string exact\n";
      } else {
        std::cout << "info depth 1 score cp 0\n";
      }
      std::cout << "bestmove " << (legal.size() > 0 ? MoveToString(legal[0]) : "(none)")
                << std::endl;
      return;
    }
    if (mode_ == "crash") {
      // As a Python engine whose import failed says it, before it dies.
      std::cerr << "Traceback (most recent call last):\n  File \"agent.py\", line 3\n"
                   "ModuleNotFoundError: No module named 'cachetools'"
                << std::endl;
      std::_Exit(3);
    }
    if (mode_ == "terminated") std::raise(SIGTERM);
    if (mode_ == "hang") {
      Sleep(3600 * 1000);
    } else if (mode_ == "garbage") {
      std::cout << "hello there\n\x01\x02 not a move\nbestmove" << std::endl;
    } else if (mode_ == "illegal") {
      // A well-formed move on an occupied cell (the tests let it move second, so there is
      // one); on an empty board, a move the runner must still refuse: none exists, so pass.
      const Bitboard occupied = position_.Occupied();
      const std::string move =
          occupied ? MoveToString(Move(LowestCell(occupied), Colour::kRed)) : "(none)";
      std::cout << "bestmove " << move << std::endl;
    } else if (mode_ == "malformed") {
      std::cout << "bestmove XX99" << std::endl;
    } else if (mode_ == "explained") {
      std::cout << "info string error: the fake engine gives up\nbestmove (none)" << std::endl;
    } else if (mode_ == "crashed") {
      std::cout << "info string crash: ZeroDivisionError in my_player.py, line 9 "
                   "(MyPlayer.compute_action): division by zero\nbestmove (none)"
                << std::endl;
    } else if (mode_ == "spin") {
      const auto until = std::chrono::steady_clock::now() +
                         std::chrono::milliseconds(absl::GetFlag(FLAGS_delay_ms));
      volatile unsigned spins = 0;
      while (std::chrono::steady_clock::now() < until) spins = spins + 1;
      std::cout << "bestmove " << MoveToString(legal[0]) << std::endl;
    } else if (mode_ == "slow") {
      Sleep(absl::GetFlag(FLAGS_delay_ms));
      std::cout << "bestmove " << MoveToString(legal[0]) << std::endl;
    } else if (mode_ == "limit") {
      std::cout << "info string limit: " << kMemoryLimit << "\nbestmove (none)" << std::endl;
    } else if (mode_ == "limit-exit") {
      std::cout << "info string limit: " << kMemoryLimit << std::endl;
      std::cerr << "Traceback (most recent call last):\nMemoryError" << std::endl;
      std::_Exit(1);
    } else if (mode_ == "bad-utf8") {
      // One line of 661 bytes: a tail of 400 starts inside an 'é' (at byte 261 of the line).
      for (int i = 0; i < 300; ++i) std::cerr << "\xc3\xa9";
      std::cerr << " stray \xff byte, cut \xe2\x82 sequence, surrogate \xed\xa0\x80, overlong "
                   "\xc0\xaf"
                << "\xf0\x9f\x98" << std::flush;  // a sequence cut short by the exit
      std::_Exit(3);
    } else if (mode_ == "bad-utf8-move") {
      std::cout << "info string error: caf\xe9 \xff\xfe\nbestmove \xc0\xaf(none)" << std::endl;
    }
  }

  // The modes that fail a game's moves (the others answer every move well).
  bool IsGameFault() const {
    return mode_ == "crash" || mode_ == "terminated" || mode_ == "hang" || mode_ == "garbage" ||
           mode_ == "illegal" || mode_ == "malformed" || mode_ == "explained" || mode_ == "slow" ||
           mode_ == "crashed" || mode_ == "spin" || mode_ == "limit" || mode_ == "limit-exit" ||
           mode_ == "bad-utf8" || mode_ == "bad-utf8-move";
  }

  const std::string mode_;
  int good_moves_left_;
  Position position_ = Position::Start();
  bool infinite_ = false;
  int deferred_readyok_ = 0;
  int isready_answered_ = 0;
};

}  // namespace
}  // namespace divercite

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  divercite::FakeEngine engine(absl::GetFlag(FLAGS_mode));
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!engine.Handle(line)) return 0;
  }
  return 0;
}
