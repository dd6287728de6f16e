#include "tools/tune/labelled_positions.h"

#include <optional>
#include <vector>

#include "absl/strings/str_split.h"
#include "search/value.h"
#include "tools/tune/record_replay.h"

namespace divercite {

absl::Status ForEachLabelledPosition(
    const GameRecord& record,
    absl::FunctionRef<void(const Position&, const PositionLabel&)> visit) {
  if (record.termination != Termination::kNormal) return absl::OkStatus();
  absl::StatusOr<Position> start = StartOf(record);
  if (!start.ok()) return start.status();
  Position position = *start;
  for (absl::string_view text : absl::StrSplit(record.opening, ' ', absl::SkipEmpty())) {
    if (absl::Status status = PlayText(position, text, record); !status.ok()) return status;
  }
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
    if (absl::Status status = PlayText(position, record.moves[i].move, record); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

}  // namespace divercite
