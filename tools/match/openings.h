// The openings of a match: read from a file (one a line), or random legal moves from the
// start, reproducible from the seed. Each opening is played by the runner before the engines
// take over.
//
// A line of the file is a position string optionally followed by `moves ...`, or a move
// list (from the start), or "startpos [moves ...]"; blank lines and lines starting with '#'
// are skipped.
#ifndef DIVERCITE_TOOLS_MATCH_OPENINGS_H_
#define DIVERCITE_TOOLS_MATCH_OPENINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "tools/match/match_settings.h"

namespace divercite {

struct Opening {
  std::string text;                // as written in the file, or the random moves
  Position start;                  // the position the moves start from
  std::string start_string;        // its position string ("startpos" when the start)
  std::vector<std::string> moves;  // played from `start` before the engines take over

  // The moves as a game's record holds them (its "opening" field, beside "start").
  std::string RecordedMoves() const;
};

// The openings in the order they are used: from settings.openings_file (in file order, or
// shuffled with settings.seed for order=random), or `count` random ones (uniform legal moves,
// settings.random_opening_plies of them, from settings.seed). start=N begins at the N-th: a
// file's openings before it come after its last (they are used in turn), the random ones
// before it are skipped.
absl::StatusOr<std::vector<Opening>> LoadOpenings(const MatchSettings& settings, int count);

// Reads one opening line; the error quotes the line.
absl::StatusOr<Opening> ParseOpening(absl::string_view line);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_OPENINGS_H_
