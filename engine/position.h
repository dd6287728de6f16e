// A Divercité position: who owns which piece of which colour where, the pieces each player
// has left, the scores and the Zobrist key, all updated incrementally by Play().
//
// Positions are copied to make a move (copy-make): the whole state is one 64-byte cache line,
// and a copy is cheaper than undoing the score changes (see bench/ for the figures).
#ifndef DIVERCITE_ENGINE_POSITION_H_
#define DIVERCITE_ENGINE_POSITION_H_

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/game_result.h"
#include "engine/move.h"
#include "engine/types.h"
#include "engine/zobrist.h"

namespace divercite {

// A placed piece; its kind follows from its cell.
struct Piece {
  Colour colour;
  Player owner;
  friend bool operator==(Piece, Piece) = default;
};

// Counts used by the last-move tie-break, per player.
struct TieBreakCounts {
  std::array<int, kNumPlayers> divercites{};
  // own_colour_cities[n][p]: cities of player p with exactly n neighbouring resources of the
  // city's own colour (n = 2, 3, 4 are the ones the tie-break looks at).
  std::array<std::array<int, kNumPlayers>, 5> own_colour_cities{};
};

// One step of the last-move tie-break: what it compared and who got +1 for it.
struct TieBreakStep {
  enum class Rule : std::uint8_t {
    kDivercites,   // divercité cities
    kOwnColour4,   // cities with exactly 4 neighbouring resources of their own colour
    kOwnColour3,   // ... 3
    kOwnColour2,   // ... 2
    kFirstPlayer,  // the first player's point after the n = 2 comparison (nothing compared)
  };
  Rule rule = Rule::kDivercites;
  std::array<int, kNumPlayers> counts{};
  std::optional<Player> point;  // who got +1, if anyone
};

// The steps the tie-break takes for these counts when the 40th move leaves the scores equal,
// in order: the one account of it, which Position applies and the browser's rules module
// explains.
struct TieBreakSteps {
  std::array<TieBreakStep, 5> steps;
  int size = 0;
};
TieBreakSteps LastMoveTieBreakSteps(const TieBreakCounts& counts);

class alignas(64) Position {
 public:
  // The empty board, first player to move.
  static Position Start();

  // Builds the position with exactly these pieces on the board, the side to move following
  // from their number. Fails, naming the problem, when a player has more pieces of a colour
  // and kind than the game gives, or when the counts cannot come from alternating moves (the
  // first player has as many pieces as the second, or one more).
  static absl::StatusOr<Position> FromBoard(
      const std::array<std::optional<Piece>, kNumCells>& cells);

  Player SideToMove() const { return static_cast<Player>(ply_ & 1); }
  int Ply() const { return ply_; }  // number of pieces on the board
  int PliesLeft() const { return kTotalPlies - ply_; }
  bool IsGameOver() const { return ply_ == kTotalPlies; }

  // Scores as the course code keeps them: the sum of each player's city values, plus the
  // last-move tie-break once the board is full.
  int Score(Player p) const { return score_[Index(p)]; }
  GameResult Result() const;

  Bitboard Occupied() const { return owner_[0] | owner_[1]; }
  Bitboard Empty() const { return kAllCells & ~Occupied(); }
  Bitboard PiecesOf(Colour c) const { return colour_[Index(c)]; }
  Bitboard PiecesOf(Player p) const { return owner_[Index(p)]; }
  std::optional<Piece> PieceAt(int cell) const;
  int PiecesLeft(Player p, Kind kind, Colour c) const {
    return (supply_ >> SupplyShift(p, kind, c)) & 3;
  }
  // Number of colours of which player p still has a piece of this kind.
  int ColoursLeft(Player p, Kind kind) const {
    const unsigned fields = (supply_ >> SupplyShift(p, kind, Colour::kRed)) & 0xFF;
    return PopCount((fields | (fields >> 1)) & 0x55);
  }

  std::uint64_t Key() const { return key_; }

  // The value of the city on `cell` if it had colour `colour`: 5 for a divercité (four
  // neighbouring resources of four colours), else the number of neighbouring resources of
  // its colour.
  int CityValue(int cell, Colour colour) const {
    const Bitboard around = Neighbours(cell);
    return HasAllColours(around) ? kDivercitePoints : PopCount(colour_[Index(colour)] & around);
  }
  // The colours present on `cells`, one bit per colour (bit c for Colour c).
  unsigned ColoursOn(Bitboard cells) const {
    return ((colour_[0] & cells) ? 1u : 0u) | ((colour_[1] & cells) ? 2u : 0u) |
           ((colour_[2] & cells) ? 4u : 0u) | ((colour_[3] & cells) ? 8u : 0u);
  }
  // True when the cells of `cells` hold pieces of all four colours; for the 4 neighbours of a
  // city, that is a divercité.
  bool HasAllColours(Bitboard cells) const {
    return (colour_[0] & cells) && (colour_[1] & cells) && (colour_[2] & cells) &&
           (colour_[3] & cells);
  }

  // Why `move` cannot be played here (occupied cell, no piece of that colour and kind left,
  // game over), or OK.
  absl::Status CheckLegal(Move move) const;
  bool IsLegal(Move move) const;
  int CountLegalMoves() const {
    if (IsGameOver()) return 0;
    const Player p = SideToMove();
    const Bitboard empty = Empty();
    return ColoursLeft(p, Kind::kCity) * PopCount(empty & kCityCells) +
           ColoursLeft(p, Kind::kResource) * PopCount(empty & kResourceCells);
  }

  // Plays a legal move (unchecked: see CheckLegal) and updates everything incrementally.
  void Play(Move move);

  // For the city on `cell` (occupied): its colour and owner.
  Colour ColourAt(int cell) const {
    const int low = ((colour_[1] | colour_[3]) >> cell) & 1;
    const int high = ((colour_[2] | colour_[3]) >> cell) & 1;
    return static_cast<Colour>(low | (high << 1));
  }
  Player OwnerAt(int cell) const { return static_cast<Player>((owner_[1] >> cell) & 1); }

  // Recomputes what Play() maintains, from the board alone: for tests and for loading.
  std::array<int, kNumPlayers> ScoresFromScratch() const;
  std::uint64_t KeyFromScratch() const;
  TieBreakCounts CountTieBreak() const;

  friend bool operator==(const Position& a, const Position& b) = default;

 private:
  static constexpr int SupplyShift(Player p, Kind kind, Colour c) {
    return 2 * (8 * Index(p) + 4 * Index(kind) + Index(c));
  }
  static constexpr std::uint32_t FullSupply();

  void ApplyLastMoveTieBreak();

  std::array<Bitboard, kNumColours> colour_{};  // cells holding a piece of each colour
  std::array<Bitboard, kNumPlayers> owner_{};   // cells holding a piece of each player
  std::uint64_t key_ = 0;
  // Pieces left, 2 bits per (player, kind, colour); see SupplyShift().
  std::uint32_t supply_ = 0;
  std::array<std::int8_t, kNumPlayers> score_{};
  std::uint8_t ply_ = 0;
};

static_assert(sizeof(Position) == 64, "a position is one cache line");

inline void Position::Play(Move move) {
  const int cell = move.cell();
  const Colour colour = move.colour();
  const Player player = SideToMove();
  const Bitboard bit = Bit(cell);
  // Play() trusts its caller (CheckLegal is the checked way): Debug builds verify.
  assert(!move.IsNone() && !IsGameOver());
  assert(!(Occupied() & bit));
  assert(PiecesLeft(player, move.kind(), colour) > 0);
  if (kCityCells & bit) {
    score_[Index(player)] += static_cast<std::int8_t>(CityValue(cell, colour));
    colour_[Index(colour)] |= bit;
  } else {
    // A resource of the city's colour is worth +1 to the city's owner; if it is also the
    // fourth and completes a divercité, the city jumps to 5 (+5 in all if it had the city's
    // colour, +4 if one of the other three had it: the city was worth 1 before).
    const Bitboard occupied = Occupied() | bit;
    colour_[Index(colour)] |= bit;
    for (Bitboard cities = Neighbours(cell) & occupied; cities;) {
      const int city = PopLowestCell(cities);
      const Bitboard around = Neighbours(city);
      int gain = ColourAt(city) == colour;
      if ((occupied & around) == around && HasAllColours(around)) gain += 4;
      score_[Index(OwnerAt(city))] += static_cast<std::int8_t>(gain);
    }
  }
  owner_[Index(player)] |= bit;
  supply_ -= std::uint32_t{1} << SupplyShift(player, move.kind(), colour);
  key_ ^= ZobristKey(cell, colour, player);
  if (++ply_ == kTotalPlies) ApplyLastMoveTieBreak();
  assert(PopCount(Occupied()) == ply_);
  assert(PopCount(owner_[0]) == (ply_ + 1) / 2 && PopCount(owner_[1]) == ply_ / 2);
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_POSITION_H_
