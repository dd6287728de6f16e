#include "tools/match/openings.h"

#include <algorithm>
#include <fstream>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

absl::StatusOr<std::vector<Opening>> ReadOpenings(const std::string& path) {
  std::vector<Opening> openings;
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text[0] == '#') continue;
    absl::StatusOr<Opening> opening = ParseOpening(text);
    if (!opening.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", number, ": ", opening.status().message()));
    }
    openings.push_back(*opening);
  }
  if (openings.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": no opening"));
  return openings;
}

// Uniform legal moves, reproducible from the seed: the k-th opening does not depend on how
// many are drawn, so a longer run of the same match starts with the same openings.
std::vector<Opening> RandomOpenings(int count, int plies, std::uint64_t seed) {
  std::vector<Opening> openings;
  std::mt19937_64 rng(seed);
  for (int k = 0; k < count; ++k) {
    Opening opening;
    opening.start = Position::Start();
    opening.start_string = "startpos";
    Position position = opening.start;
    for (int ply = 0; ply < plies; ++ply) {
      const MoveList moves = LegalMoves(position);
      const Move move = moves[static_cast<int>(rng() % moves.size())];
      opening.moves.push_back(MoveToString(move));
      position.Play(move);
    }
    opening.text = opening.moves.empty() ? "startpos" : absl::StrJoin(opening.moves, " ");
    openings.push_back(opening);
  }
  return openings;
}

}  // namespace

std::string Opening::RecordedMoves() const { return absl::StrJoin(moves, " "); }

absl::StatusOr<Opening> ParseOpening(absl::string_view line) {
  Opening opening;
  opening.text = std::string(absl::StripAsciiWhitespace(line));
  std::vector<absl::string_view> words = absl::StrSplit(opening.text, ' ', absl::SkipEmpty());
  size_t next = 0;
  opening.start = Position::Start();
  opening.start_string = "startpos";
  if (!words.empty() && words[0] == "startpos") {
    next = 1;
  } else if (!words.empty() && absl::StrContains(words[0], '/')) {
    if (words.size() < 2)
      return absl::InvalidArgumentError(absl::StrCat("opening '", line, "': missing the side"));
    absl::StatusOr<Position> start = ParsePositionString(absl::StrCat(words[0], " ", words[1]));
    if (!start.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("opening '", line, "': ", start.status().message()));
    }
    opening.start = *start;
    opening.start_string = absl::StrCat("fen ", words[0], " ", words[1]);
    next = 2;
  }
  if (next < words.size() && words[next] == "moves") ++next;
  const std::vector<absl::string_view> moves(words.begin() + next, words.end());
  absl::StatusOr<Position> end = PlayMoveTexts(opening.start, moves);
  if (!end.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("opening '", line, "': ", end.status().message()));
  if (end->IsGameOver())
    return absl::InvalidArgumentError(absl::StrCat("opening '", line, "': the game is over"));
  for (absl::string_view move : moves) opening.moves.emplace_back(move);
  return opening;
}

absl::StatusOr<std::vector<Opening>> LoadOpenings(const MatchSettings& settings, int count) {
  const int skip = settings.openings_start - 1;
  if (settings.openings_file.empty()) {
    std::vector<Opening> openings =
        RandomOpenings(count + skip, settings.random_opening_plies, settings.seed);
    openings.erase(openings.begin(), openings.begin() + skip);
    return openings;
  }
  absl::StatusOr<std::vector<Opening>> openings = ReadOpenings(settings.openings_file);
  if (!openings.ok()) return openings.status();
  if (settings.openings_random_order) {
    // Fisher-Yates with the seed's own generator, so that every shard and every platform
    // draws the same order.
    std::mt19937_64 rng(settings.seed);
    for (size_t i = openings->size(); i > 1; --i) {
      std::swap((*openings)[i - 1], (*openings)[rng() % i]);
    }
  }
  if (skip >= static_cast<int>(openings->size())) {
    return absl::InvalidArgumentError(absl::StrCat("-openings start=", settings.openings_start,
                                                   ": ", settings.openings_file, " has ",
                                                   openings->size(), " openings"));
  }
  std::rotate(openings->begin(), openings->begin() + skip, openings->end());
  return openings;
}

}  // namespace divercite
