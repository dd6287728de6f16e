// Where the games to analyse come from: match records, a move list, or a recording made by
// the course framework (`main_divercite.py -r`). Each reader checks every move with the rules
// library and names the first thing that is wrong.
#ifndef DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_
#define DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/analysis/game_analysis.h"
#include "tools/records/game_record.h"

namespace divercite {

// The game of a match record: its start, then its opening and its moves.
absl::StatusOr<GameToAnalyze> GameFromRecord(const GameRecord& record);

// The game of a match record as a replay, with no analysis (GameAnalysis::replay): each
// move's value is the score its mover reported with it (an opening's move, or a move without
// one, carries the value before it over), the last position's the board's margin once the
// board is full (exact) or the last value carried over (a game lost on time, say). A review
// page of it (review_page.h) shows the board, the players' own scores and their clocks.
absl::StatusOr<GameAnalysis> ReplayOfRecord(const GameRecord& record);

// The games of a records file (one JSON line each, as divercite-match -records writes them;
// read through tools/records/record_store.h): all of them, or only the one whose "game" field
// is `game_number`.
absl::StatusOr<std::vector<GameToAnalyze>> GamesFromRecordsFile(const std::string& path,
                                                                std::optional<int> game_number);

// Moves in text form ("RC14 GR04 ..."), from `start` (a position string, or "startpos").
absl::StatusOr<GameToAnalyze> GameFromMoveList(absl::string_view moves,
                                               absl::string_view start = "startpos");

// A recording of the course's master: a JSON array of its game states, one per move plus the
// initial one. Its moves are the cells that fill from one state to the next; the scores it
// recorded must be the rules library's, state by state.
absl::StatusOr<GameToAnalyze> GameFromCourseRecording(absl::string_view json_text);
absl::StatusOr<GameToAnalyze> GameFromCourseRecordingFile(const std::string& path);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_
