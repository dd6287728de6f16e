// The evaluation kept from move to move (the network's accumulators, or the pattern sum).
#ifndef DIVERCITE_SEARCH_EVAL_STATE_H_
#define DIVERCITE_SEARCH_EVAL_STATE_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/position.h"
#include "search/evaluation.h"
#include "search/network.h"
#include "search/pattern_eval.h"
#include "search/patterns.h"
#include "search/value.h"

namespace divercite {

// The patterns of a position kept from move to move, and what the evaluation makes of them.
// Each city cell's neighbourhood is kept as a code (a resource adds to the codes of the cities
// around it, no popcounts), and each cell's pattern is made again only when something it
// reads changes: its own cell or a neighbour (the cell of the move), or which colours a player
// still holds (when a player gives up their last piece of a kind and colour: the cells that
// read that colour). Every cell's pattern is kept for both players to move, so that the side
// to move changing costs nothing.
//
// With the network, each player's accumulator follows: the move's piece (one hand feature off,
// one board feature on) and the changed cells' pattern features; with the pattern tables, the
// cells' values and their sums. Evaluate() equals Evaluate(position, weights) from scratch
// (tests/eval_state_check.h, for both kinds).
class EvalState {
 public:
  EvalState() = default;
  EvalState(const Position& position, const EvalWeights& weights)
      : holdings_(Holdings::Of(position)) {
    if (weights.network) {
      for (const Player p : {Player::kFirst, Player::kSecond}) {
        Accumulator& accumulator = accumulator_[Index(p)];
        accumulator = weights.network->feature_bias;
        ForEachPieceFeature(position, p, [&](int feature) {
          AddFeature(accumulator, *weights.network, feature, 1);
        });
      }
    }
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
    if (weights.network) SetGlobalFeatures(*weights.network);
  }

  // The state of `child`, this position after `move`.
  EvalState After(const Position& child, Move move, const EvalWeights& weights) const {
    EvalState next = *this;
    const unsigned redo = next.Play(move, Opponent(child.SideToMove()), weights);
    for (unsigned cells = redo; cells; cells &= cells - 1)
      next.SetCell(std::countr_zero(cells), weights);
    if (weights.network) next.SetGlobalFeatures(*weights.network);
    return next;
  }

  // The evaluation of the position this state is of (not a finished game).
  int Evaluate(const Position& position, const EvalWeights& weights) const {
    const int me = Index(position.SideToMove());
    if (weights.network) {
      return ScoreDifference(position) +
             NetworkOutput(accumulator_[me], accumulator_[1 - me], *weights.network);
    }
    return Total(position, holdings_.cities_held.data(), start_sum_[me], end_sum_[me],
                 std::popcount(three_[0]), std::popcount(three_[1]), *weights.patterns);
  }

  // The evaluation of `child`, this position after `move` (a game not yet over), without
  // keeping its state: what the frontier and the move ordering need.
  int EvaluateAfter(const Position& child, Move move, const EvalWeights& weights) const {
    if (weights.network) return After(child, move, weights).Evaluate(child, weights);
    // The patterns: only the cells that change, and only the child's side to move's view.
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
                      *weights.patterns);
    }
    Holdings holdings = holdings_;
    const unsigned redo = Redo(move, mover, holdings);
    return SumAfter(child, move, redo, holdings, holdings.cities_held.data(), *weights.patterns);
  }

 private:
  // EvaluateAfter's sum: the cells of `redo` made again for the child with `holdings` (which
  // colours each player holds after the move) and `cities_held`.
  int SumAfter(const Position& child, Move move, unsigned redo, const Holdings& holdings,
               const int cities_held[], const PatternWeights& weights) const {
    const int me = Index(child.SideToMove());
    const int colour = Index(move.colour());
    const bool resource = move.kind() == Kind::kResource;
    const unsigned touched = patterns::kCityCellsTouched[move.cell()];
    const int new_state = BuiltCityState(Opponent(child.SideToMove()), move.colour());
    int start = start_sum_[me], end = end_sum_[me];
    unsigned three[kNumPlayers] = {three_[0] & ~redo, three_[1] & ~redo};
    for (; redo; redo &= redo - 1) {
      const int i = std::countr_zero(redo);
      start -= start_[i][me];
      end -= end_[i][me];
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
        start += sign[me] * now.start;
        end += sign[me] * now.end;
        if (IsOwnedOpenThree(pattern[0])) three[sign[0] > 0 ? 0 : 1] |= 1u << i;
      }
    }
    return Total(child, cities_held, start, end, std::popcount(three[0]), std::popcount(three[1]),
                 weights);
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

  // Plays `move` (by `mover`) on the codes, states, masks, holdings and the network's piece
  // features; returns the cells to make again.
  unsigned Play(Move move, Player mover, const EvalWeights& weights) {
    const int colour = Index(move.colour());
    if (weights.network) {
      const int p = Index(mover);
      const int in_hand = move.kind() == Kind::kResource ? holdings_.resource_count[p][colour]
                                                         : holdings_.city_count[p][colour];
      for (const Player perspective : {Player::kFirst, Player::kSecond}) {
        Accumulator& accumulator = accumulator_[Index(perspective)];
        const bool theirs = mover != perspective;
        AddFeature(accumulator, *weights.network,
                   network::BoardFeature(move.cell(), theirs, move.colour()), 1);
        AddFeature(accumulator, *weights.network,
                   network::HandFeature(theirs, move.kind(), move.colour(), in_hand), -1);
      }
    }
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

  // Makes cell i's patterns from its code and state, and what the evaluation keeps of them.
  void SetCell(int i, const EvalWeights& weights) {
    int pattern[kNumPlayers], sign[kNumPlayers];
    const unsigned bit = 1u << i;
    three_[0] &= ~bit;
    three_[1] &= ~bit;
    const bool any = CityCellPatterns(code_[i], state_[i], holdings_, pattern, sign);
    // An open three counts for its owner: the player for whom the sign is +1.
    if (any && IsOwnedOpenThree(pattern[0])) three_[sign[0] > 0 ? 0 : 1] |= bit;
    if (weights.network) {
      for (int p = 0; p < kNumPlayers; ++p) {
        const int feature = any ? network::PatternFeature(pattern[p], sign[p]) : kNoFeature;
        ReplaceFeature(p, cell_feature_[i][p], feature, *weights.network);
      }
      return;
    }
    for (int p = 0; p < kNumPlayers; ++p) {
      start_sum_[p] -= start_[i][p];
      end_sum_[p] -= end_[i][p];
      start_[i][p] = end_[i][p] = 0;
      if (!any) continue;
      const PatternWeights::Value value = weights.patterns->values[pattern[p]];
      start_[i][p] = static_cast<std::int16_t>(sign[p] * value.start);
      end_[i][p] = static_cast<std::int16_t>(sign[p] * value.end);
      start_sum_[p] += start_[i][p];
      end_sum_[p] += end_[i][p];
    }
  }

  // The network's features of the global tables (open threes, cities in hand, side to move)
  // from each perspective, made again from the cells' threes and the holdings.
  void SetGlobalFeatures(const NetworkWeights& weights) {
    const int threes[kNumPlayers] = {std::popcount(three_[0]), std::popcount(three_[1])};
    for (int p = 0; p < kNumPlayers; ++p) {
      int table = 0;
      ForEachGlobalPattern(holdings_.cities_held.data(), static_cast<Player>(p), threes,
                           [&](int pattern, int sign) {
                             ReplaceFeature(p, global_feature_[p][table++],
                                            network::PatternFeature(pattern, sign), weights);
                           });
    }
  }

  // Perspective p's feature `kept` becomes `feature` (kNoFeature: none), in its accumulator.
  void ReplaceFeature(int p, std::int16_t& kept, int feature, const NetworkWeights& weights) {
    if (kept == feature) return;
    if (kept != kNoFeature) AddFeature(accumulator_[p], weights, kept, -1);
    if (feature != kNoFeature) AddFeature(accumulator_[p], weights, feature, 1);
    kept = static_cast<std::int16_t>(feature);
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
    return ScoreDifference(position) + (start * (kTotalPlies - ply) + end * ply) / kTotalPlies;
  }

  static constexpr std::int16_t kNoFeature = -1;

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

  // The network's: each cell's pattern feature and the global tables' from each perspective
  // (kNoFeature: none), and each perspective's accumulator.
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> cell_feature_ =
      FilledWith(kNoFeature);
  std::array<std::array<std::int16_t, 3>, kNumPlayers> global_feature_{
      {{kNoFeature, kNoFeature, kNoFeature}, {kNoFeature, kNoFeature, kNoFeature}}};
  std::array<Accumulator, kNumPlayers> accumulator_{};

  // The pattern tables': each city cell's value for each side to move, sign included (0: no
  // pattern), at the start and the end of the game, and their sums.
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> start_{};
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> end_{};
  int start_sum_[kNumPlayers] = {0, 0};
  int end_sum_[kNumPlayers] = {0, 0};

  static constexpr std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> FilledWith(
      std::int16_t value) {
    std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> cells{};
    for (auto& cell : cells) cell = {value, value};
    return cells;
  }
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVAL_STATE_H_
