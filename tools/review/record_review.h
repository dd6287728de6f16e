// A match record as a game to analyse, and as a review without analysis: the record's
// replay (tools/records/record_replay.h) with its players, clocks and reported scores. The
// analysis reads records files through the first; the match report's replay pages show the
// second.
#ifndef DIVERCITE_TOOLS_REVIEW_RECORD_REVIEW_H_
#define DIVERCITE_TOOLS_REVIEW_RECORD_REVIEW_H_

#include "absl/status/statusor.h"
#include "tools/records/game_record.h"
#include "tools/review/analysed_game.h"

namespace divercite {

// The game of a match record: its start, then its opening and its moves.
absl::StatusOr<GameToAnalyze> GameFromRecord(const GameRecord& record);

// The game of a match record as a replay, with no analysis (GameAnalysis::replay): each
// move's value is the score its mover reported with it (an opening's move, or a move without
// one, carries the value before it over), the last position's the board's margin once the
// board is full (exact) or the last value carried over (a game lost on time, say). A review
// page of it (review_page.h) shows the board, the players' own scores and their clocks.
absl::StatusOr<GameAnalysis> ReplayOfRecord(const GameRecord& record);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_REVIEW_RECORD_REVIEW_H_
