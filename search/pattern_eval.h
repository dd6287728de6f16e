// The learned evaluation: the score difference plus the learned values of the position's
// patterns (search/patterns.h), tapered over the ply.
#ifndef DIVERCITE_SEARCH_PATTERN_EVAL_H_
#define DIVERCITE_SEARCH_PATTERN_EVAL_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/position.h"
#include "search/patterns.h"
#include "search/value.h"

namespace divercite {

// The learned tables: each pattern's value at the start and at the end of the game, in
// centipoints (100 = one point of the final margin), and where they came from.
struct PatternWeights {
  struct Value {
    std::int16_t start = 0;
    std::int16_t end = 0;
    friend bool operator==(Value, Value) = default;
  };
  std::array<Value, patterns::kNumPatterns> values{};
  std::string data;  // the data the values were fitted to
  std::string fit;   // the fit that made them

  friend bool operator==(const PatternWeights&, const PatternWeights&) = default;
};

// The value of the patterns of a position (not finished), from the side to move's view: the
// tapered sum, without the score difference.
inline int PatternSum(const Position& position, const PatternWeights& weights) {
  int start = 0, end = 0;
  ForEachPattern(position, [&](int pattern, int sign) {
    start += sign * weights.values[pattern].start;
    end += sign * weights.values[pattern].end;
  });
  const int ply = position.Ply();
  return (start * (kTotalPlies - ply) + end * ply) / kTotalPlies;
}

// One pattern of a position and what it adds to the evaluation (tapered, signed: side to
// move's view, centipoints): for `eval`. `cell` is the city cell, or kNoCell for the global
// tables.
struct PatternContribution {
  int cell;
  int pattern;
  int value;
};
inline std::vector<PatternContribution> PatternContributions(const Position& position,
                                                             const PatternWeights& weights) {
  std::vector<PatternContribution> list;
  const int ply = position.Ply();
  std::size_t next_cell = 0;
  ForEachPattern(position, [&](int pattern, int sign) {
    int cell = kNoCell;
    if (pattern < patterns::kThreatOffset) {
      // Patterns of cells come in the cells' order, skipping cells without one.
      while (next_cell < patterns::kCityCellList.size()) {
        const int candidate = patterns::kCityCellList[next_cell++];
        const Bitboard around = Neighbours(candidate);
        const bool settled =
            (position.Occupied() & Bit(candidate)) && (position.Occupied() & around) == around;
        if (!settled) {
          cell = candidate;
          break;
        }
      }
    }
    const PatternWeights::Value value = weights.values[pattern];
    list.push_back({cell, pattern,
                    sign * (value.start * (kTotalPlies - ply) + value.end * ply) / kTotalPlies});
  });
  return list;
}

inline int EvaluatePatterns(const Position& position, const PatternWeights& weights) {
  const Player us = position.SideToMove();
  return kPoint * (position.Score(us) - position.Score(Opponent(us))) +
         PatternSum(position, weights);
}

// The patterns of a position kept from move to move: the evaluation made incremental. Each
// city cell's neighbourhood is kept as a code (a resource adds to the codes of the cities
// around it, no popcounts), and each cell's value is made again only when something its
// pattern reads changes: its own cell or a neighbour (the cell of the move), or which colours
// a player still holds (when a player gives up their last piece of a kind and colour: the
// cells that read that colour). Every cell's value and the sums are kept for both sides to
// move, so that the side to move changing costs nothing. Evaluate() equals EvaluatePatterns()
// on the same position (tests/pattern_eval_test.cc).
class EvalState {
 public:
  EvalState() = default;
  EvalState(const Position& position, const PatternWeights& weights)
      : holdings_(Holdings::Of(position)) {
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
      SetCell(i, weights);
    }
  }

  // The state of `child`, this position after `move`.
  EvalState After(const Position& child, Move move, const PatternWeights& weights) const {
    EvalState next = *this;
    const unsigned redo = next.Play(move, Opponent(child.SideToMove()));
    for (unsigned cells = redo; cells; cells &= cells - 1)
      next.SetCell(std::countr_zero(cells), weights);
    return next;
  }

  // The evaluation of the position this state is of (not a finished game).
  int Evaluate(const Position& position, const PatternWeights& weights) const {
    const int me = Index(position.SideToMove());
    const CellValue sum = Sum(me);
    return Total(position, holdings_.cities_held.data(), sum.start, sum.end,
                 std::popcount(three_[0]), std::popcount(three_[1]), weights);
  }

  // The evaluation of `child`, this position after `move` (a game not yet over), without
  // making its state: what the frontier and the move ordering need. Only the child's side to
  // move's view is made.
  int EvaluateAfter(const Position& child, Move move, const PatternWeights& weights) const {
    const Player mover = Opponent(child.SideToMove());
    const int p = Index(mover);
    const int colour = Index(move.colour());
    const bool resource = move.kind() == Kind::kResource;
    const int left =
        resource ? holdings_.resource_count[p][colour] : holdings_.city_count[p][colour];
    if (left > 1) {
      // The same colours are held after the move: the patterns read nothing else of the
      // pieces in hand, so this position's holdings serve, with one city fewer in hand.
      int cities_held[kNumPlayers] = {holdings_.cities_held[0], holdings_.cities_held[1]};
      cities_held[p] -= !resource;
      return SumAfter(child, move, patterns::kCityCellsTouched[move.cell()], holdings_, cities_held,
                      weights);
    }
    Holdings holdings = holdings_;
    const unsigned redo = Redo(move, mover, holdings);
    return SumAfter(child, move, redo, holdings, holdings.cities_held.data(), weights);
  }

 private:
  // A cell's value for one side to move, sign included, at the start and the end of the game.
  struct CellValue {
    int start = 0;
    int end = 0;
  };

  CellValue Sum(int me) const { return {start_sum_[me], end_sum_[me]}; }

  // EvaluateAfter's sum: the cells of `redo` made again for the child with `holdings` (which
  // colours each player holds after the move) and `cities_held`.
  int SumAfter(const Position& child, Move move, unsigned redo, const Holdings& holdings,
               const int cities_held[], const PatternWeights& weights) const {
    const int me = Index(child.SideToMove());
    const int colour = Index(move.colour());
    const bool resource = move.kind() == Kind::kResource;
    const unsigned touched = patterns::kCityCellsTouched[move.cell()];
    const int new_state = BuiltCityState(Opponent(child.SideToMove()), move.colour());
    CellValue sum = Sum(me);
    unsigned three[kNumPlayers] = {three_[0] & ~redo, three_[1] & ~redo};
    for (; redo; redo &= redo - 1) {
      const int i = std::countr_zero(redo);
      sum.start -= start_[i][me];
      sum.end -= end_[i][me];
      int code = code_[i], state = state_[i];
      if ((touched >> i) & 1) {
        if (resource) {
          code += patterns::kPowerOf5[colour];
        } else {
          state = new_state;
        }
      }
      int pattern[kNumPlayers], sign[kNumPlayers];
      if (CityCellPatterns(code, state, holdings, pattern, sign)) {
        const PatternWeights::Value now = weights.values[pattern[me]];
        sum.start += sign[me] * now.start;
        sum.end += sign[me] * now.end;
        if (IsOwnedOpenThree(pattern[0])) three[sign[0] > 0 ? 0 : 1] |= 1u << i;
      }
    }
    return Total(child, cities_held, sum.start, sum.end, std::popcount(three[0]),
                 std::popcount(three[1]), weights);
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

  // Plays `move` (by `mover`) on the codes, states, masks and holdings; returns the cells to
  // make again.
  unsigned Play(Move move, Player mover) {
    const unsigned redo = Redo(move, mover, holdings_);
    const unsigned touched = patterns::kCityCellsTouched[move.cell()];
    const int colour = Index(move.colour());
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

  // Makes cell i's values from its code and state.
  void SetCell(int i, const PatternWeights& weights) {
    int pattern[kNumPlayers], sign[kNumPlayers];
    const unsigned bit = 1u << i;
    three_[0] &= ~bit;
    three_[1] &= ~bit;
    for (int p = 0; p < kNumPlayers; ++p) {
      start_sum_[p] -= start_[i][p];
      end_sum_[p] -= end_[i][p];
    }
    if (!CityCellPatterns(code_[i], state_[i], holdings_, pattern, sign)) {
      start_[i] = end_[i] = {0, 0};
      return;
    }
    for (int p = 0; p < kNumPlayers; ++p) {
      const PatternWeights::Value value = weights.values[pattern[p]];
      start_[i][p] = static_cast<std::int16_t>(sign[p] * value.start);
      end_[i][p] = static_cast<std::int16_t>(sign[p] * value.end);
      start_sum_[p] += start_[i][p];
      end_sum_[p] += end_[i][p];
    }
    // An open three counts for its owner: the player for whom the sign is +1.
    if (IsOwnedOpenThree(pattern[0])) three_[sign[0] > 0 ? 0 : 1] |= bit;
  }

  static int Total(const Position& position, const int cities_held[], int start, int end,
                   int threes_first, int threes_second, const PatternWeights& weights) {
    const Player us = position.SideToMove();
    const int threes[kNumPlayers] = {threes_first, threes_second};
    ForEachGlobalPattern(cities_held, us, threes, [&](int pattern, int sign) {
      start += sign * weights.values[pattern].start;
      end += sign * weights.values[pattern].end;
    });
    const int ply = position.Ply();
    return kPoint * (position.Score(us) - position.Score(Opponent(us))) +
           (start * (kTotalPlies - ply) + end * ply) / kTotalPlies;
  }

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
  // Each city cell's value for each side to move, sign included (0: no pattern).
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> start_{};
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> end_{};
  // Their sums.
  int start_sum_[kNumPlayers] = {0, 0};
  int end_sum_[kNumPlayers] = {0, 0};
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_PATTERN_EVAL_H_
