// A record's game on the rules library: the position it starts from, then its opening's
// moves and its players' moves, each checked. The one replay of a record, for the analysis
// (its games from a records file), the match runner (its replay pages) and the tuner (its
// labelled positions).
#ifndef DIVERCITE_TOOLS_RECORDS_RECORD_REPLAY_H_
#define DIVERCITE_TOOLS_RECORDS_RECORD_REPLAY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/move.h"
#include "engine/position.h"
#include "tools/records/game_record.h"

namespace divercite {

struct ReplayedRecord {
  // As in `position <start_string> moves ...`: "startpos", or "fen " and the position string.
  std::string start_string = "startpos";
  Position start = Position::Start();
  std::vector<Move> moves;  // the opening's, then the players' (record.moves, in order)
  int opening_plies = 0;
};

// The record's game, or an error that names the game and what is wrong: its start (neither
// "startpos" nor "fen <position string>"), or the first move that cannot be played (its
// number from 1, its text, the ply it was played at, and why).
absl::StatusOr<ReplayedRecord> ReplayRecord(const GameRecord& record);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_RECORDS_RECORD_REPLAY_H_
