#include "tools/match/time_control.h"

#include <algorithm>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/match/argument_values.h"

namespace divercite {
namespace {

// A move answered this much after the clock ran out still loses on time, but waiting a
// little longer tells a slow engine apart from a hung one in the record.
constexpr absl::Duration kClockGrace = absl::Milliseconds(100);
// Per-move limits (st=) are met when the move arrives within this margin.
constexpr absl::Duration kMoveTimeMargin = absl::Milliseconds(500);

}  // namespace

absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view key, absl::string_view value) {
  TimeControl tc;
  tc.text = absl::StrCat(key, "=", value);
  if (key == "tc") {
    if (value == "inf") {
      tc.kind = TimeControl::Kind::kUnlimited;
      return tc;
    }
    const std::vector<absl::string_view> parts = absl::StrSplit(value, '+');
    if (parts.size() > 2)
      return absl::InvalidArgumentError(absl::StrCat(tc.text, ": expected BASE or BASE+INC"));
    absl::StatusOr<double> base = ParseSeconds(key, parts[0]);
    if (!base.ok()) return base.status();
    double increment = 0;
    if (parts.size() == 2) {
      absl::StatusOr<double> inc = ParseSeconds(key, parts[1]);
      if (!inc.ok()) return inc.status();
      increment = *inc;
    }
    if (*base <= 0)
      return absl::InvalidArgumentError(absl::StrCat(tc.text, ": the base time must be positive"));
    tc.kind = TimeControl::Kind::kClock;
    tc.base_ms = static_cast<std::int64_t>(*base * 1000);
    tc.increment_ms = static_cast<std::int64_t>(increment * 1000);
  } else if (key == "st") {
    absl::StatusOr<double> seconds = ParseSeconds(key, value);
    if (!seconds.ok()) return seconds.status();
    if (*seconds <= 0)
      return absl::InvalidArgumentError(absl::StrCat(tc.text, ": must be positive"));
    tc.kind = TimeControl::Kind::kMoveTime;
    tc.movetime_ms = static_cast<std::int64_t>(*seconds * 1000);
  } else if (key == "depth") {
    absl::StatusOr<int> depth = ParsePositiveInt(key, value);
    if (!depth.ok()) return depth.status();
    tc.kind = TimeControl::Kind::kDepth;
    tc.depth = *depth;
  } else if (key == "nodes") {
    std::uint64_t nodes = 0;
    if (!absl::SimpleAtoi(value, &nodes) || nodes == 0) {
      return absl::InvalidArgumentError(absl::StrCat(tc.text, ": expected a positive integer"));
    }
    tc.kind = TimeControl::Kind::kNodes;
    tc.nodes = nodes;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown time control '", key, "'"));
  }
  return tc;
}

GameClock::GameClock(const TimeControl& first, const TimeControl& second,
                     absl::Duration max_move_time)
    : time_controls_{first, second},
      max_move_time_(max_move_time),
      clock_ms_{first.base_ms, second.base_ms} {}

absl::Duration GameClock::Deadline(int side) const {
  const TimeControl& tc = time_controls_[side];
  switch (tc.kind) {
    case TimeControl::Kind::kClock:
      return absl::Milliseconds(clock_ms_[side]) + kClockGrace;
    case TimeControl::Kind::kMoveTime:
      return absl::Milliseconds(tc.movetime_ms) + kMoveTimeMargin;
    default:
      return max_move_time_;
  }
}

std::string GameClock::GoLine(int side) const {
  const TimeControl& tc = time_controls_[side];
  switch (tc.kind) {
    case TimeControl::Kind::kClock:
      return absl::StrCat("go wtime ", std::max<std::int64_t>(clock_ms_[0], 0), " btime ",
                          std::max<std::int64_t>(clock_ms_[1], 0), " winc ",
                          time_controls_[0].increment_ms, " binc ", time_controls_[1].increment_ms);
    case TimeControl::Kind::kMoveTime:
      return absl::StrCat("go movetime ", tc.movetime_ms);
    case TimeControl::Kind::kDepth:
      return absl::StrCat("go depth ", tc.depth);
    case TimeControl::Kind::kNodes:
      return absl::StrCat("go nodes ", tc.nodes);
    case TimeControl::Kind::kUnlimited:
    case TimeControl::Kind::kNone:
      break;
  }
  return "go";
}

std::optional<std::string> GameClock::Charge(int side, absl::Duration elapsed,
                                             absl::string_view name) {
  const TimeControl& tc = time_controls_[side];
  // Whole milliseconds, as recorded for the move.
  const std::int64_t used_ms = absl::ToInt64Milliseconds(elapsed);
  if (tc.kind == TimeControl::Kind::kClock) {
    clock_ms_[side] -= used_ms;
    if (clock_ms_[side] < 0) {
      return absl::StrCat(name, " used ", used_ms, " ms with ", clock_ms_[side] + used_ms,
                          " ms left");
    }
    clock_ms_[side] += tc.increment_ms;
  } else if (tc.kind == TimeControl::Kind::kMoveTime &&
             elapsed > absl::Milliseconds(tc.movetime_ms) + kMoveTimeMargin) {
    return absl::StrCat(name, " used ", used_ms, " ms for a ", tc.movetime_ms, " ms move");
  }
  return std::nullopt;
}

std::optional<std::int64_t> GameClock::LeftMs(int side) const {
  if (time_controls_[side].kind != TimeControl::Kind::kClock) return std::nullopt;
  return clock_ms_[side];
}

}  // namespace divercite
