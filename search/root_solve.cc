// The root's solve at the end of the game: when to solve, whether to prove the result first,
// and one bound-narrowing loop of null-window searches for the proof and the exact value,
// used by the best line and every other line alike.
#include <algorithm>
#include <optional>
#include <utility>

#include "search/search_params.h"
#include "search/worker.h"

namespace divercite {

namespace {

// The result's boundary that `bounds` leave open, the one `guess` points to first: a win's
// proof (value >= kWinBoundary) when the guess is a win, else that of at least a draw.
int NextResultBoundary(int lower, int upper, int guess) {
  const bool win_open = lower < kWinBoundary && upper >= kWinBoundary;
  if (guess > 0 && win_open) return kWinBoundary;
  const bool draw_open = lower < kDrawBoundary && upper >= kDrawBoundary;
  return draw_open ? kDrawBoundary : kWinBoundary;
}

}  // namespace

// In play the solve proves first when the win is already known (its proof is then cheap),
// or when the last iteration's score hints at a win and the exact value typically does not
// fit. Within the exact value's reach the exact value is solved, as before: it proves the
// result too, and a proof that fails (the position is not won) would cost the time the exact
// value needs. The lost side's proof costs as much as the exact value and gains it nothing.
bool Worker::ShouldProveFirst(int plies_left, int score) const {
  if (shared_.limits.prove) return true;
  if (!ProofFirstAllowed(shared_.limits)) return false;
  if (shared_.known_win) return true;
  return score > 0 && !SolveFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
}

// The end must be within the solver's reach (the proof's, when only the proof is asked for
// or the win is known: the deeper iterations cost it more than their ordering saves), and
// the solve's first stage (the proof, or the exact value) must typically end before the
// solve's hard limit.
bool Worker::SolveNext(int depth, int plies_left, int score) {
  const int reach =
      shared_.limits.prove || shared_.known_win ? params::kProofReach : params::kSolverReach;
  if (depth + 1 >= plies_left || depth + 1 + reach < plies_left) return false;
  prove_first_ = ShouldProveFirst(plies_left, score);
  if (!prove_first_) {
    return SolveFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
  }
  // `go prove` proves at once: it asked for the proof, and its own limit ends it. (The fit
  // reads the speed from the first iterations' few nodes and milliseconds, so where the
  // proof starts would depend on the clock, and its node count with it.)
  return shared_.known_win || shared_.limits.prove ||
         ProofFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
}

// Each null-window search "value >= beta" over the selected root moves moves one bound with
// its fail-soft answer; `best` gets a move that reaches the lower bound after each fail-high.
// - kResult: the boundaries of the result (value.h), the one the previous iteration's score
//   `guess` points to first: a win's proof needs one winning move at each of the winner's
//   nodes, far fewer nodes than the exact value's, whose proof that the value is below v + 1
//   is most of its tree (NOTES.md, "Issue 23").
// - kExactValue: MTD(f). Exact values are whole points, so each test moves a bound by at
//   least a point, starting from the guess rounded to a point, within what `bounds` (a
//   proof's) already say.
std::optional<int> Worker::NarrowRootBounds(const SymmetricKeys& keys, int guess, RootGoal goal,
                                            RootBounds& bounds, Move& best) {
  const Position& root = shared_.root;
  const int depth = root.PliesLeft();
  const auto reached = [&] {
    return goal == RootGoal::kResult
               ? ResultOfBounds(bounds.lower, bounds.upper) != ProvenResult::kUnknown
               : bounds.lower >= bounds.upper;
  };
  int value = std::clamp(RoundToPoint(guess), bounds.lower, bounds.upper);
  while (!reached()) {
    const int beta = goal == RootGoal::kResult
                         ? NextResultBoundary(bounds.lower, bounds.upper, guess)
                     : value == bounds.lower ? value + kPoint
                                             : value;
    value = SearchRoot(keys, beta - 1, beta, depth, false);
    if (shared_.StopRequested()) return std::nullopt;
    if (value >= beta) {
      bounds.lower = std::max(bounds.lower, value);
      best = pv_[0][0];
    } else {
      bounds.upper = std::min(bounds.upper, value);
    }
  }
  return value;
}

std::optional<Worker::SolvedLine> Worker::SolveLine(const SymmetricKeys& keys, int line, int guess,
                                                    bool proof_only) {
  const TimeBudget& budget = shared_.budget;
  const int plies_left = shared_.root.PliesLeft();
  // A win known for the root is its best line's.
  const bool known_win = line == 0 && shared_.known_win;
  RootBounds bounds;
  Move move;
  if (shared_.limits.prove || prove_first_) {
    // The result first: it is all a game counts, and far cheaper to prove for the winner
    // than the exact margin; the exact value follows if time remains, narrowing from the
    // proof's bounds over the proof's table. A proof that runs much past its typical cost is
    // abandoned (the position is likely not won): the iterations' move is played.
    LimitSolve(known_win ? budget.SolveLimitMs()
                         : ProofLimitMs(budget, plies_left, shared_.Elapsed(), NodesOfAll()));
    if (!NarrowRootBounds(keys, known_win ? kWinBoundary : guess, RootGoal::kResult, bounds,
                          move)) {
      return std::nullopt;
    }
    RootLine proven = ProofLine(bounds, move, IterationsMove(line));
    if (line == 0) {
      // The best line's proof is the result at once, and reported with one line (several
      // are reported together once all are proven): a proof may be all the time allows.
      result_.best = proven;
      result_.nodes = NodesOfAll();
      result_.time_ms = shared_.Elapsed();
      if (!root_.several_lines()) ReportBestLine();
    }
    // The exact value only if it typically fits what is left (it adds nothing to a won
    // game's result); otherwise the proven result and its move are the answer.
    if (proven.exact || shared_.limits.prove || proof_only ||
        (index_ == 0 && !SolveFitsBudget(budget, plies_left, shared_.Elapsed(), NodesOfAll()))) {
      return SolvedLine{.line = std::move(proven), .ended_at_proof = true};
    }
  }
  LimitSolve(budget.SolveLimitMs());
  const std::optional<int> value =
      NarrowRootBounds(keys, guess, RootGoal::kExactValue, bounds, move);
  if (!value) return std::nullopt;
  return SolvedLine{.line = RootLine{.move = move,
                                     .score = *value,
                                     .exact = true,
                                     .proven = ResultOfValue(*value),
                                     .depth = plies_left,
                                     .pv = PrincipalVariation(move)},
                    .ended_at_proof = false};
}

RootLine Worker::ProofLine(const RootBounds& bounds, Move best, Move fallback) {
  const ProvenResult proven = ResultOfBounds(bounds.lower, bounds.upper);
  RootLine line;
  line.depth = shared_.root.PliesLeft();
  line.proven = proven;
  if (proven == ProvenResult::kDraw) {
    // A draw's bounds meet at 0, the exact value (exact values are whole points).
    line.score = 0;
    line.exact = true;
    line.bound = Bound::kExact;
  } else {
    line.score = proven == ProvenResult::kWin ? bounds.lower : bounds.upper;
    line.bound = proven == ProvenResult::kWin ? Bound::kLower : Bound::kUpper;
  }
  line.move = proven != ProvenResult::kLoss ? best : fallback;
  line.pv = PrincipalVariation(line.move);
  return line;
}

void Worker::LimitSolve(std::int64_t limit_ms) {
  if (index_ != 0) return;
  shared_.solve_limit_ms.store(limit_ms, std::memory_order_relaxed);
  shared_.solving_root.store(true, std::memory_order_relaxed);
}

}  // namespace divercite
