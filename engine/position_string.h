// Position strings ("FEN"): `<rows> <side>`.
//
// The 9 grid rows 0..8 are separated by '/'; row i lists its existing cells from the lowest
// column up (1,3,5,7,9,7,5,3,1 cells). A cell is R G B Y (a first-player piece), r g b y (a
// second-player piece) or a digit 1-9 for that many empty cells; the kind of a piece follows
// from its cell. <side> is `w` (first player) or `b` and must match the number of pieces.
// The start position is "1/3/5/7/9/7/5/3/1 w".
#ifndef DIVERCITE_ENGINE_POSITION_STRING_H_
#define DIVERCITE_ENGINE_POSITION_STRING_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/position.h"

namespace divercite {

inline constexpr absl::string_view kStartPositionString = "1/3/5/7/9/7/5/3/1 w";

std::string ToPositionString(const Position& position);

// Parses a position string; the error names the problem and where it is.
absl::StatusOr<Position> ParsePositionString(absl::string_view text);

// Plays moves given in text form from `start`, all or nothing: the first malformed or
// illegal move fails the whole sequence, saying which move (1-based) and why.
absl::StatusOr<Position> PlayMoveTexts(const Position& start,
                                       absl::Span<const absl::string_view> moves);

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_POSITION_STRING_H_
