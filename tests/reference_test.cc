// The rules against the course code itself: every game and every perft count in
// ../shared/reference/ (or the files named by DIVERCITE_REFERENCE_GAMES and
// DIVERCITE_REFERENCE_PERFT) must be reproduced exactly.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "perft/perft.h"
#include "tools/common/json.h"

namespace divercite {
namespace {

std::string ReferencePath(const char* variable, const char* file) {
  if (const char* path = std::getenv(variable); path != nullptr && *path != '\0') return path;
  return std::string(DIVERCITE_REFERENCE_DIR) + "/" + file;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Typed access that fails the test, instead of throwing, on a file of another shape.
std::int64_t Int(const Json& value) {
  const absl::StatusOr<std::int64_t> n = JsonToInt64(value, "value");
  EXPECT_TRUE(n.ok()) << n.status();
  return n.ok() ? *n : -1;
}

std::string Text(const Json& value) {
  const absl::StatusOr<std::string> text = JsonToString(value, "value");
  EXPECT_TRUE(text.ok()) << text.status();
  return text.value_or("");
}

const Json& Member(const Json& object, absl::string_view key) {
  static const Json kNull;
  const Json* member = FindJsonMember(object, key);
  EXPECT_NE(member, nullptr) << "missing '" << key << "'";
  return member ? *member : kNull;
}

// Element i of an array; its elements are iterated with a range for (none if not an array).
const Json& At(const Json& array, size_t i) {
  static const Json kNull;
  const bool present = array.is_array() && i < array.size();
  EXPECT_TRUE(present) << "no element " << i << " in " << DumpJson(array);
  return present ? array[i] : kNull;
}

// An object whose members are iterated with items() (none if not an object: items() of
// anything else has no keys to give).
const Json& Object(const Json& object) {
  static const Json kEmpty = Json::object();
  EXPECT_TRUE(object.is_object()) << DumpJson(object);
  return object.is_object() ? object : kEmpty;
}

size_t Size(const Json& array) {
  EXPECT_TRUE(array.is_array()) << DumpJson(array);
  return array.is_array() ? array.size() : 0;
}

TEST(ReferenceGamesTest, EveryMoveAndScoreMatchesTheCourseCode) {
  const std::string path = ReferencePath("DIVERCITE_REFERENCE_GAMES", "games.jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  int games = 0, tie_breaks = 0;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const absl::StatusOr<Json> game = ParseJson(line);
    ASSERT_TRUE(game.ok()) << path << ":" << line_number << ": " << game.status();
    SCOPED_TRACE(::testing::Message() << path << ":" << line_number);
    const Json& moves = Member(*game, "moves");
    const Json& scores = Member(*game, "scores");
    ASSERT_EQ(Size(moves), Size(scores));
    Position position = Position::Start();
    for (size_t k = 0; k < Size(moves); ++k) {
      const absl::StatusOr<Move> move = ParseMove(Text(At(moves, k)));
      ASSERT_TRUE(move.ok()) << "move " << k + 1 << ": " << move.status();
      const absl::Status legal = position.CheckLegal(*move);
      ASSERT_TRUE(legal.ok()) << "move " << k + 1 << ": " << legal;
      const MoveList legal_moves = LegalMoves(position);
      ASSERT_NE(std::find(legal_moves.begin(), legal_moves.end(), *move), legal_moves.end());
      position.Play(*move);
      const Json& expected = At(scores, k);
      ASSERT_EQ(position.Score(Player::kFirst), Int(At(expected, 0))) << "after move " << k + 1;
      ASSERT_EQ(position.Score(Player::kSecond), Int(At(expected, 1))) << "after move " << k + 1;
    }
    ASSERT_TRUE(position.IsGameOver());
    const Json& final_scores = Member(*game, "final");
    EXPECT_EQ(position.Score(Player::kFirst), Int(At(final_scores, 0)));
    EXPECT_EQ(position.Score(Player::kSecond), Int(At(final_scores, 1)));
    const Json& winners = Member(*game, "winners");
    const GameResult expected_result = Size(winners) == 2         ? GameResult::kDraw
                                       : Int(At(winners, 0)) == 1 ? GameResult::kFirstWins
                                                                  : GameResult::kSecondWins;
    EXPECT_EQ(position.Result(), expected_result);
    // The same final board loaded from its position string scores the same.
    const absl::StatusOr<Position> loaded = ParsePositionString(ToPositionString(position));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(*loaded, position);
    if (const Json* tiebreak = FindJsonMember(*game, "tiebreak");
        tiebreak && !tiebreak->is_null()) {
      ++tie_breaks;
      const TieBreakCounts counts = position.CountTieBreak();
      const Json& div = Member(*tiebreak, "div");
      for (int p = 0; p < kNumPlayers; ++p) {
        EXPECT_EQ(counts.divercites[p], Int(At(div, p)));
        for (int n = 2; n <= 4; ++n) {
          const std::string key = "stack" + std::to_string(n);
          EXPECT_EQ(counts.own_colour_cities[n][p], Int(At(Member(*tiebreak, key), p))) << key;
        }
      }
      const Json& pre = Member(*tiebreak, "pre");
      const auto board_scores = position.ScoresFromScratch();
      EXPECT_EQ(board_scores[0], Int(At(pre, 0)));
      EXPECT_EQ(board_scores[1], Int(At(pre, 1)));
    }
    ++games;
  }
  EXPECT_GT(games, 0) << "no game in " << path;
  std::cout << "replayed " << games << " reference games (" << tie_breaks
            << " with the last-move tie-break)\n";
}

TEST(ReferencePerftTest, EveryCountAndScoreSumMatchesTheCourseCode) {
  const std::string path = ReferencePath("DIVERCITE_REFERENCE_PERFT", "perft.json");
  const std::string text = ReadFile(path);
  ASSERT_FALSE(text.empty()) << "cannot read " << path;
  const absl::StatusOr<Json> table = ParseJson(text);
  ASSERT_TRUE(table.ok()) << path << ": " << table.status();
  int checked = 0;
  for (const Json& entry : Member(*table, "positions")) {
    const std::string name = Text(Member(entry, "name"));
    SCOPED_TRACE(name);
    std::vector<std::string> tokens;
    for (const Json& move : Member(entry, "moves")) tokens.push_back(Text(move));
    const std::vector<absl::string_view> views(tokens.begin(), tokens.end());
    const absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), views);
    ASSERT_TRUE(position.ok()) << position.status();
    const Json& scores = Member(entry, "scores");
    EXPECT_EQ(position->Score(Player::kFirst), Int(At(scores, 0)));
    EXPECT_EQ(position->Score(Player::kSecond), Int(At(scores, 1)));
    EXPECT_EQ(Index(position->SideToMove()) + 1, Int(Member(entry, "side_to_move")));
    for (const auto& [depth_text, count] : Object(Member(entry, "perft")).items()) {
      const int depth = std::stoi(depth_text);
      EXPECT_EQ(Perft(*position, depth), static_cast<std::uint64_t>(Int(count)))
          << "perft " << depth;
      ++checked;
    }
    for (const auto& [depth_text, sums] : Object(Member(entry, "score_sums")).items()) {
      const int depth = std::stoi(depth_text);
      const PerftWithScores result = PerftScores(*position, depth);
      EXPECT_EQ(result.score_sums[0], Int(At(sums, 0))) << "score sum, depth " << depth;
      EXPECT_EQ(result.score_sums[1], Int(At(sums, 1))) << "score sum, depth " << depth;
      EXPECT_EQ(result.nodes, Perft(*position, depth));
      ++checked;
    }
  }
  EXPECT_GT(checked, 0) << "no perft entry in " << path;
}

}  // namespace
}  // namespace divercite
