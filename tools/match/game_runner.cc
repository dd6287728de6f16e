#include "tools/match/game_runner.h"

#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "engine/move.h"
#include "engine/position_string.h"
#include "search/value.h"
#include "tools/common/process_cpu.h"

namespace divercite {
namespace {

Termination TerminationOf(EngineFailure failure) {
  switch (failure) {
    case EngineFailure::kTime:
      return Termination::kTime;
    case EngineFailure::kStall:
      return Termination::kStall;
    case EngineFailure::kGarbage:
      return Termination::kIllegal;
    case EngineFailure::kLimit:
      return Termination::kLimit;
    case EngineFailure::kCrash:
    case EngineFailure::kOptions:  // on a restart: the run's start checked them once
    case EngineFailure::kNone:
      break;
  }
  return Termination::kCrash;
}

// Whether an engine's exit code says it was ended by a signal that stops processes from
// outside: SIGTERM, SIGINT or SIGHUP (the runner itself only ever sends SIGKILL).
bool StoppedFromOutside(int exit_code) {
  return exit_code == 128 + SIGTERM || exit_code == 128 + SIGINT || exit_code == 128 + SIGHUP;
}

constexpr absl::Duration kStopGrace = absl::Seconds(2);

LiveClocks LiveClocksOf(const GameClock& clock) { return {clock.LeftMs(0), clock.LeftMs(1)}; }

// Who moves in `position` for a -live line: 0 (p1), 1 (p2), none once the board is full.
std::optional<int> LiveToMove(const Position& position) {
  if (position.IsGameOver()) return std::nullopt;
  return Index(position.SideToMove());
}

struct MoveCpu {
  std::int64_t cpu_ms = 0, wait_ms = 0;
};

// -cputime: what each engine's processes use during its moves, added to the record as each
// move ends (the move that loses the game too, measured before its engine is killed).
class CpuMeter {
 public:
  CpuMeter(bool on, GameRecord& record) : on_(on), record_(record) {}

  void MoveStarts(const EngineClient& engine) {
    before_.reset();
    if (on_ && engine.pid()) before_ = CpuSnapshot::Take(*engine.pid());
  }

  // What the mover `side` used since MoveStarts, in ms, added to the game's; none if it could
  // not be measured.
  std::optional<MoveCpu> MoveEnds(const EngineClient& engine, int side) {
    if (!before_ || !engine.pid()) return std::nullopt;
    const std::optional<CpuSnapshot> after = CpuSnapshot::Take(*engine.pid());
    if (!after) return std::nullopt;
    const CpuUse used = after->Since(*before_);
    const MoveCpu move = {used.cpu_ns / 1'000'000, used.wait_ns / 1'000'000};
    if (!record_.cpu_ms) {
      record_.cpu_ms.emplace();
      record_.wait_ms.emplace();
    }
    (*record_.cpu_ms)[side] += move.cpu_ms;
    (*record_.wait_ms)[side] += move.wait_ms;
    return move;
  }

 private:
  bool on_;
  GameRecord& record_;
  std::optional<CpuSnapshot> before_;
};

// The game, refereed: PlayGame without its -live "end" line.
GameRecord PlayRefereed(const GameSetup& setup) {
  GameRecord record;
  EngineClient* engines[2] = {setup.first, setup.second};
  record.p1 = setup.first->config().name;
  record.p2 = setup.second->config().name;
  record.start = setup.opening->start_string;
  record.opening = setup.opening->RecordedMoves();
  record.time_controls = {setup.first_tc->text, setup.second_tc->text};

  // Ends the game: `loser` (0 or 1) loses for `termination`, or -1 for the board's result.
  Position position = setup.opening->start;
  auto finish = [&](int loser, Termination termination, std::string reason) {
    record.termination = termination;
    record.reason = std::move(reason);
    record.final_scores = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
    if (loser >= 0) {
      record.result = loser == 0 ? GameResult::kSecondWins : GameResult::kFirstWins;
      // Restarted fresh for the next game.
      const std::optional<int> exit_code = engines[loser]->Kill();
      if (termination == Termination::kCrash && exit_code && StoppedFromOutside(*exit_code)) {
        // Most likely the whole run is being stopped (a scheduler cancelling the job, ^C),
        // which ends this process too: give it that moment, rather than record a crash the
        // engine did not commit. A run that goes on records the crash as before.
        absl::SleepFor(kStopGrace);
      }
      return record;
    }
    record.result = position.Result();  // the board is full: never kOngoing
    return record;
  };

  for (int p = 0; p < 2; ++p) {
    absl::Status status = engines[p]->EnsureStarted(setup.startup_timeout);
    if (status.ok()) status = engines[p]->NewGame(setup.stall_timeout);
    if (!status.ok()) {
      return finish(p, TerminationOf(engines[p]->last_failure()), std::string(status.message()));
    }
  }

  std::vector<std::string> moves = setup.opening->moves;
  for (const std::string& move : moves) position.Play(*ParseMove(move));  // checked on load
  GameClock clock(*setup.first_tc, *setup.second_tc, setup.max_move_time);
  // For -adjudicate: each engine move's exact score, the first player's view.
  std::vector<std::optional<int>> exact_values;
  bool adjudicating = setup.adjudicate_plies > 0 && setup.solver != nullptr;
  CpuMeter cpu(setup.measure_cpu, record);
  if (setup.live != nullptr) {
    setup.live->GameStarted(setup.game, record, static_cast<int>(moves.size()), LiveClocksOf(clock),
                            LiveToMove(position));
  }

  while (!position.IsGameOver()) {
    const int p = Index(position.SideToMove());
    const std::string position_line =
        absl::StrCat("position ", setup.opening->start_string, moves.empty() ? "" : " moves ",
                     absl::StrJoin(moves, " "));
    cpu.MoveStarts(*engines[p]);
    absl::StatusOr<EngineReply> reply =
        engines[p]->Go(position_line, clock.GoLine(p), clock.Deadline(p));
    const std::optional<MoveCpu> used = cpu.MoveEnds(*engines[p], p);
    if (!reply.ok()) {
      return finish(p, TerminationOf(engines[p]->last_failure()),
                    std::string(reply.status().message()));
    }
    if (std::optional<std::string> lost =
            clock.Charge(p, reply->elapsed, engines[p]->config().name)) {
      return finish(p, Termination::kTime, *std::move(lost));
    }
    absl::StatusOr<Move> move = ParseMove(reply->bestmove);
    absl::Status legal = move.ok() ? position.CheckLegal(*move) : move.status();
    if (!legal.ok() && reply->crash) {
      // The engine said its own code failed (a course agent's exception): a crash.
      return finish(p, Termination::kCrash,
                    absl::StrCat(engines[p]->config().name, ": ", *reply->crash));
    }
    if (!legal.ok()) {
      return finish(p, Termination::kIllegal,
                    absl::StrCat(engines[p]->config().name, " played '", reply->bestmove,
                                 "': ", legal.message(), EngineSaid(reply->error)));
    }
    position.Play(*move);
    moves.push_back(reply->bestmove);
    const std::int64_t used_ms = absl::ToInt64Milliseconds(reply->elapsed);
    record.moves.push_back({reply->bestmove, used_ms, reply->score_cp, reply->exact, reply->proven,
                            used ? std::optional(used->cpu_ms) : std::nullopt,
                            used ? std::optional(used->wait_ms) : std::nullopt});
    if (setup.live != nullptr) {
      setup.live->MovePlayed(setup.game, static_cast<int>(moves.size()), reply->bestmove, used_ms,
                             LiveClocksOf(clock), LiveToMove(position));
    }
    if (setup.max_plies > 0 && static_cast<int>(record.moves.size()) >= setup.max_plies &&
        !position.IsGameOver()) {
      // Cut, as cutechess's and fastchess's move limit does: a draw, the board's scores kept.
      record.termination = Termination::kMaxPlies;
      record.result = GameResult::kDraw;
      record.final_scores = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
      record.reason = absl::StrFormat("cut after %d moves (-maxplies %d)", record.moves.size(),
                                      setup.max_plies);
      return record;
    }
    if (!adjudicating || position.IsGameOver()) continue;
    exact_values.push_back(reply->exact && reply->score_cp
                               ? std::optional<int>(p == 0 ? *reply->score_cp : -*reply->score_cp)
                               : std::nullopt);
    const std::optional<int> agreed = AgreedExactValue(exact_values, setup.adjudicate_plies);
    if (!agreed) continue;
    const std::optional<ExactSolution> solution = setup.solver->Solve(position);
    if (!solution) continue;  // too far from the end, or not solved: after the next move
    if (solution->value != *agreed) {
      adjudicating = false;  // the engines were wrong: the board decides
      continue;
    }
    record.termination = Termination::kAdjudication;
    record.result = solution->result;
    record.final_scores = solution->final_scores;
    record.reason = absl::StrFormat(
        "both engines reported the exact margin %+d for %s for %d moves, and the runner's "
        "solve confirms it",
        solution->value / kPoint, record.p1, setup.adjudicate_plies);
    return record;
  }
  return finish(-1, Termination::kNormal, "");
}

}  // namespace

GameRecord PlayGame(const GameSetup& setup) {
  GameRecord record = PlayRefereed(setup);
  if (setup.live != nullptr) {
    const int plies = static_cast<int>(setup.opening->moves.size() + record.moves.size());
    setup.live->GameEnded(setup.game, record, plies);
  }
  return record;
}

}  // namespace divercite
