// The rules are invariant under the 8 symmetries of the board (board.h) and under the 24
// permutations of the 4 colours. These map positions and moves through both.
#ifndef DIVERCITE_ENGINE_SYMMETRY_H_
#define DIVERCITE_ENGINE_SYMMETRY_H_

#include <array>
#include <cstdint>

#include "engine/board.h"
#include "engine/move.h"
#include "engine/position.h"
#include "engine/types.h"

namespace divercite {

inline constexpr int kNumColourPermutations = 24;

namespace symmetry_internal {
using ColourPermutation = std::array<std::uint8_t, kNumColours>;
// All permutations of (0,1,2,3) in lexicographic order; index 0 is the identity.
constexpr std::array<ColourPermutation, kNumColourPermutations> MakeColourPermutations() {
  std::array<ColourPermutation, kNumColourPermutations> table{};
  int next = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 4; ++d) {
          if (a == b || a == c || a == d || b == c || b == d || c == d) continue;
          table[next++] = {static_cast<std::uint8_t>(a), static_cast<std::uint8_t>(b),
                           static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(d)};
        }
  return table;
}
}  // namespace symmetry_internal

// kColourPermutation[k][c]: the colour that colour c becomes under permutation k.
inline constexpr std::array<symmetry_internal::ColourPermutation, kNumColourPermutations>
    kColourPermutation = symmetry_internal::MakeColourPermutations();

constexpr Colour PermuteColour(Colour colour, int permutation) {
  return static_cast<Colour>(kColourPermutation[permutation][Index(colour)]);
}

constexpr int InverseColourPermutation(int permutation) {
  for (int k = 0; k < kNumColourPermutations; ++k) {
    bool inverse = true;
    for (int c = 0; c < kNumColours; ++c) {
      if (kColourPermutation[k][kColourPermutation[permutation][c]] != c) inverse = false;
    }
    if (inverse) return k;
  }
  return -1;
}

// The move `move` becomes when the board is mapped by `board_symmetry` and the colours by
// `colour_permutation`.
constexpr Move TransformMove(Move move, int board_symmetry, int colour_permutation = 0) {
  if (move.IsNone()) return move;
  return Move(kBoardSymmetry[board_symmetry][move.cell()],
              PermuteColour(move.colour(), colour_permutation));
}

// The image of a position: same scores, same side to move, same pieces left up to the
// colour permutation.
Position TransformPosition(const Position& position, int board_symmetry,
                           int colour_permutation = 0);

// Bit s is set for each board symmetry s that maps the position onto itself (bit 0 always).
std::uint32_t BoardSymmetriesOf(const Position& position);

// Whether (board symmetry, colour permutation) maps the position onto itself: same pieces,
// same owners and the same pieces left in hand.
bool IsInvariantUnder(const Position& position, int board_symmetry, int colour_permutation);

// The legal moves, one per class of moves that are images of each other under the
// symmetries (board x colours) that leave the position unchanged: playing any of a class
// leads to equivalent positions. The lowest move of each class in generation order is kept.
// From the start position: 9 of 164.
MoveList DistinctMoves(const Position& position);

// The same of `moves` (legal in `position`): the first of each class in the list's order is
// kept, so a search restricted to `moves` (`go searchmoves`) names one of them.
MoveList DistinctMoves(const Position& position, const MoveList& moves);

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_SYMMETRY_H_
