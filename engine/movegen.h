// Legal move generation.
#ifndef DIVERCITE_ENGINE_MOVEGEN_H_
#define DIVERCITE_ENGINE_MOVEGEN_H_

#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

// Calls visit(move) for every legal move, in the course code's order: colours R, G, B, Y; for
// each colour its cities, then its resources (the piece types RC, RR, GC, GR, BC, BR, YC, YR);
// within a piece type, cells by row, then column. Nothing once the game is over.
template <typename Visitor>
inline void ForEachLegalMove(const Position& position, Visitor&& visit) {
  if (position.IsGameOver()) return;
  const Player player = position.SideToMove();
  const Bitboard empty = position.Empty();
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    for (const Kind kind : {Kind::kCity, Kind::kResource}) {
      if (position.PiecesLeft(player, kind, colour) == 0) continue;
      for (Bitboard cells = empty & CellsOfKind(kind); cells;) {
        visit(Move(PopLowestCell(cells), colour));
      }
    }
  }
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
