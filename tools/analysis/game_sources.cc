#include "tools/analysis/game_sources.h"

#include <fstream>
#include <iterator>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/position_string.h"
#include "tools/records/course_recording.h"
#include "tools/records/record_store.h"
#include "tools/review/record_review.h"

namespace divercite {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Parses `moves` and plays them from game.start, appending them to game.moves.
absl::Status AppendMoves(absl::string_view moves, GameToAnalyze& game) {
  Position position = game.start;
  for (const Move move : game.moves) position.Play(move);
  int number = static_cast<int>(game.moves.size());
  for (const absl::string_view text : absl::StrSplit(moves, ' ', absl::SkipWhitespace())) {
    ++number;
    absl::StatusOr<Move> move = ParseMove(text);
    const absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
    if (!legal.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", number, " '", text, "': ", legal.message()));
    }
    position.Play(*move);
    game.moves.push_back(*move);
  }
  return absl::OkStatus();
}

absl::Status SetStart(absl::string_view start, GameToAnalyze& game) {
  start = absl::StripAsciiWhitespace(start);
  if (start.empty() || start == "startpos") {
    game.start = Position::Start();
    game.start_string = "startpos";
    return absl::OkStatus();
  }
  absl::ConsumePrefix(&start, "fen ");
  absl::StatusOr<Position> position = ParsePositionString(start);
  if (!position.ok()) return position.status();
  game.start = *position;
  game.start_string = absl::StrCat("fen ", ToPositionString(*position));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<GameToAnalyze>> GamesFromRecordsFile(const std::string& path,
                                                                std::optional<int> game_number) {
  std::vector<GameToAnalyze> games;
  absl::Status status = ForEachRecord(
      path,
      [&](const GameRecord& record) {
        absl::StatusOr<GameToAnalyze> game = GameFromRecord(record);
        if (!game.ok()) return game.status();
        games.push_back(*std::move(game));
        return absl::OkStatus();
      },
      game_number);
  if (!status.ok()) return status;
  if (game_number && games.empty()) {
    return absl::NotFoundError(absl::StrCat(path, " has no game ", *game_number));
  }
  return games;
}

absl::StatusOr<GameToAnalyze> GameFromMoveList(absl::string_view moves, absl::string_view start) {
  GameToAnalyze game;
  if (absl::Status status = SetStart(start, game); !status.ok()) return status;
  if (absl::Status status = AppendMoves(moves, game); !status.ok()) return status;
  return game;
}

absl::StatusOr<GameToAnalyze> GameFromCourseRecording(absl::string_view json_text) {
  absl::StatusOr<CourseRecording> recording = ReadCourseRecording(json_text);
  if (!recording.ok()) return recording.status();
  GameToAnalyze game;
  game.p1 = std::move(recording->p1);
  game.p2 = std::move(recording->p2);
  game.moves = std::move(recording->moves);
  return game;
}

absl::StatusOr<GameToAnalyze> GameFromCourseRecordingFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<GameToAnalyze> game = GameFromCourseRecording(*text);
  if (!game.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", game.status().message()));
  return game;
}

}  // namespace divercite
