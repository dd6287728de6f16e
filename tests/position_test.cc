#include "engine/position.h"

#include <cstdint>
#include <set>

#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

Position Play(absl::string_view moves) {
  const std::vector<absl::string_view> tokens = absl::StrSplit(moves, ' ', absl::SkipEmpty());
  absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), tokens);
  EXPECT_TRUE(position.ok()) << position.status();
  return position.ok() ? *position : Position::Start();
}

TEST(PositionTest, StartPosition) {
  const Position start = Position::Start();
  EXPECT_EQ(start.Ply(), 0);
  EXPECT_EQ(start.SideToMove(), Player::kFirst);
  EXPECT_EQ(start.Score(Player::kFirst), 0);
  EXPECT_EQ(start.Score(Player::kSecond), 0);
  EXPECT_EQ(start.Result(), GameResult::kOngoing);
  EXPECT_EQ(start.CountLegalMoves(), 164);
  EXPECT_EQ(start.Key(), 0u);
  for (const Player p : {Player::kFirst, Player::kSecond}) {
    for (int c = 0; c < kNumColours; ++c) {
      EXPECT_EQ(start.PiecesLeft(p, Kind::kCity, static_cast<Colour>(c)), 2);
      EXPECT_EQ(start.PiecesLeft(p, Kind::kResource, static_cast<Colour>(c)), 3);
    }
  }
}

TEST(PositionTest, MovesComeInTheCourseCodeOrder) {
  const MoveList moves = LegalMoves(Position::Start());
  ASSERT_EQ(moves.size(), 164);
  EXPECT_EQ(MoveToString(moves[0]), "RC14");
  EXPECT_EQ(MoveToString(moves[15]), "RC74");
  EXPECT_EQ(MoveToString(moves[16]), "RR04");
  EXPECT_EQ(MoveToString(moves[40]), "RR84");
  EXPECT_EQ(MoveToString(moves[41]), "GC14");
  EXPECT_EQ(MoveToString(moves[163]), "YR84");
  std::set<int> distinct;
  for (const Move m : moves) distinct.insert(m.Index());
  EXPECT_EQ(distinct.size(), 164u);
}

TEST(PositionTest, NthLegalMoveFollowsTheGenerationOrder) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      const MoveList moves = LegalMoves(position);
      ASSERT_EQ(moves.size(), position.CountLegalMoves());
      for (int i = 0; i < moves.size(); ++i) ASSERT_EQ(NthLegalMove(position, i), moves[i]);
      EXPECT_TRUE(NthLegalMove(position, moves.size()).IsNone());
    }
  }
}

TEST(PositionTest, SpentPiecesAndOccupiedCellsAreNotGenerated) {
  const Position position = Play("RC14 RC23 RC25 GC32");
  // The first player has spent both red cities; the second still has one.
  for (const Move m : LegalMoves(position)) {
    EXPECT_FALSE(m.colour() == Colour::kRed && m.kind() == Kind::kCity);
    EXPECT_FALSE(position.Occupied() & Bit(m.cell()));
  }
  EXPECT_EQ(LegalMoves(position).size(), position.CountLegalMoves());
  EXPECT_EQ(position.CountLegalMoves(), 3 * 12 + 4 * 25);
}

TEST(PositionTest, CheckLegalExplains) {
  const Position position = Play("RC14 GC23 RC25");
  absl::Status occupied = position.CheckLegal(*ParseMove("BC14"));
  EXPECT_NE(occupied.message().find("occupied"), absl::string_view::npos) << occupied;
  const Position no_red = Play("RC14 GC23 RC25 GC32");
  absl::Status spent = no_red.CheckLegal(*ParseMove("RC36"));
  EXPECT_NE(spent.message().find("no R city left"), absl::string_view::npos) << spent;
  EXPECT_TRUE(no_red.CheckLegal(*ParseMove("RR04")).ok());
  EXPECT_FALSE(no_red.IsLegal(Move::None()));
}

TEST(PositionTest, ResourcesScoreForTheCityOwner) {
  // A red city of the first player on (1,4); its neighbours are (0,4) (1,3) (1,5) (2,4).
  EXPECT_EQ(Play("RC14").Score(Player::kFirst), 0);
  // The second player's red resource scores for the first player's city.
  const Position red = Play("RC14 RR04");
  EXPECT_EQ(red.Score(Player::kFirst), 1);
  EXPECT_EQ(red.Score(Player::kSecond), 0);
  EXPECT_EQ(Play("RC14 RR04 GR13 BR15").Score(Player::kFirst), 1);
  // The fourth colour completes a divercité: 1 -> 5.
  const Position divercite = Play("RC14 RR04 GR13 BR15 YR24");
  EXPECT_EQ(divercite.Score(Player::kFirst), 5);
  EXPECT_EQ(divercite.Score(Player::kSecond), 0);
}

TEST(PositionTest, DivercityCompletedByTheCityColourIsWorthFive) {
  EXPECT_EQ(Play("RC14 GR04 BR13 YR15").Score(Player::kFirst), 0);
  EXPECT_EQ(Play("RC14 GR04 BR13 YR15 GC32 RR24").Score(Player::kFirst), 5);
}

TEST(PositionTest, ACityPlacedIntoADivercityScoresFive) {
  const Position position = Play("RR04 GR13 BR15 YR24 BC14");
  EXPECT_EQ(position.Score(Player::kFirst), 5);
  EXPECT_EQ(position.Score(Player::kSecond), 0);
}

TEST(PositionTest, SameColourStacksCount) {
  // Three red resources and a green one around a red city: 3, not a divercité.
  const Position position = Play("RC14 RR04 RR13 RR15 GR24");
  EXPECT_EQ(position.Score(Player::kFirst), 3);
}

TEST(PositionTest, IncrementalStateEqualsRecomputedAlongRandomGames) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    ASSERT_EQ(game.size(), 41u);
    for (const Position& position : game) {
      ASSERT_EQ(position.Key(), position.KeyFromScratch()) << "seed " << seed;
      ASSERT_EQ(LegalMoves(position).size(), position.CountLegalMoves());
      if (position.IsGameOver()) break;
      const auto scores = position.ScoresFromScratch();
      ASSERT_EQ(position.Score(Player::kFirst), scores[0]) << "seed " << seed;
      ASSERT_EQ(position.Score(Player::kSecond), scores[1]) << "seed " << seed;
    }
    const Position& last = game.back();
    EXPECT_TRUE(last.IsGameOver());
    EXPECT_EQ(last.CountLegalMoves(), 0);
    EXPECT_EQ(PopCount(last.Empty()), 1);
    EXPECT_EQ(last.Empty() & kCityCells, 0u);
  }
}

TEST(PositionTest, KeysOfDifferentPositionsDiffer) {
  std::set<std::uint64_t> keys;
  std::set<std::string> boards;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      if (boards.insert(ToPositionString(position)).second) keys.insert(position.Key());
    }
  }
  EXPECT_EQ(keys.size(), boards.size());
}

}  // namespace
}  // namespace divercite
