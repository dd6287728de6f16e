#include "engine/symmetry.h"

#include <set>

#include "engine/canonical_key.h"
#include "engine/movegen.h"
#include "gtest/gtest.h"
#include "perft/perft.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

TEST(SymmetryTest, ColourPermutationsAreTheTwentyFour) {
  std::set<std::array<std::uint8_t, 4>> distinct(kColourPermutation.begin(),
                                                 kColourPermutation.end());
  EXPECT_EQ(distinct.size(), 24u);
  for (int c = 0; c < kNumColours; ++c) {
    EXPECT_EQ(PermuteColour(static_cast<Colour>(c), 0), static_cast<Colour>(c));
  }
  for (int k = 0; k < kNumColourPermutations; ++k) {
    const int inverse = InverseColourPermutation(k);
    ASSERT_GE(inverse, 0);
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      EXPECT_EQ(PermuteColour(PermuteColour(colour, k), inverse), colour);
    }
  }
}

// Every (board symmetry, colour permutation) maps a position to one with the same scores,
// the same legal moves (mapped), the same children (mapped) and the same perft.
TEST(SymmetryTest, TransformsPreserveScoresLegalityAndPerft) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    for (const int ply : {0, 7, 20, 33, 38, 40}) {
      const Position& position = game[ply];
      const MoveList moves = LegalMoves(position);
      const std::uint64_t perft = Perft(position, 2);
      for (int s = 0; s < kNumBoardSymmetries; ++s) {
        for (int k = 0; k < kNumColourPermutations; ++k) {
          const Position image = TransformPosition(position, s, k);
          ASSERT_EQ(image.Score(Player::kFirst), position.Score(Player::kFirst));
          ASSERT_EQ(image.Score(Player::kSecond), position.Score(Player::kSecond));
          ASSERT_EQ(image.SideToMove(), position.SideToMove());
          ASSERT_EQ(image.CountLegalMoves(), position.CountLegalMoves());
          ASSERT_EQ(Perft(image, 2), perft);
          for (const Move move : moves) {
            const Move mapped = TransformMove(move, s, k);
            ASSERT_TRUE(image.IsLegal(mapped));
            Position child = position;
            child.Play(move);
            Position image_child = image;
            image_child.Play(mapped);
            // Playing then mapping equals mapping then playing, incremental state included.
            ASSERT_EQ(image_child, TransformPosition(child, s, k))
                << "seed " << seed << " ply " << ply << " symmetry " << s << " perm " << k;
          }
        }
      }
    }
  }
}

TEST(SymmetryTest, InverseTransformRestoresThePosition) {
  const Position position = testing::RandomGame(42, 17).back();
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    for (int k = 0; k < kNumColourPermutations; ++k) {
      const Position back = TransformPosition(TransformPosition(position, s, k),
                                              InverseBoardSymmetry(s), InverseColourPermutation(k));
      EXPECT_EQ(back, position);
    }
  }
}

TEST(SymmetryTest, StartPositionHasAllEightSymmetries) {
  EXPECT_EQ(BoardSymmetriesOf(Position::Start()), 0xFFu);
  Position centre = Position::Start();
  centre.Play(*ParseMove("RR44"));
  EXPECT_EQ(BoardSymmetriesOf(centre), 0xFFu);
  Position corner = Position::Start();
  corner.Play(*ParseMove("RR04"));
  EXPECT_EQ(BoardSymmetriesOf(corner), (1u << 0) | (1u << 4)) << "only the column mirror";
}

}  // namespace
}  // namespace divercite

namespace divercite {
namespace {

TEST(CanonicalKeyTest, IncrementalKeysEqualTheImagesKeys) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    SymmetricKeys keys = SymmetricKeys::Of(game[0]);
    for (size_t ply = 0; ply + 1 < game.size(); ++ply) {
      // Find the move that led to the next position.
      for (const Move move : LegalMoves(game[ply])) {
        Position next = game[ply];
        next.Play(move);
        if (next == game[ply + 1]) {
          keys.Play(move, game[ply].SideToMove());
          break;
        }
      }
      const Position& position = game[ply + 1];
      ASSERT_EQ(keys.Key(0), position.Key());
      for (int s = 0; s < kNumBoardSymmetries; ++s) {
        ASSERT_EQ(keys.Key(s), TransformPosition(position, s).Key());
      }
    }
  }
}

TEST(CanonicalKeyTest, SymmetricPositionsShareTheCanonicalKey) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const Position position = testing::RandomGame(seed, static_cast<int>(seed % 39)).back();
    const CanonicalKey canonical = SymmetricKeys::Of(position).Canonical();
    for (int s = 0; s < kNumBoardSymmetries; ++s) {
      const Position image = TransformPosition(position, s);
      const CanonicalKey image_canonical = SymmetricKeys::Of(image).Canonical();
      EXPECT_EQ(image_canonical.key, canonical.key);
      // Both frames lead to the same canonical board.
      EXPECT_EQ(TransformPosition(image, image_canonical.symmetry),
                TransformPosition(position, canonical.symmetry));
    }
  }
}

}  // namespace
}  // namespace divercite

namespace divercite {
namespace {

TEST(DistinctMovesTest, NineFirstMovesFromTheStart) {
  const MoveList distinct = DistinctMoves(Position::Start());
  EXPECT_EQ(distinct.size(), 9);
  // 3 city classes and 6 resource classes, all in red: the lowest colour of each class.
  for (const Move move : distinct) EXPECT_EQ(move.colour(), Colour::kRed);
}

TEST(DistinctMovesTest, EveryLegalMoveIsTheImageOfAKeptOne) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    for (const int plies : {0, 1, 2, 3, 4, 10}) {
      const Position position = testing::RandomGame(seed, plies).back();
      const MoveList distinct = DistinctMoves(position);
      for (const Move move : LegalMoves(position)) {
        bool covered = false;
        for (int s = 0; s < kNumBoardSymmetries && !covered; ++s) {
          for (int k = 0; k < kNumColourPermutations && !covered; ++k) {
            if (!IsInvariantUnder(position, s, k)) continue;
            const Move image = TransformMove(move, s, k);
            covered = std::find(distinct.begin(), distinct.end(), image) != distinct.end();
          }
        }
        ASSERT_TRUE(covered) << MoveToString(move);
      }
    }
  }
  // After one centre red resource, the 8 board symmetries survive and so do the permutations
  // of green, blue and yellow.
  Position centre = Position::Start();
  centre.Play(*ParseMove("RR44"));
  EXPECT_LT(DistinctMoves(centre).size(), LegalMoves(centre).size() / 8);
}

}  // namespace
}  // namespace divercite
