// divercite-dump-positions' records (tools/tune/position_dump.h): what they say of a position
// is what the position says, and the pattern list of the side to move is the evaluation's.
#include "tools/tune/position_dump.h"

#include <vector>

#include "gtest/gtest.h"
#include "search/patterns.h"
#include "tests/test_util.h"
#include "tools/tune/pattern_file.h"

namespace divercite {
namespace {

TEST(PositionDumpTest, RecordsSayWhatThePositionSays) {
  const PatternWeights& weights = DefaultPatternWeights();
  PositionLabel label;
  label.game = 7;
  label.pair = 3;
  label.later = 2.0f;
  label.exact = true;
  label.has_search = true;
  label.search = -1.5f;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    for (std::size_t ply = 0; ply + 1 < game.size(); ++ply) {
      const Position& position = game[ply];
      absl::StatusOr<PositionRecord> record = MakePositionRecord(position, label, weights);
      ASSERT_TRUE(record.ok()) << record.status();
      int pieces = 0;
      for (int cell = 0; cell < kNumCells; ++cell) {
        const std::optional<Piece> piece = position.PieceAt(cell);
        EXPECT_EQ(record->board[cell],
                  piece ? 1 + Index(piece->colour) + 4 * Index(piece->owner) : 0);
        pieces += piece ? 1 : 0;
      }
      for (int p = 0; p < kNumPlayers; ++p) {
        for (int kind = 0; kind < kNumKinds; ++kind) {
          for (int c = 0; c < kNumColours; ++c) {
            const int left = position.PiecesLeft(static_cast<Player>(p), static_cast<Kind>(kind),
                                                 static_cast<Colour>(c));
            EXPECT_EQ(record->hand[8 * p + 4 * kind + c], left);
            pieces += left;
          }
        }
      }
      EXPECT_EQ(pieces, kTotalPlies);  // every piece is on the board or in hand
      EXPECT_EQ(record->ply, position.Ply());
      EXPECT_EQ(record->side_to_move, Index(position.SideToMove()));
      EXPECT_EQ(record->score[0], position.Score(Player::kFirst));
      EXPECT_EQ(record->score[1], position.Score(Player::kSecond));
      EXPECT_EQ(record->flags, 3);
      EXPECT_EQ(record->later, 2.0f);
      EXPECT_EQ(record->search, -1.5f);
      EXPECT_FLOAT_EQ(record->pattern_eval, EvaluatePatterns(position, weights) / 100.0f);
      EXPECT_EQ(record->game, 7);
      EXPECT_EQ(record->pair, 3);
      // View 0 is the evaluation's own list; view 1 has an entry for the same cells.
      std::vector<int> listed;
      ForEachPattern(position,
                     [&](int pattern, int sign) { listed.push_back(2 * pattern + (sign < 0)); });
      int other = 0;
      for (int slot = 0; slot < kPatternSlots; ++slot) {
        if (slot < static_cast<int>(listed.size())) {
          EXPECT_EQ(record->patterns[0][slot], listed[slot]);
        } else {
          EXPECT_EQ(record->patterns[0][slot], kNoPattern);
        }
        other += record->patterns[1][slot] != kNoPattern;
      }
      EXPECT_EQ(other, static_cast<int>(listed.size()));
    }
  }
}

}  // namespace
}  // namespace divercite
