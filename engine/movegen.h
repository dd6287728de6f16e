// Legal move generation.
#ifndef DIVERCITE_ENGINE_MOVEGEN_H_
#define DIVERCITE_ENGINE_MOVEGEN_H_

#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

// The legal moves in the course code's order, the one statement of it, a piece type at a
// time: calls visit(colour, cells) for each piece type the side to move has left, in the order
// colours R, G, B, Y and, for each colour, its cities, then its resources (RC, RR, GC, GR, BC,
// BR, YC, YR), with `cells` the empty cells of the type's kind, whose moves come in the order
// of their cells by row, then column (the lowest bit first). Stops when visit returns false.
// Nothing once the game is over.
template <typename Visitor>
inline void ForEachPieceTypeToPlay(const Position& position, Visitor&& visit) {
  if (position.IsGameOver()) return;
  const Player player = position.SideToMove();
  const Bitboard empty = position.Empty();
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    for (const Kind kind : {Kind::kCity, Kind::kResource}) {
      if (position.PiecesLeft(player, kind, colour) == 0) continue;
      if (!visit(colour, empty & CellsOfKind(kind))) return;
    }
  }
}

// Calls visit(move) for every legal move, in that order.
template <typename Visitor>
inline void ForEachLegalMove(const Position& position, Visitor&& visit) {
  ForEachPieceTypeToPlay(position, [&visit](Colour colour, Bitboard cells) {
    while (cells) visit(Move(PopLowestCell(cells), colour));
    return true;
  });
}

// The move ForEachLegalMove would visit at `index` (< CountLegalMoves()), found without
// listing the moves: the playouts of the MCTS agents call this at every ply. None if there
// is no such move.
inline Move NthLegalMove(const Position& position, int index) {
  Move nth = Move::None();
  ForEachPieceTypeToPlay(position, [&](Colour colour, Bitboard cells) {
    const int size = PopCount(cells);
    if (index >= size) {
      index -= size;
      return true;
    }
    while (index-- > 0) cells &= cells - 1;
    nth = Move(LowestCell(cells), colour);
    return false;
  });
  return nth;
}

// Appends every legal move to `moves`, in ForEachLegalMove's order.
inline void GenerateMoves(const Position& position, MoveList& moves) {
  ForEachLegalMove(position, [&moves](Move move) { moves.Add(move); });
}

inline MoveList LegalMoves(const Position& position) {
  MoveList moves;
  GenerateMoves(position, moves);
  return moves;
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_MOVEGEN_H_
