// Basic vocabulary of the rules: players, colours, piece kinds and bitboards.
#ifndef DIVERCITE_ENGINE_TYPES_H_
#define DIVERCITE_ENGINE_TYPES_H_

#include <bit>
#include <cstdint>

namespace divercite {

// One bit per board cell; see board.h for the mapping.
using Bitboard = std::uint64_t;

// The course code calls the first player "W" and the second "B".
enum class Player : std::uint8_t { kFirst = 0, kSecond = 1 };
enum class Colour : std::uint8_t { kRed = 0, kGreen = 1, kBlue = 2, kYellow = 3 };
enum class Kind : std::uint8_t { kCity = 0, kResource = 1 };

inline constexpr int kNumPlayers = 2;
inline constexpr int kNumColours = 4;
inline constexpr int kNumKinds = 2;

// Every game is exactly this long: 20 pieces per player, no pass, nothing removed.
inline constexpr int kTotalPlies = 40;
inline constexpr int kCitiesPerColour = 2;     // per player
inline constexpr int kResourcesPerColour = 3;  // per player
inline constexpr int kDivercitePoints = 5;

constexpr int Index(Player p) { return static_cast<int>(p); }
constexpr int Index(Colour c) { return static_cast<int>(c); }
constexpr int Index(Kind k) { return static_cast<int>(k); }
constexpr Player Opponent(Player p) { return static_cast<Player>(Index(p) ^ 1); }

constexpr Bitboard Bit(int cell) { return Bitboard{1} << cell; }
constexpr int PopCount(Bitboard b) { return std::popcount(b); }
constexpr int LowestCell(Bitboard b) { return std::countr_zero(b); }
// Removes and returns the lowest set cell of a non-empty bitboard.
constexpr int PopLowestCell(Bitboard& b) {
  const int cell = std::countr_zero(b);
  b &= b - 1;
  return cell;
}

constexpr char ColourLetter(Colour c) { return "RGBY"[Index(c)]; }
constexpr char KindLetter(Kind k) { return k == Kind::kCity ? 'C' : 'R'; }

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_TYPES_H_
