// Where the games to analyse come from: a records file (each record's game as
// record_review.h makes it), a move list, or a recording made by the course framework
// (`main_divercite.py -r`). Each reader checks every move with the rules library and names the
// first thing that is wrong.
#ifndef DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_
#define DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/review/analysed_game.h"
#include "tools/review/record_review.h"

namespace divercite {

// The games of a records file (one JSON line each, as divercite-match -records writes them;
// read through tools/records/record_store.h): all of them, or only the one whose "game" field
// is `game_number`.
absl::StatusOr<std::vector<GameToAnalyze>> GamesFromRecordsFile(const std::string& path,
                                                                std::optional<int> game_number);

// Moves in text form ("RC14 GR04 ..."), from `start` (a position string, or "startpos").
absl::StatusOr<GameToAnalyze> GameFromMoveList(absl::string_view moves,
                                               absl::string_view start = "startpos");

// A recording of the course's master (read by tools/records/course_recording.h).
absl::StatusOr<GameToAnalyze> GameFromCourseRecording(absl::string_view json_text);
absl::StatusOr<GameToAnalyze> GameFromCourseRecordingFile(const std::string& path);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_ANALYSIS_GAME_SOURCES_H_
