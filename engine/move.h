// A move: one piece of a colour placed on a cell. The kind (city or resource) follows from
// the cell, so 41 cells x 4 colours = 164 possible moves.
#ifndef DIVERCITE_ENGINE_MOVE_H_
#define DIVERCITE_ENGINE_MOVE_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/board.h"
#include "engine/types.h"

namespace divercite {

inline constexpr int kNumMoveIndices = kNumColours * kNumCells;  // 164
inline constexpr int kMaxMoves = kNumMoveIndices;

class Move {
 public:
  // The null move, used as "no move" (e.g. an empty transposition table slot).
  constexpr Move() = default;
  constexpr Move(int cell, Colour colour)
      : bits_(static_cast<std::uint8_t>(cell | (divercite::Index(colour) << 6))) {}

  static constexpr Move None() { return Move(); }
  // Inverse of Index().
  static constexpr Move FromIndex(int index) {
    return Move(index % kNumCells, static_cast<Colour>(index / kNumCells));
  }

  constexpr bool IsNone() const { return bits_ == kNoneBits; }
  constexpr int cell() const { return bits_ & 63; }
  constexpr Colour colour() const { return static_cast<Colour>(bits_ >> 6); }
  constexpr Kind kind() const { return KindOfCell(cell()); }
  // A dense index in [0, 164): colour * 41 + cell. For tables indexed by move.
  constexpr int Index() const { return divercite::Index(colour()) * kNumCells + cell(); }
  constexpr std::uint8_t bits() const { return bits_; }
  static constexpr Move FromBits(std::uint8_t bits) {
    Move m;
    m.bits_ = bits;
    return m;
  }

  friend constexpr bool operator==(Move a, Move b) = default;

 private:
  // Colour in bits 6-7, cell in bits 0-5. 0xFF is not a cell, hence the null move.
  static constexpr std::uint8_t kNoneBits = 0xFF;
  std::uint8_t bits_ = kNoneBits;
};

// Text form `<colour><kind><row><col>`, e.g. "GR04": a green resource on (0,4).
std::string MoveToString(Move move);

// Parses the text form. Rejects, with the reason, anything that is not exactly 4 characters,
// an unknown colour or kind letter, a row/column that is not a digit or not a cell of the
// board, and a kind that does not match the cell. Says nothing about legality in a position.
absl::StatusOr<Move> ParseMove(absl::string_view text);

// A fixed-capacity list of moves, enough for any position.
class MoveList {
 public:
  void Add(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  Move& operator[](int i) { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }
  void clear() { size_ = 0; }

 private:
  std::array<Move, kMaxMoves> moves_;
  int size_ = 0;
};

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_MOVE_H_
