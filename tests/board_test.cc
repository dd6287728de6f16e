#include "engine/board.h"

#include <set>

#include "gtest/gtest.h"

namespace divercite {
namespace {

TEST(BoardTest, CellsAreTheDiamondInRowMajorOrder) {
  int previous_row = -1, previous_col = -1;
  for (int cell = 0; cell < kNumCells; ++cell) {
    const int row = CellRow(cell), col = CellColumn(cell);
    EXPECT_LE(std::abs(row - 4) + std::abs(col - 4), 4);
    EXPECT_TRUE(row > previous_row || (row == previous_row && col > previous_col));
    EXPECT_EQ(CellAt(row, col), cell);
    EXPECT_EQ(IsCityCell(cell), (row + col) % 2 == 1);
    previous_row = row;
    previous_col = col;
  }
  EXPECT_EQ(CellAt(0, 0), kNoCell);
  EXPECT_EQ(CellAt(9, 4), kNoCell);
  EXPECT_EQ(CellAt(-1, 4), kNoCell);
  EXPECT_EQ(CellAt(0, 4), 0);
  EXPECT_EQ(CellAt(1, 4), 2);
  EXPECT_EQ(CellAt(8, 4), 40);
}

TEST(BoardTest, NeighboursAlternateKinds) {
  for (int cell = 0; cell < kNumCells; ++cell) {
    const Bitboard around = Neighbours(cell);
    if (IsCityCell(cell)) {
      EXPECT_EQ(PopCount(around), 4) << "city " << cell;
      EXPECT_EQ(around & kCityCells, 0u);
    } else {
      const int n = PopCount(around);
      EXPECT_TRUE(n == 1 || n == 2 || n == 4) << "resource " << cell << " has " << n;
      EXPECT_EQ(around & kResourceCells, 0u);
    }
    for (Bitboard b = around; b;) {
      const int other = PopLowestCell(b);
      EXPECT_EQ(
          std::abs(CellRow(other) - CellRow(cell)) + std::abs(CellColumn(other) - CellColumn(cell)),
          1);
      EXPECT_TRUE(Neighbours(other) & Bit(cell)) << "adjacency is symmetric";
    }
  }
}

TEST(BoardTest, SymmetriesAreEightDistinctPermutations) {
  std::set<std::vector<int>> distinct;
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    std::vector<int> image;
    std::set<int> seen;
    for (int cell = 0; cell < kNumCells; ++cell) {
      image.push_back(kBoardSymmetry[s][cell]);
      seen.insert(kBoardSymmetry[s][cell]);
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(kNumCells));
    distinct.insert(image);
    const int inverse = InverseBoardSymmetry(s);
    for (int cell = 0; cell < kNumCells; ++cell) {
      EXPECT_EQ(kBoardSymmetry[inverse][kBoardSymmetry[s][cell]], cell);
    }
  }
  EXPECT_EQ(distinct.size(), 8u);
  EXPECT_EQ(kBoardSymmetry[0][17], 17) << "symmetry 0 is the identity";
  EXPECT_EQ(kBoardSymmetry[2][0], 40) << "symmetry 2 is the half turn";
}

}  // namespace
}  // namespace divercite
