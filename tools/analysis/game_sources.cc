#include "tools/analysis/game_sources.h"

#include <fstream>
#include <iterator>
#include <map>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/position_string.h"
#include "tools/common/json.h"
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

// The member `key` of `object` if it is of `type` (an array, object or string), else nullptr.
const Json* Member(const Json& object, absl::string_view key, Json::value_t type) {
  const Json* value = FindJsonMember(object, key);
  return value != nullptr && value->type() == type ? value : nullptr;
}

// The text of a value known to be a string.
const std::string& Text(const Json& string) { return string.get_ref<const std::string&>(); }

// "(i, j)" -> (i, j), both on the 9x9 grid.
absl::StatusOr<std::pair<int, int>> GridOfKey(absl::string_view key) {
  const auto bad = [key] {
    return absl::InvalidArgumentError(absl::StrCat("bad cell '", key, "'"));
  };
  absl::string_view inner = absl::StripAsciiWhitespace(key);
  if (!absl::ConsumePrefix(&inner, "(") || !absl::ConsumeSuffix(&inner, ")")) return bad();
  const std::vector<absl::string_view> parts = absl::StrSplit(inner, ',');
  int row = -1, col = -1;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &row) || !absl::SimpleAtoi(parts[1], &col) ||
      row < 0 || row >= kGridSize || col < 0 || col >= kGridSize) {
    return bad();
  }
  return std::make_pair(row, col);
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
  absl::StatusOr<Json> json = ParseJson(json_text);
  if (!json.ok()) return json.status();
  if (!json->is_array() || json->empty()) {
    return absl::InvalidArgumentError("a course recording is a JSON array of game states");
  }
  const Json& states = *json;
  GameToAnalyze game;
  // Player ids as the recording writes them (object keys are text), and who moves first.
  std::map<std::string, Player> player_of_id;
  if (const Json* players = Member(states[0], "players", Json::value_t::array)) {
    for (const Json& player : *players) {
      const Json* id = FindJsonMember(player, "id");
      const Json* type = Member(player, "piece_type", Json::value_t::string);
      const Json* name = Member(player, "name", Json::value_t::string);
      if (id == nullptr || !id->is_number_integer() || type == nullptr) continue;
      const absl::StatusOr<std::int64_t> id_number = JsonToInt64(*id, "'id'");
      if (!id_number.ok()) continue;  // beyond int64
      const Player side = Text(*type) == "W" ? Player::kFirst : Player::kSecond;
      player_of_id[absl::StrCat(*id_number)] = side;
      if (name != nullptr) (side == Player::kFirst ? game.p1 : game.p2) = Text(*name);
    }
  }
  if (player_of_id.size() != 2) {
    return absl::InvalidArgumentError("state 0: expected two players with ids and piece types");
  }

  Position position = Position::Start();
  std::map<std::pair<int, int>, std::string> seen;  // (row, col) -> piece type, as recorded
  for (size_t k = 0; k < states.size(); ++k) {
    const auto fail = [k](absl::string_view message) {
      return absl::InvalidArgumentError(absl::StrCat("state ", k, ": ", message));
    };
    const Json* rep = Member(states[k], "rep", Json::value_t::object);
    const Json* env = rep ? Member(*rep, "env", Json::value_t::object) : nullptr;
    if (env == nullptr) return fail("no board ('rep' with 'env')");
    std::vector<std::pair<std::pair<int, int>, std::string>> added;
    for (const auto& [key, piece] : env->items()) {
      absl::StatusOr<std::pair<int, int>> cell = GridOfKey(key);
      if (!cell.ok()) return fail(cell.status().message());
      const Json* type = Member(piece, "piece_type", Json::value_t::string);
      if (type == nullptr || Text(*type).size() != 3) {
        return fail(absl::StrCat("cell ", key, ": no piece type"));
      }
      const auto known = seen.find(*cell);
      if (known == seen.end()) {
        added.emplace_back(*cell, Text(*type));
      } else if (known->second != Text(*type)) {
        return fail(
            absl::StrCat("cell ", key, " changed from ", known->second, " to ", Text(*type)));
      }
    }
    if (env->size() != seen.size() + added.size()) {
      return fail("a piece disappeared from the board");
    }
    if (k == 0 && !added.empty()) return fail("the recording does not start on an empty board");
    if (k > 0 && added.size() != 1) {
      return fail(absl::StrCat(added.size(), " pieces appeared at once, expected one"));
    }
    for (const auto& [cell, type] : added) {
      const Player owner = type[2] == 'W' ? Player::kFirst : Player::kSecond;
      // The course's piece type is colour, kind, owner; its cell is our move's row and column.
      const std::string text = absl::StrCat(type.substr(0, 2), cell.first, cell.second);
      absl::StatusOr<Move> move = ParseMove(text);
      absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
      if (legal.ok() && owner != position.SideToMove()) {
        legal = absl::InvalidArgumentError("played by the player not to move");
      }
      if (!legal.ok()) return fail(absl::StrCat(text, ": ", legal.message()));
      position.Play(*move);
      game.moves.push_back(*move);
      seen[cell] = type;
    }
    if (const Json* scores = Member(states[k], "scores", Json::value_t::object)) {
      for (const auto& [id, score] : scores->items()) {
        const auto player = player_of_id.find(id);
        absl::StatusOr<std::int64_t> points = JsonToInt64(score, "a score");
        if (player == player_of_id.end() || !points.ok()) continue;
        if (*points != position.Score(player->second)) {
          return fail(absl::StrCat("the recording gives ", *points, " points to ",
                                   player->second == Player::kFirst ? game.p1 : game.p2,
                                   ", the rules ", position.Score(player->second)));
        }
      }
    }
  }
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
