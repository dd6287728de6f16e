#include "engine/symmetry.h"

#include <optional>

namespace divercite {

Position TransformPosition(const Position& position, int board_symmetry,
                           int colour_permutation) {
  std::array<std::optional<Piece>, kNumCells> cells;
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (const std::optional<Piece> piece = position.PieceAt(cell)) {
      cells[kBoardSymmetry[board_symmetry][cell]] =
          Piece{PermuteColour(piece->colour, colour_permutation), piece->owner};
    }
  }
  // The image of a reachable board is reachable: FromBoard cannot fail here.
  return *Position::FromBoard(cells);
}

std::uint32_t BoardSymmetriesOf(const Position& position) {
  std::uint32_t symmetries = 1;
  for (int s = 1; s < kNumBoardSymmetries; ++s) {
    bool same = true;
    for (int c = 0; c < kNumColours && same; ++c) {
      const Bitboard pieces = position.PiecesOf(static_cast<Colour>(c));
      same = TransformBitboard(pieces, s) == pieces;
    }
    for (int p = 0; p < kNumPlayers && same; ++p) {
      const Bitboard pieces = position.PiecesOf(static_cast<Player>(p));
      same = TransformBitboard(pieces, s) == pieces;
    }
    if (same) symmetries |= 1u << s;
  }
  return symmetries;
}

}  // namespace divercite
