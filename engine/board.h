// Board geometry: the 41 cells of the diamond, their bits, kinds, neighbours and symmetries.
//
// The course code uses a 9x9 grid where only cells with |i-4| + |j-4| <= 4 exist. Cells are
// numbered row by row, column by column, so iterating a bitboard from its lowest bit visits
// cells in the course code's order (by row, then column). [n] marks a city cell (i+j odd).
//
//   row\col  0     1     2     3     4     5     6     7     8
//     0                          0
//     1                     1  [ 2]    3
//     2                4  [ 5]    6  [ 7]    8
//     3           9  [10]   11  [12]   13  [14]   15
//     4     16  [17]   18  [19]   20  [21]   22  [23]   24
//     5          25  [26]   27  [28]   29  [30]   31
//     6               32  [33]   34  [35]   36
//     7                    37  [38]   39
//     8                          40
//
// A city cell has exactly 4 neighbours, all resource cells; a resource cell has 1, 2 or 4,
// all city cells. Bits 41..63 are always zero.
#ifndef DIVERCITE_ENGINE_BOARD_H_
#define DIVERCITE_ENGINE_BOARD_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/types.h"

namespace divercite {

inline constexpr int kNumCells = 41;
inline constexpr int kGridSize = 9;
inline constexpr int kNoCell = -1;
inline constexpr int kNumBoardSymmetries = 8;

namespace board_internal {

constexpr int Abs(int x) { return x < 0 ? -x : x; }
constexpr bool OnBoard(int row, int col) {
  return row >= 0 && row < kGridSize && col >= 0 && col < kGridSize &&
         Abs(row - 4) + Abs(col - 4) <= 4;
}

struct Geometry {
  std::array<std::int8_t, kNumCells> row{};
  std::array<std::int8_t, kNumCells> col{};
  std::array<std::array<std::int8_t, kGridSize>, kGridSize> cell_at{};
  std::array<Bitboard, kNumCells> neighbours{};
  Bitboard cities = 0;
  Bitboard resources = 0;
};

constexpr Geometry MakeGeometry() {
  Geometry g;
  int next = 0;
  for (int r = 0; r < kGridSize; ++r) {
    for (int c = 0; c < kGridSize; ++c) {
      g.cell_at[r][c] = kNoCell;
      if (!OnBoard(r, c)) continue;
      g.row[next] = static_cast<std::int8_t>(r);
      g.col[next] = static_cast<std::int8_t>(c);
      g.cell_at[r][c] = static_cast<std::int8_t>(next);
      ((r + c) % 2 ? g.cities : g.resources) |= Bit(next);
      ++next;
    }
  }
  constexpr int kSteps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  for (int cell = 0; cell < kNumCells; ++cell) {
    for (const auto& step : kSteps) {
      const int r = g.row[cell] + step[0];
      const int c = g.col[cell] + step[1];
      if (OnBoard(r, c)) g.neighbours[cell] |= Bit(g.cell_at[r][c]);
    }
  }
  return g;
}

inline constexpr Geometry kGeometry = MakeGeometry();

// The 8 symmetries of the square around (4,4), as maps of (row, col).
constexpr void ApplySquareSymmetry(int symmetry, int row, int col, int& out_row, int& out_col) {
  constexpr int kLast = kGridSize - 1;
  switch (symmetry) {
    case 0:
      out_row = row;
      out_col = col;
      break;  // identity
    case 1:
      out_row = col;
      out_col = kLast - row;
      break;  // rotate 90
    case 2:
      out_row = kLast - row;
      out_col = kLast - col;
      break;  // rotate 180
    case 3:
      out_row = kLast - col;
      out_col = row;
      break;  // rotate 270
    case 4:
      out_row = row;
      out_col = kLast - col;
      break;  // mirror columns
    case 5:
      out_row = kLast - row;
      out_col = col;
      break;  // mirror rows
    case 6:
      out_row = col;
      out_col = row;
      break;  // main diagonal
    default:
      out_row = kLast - col;
      out_col = kLast - row;
      break;  // anti-diagonal
  }
}

using CellPermutation = std::array<std::int8_t, kNumCells>;

constexpr std::array<CellPermutation, kNumBoardSymmetries> MakeSymmetries() {
  std::array<CellPermutation, kNumBoardSymmetries> table{};
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    for (int cell = 0; cell < kNumCells; ++cell) {
      int r = 0, c = 0;
      ApplySquareSymmetry(s, kGeometry.row[cell], kGeometry.col[cell], r, c);
      table[s][cell] = kGeometry.cell_at[r][c];
    }
  }
  return table;
}

}  // namespace board_internal

inline constexpr Bitboard kCityCells = board_internal::kGeometry.cities;
inline constexpr Bitboard kResourceCells = board_internal::kGeometry.resources;
inline constexpr Bitboard kAllCells = kCityCells | kResourceCells;
inline constexpr int kNumCityCells = std::popcount(kCityCells);

static_assert(PopCount(kCityCells) == 16);
static_assert(PopCount(kResourceCells) == 25);
static_assert(kAllCells == (Bit(kNumCells) - 1));

constexpr int CellRow(int cell) { return board_internal::kGeometry.row[cell]; }
constexpr int CellColumn(int cell) { return board_internal::kGeometry.col[cell]; }
// The cell at (row, col), or kNoCell when the grid square is outside the diamond.
constexpr int CellAt(int row, int col) {
  if (row < 0 || row >= kGridSize || col < 0 || col >= kGridSize) return kNoCell;
  return board_internal::kGeometry.cell_at[row][col];
}
constexpr bool IsCityCell(int cell) { return (kCityCells >> cell) & 1; }
constexpr Kind KindOfCell(int cell) { return IsCityCell(cell) ? Kind::kCity : Kind::kResource; }
constexpr Bitboard Neighbours(int cell) { return board_internal::kGeometry.neighbours[cell]; }
constexpr Bitboard CellsOfKind(Kind kind) {
  return kind == Kind::kCity ? kCityCells : kResourceCells;
}

// kBoardSymmetry[s][cell] is the image of `cell` under symmetry s (0 is the identity).
inline constexpr std::array<board_internal::CellPermutation, kNumBoardSymmetries> kBoardSymmetry =
    board_internal::MakeSymmetries();

// The symmetry that undoes symmetry s.
constexpr int InverseBoardSymmetry(int s) {
  for (int t = 0; t < kNumBoardSymmetries; ++t) {
    bool inverse = true;
    for (int cell = 0; cell < kNumCells; ++cell) {
      if (kBoardSymmetry[t][kBoardSymmetry[s][cell]] != cell) inverse = false;
    }
    if (inverse) return t;
  }
  return -1;
}

constexpr Bitboard TransformBitboard(Bitboard b, int symmetry) {
  Bitboard out = 0;
  while (b) out |= Bit(kBoardSymmetry[symmetry][PopLowestCell(b)]);
  return out;
}

namespace board_internal {
constexpr bool SymmetriesPreserveBoard() {
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    if (InverseBoardSymmetry(s) < 0) return false;
    if (TransformBitboard(kCityCells, s) != kCityCells) return false;
    for (int cell = 0; cell < kNumCells; ++cell) {
      if (TransformBitboard(Neighbours(cell), s) != Neighbours(kBoardSymmetry[s][cell])) {
        return false;
      }
    }
  }
  return true;
}
static_assert(SymmetriesPreserveBoard(), "the 8 symmetries must map the board onto itself");
}  // namespace board_internal

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_BOARD_H_
