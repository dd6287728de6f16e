// Replaying a game record on the rules library, for the tuner: the position it starts from
// and its moves played one by one, each checked, with errors that name the game, the move and
// the ply.
#ifndef DIVERCITE_TOOLS_TUNE_RECORD_REPLAY_H_
#define DIVERCITE_TOOLS_TUNE_RECORD_REPLAY_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "tools/records/game_record.h"

namespace divercite {

// The position a record starts from (before its opening).
absl::StatusOr<Position> StartOf(const GameRecord& record);

// Plays the recorded move `text` on `position` after checking it.
absl::Status PlayText(Position& position, absl::string_view text, const GameRecord& record);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_RECORD_REPLAY_H_
