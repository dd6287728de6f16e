// What the evaluation reads of a position's patterns, kept from move to move: each city cell's
// neighbourhood and the pieces each player holds, from which the cells' patterns
// (search/patterns.h) are made again only where a move changes what they read.
#ifndef DIVERCITE_SEARCH_CITY_CELLS_H_
#define DIVERCITE_SEARCH_CITY_CELLS_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/position.h"
#include "search/patterns.h"

namespace divercite {

// Each city cell's neighbourhood is kept as a code (a resource adds to the codes of the cities
// around it, no popcounts), and a cell's pattern is made again only when something it reads
// changes: its own cell or a neighbour (the cell of the move), or which colours a player still
// holds (when a player gives up their last piece of a kind and colour: the cells that read
// that colour). Each cell's pattern is made for both players to move, so that the side to
// move changing costs nothing. The evaluation's state (search/network_eval_state.h) keeps the
// features it makes of the patterns beside this.
class CityCells {
 public:
  CityCells() = default;
  explicit CityCells(const Position& position) : holdings_(Holdings::Of(position)) {
    for (int i = 0; i < kNumCityCells; ++i) {
      int code, state;
      CityCellCode(position, patterns::kCityCellList[i], code, state);
      code_[i] = static_cast<std::uint16_t>(code);
      state_[i] = static_cast<std::uint8_t>(state);
      const unsigned bit = 1u << i;
      if (state == 0) empty_ |= bit;
      if (state != 0) of_colour_[(state - 1) & 3] |= bit;
      const unsigned present = patterns::kNeighbourhoods[code].present;
      for (int c = 0; c < kNumColours; ++c) {
        if (!((present >> c) & 1)) missing_[c] |= bit;
      }
    }
  }

  // Plays `move` (by `mover`) on the codes, states, masks and holdings; returns the cells whose
  // patterns must be made again (by Patterns()).
  unsigned Play(Move move, Player mover) {
    const int colour = Index(move.colour());
    const unsigned redo = Redo(move, mover, holdings_);
    const unsigned touched = patterns::kCityCellsTouched[move.cell()];
    if (move.kind() == Kind::kResource) {
      for (unsigned cells = touched; cells; cells &= cells - 1) {
        code_[std::countr_zero(cells)] += static_cast<std::uint16_t>(patterns::kPowerOf5[colour]);
      }
      missing_[colour] &= ~touched;
    } else {
      state_[std::countr_zero(touched)] =
          static_cast<std::uint8_t>(BuiltCityState(mover, move.colour()));
      empty_ &= ~touched;
      of_colour_[colour] |= touched;
    }
    return redo;
  }

  // Makes cell i's pattern for each player to move (false: the cell has none) and keeps
  // whether it is an open three, and whose.
  bool Patterns(int i, int pattern[kNumPlayers], int sign[kNumPlayers]) {
    const unsigned bit = 1u << i;
    three_[0] &= ~bit;
    three_[1] &= ~bit;
    const bool any = CityCellPatterns(code_[i], state_[i], holdings_, pattern, sign);
    // An open three counts for its owner: the player for whom the sign is +1.
    if (any && IsOwnedOpenThree(pattern[0])) three_[sign[0] > 0 ? 0 : 1] |= bit;
    return any;
  }

  // Cell i's patterns, as Patterns() would make them after `mover` plays `move` (`holdings`:
  // which colours each player holds after it), without playing it: what a child's evaluation
  // reads.
  bool PatternsAfter(int i, Move move, Player mover, const Holdings& holdings,
                     int pattern[kNumPlayers], int sign[kNumPlayers]) const {
    int code = code_[i], state = state_[i];
    if ((patterns::kCityCellsTouched[move.cell()] >> i) & 1) {
      if (move.kind() == Kind::kResource) {
        code += patterns::kPowerOf5[Index(move.colour())];
      } else {
        state = BuiltCityState(mover, move.colour());
      }
    }
    return CityCellPatterns(code, state, holdings, pattern, sign);
  }

  // The cells whose patterns must be made again after `mover` plays `move`, and `holdings`
  // (this position's) become the child's. The cell of the move touches its city or the cities
  // around it; a colour a player gives up for good changes what the cells that read it see.
  unsigned Redo(Move move, Player mover, Holdings& holdings) const {
    const int p = Index(mover);
    const int colour = Index(move.colour());
    const unsigned touched = patterns::kCityCellsTouched[move.cell()];
    holdings.Take(mover, move.kind(), move.colour());
    if (move.kind() == Kind::kResource) {
      if (holdings.resource_count[p][colour] != 0) return touched;
      // The last resource of this colour: the built cities missing it (what their owners can
      // complete) or of that colour (whether their owners can add to them); and if nobody
      // holds it any more, every cell missing it (it can no longer be a divercité).
      const unsigned missing = missing_[colour] & ~touched;
      unsigned redo = touched | ((missing | of_colour_[colour]) & ~empty_);
      if (!((holdings.resources[0] | holdings.resources[1]) & (1u << colour))) redo |= missing;
      return redo;
    }
    // The last city of this colour: the best value on every empty cell.
    return holdings.city_count[p][colour] != 0 ? touched : touched | empty_;
  }

  const Holdings& holdings() const { return holdings_; }
  int code(int i) const { return code_[i]; }
  int state(int i) const { return state_[i]; }
  // The city cells (as bits) with an open three of player p.
  unsigned threes(int p) const { return three_[p]; }
  // The open threes each player has.
  std::array<int, kNumPlayers> ThreeCounts() const {
    return {std::popcount(three_[0]), std::popcount(three_[1])};
  }

 private:
  Holdings holdings_;
  // Each city cell's neighbourhood code and state (0 empty, else 1 + 4 x owner + colour).
  std::array<std::uint16_t, kNumCityCells> code_{};
  std::array<std::uint8_t, kNumCityCells> state_{};
  // Masks over the city cells: the empty ones, the built ones of each colour, the ones with
  // no resource of each colour around, the open threes of each player.
  unsigned empty_ = 0;
  std::array<unsigned, kNumColours> of_colour_{};
  std::array<unsigned, kNumColours> missing_{};
  unsigned three_[kNumPlayers] = {0, 0};
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_CITY_CELLS_H_
