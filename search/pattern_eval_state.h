// The pattern sum's evaluation kept from move to move (search/pattern_eval.h).
#ifndef DIVERCITE_SEARCH_PATTERN_EVAL_STATE_H_
#define DIVERCITE_SEARCH_PATTERN_EVAL_STATE_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/position.h"
#include "search/city_cells.h"
#include "search/pattern_eval.h"
#include "search/patterns.h"
#include "search/value.h"

namespace divercite {

// Each city cell's value for each side to move and their sums follow the game: only the cells
// the move changes (CityCells) are looked up again. Evaluate() equals EvaluatePatterns() from
// scratch (tests/eval_state_check.h).
class PatternEvalState {
 public:
  using Weights = PatternWeights;

  PatternEvalState() = default;
  PatternEvalState(const Position& position, const Weights& weights) : cells_(position) {
    for (int i = 0; i < kNumCityCells; ++i) SetCell(i, weights);
  }

  // The state of `child`, this position after `move`.
  PatternEvalState After(const Position& child, Move move, const Weights& weights) const {
    PatternEvalState next = *this;
    for (unsigned cells = next.cells_.Play(move, Opponent(child.SideToMove())); cells;
         cells &= cells - 1) {
      next.SetCell(std::countr_zero(cells), weights);
    }
    return next;
  }

  // The evaluation of the position this state is of (not a finished game).
  int Evaluate(const Position& position, const Weights& weights) const {
    const int me = Index(position.SideToMove());
    return Total(position, cells_.holdings().cities_held.data(), start_sum_[me], end_sum_[me],
                 cells_.ThreeCounts().data(), weights);
  }

  // The evaluation of `child`, this position after `move` (a game not yet over), without
  // keeping its state: only the cells that change, and only the child's side to move's view.
  int EvaluateAfter(const Position& child, Move move, const Weights& weights) const {
    const Player mover = Opponent(child.SideToMove());
    const int p = Index(mover);
    const int colour = Index(move.colour());
    const bool resource = move.kind() == Kind::kResource;
    const Holdings& now = cells_.holdings();
    const int left = resource ? now.resource_count[p][colour] : now.city_count[p][colour];
    if (left > 1) {
      // The same colours are held after the move: the patterns read nothing else of the
      // pieces in hand, so this position's holdings serve, with one city fewer in hand.
      int cities_held[kNumPlayers] = {now.cities_held[0], now.cities_held[1]};
      cities_held[p] -= !resource;
      return SumAfter(child, move, patterns::kCityCellsTouched[move.cell()], now, cities_held,
                      weights);
    }
    Holdings holdings = now;
    const unsigned redo = cells_.Redo(move, mover, holdings);
    return SumAfter(child, move, redo, holdings, holdings.cities_held.data(), weights);
  }

 private:
  // EvaluateAfter's sum: the cells of `redo` made again for the child with `holdings` (which
  // colours each player holds after the move) and `cities_held`.
  int SumAfter(const Position& child, Move move, unsigned redo, const Holdings& holdings,
               const int cities_held[], const Weights& weights) const {
    const int me = Index(child.SideToMove());
    const Player mover = Opponent(child.SideToMove());
    int start = start_sum_[me], end = end_sum_[me];
    unsigned three[kNumPlayers] = {cells_.threes(0) & ~redo, cells_.threes(1) & ~redo};
    for (; redo; redo &= redo - 1) {
      const int i = std::countr_zero(redo);
      start -= start_[i][me];
      end -= end_[i][me];
      int pattern[kNumPlayers], sign[kNumPlayers];
      if (cells_.PatternsAfter(i, move, mover, holdings, pattern, sign)) {
        const PatternWeights::Value value = weights.values[pattern[me]];
        start += sign[me] * value.start;
        end += sign[me] * value.end;
        if (IsOwnedOpenThree(pattern[0])) three[sign[0] > 0 ? 0 : 1] |= 1u << i;
      }
    }
    const int threes[kNumPlayers] = {std::popcount(three[0]), std::popcount(three[1])};
    return Total(child, cities_held, start, end, threes, weights);
  }

  // Cell i's values, looked up again.
  void SetCell(int i, const Weights& weights) {
    int pattern[kNumPlayers], sign[kNumPlayers];
    const bool any = cells_.Patterns(i, pattern, sign);
    for (int p = 0; p < kNumPlayers; ++p) {
      start_sum_[p] -= start_[i][p];
      end_sum_[p] -= end_[i][p];
      start_[i][p] = end_[i][p] = 0;
      if (!any) continue;
      const PatternWeights::Value value = weights.values[pattern[p]];
      start_[i][p] = static_cast<std::int16_t>(sign[p] * value.start);
      end_[i][p] = static_cast<std::int16_t>(sign[p] * value.end);
      start_sum_[p] += start_[i][p];
      end_sum_[p] += end_[i][p];
    }
  }

  // The tapered sum of the cells' `start` and `end` and the global tables (of `cities_held`
  // and `threes`, each player's open threes), with the score difference.
  static int Total(const Position& position, const int cities_held[], int start, int end,
                   const int threes[], const Weights& weights) {
    const Player us = position.SideToMove();
    ForEachGlobalPattern(cities_held, us, threes, [&](int pattern, int sign) {
      start += sign * weights.values[pattern].start;
      end += sign * weights.values[pattern].end;
    });
    const int ply = position.Ply();
    return ScoreDifference(position) + (start * (kTotalPlies - ply) + end * ply) / kTotalPlies;
  }

  CityCells cells_;
  // Each city cell's value for each side to move, sign included (0: no pattern), at the start
  // and the end of the game, and their sums.
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> start_{};
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> end_{};
  int start_sum_[kNumPlayers] = {0, 0};
  int end_sum_[kNumPlayers] = {0, 0};
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_PATTERN_EVAL_STATE_H_
