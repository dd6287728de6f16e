// How an engine's moves are limited in a match, and the clocks of one game under those limits.
//
// A time control is one of tc=BASE[+INC] (seconds per game, plus an increment per move; the
// course's is tc=900), st=SECONDS (per move), depth=N, nodes=N, or tc=inf (plain `go`: the
// engine's own schedule, bounded only by -maxmovetime). The runner keeps the clocks itself,
// with the wall time it measured, never what an engine claims.
#ifndef DIVERCITE_TOOLS_MATCH_TIME_CONTROL_H_
#define DIVERCITE_TOOLS_MATCH_TIME_CONTROL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace divercite {

struct TimeControl {
  enum class Kind { kNone, kClock, kMoveTime, kDepth, kNodes, kUnlimited };
  Kind kind = Kind::kNone;
  std::int64_t base_ms = 0;
  std::int64_t increment_ms = 0;
  std::int64_t movetime_ms = 0;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string text;  // as given, for records
};

// Parses the value of tc=, st=, depth= or nodes= (`key`); errors name the setting.
absl::StatusOr<TimeControl> ParseTimeControl(absl::string_view key, absl::string_view value);

// The clocks of one game, side 0 moving first. Each side plays under its own time control;
// a side without a game clock (st=, depth=, ...) shows 0 ms to the other side's `go`.
class GameClock {
 public:
  GameClock(const TimeControl& first, const TimeControl& second, absl::Duration max_move_time);

  // How long `side` may take for its next move before the runner stops waiting: its clock
  // plus a short grace, the move time plus a margin, or else -maxmovetime.
  absl::Duration Deadline(int side) const;

  // The `go` command for `side`'s next move.
  std::string GoLine(int side) const;

  // Charges the `elapsed` wall time of `side`'s move (its engine named `name`). Returns why
  // the side lost on time, if it did; otherwise a game clock also gains its increment.
  std::optional<std::string> Charge(int side, absl::Duration elapsed, absl::string_view name);

  // The time left on `side`'s game clock (ms; negative once overrun), or none for a side
  // without one (st=, depth=, nodes=, tc=inf).
  std::optional<std::int64_t> LeftMs(int side) const;

 private:
  std::array<TimeControl, 2> time_controls_;
  absl::Duration max_move_time_;
  std::array<std::int64_t, 2> clock_ms_;  // time left on the game clocks
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_TIME_CONTROL_H_
