// Plays one game between two engines, refereeing it with the rules library: every move is
// parsed and checked here, the clocks are kept by a GameClock (wall time measured by the
// runner, never what an engine claims), and any failure loses the game for the engine at
// fault.
#ifndef DIVERCITE_TOOLS_MATCH_GAME_RUNNER_H_
#define DIVERCITE_TOOLS_MATCH_GAME_RUNNER_H_

#include "absl/time/time.h"
#include "tools/client/engine_client.h"
#include "tools/match/adjudication.h"
#include "tools/match/live_log.h"
#include "tools/match/openings.h"
#include "tools/match/time_control.h"
#include "tools/records/game_record.h"

namespace divercite {

struct GameSetup {
  EngineClient* first;  // moves first
  EngineClient* second;
  const TimeControl* first_tc;
  const TimeControl* second_tc;
  const Opening* opening;
  absl::Duration stall_timeout;
  absl::Duration max_move_time;
  absl::Duration startup_timeout;  // start, handshake and first `isready` of an engine
  // -adjudicate exact plies=N: N (0: off), and the solver that confirms.
  int adjudicate_plies = 0;
  ExactSolver* solver = nullptr;
  // -maxplies: the engines' moves after which a game still going ends, as cut (0: never).
  int max_plies = 0;
  // -cputime: measure each move's processor use (tools/common/process_cpu.h).
  bool measure_cpu = false;
  // -live: the game's events as it goes (live_log.h), under its number in the records.
  LiveLog* live = nullptr;
  int game = 0;
};

// Fills everything of the record but its schedule fields (game, round, pair, engines).
GameRecord PlayGame(const GameSetup& setup);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_GAME_RUNNER_H_
