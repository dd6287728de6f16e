#include "tools/tune/position_dump.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "search/patterns.h"
#include "search/value.h"
#include "tools/tune/linear_eval.h"

namespace divercite {

absl::StatusOr<PositionRecord> MakePositionRecord(const Position& position,
                                                  const PositionLabel& label,
                                                  const PatternWeights& weights) {
  PositionRecord record;
  std::memset(&record, 0, sizeof record);
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (const std::optional<Piece> piece = position.PieceAt(cell)) {
      record.board[cell] =
          static_cast<std::uint8_t>(1 + Index(piece->colour) + 4 * Index(piece->owner));
    }
  }
  for (const Player p : {Player::kFirst, Player::kSecond}) {
    for (const Kind kind : {Kind::kCity, Kind::kResource}) {
      for (int c = 0; c < kNumColours; ++c) {
        record.hand[8 * Index(p) + 4 * Index(kind) + c] =
            static_cast<std::uint8_t>(position.PiecesLeft(p, kind, static_cast<Colour>(c)));
      }
    }
  }
  record.ply = static_cast<std::uint8_t>(position.Ply());
  record.side_to_move = static_cast<std::uint8_t>(Index(position.SideToMove()));
  record.score[0] = static_cast<std::int8_t>(position.Score(Player::kFirst));
  record.score[1] = static_cast<std::int8_t>(position.Score(Player::kSecond));
  record.flags = static_cast<std::uint8_t>((label.exact ? 1 : 0) | (label.has_search ? 2 : 0));
  record.later = label.later;
  record.search = label.has_search ? label.search : 0.0f;
  const int pattern_eval = EvaluatePatterns(position, weights);
  record.pattern_eval = static_cast<float>(pattern_eval) / kPoint;
  record.linear_eval = static_cast<float>(EvaluateLinear(position)) / kPoint;
  record.game = label.game;
  record.pair = label.pair;
  int start = 0, end = 0;
  for (int view = 0; view < 2; ++view) {
    const Player us = view == 0 ? position.SideToMove() : Opponent(position.SideToMove());
    int slot = 0;
    ForEachPatternAs(position, us, [&](int pattern, int sign) {
      record.patterns[view][slot++] = static_cast<std::uint16_t>(2 * pattern + (sign < 0));
      if (view == 0) {
        start += sign * weights.values[pattern].start;
        end += sign * weights.values[pattern].end;
      }
    });
    for (; slot < kPatternSlots; ++slot) record.patterns[view][slot] = kNoPattern;
  }
  const int ply = position.Ply();
  if (ScoreDifference(position) + (start * (kTotalPlies - ply) + end * ply) / kTotalPlies !=
      pattern_eval) {
    return absl::InternalError(absl::StrCat("game ", label.game, " ply ", ply,
                                            ": the pattern list does not sum to the evaluation"));
  }
  return record;
}

}  // namespace divercite
