#include "engine/position_string.h"

#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

TEST(PositionStringTest, StartPosition) {
  EXPECT_EQ(ToPositionString(Position::Start()), kStartPositionString);
  const absl::StatusOr<Position> start = ParsePositionString(kStartPositionString);
  ASSERT_TRUE(start.ok()) << start.status();
  EXPECT_EQ(*start, Position::Start());
}

TEST(PositionStringTest, KnownPosition) {
  const std::vector<absl::string_view> moves = {"RC14", "gr04", "GR04"};
  // Lower-case moves are not moves: the colour must be upper case.
  EXPECT_FALSE(PlayMoveTexts(Position::Start(), moves).ok());
  const std::vector<absl::string_view> good = {"RC14", "GR04", "BR40"};
  const absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), good);
  ASSERT_TRUE(position.ok()) << position.status();
  EXPECT_EQ(ToPositionString(*position), "g/1R1/5/7/B8/7/5/3/1 b");
}

TEST(PositionStringTest, RoundTripsAlongRandomGames) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      const std::string text = ToPositionString(position);
      const absl::StatusOr<Position> parsed = ParsePositionString(text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
      // Everything equal, scores included, and for a full board the tie-break too.
      ASSERT_EQ(*parsed, position) << text;
      ASSERT_EQ(ToPositionString(*parsed), text);
    }
  }
}

TEST(PositionStringTest, ExtraWhitespaceIsAccepted) {
  const absl::StatusOr<Position> start = ParsePositionString("  1/3/5/7/9/7/5/3/1   w ");
  ASSERT_TRUE(start.ok()) << start.status();
  EXPECT_EQ(*start, Position::Start());
}

void ExpectPositionRejected(absl::string_view text, absl::string_view reason) {
  const absl::StatusOr<Position> position = ParsePositionString(text);
  ASSERT_FALSE(position.ok()) << "'" << text << "' was accepted";
  EXPECT_EQ(position.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(position.status().message().find(reason), absl::string_view::npos)
      << "message for '" << text << "': " << position.status().message();
}

TEST(PositionStringTest, RejectsWithTheProblemAndItsPlace) {
  ExpectPositionRejected("", "must have 2 fields");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1", "must have 2 fields");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1 w extra", "must have 2 fields");
  ExpectPositionRejected("1/3/5/7/9/7/5/3 w", "8 rows");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1/1 w", "10 rows");
  ExpectPositionRejected("1/3/5/7/9/6/5/3/1 w", "row 5 '6' describes 6 cells, expected 7");
  ExpectPositionRejected("1/3/5/7/9/8/5/3/1 w", "row 5 '8' describes 8 cells, expected 7");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/R1 w", "row 8 'R1' describes more than its 1 cells");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/ w", "row 8 '' describes 0 cells, expected 1");
  ExpectPositionRejected("1/3/5/7/4x4/7/5/3/1 w", "row 4, character 2: unknown character 'x'");
  ExpectPositionRejected("1/3/5/7/0/7/5/3/1 w", "unknown character '0'");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1 x", "side to move 'x' must be 'w' or 'b'");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1 white", "side to move 'white'");
  ExpectPositionRejected("1/3/5/7/9/7/5/3/1 b", "must be 'w'");
  ExpectPositionRejected("1/1R1/5/7/9/7/5/3/1 w", "must be 'b'");
  // Three red cities of the first player on row 4.
  ExpectPositionRejected("1/3/5/7/1R1R1R3/7/5/3/1 w", "first player has more than 2 R cities");
  // Four green resources of the second player.
  ExpectPositionRejected("g/g1g/g4/7/9/7/5/3/1 w", "second player has more than 3 G resources");
  // Two pieces of the first player, none of the second.
  ExpectPositionRejected("R/1R1/5/7/9/7/5/3/1 w", "first player has 2 pieces and the second 0");
  ExpectPositionRejected("r/3/5/7/9/7/5/3/1 b", "first player has 0 pieces and the second 1");
}

}  // namespace
}  // namespace divercite
