// The course's recordings (`main_divercite.py -r` writes __REC__*.json): a JSON array of the
// game states its master sends its listeners, one per move plus the initial one. The one
// reader and the one writer of them: divercite-analyze uses them here, Python through
// divercite._core (divercite.course.read_recording, write_recording), the app through the
// rules module (tools/web/rules_api.h); tests/data/recordings.json holds what each must read.
#ifndef DIVERCITE_TOOLS_RECORDS_COURSE_RECORDING_H_
#define DIVERCITE_TOOLS_RECORDS_COURSE_RECORDING_H_

#include <array>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

struct CourseRecording {
  std::string p1, p2;       // the players' names: the one with piece type W moves first
  std::vector<Move> moves;  // from the empty board
  // Every state's scores (first, second), the initial state's included: one more than moves.
  std::vector<std::array<int, 2>> scores;
};

// The game of a recording: each state one piece more than the one before, from the empty
// board, each piece played by the player to move, each state's scores the rules'. An error
// names the state at fault ("state 4: ...") and what is wrong.
absl::StatusOr<CourseRecording> ReadCourseRecording(absl::string_view json_text);

// The course's name of a piece on a cell of `kind`: colour, kind, owner ("RCW": a red city
// of the first player, who is W in the course; "GRB" a green resource of the second).
std::string CoursePieceType(Piece piece, Kind kind);

// The recording of the game of `moves` from the empty board, as the course's master writes
// it: the initial state and one after each move, the players `names` (first, second) with
// the ids the course's GUI starts with (1, 2). One line of JSON, which the course's GUI
// replays ("Load JSON") and its GameStateDivercite.from_json reads. The error names the first
// malformed or illegal move ("move K of N: ...").
absl::StatusOr<std::string> WriteCourseRecording(absl::Span<const absl::string_view> moves,
                                                 const std::array<std::string, 2>& names);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_RECORDS_COURSE_RECORDING_H_
