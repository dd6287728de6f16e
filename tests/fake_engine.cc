// A misbehaving engine for the match runner's fault tests. It speaks the protocol well
// enough to be started, then fails the way --mode says when asked to move (after --after
// good moves):
//   crash    writes a Python traceback on stderr and exits without answering
//   hang     never answers (and ignores stop)
//   garbage  answers lines that are not a bestmove, then "bestmove" with no move
//   illegal  answers a move on an occupied cell
//   malformed answers "bestmove XX99"
//   explained answers "info string error: <why>", then "bestmove (none)"
//   slow     answers a legal move after --delay_ms
//   stall    never answers isready
//   terminated  ends itself with SIGTERM, as a process stopped from outside
//   good     always answers the first legal move
// --uci_delay_ms delays the answer to `uci` (a slow start); --exact_cp=N makes every move
// come with "score cp" and "info string exact" claiming the final margin N (centipoints, the
// first player's view), true or not (for the runner's adjudication).
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
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"

ABSL_FLAG(std::string, mode, "good",
          "crash, hang, garbage, illegal, malformed, explained, slow, stall, terminated, good");
ABSL_FLAG(int, after, 0, "good moves before misbehaving");
ABSL_FLAG(int, delay_ms, 0, "delay of each answer in slow mode");
ABSL_FLAG(int, uci_delay_ms, 0, "delay of the answer to uci");
ABSL_FLAG(std::optional<int>, exact_cp, std::nullopt,
          "claim this exact final margin (first player's view) with every move");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string mode = absl::GetFlag(FLAGS_mode);
  int good_moves_left = absl::GetFlag(FLAGS_after);
  divercite::Position position = divercite::Position::Start();
  std::string line;
  while (std::getline(std::cin, line)) {
    const std::vector<std::string> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (words.empty()) continue;
    if (words[0] == "uci") {
      std::this_thread::sleep_for(std::chrono::milliseconds(absl::GetFlag(FLAGS_uci_delay_ms)));
      std::cout << "id name fake-" << mode << "\nuciok" << std::endl;
    } else if (words[0] == "isready") {
      if (mode == "stall") continue;
      std::cout << "readyok" << std::endl;
    } else if (words[0] == "quit") {
      return 0;
    } else if (words[0] == "position") {
      // position startpos moves ...: the runner only sends well-formed positions.
      std::vector<absl::string_view> moves;
      for (size_t i = 3; i < words.size(); ++i) moves.push_back(words[i]);
      position = *divercite::PlayMoveTexts(divercite::Position::Start(), moves);
    } else if (words[0] == "go") {
      const divercite::MoveList legal = divercite::LegalMoves(position);
      if (good_moves_left-- > 0 || mode == "good" || mode == "stall") {
        if (const std::optional<int> claim = absl::GetFlag(FLAGS_exact_cp)) {
          const bool first = position.SideToMove() == divercite::Player::kFirst;
          std::cout << "info depth 1 score cp " << (first ? *claim : -*claim)
                    << "\ninfo string exact\n";
        } else {
          std::cout << "info depth 1 score cp 0\n";
        }
        std::cout << "bestmove " << divercite::MoveToString(legal[0]) << std::endl;
        continue;
      }
      if (mode == "crash") {
        // As a Python engine whose import failed says it, before it dies.
        std::cerr << "Traceback (most recent call last):\n  File \"agent.py\", line 3\n"
                     "ModuleNotFoundError: No module named 'cachetools'"
                  << std::endl;
        std::_Exit(3);
      }
      if (mode == "terminated") std::raise(SIGTERM);
      if (mode == "hang") {
        std::this_thread::sleep_for(std::chrono::hours(1));
      } else if (mode == "garbage") {
        std::cout << "hello there\n\x01\x02 not a move\nbestmove" << std::endl;
      } else if (mode == "illegal") {
        // A well-formed move on an occupied cell (the tests let it move second, so there is
        // one); on an empty board, a move the runner must still refuse: none exists, so pass.
        const divercite::Bitboard occupied = position.Occupied();
        const std::string move =
            occupied ? divercite::MoveToString(divercite::Move(divercite::LowestCell(occupied),
                                                               divercite::Colour::kRed))
                     : "(none)";
        std::cout << "bestmove " << move << std::endl;
      } else if (mode == "malformed") {
        std::cout << "bestmove XX99" << std::endl;
      } else if (mode == "explained") {
        std::cout << "info string error: the fake engine gives up\nbestmove (none)" << std::endl;
      } else if (mode == "slow") {
        std::this_thread::sleep_for(std::chrono::milliseconds(absl::GetFlag(FLAGS_delay_ms)));
        std::cout << "bestmove " << divercite::MoveToString(legal[0]) << std::endl;
      }
    }
  }
  return 0;
}
