// Move ordering: the transposition-table move, then moves that score now or spoil an
// opponent's divercité (by how much), then killers, then history; moves that hand points to
// the opponent last. Moves are picked one at a time (selection), so a cutoff after the first
// moves costs no full sort.
#ifndef DIVERCITE_SEARCH_MOVE_ORDER_H_
#define DIVERCITE_SEARCH_MOVE_ORDER_H_

#include <array>
#include <cstdint>

#include "engine/move.h"
#include "engine/position.h"
#include "search/network.h"
#include "search/network_eval_state.h"
#include "search/value.h"

namespace divercite {

// For one empty cell: what placing each colour there is worth to the side to move now, in
// points: its own gain minus the opponent's, plus the opponent's divercité it would spoil.
std::array<int, kNumColours> CellWorth(const Position& position, int cell);

// CellWorth of one position, computed once per cell on first use: moves come grouped by
// colour, so each cell is asked for up to four times.
class CellWorthCache {
 public:
  explicit CellWorthCache(const Position& position) : position_(position) {}
  int Of(Move move) {
    const int cell = move.cell();
    if (!(known_ & Bit(cell))) {
      worth_[cell] = CellWorth(position_, cell);
      known_ |= Bit(cell);
    }
    return worth_[cell][Index(move.colour())];
  }

 private:
  const Position& position_;
  Bitboard known_ = 0;
  std::array<std::array<int, kNumColours>, kNumCells> worth_;
};

// Killer moves per ply and a history score per (player, move), learnt from cutoffs.
class MoveHistory {
 public:
  MoveHistory() { Clear(); }
  void Clear();
  int Score(Player player, Move move) const { return history_[Index(player)][move.Index()]; }
  bool IsKiller(int ply, Move move) const {
    return killers_[ply][0] == move || killers_[ply][1] == move;
  }
  // `move` caused a cutoff at `depth` after the quiet moves `tried` failed.
  void RecordCutoff(Player player, int ply, Move move, int depth, const MoveList& tried);
  // The last two moves that caused a cutoff at `ply` (Move::None() while there are none).
  const std::array<Move, 2>& Killers(int ply) const { return killers_[ply]; }
  // `move` caused a cutoff at `ply`: the first killer, the former first the second.
  void RecordKiller(int ply, Move move) {
    if (killers_[ply][0] != move) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = move;
    }
  }

 private:
  static constexpr int kHistoryLimit = 1 << 14;
  // A cutoff's bonus: this times the depth squared, at most a quarter of the limit.
  static constexpr int kCutoffBonusPerDepthSquared = 16;
  void Nudge(Player player, Move move, int bonus);
  std::array<std::array<int, kNumMoveIndices>, kNumPlayers> history_;
  std::array<std::array<Move, 2>, kMaxPly + 1> killers_;
};

class MoveOrderer {
 public:
  MoveOrderer(const Position& position, const MoveList& moves, Move tt_move,
              const MoveHistory& history, int ply);

  // Orders the moves that are not the TT move by the static evaluation after them (a
  // one-ply look that sees threats, not just points), the best for us first.
  void PreferEvaluation(const Position& position, const NetworkEvalState& eval,
                        const NetworkWeights& weights) {
    for (int i = 0; i < moves_.size(); ++i) {
      if (scores_[i] == kTTMoveScore) continue;
      Position child = position;
      child.Play(moves_[i]);
      scores_[i] =
          -(child.IsGameOver() ? FinalValue(child) : eval.EvaluateAfter(child, moves_[i], weights));
    }
  }

  // At the root: after the first iteration, order by the last iteration's values.
  // `root_values` is indexed by Move::Index(); kNoValue means not searched yet.
  static constexpr int kNoValue = -(1 << 30);
  void PreferRootOrder(const std::array<int, kNumMoveIndices>& root_values);

  // The best remaining move; false when none is left.
  bool Next(Move& move);
  // Whether the move Next() returned last is quiet: no TT move, no immediate gain, no
  // spoil, no killer. Only quiet moves are reduced.
  bool LastWasQuiet() const { return last_quiet_; }
  // The quiet moves returned so far, the last one included.
  const MoveList& TriedQuietMoves() const { return tried_quiet_; }

 private:
  static constexpr int kTTMoveScore = 1 << 30;
  static constexpr int kPointScore = 1 << 20;
  static constexpr int kKillerScore = 1 << 19;
  static constexpr int kSelectionPicks = 3;

  MoveList moves_;
  std::array<int, kMaxMoves> scores_;
  std::array<bool, kMaxMoves> quiet_;
  int next_ = 0;
  bool last_quiet_ = false;
  MoveList tried_quiet_;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_MOVE_ORDER_H_
