#include "tools/records/record_replay.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

// Plays the move `text` on `position` after checking it, and appends it to `moves`.
absl::Status Play(absl::string_view text, Position& position, std::vector<Move>& moves) {
  absl::StatusOr<Move> move = ParseMove(text);
  const absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
  if (!legal.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "move ", moves.size() + 1, " '", text, "' at ply ", position.Ply(), ": ", legal.message()));
  }
  position.Play(*move);
  moves.push_back(*move);
  return absl::OkStatus();
}

absl::Status Replay(const GameRecord& record, ReplayedRecord& game) {
  if (!record.start.empty() && record.start != "startpos") {
    if (!absl::StartsWith(record.start, "fen ")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "start '", record.start, "': neither startpos nor fen and a position string"));
    }
    absl::StatusOr<Position> start = ParsePositionString(record.start.substr(4));
    if (!start.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("start: ", start.status().message()));
    }
    game.start = *start;
    game.start_string = absl::StrCat("fen ", ToPositionString(*start));
  }
  Position position = game.start;
  for (absl::string_view text : absl::StrSplit(record.opening, ' ', absl::SkipWhitespace())) {
    if (absl::Status status = Play(text, position, game.moves); !status.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("opening: ", status.message()));
    }
  }
  game.opening_plies = static_cast<int>(game.moves.size());
  for (const MoveRecord& move : record.moves) {
    if (absl::Status status = Play(move.move, position, game.moves); !status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReplayedRecord> ReplayRecord(const GameRecord& record) {
  ReplayedRecord game;
  if (absl::Status status = Replay(record, game); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("game ", record.game, ": ", status.message()));
  }
  return game;
}

}  // namespace divercite
