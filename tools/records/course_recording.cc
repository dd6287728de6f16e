#include "tools/records/course_recording.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/common/json.h"

namespace divercite {
namespace {

// The member `key` of `object` if it is of `type` (an array, object or string), else nullptr.
const Json* Member(const Json& object, absl::string_view key, Json::value_t type) {
  const Json* value = FindJsonMember(object, key);
  return value != nullptr && value->type() == type ? value : nullptr;
}

// The text of a value known to be a string.
const std::string& Text(const Json& string) { return string.get_ref<const std::string&>(); }

// The course writes its board's keys with str((row, col)), "(4, 4)", and reads them with
// eval(), which takes "(4,4)" too: both on the 9x9 grid.
absl::StatusOr<std::pair<int, int>> GridOfKey(absl::string_view key) {
  const auto bad = [key] {
    return absl::InvalidArgumentError(absl::StrCat("board key '", key, "' is not '(row, col)'"));
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

std::string ScoresText(const std::array<std::optional<std::int64_t>, 2>& scores) {
  const auto text = [](const std::optional<std::int64_t>& score) {
    return score ? absl::StrCat(*score) : std::string("None");
  };
  return absl::StrCat("(", text(scores[0]), ", ", text(scores[1]), ")");
}

constexpr std::array<int, 2> kRecordingIds = {1, 2};
constexpr std::array<char, 2> kPieceTypes = {'W', 'B'};  // the course's players, first then second

// One state of a recording, as GameStateDivercite.to_json writes it (members in its order).
Json StateOf(const Position& position, const Json& players, int step) {
  const auto by_id = [](const auto& value_of) {
    Json object = Json::object();
    for (int p = 0; p < 2; ++p) object[absl::StrCat(kRecordingIds[p])] = value_of(p);
    return object;
  };
  const auto player = [](int p) { return static_cast<Player>(p); };
  // Cells in index order are in (row, col) order, the order the course writes its board in.
  Json env = Json::object();
  for (int cell = 0; cell < kNumCells; ++cell) {
    const std::optional<Piece> piece = position.PieceAt(cell);
    if (!piece) continue;
    env[absl::StrCat("(", CellRow(cell), ", ", CellColumn(cell), ")")] = {
        {"piece_type", CoursePieceType(*piece, KindOfCell(cell))},
        {"owner_id", kRecordingIds[Index(piece->owner)]}};
  }
  Json state = Json::object();
  state["scores"] = by_id([&](int p) { return position.Score(player(p)); });
  state["next_player"] = players[Index(position.SideToMove())];
  state["players"] = players;
  state["rep"] = {{"env", std::move(env)}, {"dim", {kGridSize, kGridSize}}};
  state["max_step"] = kTotalPlies;
  state["step"] = step;
  state["players_pieces_left"] = by_id([&](int p) {
    Json left = Json::object();
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        left[{ColourLetter(colour), KindLetter(kind)}] =
            position.PiecesLeft(player(p), kind, colour);
      }
    }
    return left;
  });
  return state;
}

}  // namespace

std::string CoursePieceType(Piece piece, Kind kind) {
  return {ColourLetter(piece.colour), KindLetter(kind), kPieceTypes[Index(piece.owner)]};
}

absl::StatusOr<std::string> WriteCourseRecording(absl::Span<const absl::string_view> moves,
                                                 const std::array<std::string, 2>& names) {
  absl::StatusOr<Position> last = PlayMoveTexts(Position::Start(), moves);
  if (!last.ok()) return last.status();
  Json players = Json::array();
  for (int p = 0; p < 2; ++p) {
    players.push_back({{"name", names[p]},
                       {"id", kRecordingIds[p]},
                       {"piece_type", std::string(1, kPieceTypes[p])}});
  }
  Json states = Json::array();
  Position position = Position::Start();
  states.push_back(StateOf(position, players, 0));
  for (size_t k = 0; k < moves.size(); ++k) {
    position.Play(*ParseMove(moves[k]));
    states.push_back(StateOf(position, players, static_cast<int>(k + 1)));
  }
  return DumpJson(states);
}

absl::StatusOr<CourseRecording> ReadCourseRecording(absl::string_view json_text) {
  absl::StatusOr<Json> json = ParseJson(json_text);
  if (!json.ok()) return json.status();
  if (!json->is_array() || json->empty()) {
    return absl::InvalidArgumentError(
        "a course recording is a non-empty JSON array of game states");
  }
  const Json& states = *json;
  CourseRecording game;
  // Player ids as the recording writes them (object keys are text), and who moves first.
  std::map<std::string, Player> player_of_id;
  if (const Json* players = Member(states[0], "players", Json::value_t::array)) {
    for (const Json& player : *players) {
      const Json* id = FindJsonMember(player, "id");
      const Json* type = Member(player, "piece_type", Json::value_t::string);
      const Json* name = Member(player, "name", Json::value_t::string);
      if (id == nullptr || !id->is_number_integer() || type == nullptr) continue;
      if (Text(*type) != "W" && Text(*type) != "B") continue;
      const absl::StatusOr<std::int64_t> id_number = JsonToInt64(*id, "'id'");
      if (!id_number.ok()) continue;  // beyond int64
      const Player side = Text(*type) == "W" ? Player::kFirst : Player::kSecond;
      player_of_id[absl::StrCat(*id_number)] = side;
      if (name != nullptr) (side == Player::kFirst ? game.p1 : game.p2) = Text(*name);
    }
  }
  int firsts = 0;
  for (const auto& [id, side] : player_of_id) firsts += side == Player::kFirst;
  if (player_of_id.size() != 2 || firsts != 1) {
    return absl::InvalidArgumentError(
        "state 0: expected two players with ids and piece types W and B");
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
        return fail("a piece changed or disappeared");
      }
    }
    if (env->size() != seen.size() + added.size()) return fail("a piece changed or disappeared");
    const size_t expected = k == 0 ? 0 : 1;
    if (added.size() != expected) {
      return fail(absl::StrCat(added.size(), " pieces appeared, expected ", expected));
    }
    for (const auto& [cell, type] : added) {
      const Player owner = type[2] == 'W' ? Player::kFirst : Player::kSecond;
      // The course's piece type is colour, kind, owner; its cell is our move's row and column.
      const std::string text = absl::StrCat(type.substr(0, 2), cell.first, cell.second);
      absl::StatusOr<Move> move = ParseMove(text);
      absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
      if (legal.ok() && owner != position.SideToMove()) {
        return fail(absl::StrCat(text, " played by the player not to move"));
      }
      if (!legal.ok()) return fail(absl::StrCat(text, ": ", legal.message()));
      position.Play(*move);
      game.moves.push_back(*move);
      seen[cell] = type;
    }
    // The recording's scores, by player id; each must be the rules'.
    std::array<std::optional<std::int64_t>, 2> recorded;
    if (const Json* scores = Member(states[k], "scores", Json::value_t::object)) {
      for (const auto& [id, score] : scores->items()) {
        const auto player = player_of_id.find(id);
        absl::StatusOr<std::int64_t> points = JsonToInt64(score, "a score");
        if (player != player_of_id.end() && points.ok()) {
          recorded[player->second == Player::kFirst ? 0 : 1] = *points;
        }
      }
    }
    const std::array<int, 2> rules = {position.Score(Player::kFirst),
                                      position.Score(Player::kSecond)};
    if (recorded[0] != rules[0] || recorded[1] != rules[1]) {
      return fail(absl::StrCat("the recording's scores ", ScoresText(recorded), ", the rules' (",
                               rules[0], ", ", rules[1], ")"));
    }
    game.scores.push_back(rules);
  }
  return game;
}

}  // namespace divercite
