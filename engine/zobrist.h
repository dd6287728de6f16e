// Zobrist keys, one per (cell, colour, owner), generated at compile time with splitmix64.
// The side to move is not hashed: it follows from the number of pieces on the board.
#ifndef DIVERCITE_ENGINE_ZOBRIST_H_
#define DIVERCITE_ENGINE_ZOBRIST_H_

#include <array>
#include <cstdint>

#include "engine/board.h"
#include "engine/types.h"

namespace divercite {

constexpr std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace zobrist_internal {
using Table =
    std::array<std::array<std::array<std::uint64_t, kNumPlayers>, kNumColours>, kNumCells>;
constexpr Table MakeTable() {
  Table table{};
  std::uint64_t state = 0xD1CE'2024'F00D'5EEDULL;
  for (auto& by_colour : table) {
    for (auto& by_owner : by_colour) {
      for (auto& key : by_owner) key = SplitMix64(state);
    }
  }
  return table;
}
}  // namespace zobrist_internal

inline constexpr zobrist_internal::Table kZobrist = zobrist_internal::MakeTable();

constexpr std::uint64_t ZobristKey(int cell, Colour colour, Player owner) {
  return kZobrist[cell][Index(colour)][Index(owner)];
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_ZOBRIST_H_
