#include "tools/tune/labelled_positions.h"

#include <optional>
#include <vector>

#include "search/value.h"
#include "tools/records/record_replay.h"

namespace divercite {

absl::Status ForEachLabelledPosition(
    const GameRecord& record,
    absl::FunctionRef<void(const Position&, const PositionLabel&)> visit) {
  if (record.termination != Termination::kNormal) return absl::OkStatus();
  absl::StatusOr<ReplayedRecord> game = ReplayRecord(record);
  if (!game.ok()) return game.status();
  Position position = game->start;
  for (int k = 0; k < game->opening_plies; ++k) position.Play(game->moves[k]);
  const int n = static_cast<int>(record.moves.size());
  // The exact score at or after each move, seen from that move's mover: found backwards.
  std::vector<std::optional<int>> later(n);
  std::optional<int> next;
  int next_index = 0;
  for (int i = n - 1; i >= 0; --i) {
    if (record.moves[i].exact && record.moves[i].score_cp.has_value()) {
      next = *record.moves[i].score_cp;
      next_index = i;
    }
    if (next) later[i] = (next_index - i) % 2 == 0 ? *next : -*next;
  }
  for (int i = 0; i + 1 < n; ++i) {
    if (later[i]) {
      PositionLabel label;
      label.game = record.game;
      label.pair = record.pair >= 0 ? record.pair : record.game / 2;
      label.move_index = i;
      label.later = static_cast<float>(*later[i]) / kPoint;
      label.exact = record.moves[i].exact && record.moves[i].score_cp.has_value();
      if (record.moves[i].score_cp) {
        label.has_search = true;
        label.search = static_cast<float>(*record.moves[i].score_cp) / kPoint;
      }
      visit(position, label);
    }
    position.Play(game->moves[game->opening_plies + i]);
  }
  return absl::OkStatus();
}

}  // namespace divercite
