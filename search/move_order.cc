#include "search/move_order.h"

#include <algorithm>
#include <bit>

namespace divercite {

std::array<int, kNumColours> CellWorth(const Position& position, int cell) {
  std::array<int, kNumColours> worth{};
  const Bitboard around = Neighbours(cell);
  if (!(around & position.Occupied())) return worth;  // nothing around: worth nothing yet
  if (IsCityCell(cell)) {
    if (position.HasAllColours(around)) return {5, 5, 5, 5};
    for (int c = 0; c < kNumColours; ++c) {
      worth[c] = PopCount(position.PiecesOf(static_cast<Colour>(c)) & around);
    }
    return worth;
  }
  const Player us = position.SideToMove();
  const Bitboard occupied = position.Occupied();
  for (Bitboard cities = around & occupied; cities;) {
    const int city = PopLowestCell(cities);
    const Bitboard city_around = Neighbours(city);
    const bool ours = position.OwnerAt(city) == us;
    const int sign = ours ? 1 : -1;
    const int city_colour = Index(position.ColourAt(city));
    worth[city_colour] += sign;
    if ((city_around & ~occupied) != Bit(cell)) continue;  // not the last hole
    const unsigned present = position.ColoursOn(city_around);
    if (std::popcount(present) != 3) continue;  // a colour twice: no divercité possible
    const int missing = std::countr_zero(~present & 15u) & 3;  // 3 bits set: in 0..3
    worth[missing] += 4 * sign;
    if (!ours) {
      // Any other colour spoils the opponent's divercité (worth 5 or 4 to them).
      const int prevented = missing == city_colour ? 5 : 4;
      for (int c = 0; c < kNumColours; ++c) {
        if (c != missing) worth[c] += prevented;
      }
    }
  }
  return worth;
}

void MoveHistory::Clear() {
  for (auto& row : history_) row.fill(0);
  for (auto& pair : killers_) pair = {Move::None(), Move::None()};
}

void MoveHistory::Nudge(Player player, Move move, int bonus) {
  int& h = history_[Index(player)][move.Index()];
  // Gravity: the closer to the limit, the smaller the step, so scores stay bounded.
  h += bonus - h * std::abs(bonus) / kHistoryLimit;
}

void MoveHistory::RecordCutoff(Player player, int ply, Move move, int depth,
                               const MoveList& tried) {
  const int bonus = std::min(depth * depth * kCutoffBonusPerDepthSquared, kHistoryLimit / 4);
  for (const Move quiet : tried) {
    if (quiet == move) {
      Nudge(player, move, bonus);
      RecordKiller(ply, move);
    } else {
      Nudge(player, quiet, -bonus);
    }
  }
}

MoveOrderer::MoveOrderer(const Position& position, const MoveList& moves, Move tt_move,
                         const MoveHistory& history, int ply)
    : moves_(moves) {
  const Player us = position.SideToMove();
  CellWorthCache worth(position);
  for (int i = 0; i < moves_.size(); ++i) {
    const Move move = moves_[i];
    quiet_[i] = false;
    if (move == tt_move) {
      scores_[i] = kTTMoveScore;
      continue;
    }
    const int points = worth.Of(move);
    if (points > 0) {
      scores_[i] = points * kPointScore;
    } else if (points == 0 && history.IsKiller(ply, move)) {
      scores_[i] = kKillerScore;
    } else {
      scores_[i] = points * kPointScore + history.Score(us, move);
      quiet_[i] = true;
    }
  }
}

void MoveOrderer::PreferRootOrder(const std::array<int, kNumMoveIndices>& root_values) {
  for (int i = 0; i < moves_.size(); ++i) {
    const int value = root_values[moves_[i].Index()];
    if (scores_[i] != kTTMoveScore && value != kNoValue) scores_[i] = value;
  }
}

bool MoveOrderer::Next(Move& move) {
  if (next_ >= moves_.size()) return false;
  if (next_ < kSelectionPicks) {
    // Most cutoffs come from the first moves: pick them one by one.
    int best = next_;
    for (int i = next_ + 1; i < moves_.size(); ++i) {
      if (scores_[i] > scores_[best]) best = i;
    }
    std::swap(moves_[next_], moves_[best]);
    std::swap(scores_[next_], scores_[best]);
    std::swap(quiet_[next_], quiet_[best]);
  } else if (next_ == kSelectionPicks) {
    // No cutoff so far: sort the rest once.
    std::array<int, kMaxMoves> order;
    const int n = moves_.size() - next_;
    for (int i = 0; i < n; ++i) order[i] = next_ + i;
    std::stable_sort(order.begin(), order.begin() + n,
                     [this](int a, int b) { return scores_[a] > scores_[b]; });
    const MoveList moves = moves_;
    const auto scores = scores_;
    const auto quiet = quiet_;
    for (int i = 0; i < n; ++i) {
      moves_[next_ + i] = moves[order[i]];
      scores_[next_ + i] = scores[order[i]];
      quiet_[next_ + i] = quiet[order[i]];
    }
  }
  move = moves_[next_];
  last_quiet_ = quiet_[next_];
  if (last_quiet_) tried_quiet_.Add(move);
  ++next_;
  return true;
}

}  // namespace divercite
