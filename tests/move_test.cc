#include "engine/move.h"

#include "gtest/gtest.h"

namespace divercite {
namespace {

TEST(MoveTest, TextRoundTripsForAll164Moves) {
  for (int index = 0; index < kNumMoveIndices; ++index) {
    const Move move = Move::FromIndex(index);
    EXPECT_EQ(move.Index(), index);
    const absl::StatusOr<Move> parsed = ParseMove(MoveToString(move));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, move);
  }
}

TEST(MoveTest, KnownMoves) {
  const absl::StatusOr<Move> green = ParseMove("GR04");
  ASSERT_TRUE(green.ok());
  EXPECT_EQ(green->cell(), CellAt(0, 4));
  EXPECT_EQ(green->colour(), Colour::kGreen);
  EXPECT_EQ(green->kind(), Kind::kResource);
  const absl::StatusOr<Move> red = ParseMove("RC14");
  ASSERT_TRUE(red.ok());
  EXPECT_EQ(red->cell(), CellAt(1, 4));
  EXPECT_EQ(red->kind(), Kind::kCity);
  EXPECT_EQ(MoveToString(Move(CellAt(8, 4), Colour::kYellow)), "YR84");
  EXPECT_TRUE(Move::None().IsNone());
  EXPECT_EQ(MoveToString(Move::None()), "(none)");
}

void ExpectMoveRejected(absl::string_view text, absl::string_view reason) {
  const absl::StatusOr<Move> move = ParseMove(text);
  ASSERT_FALSE(move.ok()) << text << " was accepted";
  EXPECT_EQ(move.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(move.status().message().find(reason), absl::string_view::npos)
      << "message for '" << text << "': " << move.status().message();
}

TEST(MoveTest, RejectsMalformedMovesWithTheReason) {
  ExpectMoveRejected("", "4 characters");
  ExpectMoveRejected("GR0", "4 characters");
  ExpectMoveRejected("GR044", "4 characters");
  ExpectMoveRejected("XR04", "unknown colour 'X'");
  ExpectMoveRejected("gR04", "unknown colour 'g'");
  ExpectMoveRejected("GX04", "unknown kind 'X'");
  ExpectMoveRejected("GRa4", "digits");
  ExpectMoveRejected("GR94", "digits");
  ExpectMoveRejected("GR00", "not a cell");
  ExpectMoveRejected("GC04", "is a resource cell, not a city cell");
  ExpectMoveRejected("RR14", "is a city cell, not a resource cell");
}

}  // namespace
}  // namespace divercite
