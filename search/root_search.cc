// The root: iterative deepening, aspiration windows, the lines of an iteration (MultiPV, a
// loop over the table of root moves), the reports and the iterations' share of the clock.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "engine/canonical_key.h"
#include "search/search_params.h"
#include "search/worker.h"

namespace divercite {

Worker::Worker(SharedSearch& shared, int index)
    : shared_(shared),
      index_(index),
      endgame_(shared.tt, nodes_, *shared.eval_weights),
      root_(shared.root_moves, shared.line_count, shared.several_lines, shared.searchmoves) {}

void Worker::Run(const SearchCallbacks* callbacks) {
  callbacks_ = callbacks;
  const Position& root = shared_.root;
  const SymmetricKeys keys = SymmetricKeys::Of(root);
  const int plies_left = root.PliesLeft();
  const int max_depth =
      shared_.limits.depth > 0 ? std::min(shared_.limits.depth, plies_left) : plies_left;
  result_.best.move = root_.first();
  int previous_score = 0;
  int stable_iterations = 0;
  // Helpers start one ply deeper on odd indices, so threads spread over depths.
  for (int depth = 1 + (index_ % 2); depth <= max_depth; ++depth) {
    seldepth_ = 0;
    root_.SelectLine(0);
    std::optional<RootLine> best;
    if (depth == plies_left) {
      const std::optional<SolvedLine> solved = SolveLine(keys, 0, previous_score, false);
      if (!solved) break;
      if (solved->ended_at_proof) {
        // The proven result is the answer (SolveLine made it the result): the exact value
        // was not asked for, adds nothing, or does not typically fit what is left. The other
        // lines are then proven only, unless the proof was the exact value (a draw) or the
        // search wanted nothing more.
        const bool proof_only = !solved->line.exact && !shared_.limits.prove;
        if (root_.several_lines()) {
          if (!SearchLaterLines(keys, depth, proof_only)) break;
          ReportLines();
        }
        if (proof_only || !shared_.limits.infinite) shared_.RequestStop();
        break;
      }
      best = solved->line;
    } else {
      best = SearchLine(keys, 0, depth, previous_score);
      if (!best) break;
    }

    // A finished iteration: its best line is the result so far.
    stable_iterations = best->move == result_.best.move ? stable_iterations + 1 : 0;
    result_.best = *best;
    // The other lines, each without the moves of those above it.
    if (root_.several_lines() && !SearchLaterLines(keys, depth, false)) break;
    if (index_ != 0) {
      // A helper's solve ends the search: its result is chosen (Searcher::Search), and the
      // main worker has nothing left to add. `go infinite` still waits for `stop`.
      if (ResultIsFinal()) {
        if (!shared_.limits.infinite) shared_.RequestStop();
        break;
      }
      if (SolveNext(depth, plies_left, best->score)) depth = plies_left - 1;  // as the main does
      continue;
    }

    result_.nodes = NodesOfAll();
    result_.time_ms = shared_.Elapsed();
    if (root_.several_lines()) {
      ReportLines();
    } else {
      ReportBestLine();
    }
    // Time: stop when an exact result is in, or when the next iteration would likely run
    // past the budget, scaled by how settled the best move and the score are.
    if (result_.best.exact) break;
    // A fixed move time (soft == hard) is used in full; only a clock's budget flexes.
    const TimeBudget& budget = shared_.budget;
    if (budget.soft_ms > 0 && budget.soft_ms < budget.hard_ms) {
      const double factor = TimeFactors::BestMoveStability(stable_iterations) *
                            TimeFactors::ScoreDrop(previous_score, best->score);
      if (shared_.Elapsed() >= budget.soft_ms * factor * params::kNewIterationShare) break;
    }
    previous_score = best->score;
    // Once the end is within reach, the evaluation's iterations teach little: solve, unless
    // the solve cannot end before the hard limit (deeper iterations then use the time).
    if (max_depth == plies_left && SolveNext(depth, plies_left, best->score)) {
      depth = plies_left - 1;
    }
  }
}

std::optional<RootLine> Worker::SearchLine(const SymmetricKeys& keys, int line, int depth,
                                           int guess) {
  int window = params::kAspirationWindow;
  int alpha = -kInfiniteValue, beta = kInfiniteValue;
  if (depth >= params::kAspirationMinDepth) {
    alpha = std::max(guess - window, -kInfiniteValue);
    beta = std::min(guess + window, kInfiniteValue);
  }
  while (true) {
    const int score = SearchRoot(keys, alpha, beta, depth, true);
    if (shared_.StopRequested()) return std::nullopt;
    Bound bound = Bound::kExact;
    if (score <= alpha) {
      bound = Bound::kUpper;
      alpha = std::max(score - window, -kInfiniteValue);
    } else if (score >= beta) {
      bound = Bound::kLower;
      beta = std::min(score + window, kInfiniteValue);
    } else {
      return RootLine{.move = pv_[0][0], .score = score, .depth = depth, .pv = RootPv()};
    }
    window *= params::kAspirationGrowth;
    // A long search tells what it knows so far: the bound the window failed on.
    if (index_ == 0 && callbacks_ && callbacks_->on_iteration &&
        shared_.Elapsed() > params::kReportBoundsAfterMs) {
      const SearchResult so_far{
          .best = {.move = pv_[0][0], .score = score, .depth = depth, .pv = {}},
          .nodes = NodesOfAll(),
          .time_ms = shared_.Elapsed(),
          .lines = {}};
      IterationInfo info = IterationInfoOf(so_far, seldepth_, shared_.tt.HashFull(), bound);
      if (root_.several_lines()) info.multipv = line + 1;
      callbacks_->on_iteration(info);
    }
  }
}

bool Worker::SearchLaterLines(const SymmetricKeys& keys, int depth, bool proof_only) {
  root_.SetLine(0, result_.best);
  result_.lines = root_.LinesSoFar(1, result_.lines);
  const bool solving = depth == shared_.root.PliesLeft();
  for (int line = 1; line < root_.line_count(); ++line) {
    root_.SelectLine(line);
    const int guess = PreviousScore(line);
    if (solving) {
      const std::optional<SolvedLine> solved = SolveLine(keys, line, guess, proof_only);
      if (!solved) return false;
      root_.SetLine(line, solved->line);
    } else {
      std::optional<RootLine> searched = SearchLine(keys, line, depth, guess);
      if (!searched) return false;
      root_.SetLine(line, std::move(*searched));
      // The lines so far are ranked by score, and the best is the result.
      root_.RankLines(line + 1);
      const RootLine& best = root_.line(0);
      result_.best.move = best.move;
      result_.best.score = best.score;
      result_.best.pv = best.pv;
    }
    result_.lines = root_.LinesSoFar(line + 1, result_.lines);
  }
  return true;
}

int Worker::PreviousScore(int line) const {
  return std::ssize(result_.lines) > line ? result_.lines[line].score : root_.line(line - 1).score;
}

Move Worker::IterationsMove(int line) const {
  if (line == 0) return result_.best.move;
  return std::ssize(result_.lines) > line ? result_.lines[line].move : root_.selected()[0];
}

std::vector<Move> Worker::PrincipalVariation(Move first) {
  std::vector<Move> line;
  Position position = shared_.root;
  SymmetricKeys keys = SymmetricKeys::Of(position);
  for (Move move = first; !move.IsNone() && position.IsLegal(move);) {
    line.push_back(move);
    keys.Play(move, position.SideToMove());
    position.Play(move);
    const CanonicalKey canonical = keys.Canonical();
    TTEntry entry;
    if (shared_.tt.Probe(canonical.key, entry)) {
      move = TransformMove(entry.move, InverseBoardSymmetry(canonical.symmetry));
    } else if (shared_.tt.Probe(EndgameSolver::TableKey(position), entry)) {
      move = entry.move;  // the endgame solver's entries are in the position's own frame
    } else {
      break;
    }
  }
  return line;
}

void Worker::ReportBestLine() {
  if (index_ != 0 || !callbacks_ || !callbacks_->on_iteration) return;
  callbacks_->on_iteration(IterationInfoOf(result_, seldepth_, shared_.tt.HashFull()));
}

void Worker::ReportLines() {
  if (index_ != 0 || !callbacks_ || !callbacks_->on_iteration) return;
  result_.nodes = NodesOfAll();
  result_.time_ms = shared_.Elapsed();
  for (int line = 1; line <= std::ssize(result_.lines); ++line) {
    callbacks_->on_iteration(LineInfoOf(result_, line, seldepth_, shared_.tt.HashFull()));
  }
}

}  // namespace divercite
