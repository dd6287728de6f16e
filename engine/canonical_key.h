// Symmetry-reduced hashing: the Zobrist key of a position's image under each of the 8 board
// symmetries, kept incrementally. The smallest of them (Pons' key3() idea) is the same for
// all 8 images, so symmetric positions share one transposition-table entry.
#ifndef DIVERCITE_ENGINE_CANONICAL_KEY_H_
#define DIVERCITE_ENGINE_CANONICAL_KEY_H_

#include <array>
#include <cstdint>

#include "engine/board.h"
#include "engine/move.h"
#include "engine/position.h"
#include "engine/zobrist.h"

namespace divercite {

namespace canonical_internal {
// kImageKey[cell][colour][owner][s]: the Zobrist key of that piece after symmetry s.
using ImageKeys =
    std::array<std::array<std::array<std::array<std::uint64_t, kNumBoardSymmetries>, kNumPlayers>,
                          kNumColours>,
               kNumCells>;
constexpr ImageKeys MakeImageKeys() {
  ImageKeys table{};
  for (int cell = 0; cell < kNumCells; ++cell)
    for (int c = 0; c < kNumColours; ++c)
      for (int p = 0; p < kNumPlayers; ++p)
        for (int s = 0; s < kNumBoardSymmetries; ++s)
          table[cell][c][p][s] = kZobrist[kBoardSymmetry[s][cell]][c][p];
  return table;
}
inline constexpr ImageKeys kImageKey = MakeImageKeys();
}  // namespace canonical_internal

struct CanonicalKey {
  std::uint64_t key;
  int symmetry;  // maps the position onto its canonical image
};

class SymmetricKeys {
 public:
  static SymmetricKeys Of(const Position& position);

  // Follows Position::Play(move) by `mover`.
  void Play(Move move, Player mover) {
    const auto& images =
        canonical_internal::kImageKey[move.cell()][Index(move.colour())][Index(mover)];
    for (int s = 0; s < kNumBoardSymmetries; ++s) keys_[s] ^= images[s];
  }

  std::uint64_t Key(int symmetry) const { return keys_[symmetry]; }

  // The smallest image key; ties go to the lowest symmetry (any of them is a valid frame).
  CanonicalKey Canonical() const {
    CanonicalKey best{keys_[0], 0};
    for (int s = 1; s < kNumBoardSymmetries; ++s) {
      if (keys_[s] < best.key) best = {keys_[s], s};
    }
    return best;
  }

 private:
  std::array<std::uint64_t, kNumBoardSymmetries> keys_{};
};

inline SymmetricKeys SymmetricKeys::Of(const Position& position) {
  SymmetricKeys keys;
  for (Bitboard b = position.Occupied(); b;) {
    const int cell = PopLowestCell(b);
    const Piece piece = *position.PieceAt(cell);
    keys.Play(Move(cell, piece.colour), piece.owner);
  }
  return keys;
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_CANONICAL_KEY_H_
