// The positions of a recorded game with their labels, as the tuners read them: one reading of
// a record (its start, its opening, its moves checked one by one) and one labelling, shared by
// divercite-tune-patterns (tools/tune/pattern_fit.h) and divercite-dump-positions.
//
// A game gives its positions from the first one after the opening to the one before the last
// move (the last move is the solver's trivial choice: its position is never evaluated), each
// with a label when some exact score was reported at it or later in the game; a game that did
// not end normally gives none.
#ifndef DIVERCITE_TOOLS_TUNE_LABELLED_POSITIONS_H_
#define DIVERCITE_TOOLS_TUNE_LABELLED_POSITIONS_H_

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "engine/position.h"
#include "tools/records/game_record.h"

namespace divercite {

// What a record says of one of its positions, from the position's side to move's view.
struct PositionLabel {
  int game = 0;
  int pair = 0;        // the record's pair (-repeat), or game / 2 without one
  int move_index = 0;  // index of the move played from this position in the record's moves
  float later = 0;     // points: the first exact score at this position or later in the game
  bool exact = false;  // the mover's own score here was exact
  bool has_search = false;
  float search = 0;  // points: the score the mover reported here (when has_search)
};

// Calls `visit` on each labelled position of `record`, in the order of the game. Errors: a
// malformed or illegal move, a bad start position.
absl::Status ForEachLabelledPosition(
    const GameRecord& record, absl::FunctionRef<void(const Position&, const PositionLabel&)> visit);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_LABELLED_POSITIONS_H_
