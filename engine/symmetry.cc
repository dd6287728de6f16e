#include "engine/symmetry.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "engine/movegen.h"

namespace divercite {

Position TransformPosition(const Position& position, int board_symmetry, int colour_permutation) {
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

bool IsInvariantUnder(const Position& position, int board_symmetry, int colour_permutation) {
  for (int p = 0; p < kNumPlayers; ++p) {
    const Bitboard pieces = position.PiecesOf(static_cast<Player>(p));
    if (TransformBitboard(pieces, board_symmetry) != pieces) return false;
  }
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    const Colour image = PermuteColour(colour, colour_permutation);
    if (TransformBitboard(position.PiecesOf(colour), board_symmetry) != position.PiecesOf(image)) {
      return false;
    }
    for (int p = 0; p < kNumPlayers; ++p) {
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        const Player player = static_cast<Player>(p);
        if (position.PiecesLeft(player, kind, colour) != position.PiecesLeft(player, kind, image)) {
          return false;
        }
      }
    }
  }
  return true;
}

MoveList DistinctMoves(const Position& position) {
  return DistinctMoves(position, LegalMoves(position));
}

MoveList DistinctMoves(const Position& position, const MoveList& moves) {
  std::vector<std::pair<int, int>> stabiliser;
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    for (int k = 0; k < kNumColourPermutations; ++k) {
      if ((s != 0 || k != 0) && IsInvariantUnder(position, s, k)) stabiliser.emplace_back(s, k);
    }
  }
  // The list's order ranks each move (its first place); a move is kept if it is not a
  // repeat and no image of it ranks lower (a move outside the list ranks below none).
  std::array<int, kNumMoveIndices> rank;
  rank.fill(kNumMoveIndices);
  for (int i = moves.size() - 1; i >= 0; --i) rank[moves[i].Index()] = i;
  MoveList distinct;
  for (int i = 0; i < moves.size(); ++i) {
    const auto ranks_lower = [&](const std::pair<int, int>& image) {
      return rank[TransformMove(moves[i], image.first, image.second).Index()] < i;
    };
    if (rank[moves[i].Index()] == i &&
        std::none_of(stabiliser.begin(), stabiliser.end(), ranks_lower)) {
      distinct.Add(moves[i]);
    }
  }
  return distinct;
}

}  // namespace divercite
