#include "tools/web/rules_api.h"

#include <emscripten/emscripten.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/enum_names.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/board_svg/board_svg.h"
#include "tools/common/json.h"
#include "tools/records/course_recording.h"

namespace divercite {
namespace {

absl::StatusOr<Position> ParseStart(absl::string_view start) {
  if (start == "startpos") return Position::Start();
  return ParsePositionString(start);
}

// Why `text` cannot be played in `position` (malformed or illegal), or OK.
absl::Status MoveReason(const Position& position, absl::string_view text) {
  const absl::StatusOr<Move> move = ParseMove(text);
  return move.ok() ? position.CheckLegal(*move) : move.status();
}

const char* PlayerName(Player player) { return player == Player::kFirst ? "first" : "second"; }

Json PointOf(const TieBreakStep& step) {
  return step.point ? Json(PlayerName(*step.point)) : Json(nullptr);
}

constexpr EnumName<TieBreakStep::Rule> kRuleNames[] = {
    {TieBreakStep::Rule::kDivercites, "divercites"},
    {TieBreakStep::Rule::kOwnColour4, "own colour 4"},
    {TieBreakStep::Rule::kOwnColour3, "own colour 3"},
    {TieBreakStep::Rule::kOwnColour2, "own colour 2"},
    {TieBreakStep::Rule::kFirstPlayer, "first player"}};
static_assert(NamesAreDistinct(kRuleNames));

// The tie-break as the rules took it: only when the board is full and its scores without the
// tie-break were level.
Json TieBreakOf(const Position& position) {
  if (!position.IsGameOver()) return nullptr;
  const std::array<int, kNumPlayers> before = position.ScoresFromScratch();
  if (before[0] != before[1]) return nullptr;
  const TieBreakSteps taken = LastMoveTieBreakSteps(position.CountTieBreak());
  Json steps = Json::array();
  for (int i = 0; i < taken.size; ++i) {
    const TieBreakStep& step = taken.steps[i];
    Json entry = {{"rule", std::string(NameOf(kRuleNames, step.rule))}};
    if (step.rule != TieBreakStep::Rule::kFirstPlayer) entry["counts"] = step.counts;
    entry["point"] = PointOf(step);
    steps.push_back(std::move(entry));
  }
  return {{"before", before}, {"steps", std::move(steps)}};
}

Json SupplyOf(const Position& position, Player player) {
  Json supply;
  for (const Kind kind : {Kind::kCity, Kind::kResource}) {
    Json counts;
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      counts[std::string(1, ColourLetter(colour))] = position.PiecesLeft(player, kind, colour);
    }
    supply[kind == Kind::kCity ? "city" : "resource"] = std::move(counts);
  }
  return supply;
}

Json Failure(absl::string_view reason, Json at) {
  return {{"ok", false}, {"error", std::string(reason)}, {"at", std::move(at)}};
}

// Move texts separated by white space, as the page passes them.
std::vector<absl::string_view> MoveWords(absl::string_view text) {
  return absl::StrSplit(text, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
}

Json State(absl::string_view start_text, absl::string_view moves_text) {
  const absl::StatusOr<Position> start = ParseStart(start_text);
  if (!start.ok()) return Failure(start.status().message(), nullptr);
  const std::vector<absl::string_view> moves = MoveWords(moves_text);
  const absl::StatusOr<Position> played = PlayMoveTexts(*start, moves);
  if (!played.ok()) {
    // The reason is the whole sequence's ("move K of N: ..."); the index is the first move
    // that the rules refuse on its own, from the position the moves before it reached.
    Position position = *start;
    size_t at = 0;
    while (at < moves.size() && MoveReason(position, moves[at]).ok()) {
      position.Play(*ParseMove(moves[at++]));
    }
    return Failure(played.status().message(), at);
  }
  const Position& position = *played;
  Json legal = Json::array();
  for (const Move move : LegalMoves(position)) legal.push_back(MoveToString(move));
  Json normalised = Json::array();
  for (const absl::string_view text : moves) normalised.push_back(MoveToString(*ParseMove(text)));
  return {{"ok", true},
          {"fen", ToPositionString(position)},
          {"ply", position.Ply()},
          {"side", PlayerName(position.SideToMove())},
          {"scores", {position.Score(Player::kFirst), position.Score(Player::kSecond)}},
          {"result", std::string(GameResultText(position.Result()))},
          {"legal", std::move(legal)},
          {"supply",
           {{"first", SupplyOf(position, Player::kFirst)},
            {"second", SupplyOf(position, Player::kSecond)}}},
          {"tiebreak", TieBreakOf(position)},
          {"moves", std::move(normalised)}};
}

Json CourseGame(absl::string_view recording) {
  const absl::StatusOr<CourseRecording> game = ReadCourseRecording(recording);
  if (!game.ok()) return {{"ok", false}, {"error", std::string(game.status().message())}};
  Json moves = Json::array();
  for (const Move move : game->moves) moves.push_back(MoveToString(move));
  return {{"ok", true},
          {"names", {game->p1, game->p2}},
          {"moves", std::move(moves)},
          {"scores", game->scores}};
}

std::string CourseRecordingAnswer(absl::string_view moves_text, const char* first,
                                  const char* second) {
  const absl::StatusOr<std::string> recording = WriteCourseRecording(
      MoveWords(moves_text), {first ? first : "first", second ? second : "second"});
  if (!recording.ok()) {
    return DumpJson({{"ok", false}, {"error", std::string(recording.status().message())}});
  }
  // The recording is JSON already: spliced in, not parsed again.
  return absl::StrCat(R"({"ok":true,"recording":)", *recording, "}");
}

}  // namespace
}  // namespace divercite

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* divercite_state(const char* start, const char* moves) {
  static std::string answer;
  answer = divercite::DumpJson(divercite::State(start ? start : "", moves ? moves : ""));
  return answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* divercite_move_reason(const char* fen, const char* move) {
  static std::string answer;
  const absl::StatusOr<divercite::Position> position = divercite::ParseStart(fen ? fen : "");
  if (!position.ok()) {
    answer = absl::StrCat("position: ", position.status().message());
    return answer.c_str();
  }
  answer = std::string(divercite::MoveReason(*position, move ? move : "").message());
  return answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* divercite_board_skeleton() {
  static const std::string skeleton = divercite::BoardSkeletonSvg();
  return skeleton.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* divercite_read_course_recording(const char* recording) {
  static std::string answer;
  answer = divercite::DumpJson(divercite::CourseGame(recording ? recording : ""));
  return answer.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* divercite_write_course_recording(const char* moves,
                                                                  const char* first,
                                                                  const char* second) {
  static std::string answer;
  answer = divercite::CourseRecordingAnswer(moves ? moves : "", first, second);
  return answer.c_str();
}

}  // extern "C"
