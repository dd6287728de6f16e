// The C++ board drawing (tools/board_svg) for tests/board_js_browser_test.py, which checks that
// web/board.js draws the same boards:
//
//   board_svg_print skeleton     BoardSkeletonSvg()
//   board_svg_print boards       for each line of stdin, `moves M1 M2 ...` (a game from the
//                                start) or `random SEED` (testing::RandomGame), every ply's
//                                board as a JSON line: {"position", "last_move", "arrow",
//                                "mover", "svg"}: BoardSvg with the move played outlined and
//                                an arrow (a legal move, or the last at the end), from the
//                                first player's side at even plies, the second's at odd ones
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "tests/test_util.h"
#include "tools/board_svg/board_svg.h"
#include "tools/common/json.h"

namespace divercite {
namespace {

// The positions of a line of input, and the move that led to each (none for the first).
struct Line {
  std::vector<Position> positions;
  std::vector<Move> moves;
};

bool ReadLine(absl::string_view text, Line& line) {
  if (absl::ConsumePrefix(&text, "random ")) {
    std::uint64_t seed = 0;
    if (!absl::SimpleAtoi(text, &seed)) return false;
    line.positions = testing::RandomGame(seed);
    line.moves.assign(1, Move::None());
    for (size_t k = 1; k < line.positions.size(); ++k) {
      for (const Move move : LegalMoves(line.positions[k - 1])) {
        Position next = line.positions[k - 1];
        next.Play(move);
        if (ToPositionString(next) == ToPositionString(line.positions[k])) {
          line.moves.push_back(move);
          break;
        }
      }
    }
    return line.moves.size() == line.positions.size();
  }
  if (!absl::ConsumePrefix(&text, "moves")) return false;
  line.positions.assign(1, Position::Start());
  line.moves.assign(1, Move::None());
  for (const absl::string_view word : absl::StrSplit(text, ' ', absl::SkipWhitespace())) {
    absl::StatusOr<Move> move = ParseMove(word);
    if (!move.ok()) return false;
    Position next = line.positions.back();
    next.Play(*move);
    line.positions.push_back(next);
    line.moves.push_back(*move);
  }
  return true;
}

int Main(int argc, char** argv) {
  const std::string command = argc == 2 ? argv[1] : "";
  if (command == "skeleton") {
    std::cout << BoardSkeletonSvg() << "\n";
    return 0;
  }
  if (command != "boards") {
    std::cerr << "usage: board_svg_print skeleton|boards < lines\n";
    return 2;
  }
  std::string text;
  while (std::getline(std::cin, text)) {
    if (text.empty()) continue;
    Line line;
    if (!ReadLine(text, line)) {
      std::cerr << "board_svg_print: bad line '" << text << "'\n";
      return 1;
    }
    for (size_t k = 0; k < line.positions.size(); ++k) {
      const Position& position = line.positions[k];
      const MoveList legal = LegalMoves(position);
      BoardSvgOptions options;
      options.size = 0;
      options.last_move = line.moves[k];
      options.arrow = legal.empty() ? line.moves[k] : legal[static_cast<int>(k) % legal.size()];
      options.arrow_mover = k % 2 == 0 ? Player::kFirst : Player::kSecond;
      Json json = Json::object();
      json["position"] = ToPositionString(position);
      json["last_move"] =
          line.moves[k].IsNone() ? Json(nullptr) : Json(MoveToString(line.moves[k]));
      json["arrow"] = MoveToString(options.arrow);
      json["mover"] = k % 2 == 0 ? "first" : "second";
      json["svg"] = BoardSvg(position, options);
      std::cout << DumpJson(json) << "\n";
    }
  }
  return 0;
}

}  // namespace
}  // namespace divercite

int main(int argc, char** argv) { return divercite::Main(argc, argv); }
