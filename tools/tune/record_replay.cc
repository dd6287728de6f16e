#include "tools/tune/record_replay.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/move.h"
#include "engine/position_string.h"

namespace divercite {

absl::StatusOr<Position> StartOf(const GameRecord& record) {
  if (record.start.empty() || record.start == "startpos") return Position::Start();
  if (!absl::StartsWith(record.start, "fen ")) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", record.game, ": bad start '", record.start, "'"));
  }
  absl::StatusOr<Position> start = ParsePositionString(record.start.substr(4));
  if (!start.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", record.game, ": start: ", start.status().message()));
  }
  return start;
}

absl::Status PlayText(Position& position, absl::string_view text, const GameRecord& record) {
  absl::StatusOr<Move> move = ParseMove(text);
  const absl::Status status = move.ok() ? position.CheckLegal(*move) : move.status();
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("game ", record.game, ": move '", text,
                                                   "' at ply ", position.Ply(), ": ",
                                                   status.message()));
  }
  position.Play(*move);
  return absl::OkStatus();
}

}  // namespace divercite
