#include "tools/match/game_runner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/move.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

// A move answered this much after the clock ran out still loses on time, but waiting a
// little longer tells a slow engine apart from a hung one in the record.
constexpr absl::Duration kClockGrace = absl::Milliseconds(100);
// Per-move limits (st=) are met when the move arrives within this margin.
constexpr absl::Duration kMoveTimeMargin = absl::Milliseconds(500);

std::string GoLine(const TimeControl& tc, const std::array<std::int64_t, 2>& clock_ms,
                   const std::array<std::int64_t, 2>& increment_ms) {
  switch (tc.kind) {
    case TimeControl::Kind::kClock:
      return absl::StrCat("go wtime ", std::max<std::int64_t>(clock_ms[0], 0), " btime ",
                          std::max<std::int64_t>(clock_ms[1], 0), " winc ", increment_ms[0],
                          " binc ", increment_ms[1]);
    case TimeControl::Kind::kMoveTime: return absl::StrCat("go movetime ", tc.movetime_ms);
    case TimeControl::Kind::kDepth: return absl::StrCat("go depth ", tc.depth);
    case TimeControl::Kind::kNodes: return absl::StrCat("go nodes ", tc.nodes);
    case TimeControl::Kind::kUnlimited:
    case TimeControl::Kind::kNone: break;
  }
  return "go";
}

Termination TerminationOf(EngineFailure failure) {
  switch (failure) {
    case EngineFailure::kTime: return Termination::kTime;
    case EngineFailure::kStall: return Termination::kStall;
    case EngineFailure::kGarbage: return Termination::kIllegal;
    case EngineFailure::kCrash:
    case EngineFailure::kNone: break;
  }
  return Termination::kCrash;
}

}  // namespace

GameRecord PlayGame(const GameSetup& setup) {
  GameRecord record;
  EngineClient* engines[2] = {setup.first, setup.second};
  const TimeControl* tcs[2] = {setup.first_tc, setup.second_tc};
  record.p1 = setup.first->config().name;
  record.p2 = setup.second->config().name;
  record.start = setup.opening->start_string;
  record.opening = absl::StrJoin(setup.opening->moves, " ");
  record.time_controls = {tcs[0]->text, tcs[1]->text};

  // Ends the game: `loser` (0 or 1) loses for `termination`, or -1 for the board's result.
  Position position = setup.opening->start;
  auto finish = [&](int loser, Termination termination, std::string reason) {
    record.termination = termination;
    record.reason = std::move(reason);
    record.final_scores = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
    if (loser >= 0) {
      record.result = loser == 0 ? GameOutcome::kSecondWins : GameOutcome::kFirstWins;
      engines[loser]->Kill();  // restarted fresh for the next game
      return record;
    }
    switch (position.Result()) {
      case GameResult::kFirstWins: record.result = GameOutcome::kFirstWins; break;
      case GameResult::kSecondWins: record.result = GameOutcome::kSecondWins; break;
      default: record.result = GameOutcome::kDraw; break;
    }
    return record;
  };

  for (int p = 0; p < 2; ++p) {
    absl::Status status = engines[p]->EnsureStarted(setup.stall_timeout);
    if (status.ok()) status = engines[p]->NewGame(setup.stall_timeout);
    if (!status.ok()) {
      return finish(p, TerminationOf(engines[p]->last_failure()), std::string(status.message()));
    }
  }

  std::vector<std::string> moves = setup.opening->moves;
  for (const std::string& move : moves) position.Play(*ParseMove(move));  // checked on load
  std::array<std::int64_t, 2> clock_ms = {tcs[0]->base_ms, tcs[1]->base_ms};
  const std::array<std::int64_t, 2> increment_ms = {tcs[0]->increment_ms, tcs[1]->increment_ms};

  while (!position.IsGameOver()) {
    const int p = Index(position.SideToMove());
    const TimeControl& tc = *tcs[p];
    const std::string position_line =
        absl::StrCat("position ", setup.opening->start_string,
                     moves.empty() ? "" : " moves ", absl::StrJoin(moves, " "));
    absl::Duration deadline = setup.max_move_time;
    if (tc.kind == TimeControl::Kind::kClock) {
      deadline = absl::Milliseconds(clock_ms[p]) + kClockGrace;
    } else if (tc.kind == TimeControl::Kind::kMoveTime) {
      deadline = absl::Milliseconds(tc.movetime_ms) + kMoveTimeMargin;
    }
    absl::StatusOr<EngineReply> reply =
        engines[p]->Go(position_line, GoLine(tc, clock_ms, increment_ms), deadline);
    if (!reply.ok()) {
      return finish(p, TerminationOf(engines[p]->last_failure()), std::string(reply.status().message()));
    }
    const std::int64_t used_ms = absl::ToInt64Milliseconds(reply->elapsed);
    if (tc.kind == TimeControl::Kind::kClock) {
      clock_ms[p] -= used_ms;
      if (clock_ms[p] < 0) {
        return finish(p, Termination::kTime,
                      absl::StrCat(engines[p]->config().name, " used ", used_ms, " ms with ",
                                   clock_ms[p] + used_ms, " ms left"));
      }
      clock_ms[p] += increment_ms[p];
    } else if (tc.kind == TimeControl::Kind::kMoveTime &&
               reply->elapsed > absl::Milliseconds(tc.movetime_ms) + kMoveTimeMargin) {
      return finish(p, Termination::kTime,
                    absl::StrCat(engines[p]->config().name, " used ", used_ms, " ms for a ",
                                 tc.movetime_ms, " ms move"));
    }
    absl::StatusOr<Move> move = ParseMove(reply->bestmove);
    absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
    if (!legal.ok()) {
      return finish(p, Termination::kIllegal,
                    absl::StrCat(engines[p]->config().name, " played '", reply->bestmove,
                                 "': ", legal.message(), EngineSaid(reply->error)));
    }
    position.Play(*move);
    moves.push_back(reply->bestmove);
    record.moves.push_back({reply->bestmove, used_ms, reply->score_cp, reply->exact});
  }
  return finish(-1, Termination::kNormal, "");
}

}  // namespace divercite
