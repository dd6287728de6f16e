// The network's evaluation kept from move to move: each player's accumulator (search/network.h).
#ifndef DIVERCITE_SEARCH_NETWORK_EVAL_STATE_H_
#define DIVERCITE_SEARCH_NETWORK_EVAL_STATE_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/position.h"
#include "search/city_cells.h"
#include "search/network.h"
#include "search/patterns.h"
#include "search/value.h"

namespace divercite {

// Each player's accumulator follows the game: the move's piece (one hand feature off, one
// board feature on) and the pattern features of the cells the move changes (CityCells), and
// of the global tables. Evaluate() equals EvaluateNetwork() from scratch
// (tests/network_test.cc, along random games).
class NetworkEvalState {
 public:
  NetworkEvalState() = default;
  NetworkEvalState(const Position& position, const NetworkWeights& weights) : cells_(position) {
    for (const Player p : {Player::kFirst, Player::kSecond}) {
      Accumulator& accumulator = accumulator_[Index(p)];
      accumulator = weights.feature_bias;
      ForEachPieceFeature(position, p,
                          [&](int feature) { AddFeature(accumulator, weights, feature, 1); });
    }
    for (int i = 0; i < kNumCityCells; ++i) SetCell(i, weights);
    SetGlobalFeatures(weights);
  }

  // The state of `child`, this position after `move`.
  NetworkEvalState After(const Position& child, Move move, const NetworkWeights& weights) const {
    NetworkEvalState next = *this;
    const Player mover = Opponent(child.SideToMove());
    PlayPiece(next.accumulator_, next.accumulator_, move, mover, next.cells_.holdings(), weights);
    for (unsigned cells = next.cells_.Play(move, mover); cells; cells &= cells - 1) {
      next.SetCell(std::countr_zero(cells), weights);
    }
    next.SetGlobalFeatures(weights);
    return next;
  }

  // The evaluation of the position this state is of (not a finished game).
  int Evaluate(const Position& position, const NetworkWeights& weights) const {
    const int me = Index(position.SideToMove());
    return ScoreDifference(position) +
           NetworkOutput(accumulator_[me], accumulator_[1 - me], weights);
  }

  // The evaluation of `child`, this position after `move` (a game not yet over), without
  // keeping its state: both accumulators made for the child from this state's, only the
  // features that change, as After() changes them (the frontier's children, the ordering's).
  int EvaluateAfter(const Position& child, Move move, const NetworkWeights& weights) const {
    const Player mover = Opponent(child.SideToMove());
    std::array<Accumulator, kNumPlayers> accumulator;  // made from this state's, no copy first
    PlayPiece(accumulator_, accumulator, move, mover, cells_.holdings(), weights);
    // The cells whose patterns change, as CityCells::Play() would leave them.
    Holdings holdings = cells_.holdings();
    unsigned redo = cells_.Redo(move, mover, holdings);
    unsigned three[kNumPlayers] = {cells_.threes(0) & ~redo, cells_.threes(1) & ~redo};
    for (; redo; redo &= redo - 1) {
      const int i = std::countr_zero(redo);
      int pattern[kNumPlayers], sign[kNumPlayers];
      const bool any = cells_.PatternsAfter(i, move, mover, holdings, pattern, sign);
      if (any && IsOwnedOpenThree(pattern[0])) three[sign[0] > 0 ? 0 : 1] |= 1u << i;
      for (int p = 0; p < kNumPlayers; ++p) {
        const int feature = any ? network::PatternFeature(pattern[p], sign[p]) : kNoFeature;
        Replaced(accumulator[p], cell_feature_[i][p], feature, weights);
      }
    }
    const int threes[kNumPlayers] = {std::popcount(three[0]), std::popcount(three[1])};
    for (int p = 0; p < kNumPlayers; ++p) {
      int table = 0;
      ForEachGlobalPattern(holdings.cities_held.data(), static_cast<Player>(p), threes,
                           [&](int pattern, int sign) {
                             Replaced(accumulator[p], global_feature_[p][table++],
                                      network::PatternFeature(pattern, sign), weights);
                           });
    }
    const int me = Index(child.SideToMove());
    return ScoreDifference(child) + NetworkOutput(accumulator[me], accumulator[1 - me], weights);
  }

 private:
  // The move's piece leaves `mover`'s hand (`holdings`: before the move) for the board:
  // both perspectives' accumulators `to`, made from `from` (which may be `to`).
  static void PlayPiece(const std::array<Accumulator, kNumPlayers>& from,
                        std::array<Accumulator, kNumPlayers>& to, Move move, Player mover,
                        const Holdings& holdings, const NetworkWeights& weights) {
    const int p = Index(mover);
    const int colour = Index(move.colour());
    const int in_hand = move.kind() == Kind::kResource ? holdings.resource_count[p][colour]
                                                       : holdings.city_count[p][colour];
    for (const Player perspective : {Player::kFirst, Player::kSecond}) {
      const int q = Index(perspective);
      const bool theirs = mover != perspective;
      AddAndRemoveFeatures(to[q], from[q], weights,
                           network::BoardFeature(move.cell(), theirs, move.colour()),
                           network::HandFeature(theirs, move.kind(), move.colour(), in_hand));
    }
  }

  // Cell i's pattern features, made again.
  void SetCell(int i, const NetworkWeights& weights) {
    int pattern[kNumPlayers], sign[kNumPlayers];
    const bool any = cells_.Patterns(i, pattern, sign);
    for (int p = 0; p < kNumPlayers; ++p) {
      const int feature = any ? network::PatternFeature(pattern[p], sign[p]) : kNoFeature;
      ReplaceFeature(p, cell_feature_[i][p], feature, weights);
    }
  }

  // The features of the global tables (open threes, cities in hand, side to move) from each
  // perspective, made again from the cells' threes and the holdings.
  void SetGlobalFeatures(const NetworkWeights& weights) {
    const std::array<int, kNumPlayers> threes = cells_.ThreeCounts();
    for (int p = 0; p < kNumPlayers; ++p) {
      int table = 0;
      ForEachGlobalPattern(cells_.holdings().cities_held.data(), static_cast<Player>(p),
                           threes.data(), [&](int pattern, int sign) {
                             ReplaceFeature(p, global_feature_[p][table++],
                                            network::PatternFeature(pattern, sign), weights);
                           });
    }
  }

  // Perspective p's feature `kept` becomes `feature` (kNoFeature: none), in its accumulator.
  void ReplaceFeature(int p, std::int16_t& kept, int feature, const NetworkWeights& weights) {
    Replaced(accumulator_[p], kept, feature, weights);
    kept = static_cast<std::int16_t>(feature);
  }

  // `accumulator` with the feature `kept` replaced by `feature` (kNoFeature: none).
  static void Replaced(Accumulator& accumulator, int kept, int feature,
                       const NetworkWeights& weights) {
    if (kept == feature) return;
    if (kept != kNoFeature) AddFeature(accumulator, weights, kept, -1);
    if (feature != kNoFeature) AddFeature(accumulator, weights, feature, 1);
  }

  static constexpr std::int16_t kNoFeature = -1;

  CityCells cells_;
  // Each cell's pattern feature and the global tables' from each perspective (kNoFeature:
  // none), and each perspective's accumulator.
  std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> cell_feature_ =
      FilledWith(kNoFeature);
  std::array<std::array<std::int16_t, 3>, kNumPlayers> global_feature_{
      {{kNoFeature, kNoFeature, kNoFeature}, {kNoFeature, kNoFeature, kNoFeature}}};
  std::array<Accumulator, kNumPlayers> accumulator_{};

  static constexpr std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> FilledWith(
      std::int16_t value) {
    std::array<std::array<std::int16_t, kNumPlayers>, kNumCityCells> cells{};
    for (auto& cell : cells) cell = {value, value};
    return cells;
  }
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_NETWORK_EVAL_STATE_H_
