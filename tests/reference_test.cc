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

std::int64_t Int(const JsonValue& value) {
  const absl::StatusOr<std::int64_t> n = value.AsInt64();
  EXPECT_TRUE(n.ok()) << n.status();
  return n.ok() ? *n : -1;
}

const JsonValue& Member(const JsonValue& object, absl::string_view key) {
  static const JsonValue kNull;
  const JsonValue* member = object.Find(key);
  EXPECT_NE(member, nullptr) << "missing '" << key << "'";
  return member ? *member : kNull;
}

TEST(ReferenceGamesTest, EveryMoveAndScoreMatchesTheCourseCode) {
  const std::string path = ReferencePath("DIVERCITE_REFERENCE_GAMES", "games.jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  int games = 0, tie_breaks = 0;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const absl::StatusOr<JsonValue> game = JsonValue::Parse(line);
    ASSERT_TRUE(game.ok()) << path << ":" << line_number << ": " << game.status();
    SCOPED_TRACE(::testing::Message() << path << ":" << line_number);
    const JsonValue::Array& moves = Member(*game, "moves").AsArray();
    const JsonValue::Array& scores = Member(*game, "scores").AsArray();
    ASSERT_EQ(moves.size(), scores.size());
    Position position = Position::Start();
    for (size_t k = 0; k < moves.size(); ++k) {
      const absl::StatusOr<Move> move = ParseMove(moves[k].AsString());
      ASSERT_TRUE(move.ok()) << "move " << k + 1 << ": " << move.status();
      const absl::Status legal = position.CheckLegal(*move);
      ASSERT_TRUE(legal.ok()) << "move " << k + 1 << ": " << legal;
      const MoveList legal_moves = LegalMoves(position);
      ASSERT_NE(std::find(legal_moves.begin(), legal_moves.end(), *move), legal_moves.end());
      position.Play(*move);
      const JsonValue::Array& expected = scores[k].AsArray();
      ASSERT_EQ(position.Score(Player::kFirst), Int(expected[0])) << "after move " << k + 1;
      ASSERT_EQ(position.Score(Player::kSecond), Int(expected[1])) << "after move " << k + 1;
    }
    ASSERT_TRUE(position.IsGameOver());
    const JsonValue::Array& final_scores = Member(*game, "final").AsArray();
    EXPECT_EQ(position.Score(Player::kFirst), Int(final_scores[0]));
    EXPECT_EQ(position.Score(Player::kSecond), Int(final_scores[1]));
    const JsonValue::Array& winners = Member(*game, "winners").AsArray();
    const GameResult expected_result =
        winners.size() == 2 ? GameResult::kDraw
        : Int(winners[0]) == 1 ? GameResult::kFirstWins
                               : GameResult::kSecondWins;
    EXPECT_EQ(position.Result(), expected_result);
    // The same final board loaded from its position string scores the same.
    const absl::StatusOr<Position> loaded = ParsePositionString(ToPositionString(position));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(*loaded, position);
    if (const JsonValue* tiebreak = game->Find("tiebreak"); tiebreak && !tiebreak->is_null()) {
      ++tie_breaks;
      const TieBreakCounts counts = position.CountTieBreak();
      const JsonValue::Array& div = Member(*tiebreak, "div").AsArray();
      for (int p = 0; p < kNumPlayers; ++p) {
        EXPECT_EQ(counts.divercites[p], Int(div[p]));
        for (int n = 2; n <= 4; ++n) {
          const std::string key = "stack" + std::to_string(n);
          EXPECT_EQ(counts.own_colour_cities[n][p], Int(Member(*tiebreak, key).AsArray()[p]))
              << key;
        }
      }
      const JsonValue::Array& pre = Member(*tiebreak, "pre").AsArray();
      const auto board_scores = position.ScoresFromScratch();
      EXPECT_EQ(board_scores[0], Int(pre[0]));
      EXPECT_EQ(board_scores[1], Int(pre[1]));
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
  const absl::StatusOr<JsonValue> table = JsonValue::Parse(text);
  ASSERT_TRUE(table.ok()) << path << ": " << table.status();
  int checked = 0;
  for (const JsonValue& entry : Member(*table, "positions").AsArray()) {
    const std::string name = Member(entry, "name").AsString();
    SCOPED_TRACE(name);
    std::vector<std::string> tokens;
    for (const JsonValue& move : Member(entry, "moves").AsArray()) {
      tokens.push_back(move.AsString());
    }
    const std::vector<absl::string_view> views(tokens.begin(), tokens.end());
    const absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), views);
    ASSERT_TRUE(position.ok()) << position.status();
    const JsonValue::Array& scores = Member(entry, "scores").AsArray();
    EXPECT_EQ(position->Score(Player::kFirst), Int(scores[0]));
    EXPECT_EQ(position->Score(Player::kSecond), Int(scores[1]));
    EXPECT_EQ(Index(position->SideToMove()) + 1, Int(Member(entry, "side_to_move")));
    for (const auto& [depth_text, count] : Member(entry, "perft").AsObject()) {
      const int depth = std::stoi(depth_text);
      EXPECT_EQ(Perft(*position, depth), static_cast<std::uint64_t>(Int(count)))
          << "perft " << depth;
      ++checked;
    }
    for (const auto& [depth_text, sums] : Member(entry, "score_sums").AsObject()) {
      const int depth = std::stoi(depth_text);
      const PerftWithScores result = PerftScores(*position, depth);
      EXPECT_EQ(result.score_sums[0], Int(sums.AsArray()[0])) << "score sum, depth " << depth;
      EXPECT_EQ(result.score_sums[1], Int(sums.AsArray()[1])) << "score sum, depth " << depth;
      EXPECT_EQ(result.nodes, Perft(*position, depth));
      ++checked;
    }
  }
  EXPECT_GT(checked, 0) << "no perft entry in " << path;
}

}  // namespace
}  // namespace divercite
