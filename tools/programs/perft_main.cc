// divercite-perft: counts the leaves of the move tree from a position, optionally per move.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/move.h"
#include "engine/position_string.h"
#include "perft/perft.h"
#include "tools/common/command_line.h"

ABSL_FLAG(int, depth, 0,
          "Depth of the move tree to count (plies, 1-40). May also be given "
          "as the only positional argument.");
ABSL_FLAG(std::string, fen, "", "Position string '<rows> <side>' (default: the start position)");
ABSL_FLAG(std::string, moves, "",
          "Moves to play from the position first, separated by spaces or commas, e.g. "
          "'RC14 GR04'");
ABSL_FLAG(bool, divide, false, "Print the count below each legal move");
ABSL_FLAG(int, threads, 1, "Threads sharing the root moves (1-256)");

namespace {

int Fail(absl::string_view message) { return divercite::UsageError("divercite-perft", message); }

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> positional = divercite::ParseToolCommandLine(
      argc, argv, "perft_main.cc",
      "Counts the leaves of the Divercité move tree.\n"
      "Usage: divercite-perft [--depth=]N [--fen='<rows> <side>'] [--moves='m1 m2 ...'] "
      "[--divide] [--threads=T]");
  int depth = absl::GetFlag(FLAGS_depth);
  if (positional.size() > 2) return Fail("too many arguments; the only positional one is N");
  if (positional.size() == 2) {
    if (depth != 0) return Fail("depth given twice (positional and --depth)");
    if (!absl::SimpleAtoi(positional[1], &depth)) {
      return Fail(std::string("depth '") + positional[1] + "' is not a number");
    }
  }
  if (depth < 1 || depth > divercite::kTotalPlies) {
    return Fail("depth must be given, from 1 to 40");
  }
  const int threads = absl::GetFlag(FLAGS_threads);
  if (threads < 1 || threads > 256) return Fail("--threads must be from 1 to 256");

  const std::string fen = absl::GetFlag(FLAGS_fen);
  absl::StatusOr<divercite::Position> position =
      divercite::ParsePositionString(fen.empty() ? divercite::kStartPositionString : fen);
  if (!position.ok()) return Fail(std::string(position.status().message()));
  const std::string move_text = absl::GetFlag(FLAGS_moves);
  const std::vector<absl::string_view> moves =
      absl::StrSplit(move_text, absl::ByAnyChar(" ,"), absl::SkipWhitespace());
  position = divercite::PlayMoveTexts(*position, moves);
  if (!position.ok()) return Fail(std::string(position.status().message()));

  const auto start = std::chrono::steady_clock::now();
  const std::vector<divercite::DivideEntry> entries = divercite::Divide(*position, depth, threads);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t total = 0;
  for (const divercite::DivideEntry& entry : entries) {
    total += entry.nodes;
    if (absl::GetFlag(FLAGS_divide)) {
      std::printf("%s: %llu\n", divercite::MoveToString(entry.move).c_str(),
                  static_cast<unsigned long long>(entry.nodes));
    }
  }
  if (absl::GetFlag(FLAGS_divide)) std::printf("\n");
  std::printf("position %s\n", divercite::ToPositionString(*position).c_str());
  std::printf("depth %d\n", depth);
  std::printf("nodes %llu\n", static_cast<unsigned long long>(total));
  std::printf("time %.3f s\n", seconds);
  std::printf("nps %.0f\n", seconds > 0 ? static_cast<double>(total) / seconds : 0.0);
  return 0;
}
