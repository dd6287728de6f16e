#include "search/search.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <thread>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "engine/canonical_key.h"
#include "engine/movegen.h"
#include "engine/symmetry.h"
#include "search/endgame.h"
#include "search/margin_bounds.h"
#include "search/move_order.h"
#include "search/moves_in_progress.h"
#include "search/search_params.h"

namespace divercite {

namespace {

using Clock = std::chrono::steady_clock;

// kReduction[depth][move number], in plies.
const auto& ReductionTable() {
  static const auto table = [] {
    std::array<std::array<std::uint8_t, kMaxMoves + 1>, kMaxPly + 1> r{};
    for (int d = 1; d <= kMaxPly; ++d) {
      for (int m = 1; m <= kMaxMoves; ++m) {
        r[d][m] = static_cast<std::uint8_t>(std::log(d) * std::log(m) * 100 / params::kLmrDivisor);
      }
    }
    return r;
  }();
  return table;
}

// How a node finds its evaluation state: made from its parent's after the move that led to
// it, or from scratch at the root (parent null). A node makes it only once it needs it: a node
// that ends on the table or in the solver never does.
struct EvalLink {
  const EvalState* parent = nullptr;
  Move move;
};

// The best line of a result, as a line of several.
RootLine BestLineOf(const SearchResult& result) {
  return RootLine{.move = result.best_move,
                  .score = result.score,
                  .bound = result.bound,
                  .exact = result.exact,
                  .proven = result.proven,
                  .depth = result.depth,
                  .pv = result.pv};
}

// What all workers of one search share.
struct SharedSearch {
  Position root;
  MoveList root_moves;  // distinct up to the root's symmetries (of `go searchmoves`, if given)
  SearchLimits limits;
  TimeBudget budget;
  Clock::time_point start;
  TranspositionTable& tt;
  std::atomic<bool>& stop;
  std::shared_ptr<const PatternWeights> eval_weights;
  int endgame_solver_plies;
  MovesInProgress* moves_in_progress;     // null with one thread
  std::atomic<bool> solving_root{false};  // the main worker's iteration solves the root
  // The hard limit while the root is solved: the proof's, then the exact value's (0: none).
  std::atomic<std::int64_t> solve_limit_ms{0};
  // The root is known to be won (the table proves it, or the last search proved the win two
  // plies ago): its proof is attempted whatever it typically costs, since the table holds
  // most of it.
  bool known_win = false;
  // Several lines were asked for (MultiPV > 1): they are ranked and reported as lines, even
  // when the root has only one move to search.
  bool several_lines = false;
  // The lines each iteration searches: MultiPV, at most root_moves.size().
  int line_count = 1;
  // root_moves are `go searchmoves`': some of the root's moves only.
  bool searchmoves = false;
  std::int64_t Elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  }
};

}  // namespace

class Worker {
 public:
  Worker(SharedSearch& shared, int index)
      : shared_(shared), index_(index), endgame_(shared.tt, nodes_, *shared.eval_weights) {
    root_scores_.fill(MoveOrderer::kNoValue);
  }

  // Iterative deepening; the main worker (index 0) also reports and keeps time.
  void Run(const SearchCallbacks* callbacks);

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  const SearchResult& result() const { return result_; }
  void set_nodes_of_all(std::function<std::uint64_t()> f) { nodes_of_all_ = std::move(f); }

 private:
  // Negamax with alpha-beta (fail-soft). Returns v from the side to move's view:
  // v <= alpha: an upper bound on the true value; v >= beta: a lower bound; otherwise exact
  // (for the given depth). When the remaining depth reaches the end of the game the value is
  // the exact final margin (no reductions below such a node). Returns 0 once stopped.
  int Search(const Position& position, const SymmetricKeys& keys, const EvalLink& link, int alpha,
             int beta, int depth, int ply, bool pv_node);
  EvalState StateOf(const Position& position, const EvalLink& link) const {
    const PatternWeights& weights = *shared_.eval_weights;
    return link.parent ? link.parent->After(position, link.move, weights)
                       : EvalState(position, weights);
  }
  bool Stopped() {
    if (shared_.stop.load(std::memory_order_relaxed)) return true;
    // Every 1024 nodes counted (leaves included), the main worker looks at the clock and
    // the node limit.
    if (index_ == 0 && nodes() >= next_check_) {
      next_check_ = nodes() + 1024;
      CheckLimits();
    }
    return shared_.stop.load(std::memory_order_relaxed);
  }
  void CheckLimits();
  // Every worker's nodes where the searcher gave their sum (the main worker), else its own.
  std::uint64_t NodesOfAll() const { return nodes_of_all_ ? nodes_of_all_() : nodes(); }
  // Whether the root's solve starts with the proof of its result: when asked (`go prove`);
  // in play, when the win is already known (its proof is then cheap), or when the last
  // iteration's score hints at a win and the exact value typically does not fit. Within the
  // exact value's reach the exact value is solved, as before: it proves the result too, and a
  // proof that fails (the position is not won) would cost the time the exact value needs. The
  // lost side's proof costs as much as the exact value and gains it nothing.
  bool ProofFirst(int plies_left, int score) const {
    if (shared_.limits.prove) return true;
    if (!ProvesFirst(shared_.limits)) return false;
    if (shared_.known_win) return true;
    return score > 0 &&
           !SolveFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
  }
  // Whether the iteration after `depth` (whose score is `score`) should solve the root: the
  // end is within the solver's reach (the proof's, when only the proof is asked for or the
  // win is known: the deeper iterations cost it more than their ordering saves) and the
  // solve's first stage (the proof, or the exact value) typically ends before the solve's
  // hard limit. Sets proof_first_ for that solve.
  bool SolveNext(int depth, int plies_left, int score) {
    const int reach =
        shared_.limits.prove || shared_.known_win ? params::kProofReach : params::kSolverReach;
    if (depth + 1 >= plies_left || depth + 1 + reach < plies_left) return false;
    proof_first_ = ProofFirst(plies_left, score);
    if (!proof_first_) {
      return SolveFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
    }
    return shared_.known_win ||
           ProofFitsBudget(shared_.budget, plies_left, shared_.Elapsed(), NodesOfAll());
  }
  // What the root's solve has proven so far: lower <= value <= upper.
  struct RootBounds {
    int lower = -kInfiniteValue;
    int upper = kInfiniteValue;
  };
  bool ProveRoot(const SymmetricKeys& keys, int guess, RootBounds& bounds, Move& best);
  int SolveRoot(const SymmetricKeys& keys, int guess, RootBounds bounds, Move& best);
  // The line a finished proof of the result of the root's moves (root_moves_) gives: its
  // move is `best`, or `fallback` (the iterations' move) for a loss, where no move is better
  // than another by the proof.
  RootLine ProofLine(const RootBounds& bounds, Move best, Move fallback);
  // Takes a finished proof of the root's result as the result so far.
  void RecordProof(const RootBounds& bounds, Move best);
  // Step 0. Aspiration: the root's moves searched to `depth` in a narrow window around
  // `guess` (the line's last score), widened on failure. Returns the value, or 0 if stopped.
  int AspirationSearch(const SymmetricKeys& keys, int depth, int guess, int line,
                       const SearchCallbacks* callbacks);

  // MultiPV. Line `line` (0: the best) searches the root's moves less those of the
  // iteration's earlier lines.
  void SelectLine(int line);
  // The lines after the first, once the first is result_: searched as it was, each one
  // taken as it ends. At the end of the game each is solved (`proof_only`: proven only, as
  // the first was). False if stopped.
  bool SearchLaterLines(const SymmetricKeys& keys, int depth, bool proof_only,
                        const SearchCallbacks* callbacks);
  bool SolveLine(const SymmetricKeys& keys, int line, bool proof_only);
  // Takes lines_[0, done) as the result's lines, then the last iteration's other moves'.
  void CommitLines(int done);
  // The score line `line` had in the last iteration (the guess its search starts from).
  int PreviousScore(int line) const;
  void ReportLines(const SearchCallbacks* callbacks);
  // Whether this worker's result ends the search: an exact value, or a proof when only the
  // proof was asked for.
  bool ResultIsFinal() const {
    return result_.exact || (shared_.limits.prove && result_.proven != ProvenResult::kUnknown);
  }
  int FrontierSearch(const Position& position, const EvalState& eval, int beta);
  std::vector<Move> PrincipalVariation(Move first);
  void CountNode() {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void UpdatePv(int ply, Move move) {
    pv_[ply][ply] = move;
    for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
  }

  SharedSearch& shared_;
  const int index_;
  std::atomic<std::uint64_t> nodes_{0};
  std::function<std::uint64_t()> nodes_of_all_;
  const SearchCallbacks* callbacks_ = nullptr;  // the main worker's, for its polls
  std::uint64_t next_check_ = 1024;
  EndgameSolver endgame_;
  int seldepth_ = 0;
  // The root's solve, when SolveNext chose it, starts with the proof (ProofFirst).
  bool proof_first_ = false;
  MoveHistory history_;
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 2> pv_length_{};
  std::array<int, kNumMoveIndices> root_scores_;  // last iteration's value per root move
  // The root's moves the current line searches (SelectLine); their table entry is stored
  // only when they are all of the root's (whole_root_), and a table cutoff at the root must
  // name one of them when lines or searchmoves restrict them (strict_root_).
  MoveList root_moves_;
  bool whole_root_ = true;
  bool strict_root_ = false;
  std::vector<RootLine> lines_;  // the current iteration's lines, best first (MultiPV)
  SearchResult result_;
};

void Worker::CheckLimits() {
  if (callbacks_ && callbacks_->on_poll) callbacks_->on_poll();
  const std::int64_t hard_ms = shared_.solving_root.load(std::memory_order_relaxed)
                                   ? shared_.solve_limit_ms.load(std::memory_order_relaxed)
                                   : shared_.budget.hard_ms;
  if (hard_ms > 0 && shared_.Elapsed() >= hard_ms) {
    shared_.stop.store(true, std::memory_order_relaxed);
  }
  if (shared_.limits.nodes > 0 && nodes_of_all_ && nodes_of_all_() >= shared_.limits.nodes) {
    shared_.stop.store(true, std::memory_order_relaxed);
  }
}

int Worker::Search(const Position& position, const SymmetricKeys& keys, const EvalLink& link,
                   int alpha, int beta, int depth, int ply, bool pv_node) {
  assert(-kInfiniteValue <= alpha && alpha < beta && beta <= kInfiniteValue);
  assert(ply <= kMaxPly);
  pv_length_[ply] = ply;
  seldepth_ = std::max(seldepth_, ply);
  CountNode();

  // Step 1. The end of the game: the exact final margin, tie-break included.
  if (position.IsGameOver()) return FinalValue(position);

  // Step 2. When the remaining plies fit the depth, solve to the end, exactly.
  const bool solving = depth >= position.PliesLeft();
  if (solving) {
    depth = position.PliesLeft();
    // Step 2a. Near the end, the lean solver (a value without a move, so never at the root).
    if (depth <= shared_.endgame_solver_plies && ply > 0) {
      seldepth_ = std::max(seldepth_, ply + depth);
      return endgame_.Solve(position, alpha, beta, [this] { return Stopped(); });
    }
    // The shortcuts below return a value without a move, so never at the root, which must
    // name the move that achieves its value (a table cutoff at the root once returned the
    // right value with a stale move: a won endgame was lost).
    // Step 2b. The last move of the game: the best final margin, nothing to order or store.
    if (depth == 1 && ply > 0) {
      int tried = 0;
      const int value = SolveLastMove(position, beta, tried);
      nodes_.store(nodes() + tried, std::memory_order_relaxed);
      return value;
    }
    // Step 2c. What the margin can still become: no need to search past a window it can
    // never reach.
    if (ply > 0) {
      const MarginBounds bounds = FinalMarginBounds(position);
      if (bounds.upper <= alpha) return bounds.upper;
      if (bounds.lower >= beta) return bounds.lower;
    }
  }

  // Step 3. The horizon: the static evaluation, incremental from the parent's patterns.
  if (depth <= 0) return StateOf(position, link).Evaluate(position, *shared_.eval_weights);
  if (Stopped()) return 0;

  // Step 3a. Frontier nodes evaluate their children directly: more nodes, but no table or
  // ordering cost (measured: see NOTES.md, "Frontier nodes").
  if (depth == 1 && !solving && !pv_node && ply > 0) {
    return FrontierSearch(position, StateOf(position, link), beta);
  }

  // Step 4. Transposition table. Entries with depth >= plies left are exact solves, valid at
  // any depth; the move is stored in the canonical frame.
  const CanonicalKey canonical = keys.Canonical();
  TTEntry entry;
  Move tt_move;
  if (shared_.tt.Probe(canonical.key, entry)) {
    tt_move = TransformMove(entry.move, InverseBoardSymmetry(canonical.symmetry));
    if (!tt_move.IsNone() && !position.IsLegal(tt_move)) tt_move = Move::None();
    const bool fail_high = entry.ProvesAtLeast(beta);
    const bool fail_low = entry.ProvesAtMost(alpha);
    if (!pv_node && entry.depth >= depth && (fail_high || fail_low)) {
      if (ply > 0) return entry.value;
      // At the root a cutoff must name its move: a fail-high entry holds the move that reached
      // its value (a fail-low needs none). Without a move, search.
      if (fail_low) return entry.value;
      if (!tt_move.IsNone() && (!strict_root_ || std::find(root_moves_.begin(), root_moves_.end(),
                                                           tt_move) != root_moves_.end())) {
        pv_length_[0] = 0;
        UpdatePv(0, tt_move);
        return entry.value;
      }
    }
  }

  // Step 5. Moves, best first: TT move, moves that score or spoil a divercité now, killers,
  // history. At the root, one move per symmetry class.
  const EvalState eval = StateOf(position, link);
  MoveList moves = ply == 0 ? root_moves_ : LegalMoves(position);
  MoveOrderer orderer(position, moves, tt_move, history_, ply);
  if (ply == 0) orderer.PreferRootOrder(root_scores_);
  // While solving, ordering by the evaluation after each move: fewer nodes, and less time
  // from kEvalOrderingMinDepth up (measured: see NOTES.md, "Evaluation ordering while
  // solving").
  if (ply > 0 && solving && depth >= params::kEvalOrderingMinDepth) {
    orderer.PreferEvaluation(position, eval, *shared_.eval_weights);
  }

  const Player us = position.SideToMove();
  // Step 5a. Enhanced transposition cutoff: while solving, a child already proven good
  // enough in the table ends the node before anything is searched (measured: see NOTES.md,
  // "Enhanced transposition cutoffs").
  if (solving && !pv_node && depth >= params::kEtcMinDepth) {
    for (const Move move : moves) {
      SymmetricKeys child_keys = keys;
      child_keys.Play(move, us);
      TTEntry child_entry;
      if (shared_.tt.Probe(child_keys.Canonical().key, child_entry) &&
          child_entry.depth >= depth - 1 && child_entry.ProvesAtMost(-beta)) {
        pv_length_[ply + 1] = ply + 1;
        UpdatePv(ply, move);  // the move that reaches the value, for the root's sake
        return -child_entry.value;
      }
    }
  }

  const int original_alpha = alpha;
  int best_value = -kInfiniteValue;
  Move best_move;
  int searched = 0;
  // Searches one move (`quiet` as the orderer said when it gave it); true on a cutoff.
  auto search_move = [&](Move move, bool quiet) {
    SymmetricKeys child_keys = keys;
    child_keys.Play(move, us);
    shared_.tt.Prefetch(child_keys.Canonical().key);
    Position child = position;
    child.Play(move);
    const EvalLink child_link{&eval, move};

    // Step 6. Principal variation search with late move reductions. The first move gets the
    // full window; the others a null window, reduced when late and quiet, re-searched at
    // full depth and then full window when they beat alpha. Never while solving: the value
    // must stay exact.
    int value;
    if (searched == 0) {
      value = -Search(child, child_keys, child_link, -beta, -alpha, depth - 1, ply + 1, pv_node);
    } else {
      int reduction = 0;
      if (!solving && depth >= params::kLmrMinDepth && searched >= params::kLmrFirstReducedMove &&
          quiet) {
        reduction = ReductionTable()[depth][std::min(searched, kMaxMoves)] - (pv_node ? 1 : 0);
        reduction = std::clamp(reduction, 0, depth - 2);
      }
      value = -Search(child, child_keys, child_link, -alpha - 1, -alpha, depth - 1 - reduction,
                      ply + 1, false);
      if (value > alpha && reduction > 0) {
        value =
            -Search(child, child_keys, child_link, -alpha - 1, -alpha, depth - 1, ply + 1, false);
      }
      if (value > alpha && value < beta && pv_node) {
        value = -Search(child, child_keys, child_link, -beta, -alpha, depth - 1, ply + 1, true);
      }
    }
    ++searched;
    if (shared_.stop.load(std::memory_order_relaxed)) return true;
    if (ply == 0) root_scores_[move.Index()] = value;

    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = move;
        UpdatePv(ply, move);
        if (value >= beta) {
          // Step 7. A cutoff: remember the move for siblings (killers) and for the whole
          // search (history), and punish the quiet moves tried before it.
          if (quiet) {
            history_.RecordCutoff(us, ply, move, depth, orderer.TriedQuietMoves());
          }
          return true;
        }
        alpha = value;
      }
    }
    return false;
  };

  // Step 6a. With several threads, a node defers the moves another thread is searching
  // (Simplified ABDADA), and comes back to them once its other moves are done.
  MovesInProgress* const in_progress =
      depth >= params::kDeferMinDepth ? shared_.moves_in_progress : nullptr;
  // A deferred move keeps the orderer's word on it: by the time it is searched, the orderer
  // has given others.
  absl::InlinedVector<std::pair<Move, bool>, 16> deferred;
  bool cut = false;
  for (Move move; !cut && orderer.Next(move);) {
    if (in_progress && searched > 0) {
      const std::uint64_t move_key = MovesInProgress::KeyOf(position.Key(), move);
      if (in_progress->Contains(move_key)) {
        deferred.emplace_back(move, orderer.LastWasQuiet());
        continue;
      }
      in_progress->Add(move_key);
      cut = search_move(move, orderer.LastWasQuiet());
      in_progress->Remove(move_key);
    } else {
      cut = search_move(move, orderer.LastWasQuiet());
    }
  }
  for (size_t i = 0; !cut && i < deferred.size(); ++i) {
    cut = search_move(deferred[i].first, deferred[i].second);
  }
  if (shared_.stop.load(std::memory_order_relaxed)) return 0;

  // Step 8. Store the result in the canonical frame (at the root, only when all of its moves
  // were searched: the value of some of them is no bound on the root's).
  if (ply > 0 || whole_root_) {
    shared_.tt.Store(canonical.key, TransformMove(best_move, canonical.symmetry), depth, best_value,
                     BoundOfResult(best_value, original_alpha, beta));
  }
  return best_value;
}

// A null-window node one ply above the horizon: the best evaluation after one move, stopping
// at the first that reaches beta. Moves that gain points now are tried first.
int Worker::FrontierSearch(const Position& position, const EvalState& eval, int beta) {
  int best = -kInfiniteValue;
  // Only a move next to a piece can score or spoil: those first, then the others, each group
  // in generation order (colour, kind, cell), generated straight from the cells of each group.
  // The children's evaluations are incremental from this node's patterns.
  const Bitboard occupied = position.Occupied();
  Bitboard next_to_pieces = 0;
  for (Bitboard pieces = occupied; pieces;) next_to_pieces |= Neighbours(PopLowestCell(pieces));
  const Bitboard empty = position.Empty();
  const Player us = position.SideToMove();
  const PatternWeights& weights = *shared_.eval_weights;
  for (const Bitboard group : {empty & next_to_pieces, empty & ~next_to_pieces}) {
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        if (position.PiecesLeft(us, kind, colour) == 0) continue;
        for (Bitboard cells = group & CellsOfKind(kind); cells;) {
          const Move move(PopLowestCell(cells), colour);
          Position child = position;
          child.Play(move);
          CountNode();
          best = std::max(best, child.IsGameOver() ? -FinalValue(child)
                                                   : -eval.EvaluateAfter(child, move, weights));
          if (best >= beta) return best;
        }
      }
    }
  }
  return best;
}

// Proves the root's result with null-window searches at its boundaries (value.h): "value >=
// kWinBoundary" and "value >= kDrawBoundary", the one the previous iteration's score `guess`
// points to first: a win's proof needs one winning move at each of the winner's nodes, far
// fewer nodes than the exact value's, whose proof that the value is below v + 1 is most of
// its tree (NOTES.md, "Issue 23"). Narrows `bounds` with each fail-soft answer; `best` gets a
// move that reaches the lower bound after each fail-high (a winning move, or a drawing one).
// Returns false if stopped, the bounds then meaning only what they said before.
bool Worker::ProveRoot(const SymmetricKeys& keys, int guess, RootBounds& bounds, Move& best) {
  const Position& root = shared_.root;
  const int depth = root.PliesLeft();
  auto test = [&](int beta) {
    const int value = Search(root, keys, EvalLink{}, beta - 1, beta, depth, 0, false);
    if (shared_.stop.load(std::memory_order_relaxed)) return false;
    if (value >= beta) {
      bounds.lower = std::max(bounds.lower, value);
      best = pv_[0][0];
    } else {
      bounds.upper = std::min(bounds.upper, value);
    }
    return true;
  };
  const int first = guess > 0 ? kWinBoundary : kDrawBoundary;
  if (!test(first)) return false;
  if (ResultOfBounds(bounds.lower, bounds.upper) != ProvenResult::kUnknown) return true;
  return test(first == kWinBoundary ? kDrawBoundary : kWinBoundary);
}

// Solves the root exactly with null-window searches (MTD(f)): exact values are whole points
// (multiples of 100), so each test "value >= beta" halves nothing but moves the bound by at
// least a point, starting from the guess of the last iteration, within what `bounds` (a
// proof's) already say. Returns the exact value, or a meaningless value if stopped; `best`
// gets the move that achieves it (it must hold a move reaching bounds.lower if that is set).
int Worker::SolveRoot(const SymmetricKeys& keys, int guess, RootBounds bounds, Move& best) {
  const Position& root = shared_.root;
  const int depth = root.PliesLeft();
  int lower = bounds.lower, upper = bounds.upper;
  int value = std::clamp(100 * ((guess + (guess >= 0 ? 50 : -50)) / 100), lower, upper);
  while (lower < upper) {
    const int beta = value == lower ? value + 100 : value;
    value = Search(root, keys, EvalLink{}, beta - 1, beta, depth, 0, false);
    if (shared_.stop.load(std::memory_order_relaxed)) return value;
    if (value >= beta) {
      lower = value;
      best = pv_[0][0];
    } else {
      upper = value;
    }
  }
  return value;
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

void Worker::RecordProof(const RootBounds& bounds, Move best) {
  // A lost root has no move better than another by this proof: the iterations' move stays.
  RootLine line = ProofLine(bounds, best, result_.best_move);
  result_.depth = line.depth;
  result_.proven = line.proven;
  result_.score = line.score;
  result_.bound = line.bound;
  if (line.exact) result_.exact = true;
  result_.best_move = line.move;
  result_.pv = std::move(line.pv);
  result_.nodes = NodesOfAll();
  result_.time_ms = shared_.Elapsed();
}

int Worker::AspirationSearch(const SymmetricKeys& keys, int depth, int guess, int line,
                             const SearchCallbacks* callbacks) {
  int window = params::kAspirationWindow;
  int alpha = -kInfiniteValue, beta = kInfiniteValue;
  if (depth >= 4) {
    alpha = std::max(guess - window, -kInfiniteValue);
    beta = std::min(guess + window, kInfiniteValue);
  }
  while (true) {
    const int score = Search(shared_.root, keys, EvalLink{}, alpha, beta, depth, 0, true);
    if (shared_.stop.load(std::memory_order_relaxed)) return 0;
    Bound bound = Bound::kExact;
    if (score <= alpha) {
      bound = Bound::kUpper;
      alpha = std::max(score - window, -kInfiniteValue);
    } else if (score >= beta) {
      bound = Bound::kLower;
      beta = std::min(score + window, kInfiniteValue);
    } else {
      return score;
    }
    window *= 4;
    if (index_ == 0 && callbacks && callbacks->on_iteration && shared_.Elapsed() > 1000) {
      const SearchResult so_far{.best_move = pv_[0][0],
                                .score = score,
                                .depth = depth,
                                .nodes = NodesOfAll(),
                                .time_ms = shared_.Elapsed(),
                                .pv = {},
                                .lines = {}};
      IterationInfo info = IterationInfoOf(so_far, seldepth_, shared_.tt.HashFull(), bound);
      if (shared_.several_lines) info.multipv = line + 1;
      callbacks->on_iteration(info);
    }
  }
}

void Worker::SelectLine(int line) {
  root_moves_.clear();
  for (const Move move : shared_.root_moves) {
    const auto taken = [move](const RootLine& earlier) { return earlier.move == move; };
    if (std::none_of(lines_.begin(), lines_.begin() + line, taken)) root_moves_.Add(move);
  }
  whole_root_ = line == 0 && !shared_.searchmoves;
  strict_root_ = shared_.several_lines || shared_.searchmoves;
}

bool Worker::SearchLaterLines(const SymmetricKeys& keys, int depth, bool proof_only,
                              const SearchCallbacks* callbacks) {
  lines_[0] = BestLineOf(result_);
  CommitLines(1);
  for (int line = 1; line < shared_.line_count; ++line) {
    SelectLine(line);
    if (depth == shared_.root.PliesLeft()) {
      if (!SolveLine(keys, line, proof_only)) return false;
    } else {
      const int score = AspirationSearch(keys, depth, PreviousScore(line), line, callbacks);
      if (shared_.stop.load(std::memory_order_relaxed)) return false;
      lines_[line] =
          RootLine{.move = pv_[0][0],
                   .score = score,
                   .depth = depth,
                   .pv = std::vector<Move>(pv_[0].begin(), pv_[0].begin() + pv_length_[0])};
      // A later line's search may find more than an earlier one's (the windows and the
      // table differ): the lines so far are ranked by score, and the best is the result.
      std::stable_sort(lines_.begin(), lines_.begin() + line + 1,
                       [](const RootLine& a, const RootLine& b) { return a.score > b.score; });
      result_.best_move = lines_[0].move;
      result_.score = lines_[0].score;
      result_.pv = lines_[0].pv;
    }
    CommitLines(line + 1);
  }
  return true;
}

// A later line at the end of the game, solved as the first line was: the proof first when
// the first line's came first, then the exact value if it typically fits (not `proof_only`,
// not `go prove`).
bool Worker::SolveLine(const SymmetricKeys& keys, int line, bool proof_only) {
  const TimeBudget& budget = shared_.budget;
  const int plies_left = shared_.root.PliesLeft();
  const int guess = PreviousScore(line);
  RootBounds bounds;
  Move move;
  if (shared_.limits.prove || proof_first_) {
    if (index_ == 0) {
      shared_.solve_limit_ms.store(
          ProofLimitMs(budget, plies_left, shared_.Elapsed(), NodesOfAll()),
          std::memory_order_relaxed);
    }
    if (!ProveRoot(keys, guess, bounds, move)) return false;
    // The iterations' move for a lost line: the last iteration's line that is left.
    const Move fallback =
        std::ssize(result_.lines) > line ? result_.lines[line].move : root_moves_[0];
    lines_[line] = ProofLine(bounds, move, fallback);
    if (lines_[line].exact || shared_.limits.prove || proof_only) return true;
    if (index_ == 0 && !SolveFitsBudget(budget, plies_left, shared_.Elapsed(), NodesOfAll())) {
      return true;
    }
  }
  if (index_ == 0) {
    shared_.solve_limit_ms.store(budget.SolveLimitMs(), std::memory_order_relaxed);
    shared_.solving_root.store(true, std::memory_order_relaxed);
  }
  const int score = SolveRoot(keys, guess, bounds, move);
  if (shared_.stop.load(std::memory_order_relaxed)) return false;
  lines_[line] = RootLine{.move = move,
                          .score = score,
                          .exact = true,
                          .proven = ResultOfValue(score),
                          .depth = plies_left,
                          .pv = PrincipalVariation(move)};
  return true;
}

void Worker::CommitLines(int done) {
  std::vector<RootLine> lines(lines_.begin(), lines_.begin() + done);
  for (const RootLine& earlier : result_.lines) {
    if (std::ssize(lines) >= shared_.line_count) break;
    const auto same_move = [&earlier](const RootLine& line) { return line.move == earlier.move; };
    if (std::none_of(lines.begin(), lines.begin() + done, same_move)) lines.push_back(earlier);
  }
  result_.lines = std::move(lines);
}

int Worker::PreviousScore(int line) const {
  return std::ssize(result_.lines) > line ? result_.lines[line].score : lines_[line - 1].score;
}

void Worker::ReportLines(const SearchCallbacks* callbacks) {
  if (index_ != 0 || !callbacks || !callbacks->on_iteration) return;
  result_.nodes = NodesOfAll();
  result_.time_ms = shared_.Elapsed();
  for (int line = 1; line <= std::ssize(result_.lines); ++line) {
    callbacks->on_iteration(LineInfoOf(result_, line, seldepth_, shared_.tt.HashFull()));
  }
}

void Worker::Run(const SearchCallbacks* callbacks) {
  callbacks_ = callbacks;
  const Position& root = shared_.root;
  const SymmetricKeys keys = SymmetricKeys::Of(root);
  const int plies_left = root.PliesLeft();
  const int max_depth =
      shared_.limits.depth > 0 ? std::min(shared_.limits.depth, plies_left) : plies_left;
  const bool several_lines = shared_.several_lines;
  lines_.resize(shared_.line_count);
  result_.best_move = shared_.root_moves[0];
  int previous_score = 0;
  int stable_iterations = 0;
  // Helpers start one ply deeper on odd indices, so threads spread over depths.
  for (int depth = 1 + (index_ % 2); depth <= max_depth; ++depth) {
    seldepth_ = 0;
    SelectLine(0);
    int score = 0;
    Move solved_move;
    if (depth == plies_left) {
      const TimeBudget& budget = shared_.budget;
      RootBounds bounds;
      if (shared_.limits.prove || proof_first_) {
        // Step 0a. The result first: it is all a game counts, and far cheaper to prove for
        // the winner than the exact margin; the exact value follows if time remains, its
        // MTD(f) starting from the proof's bounds over the proof's table. A proof that runs
        // much past its typical cost is abandoned (the position is likely not won): the
        // iterations' move is played.
        if (index_ == 0) {
          shared_.solve_limit_ms.store(
              shared_.known_win ? budget.SolveLimitMs()
                                : ProofLimitMs(budget, plies_left, shared_.Elapsed(), NodesOfAll()),
              std::memory_order_relaxed);
          shared_.solving_root.store(true, std::memory_order_relaxed);
        }
        const int guess = shared_.known_win ? kWinBoundary : previous_score;
        if (!ProveRoot(keys, guess, bounds, solved_move)) break;
        RecordProof(bounds, solved_move);
        // With several lines, they are reported together once all are proven.
        if (!several_lines && index_ == 0 && callbacks && callbacks->on_iteration) {
          callbacks->on_iteration(IterationInfoOf(result_, seldepth_, shared_.tt.HashFull()));
        }
        // The exact value only if it typically fits what is left (it adds nothing to a won
        // game's result); otherwise the proven result and its move are the answer.
        const bool final = ResultIsFinal();
        const bool proof_only =
            !final && index_ == 0 &&
            !SolveFitsBudget(budget, plies_left, shared_.Elapsed(), NodesOfAll());
        if (final || proof_only) {
          if (several_lines) {
            if (!SearchLaterLines(keys, depth, proof_only, callbacks)) break;
            ReportLines(callbacks);
          }
          if (proof_only || !shared_.limits.infinite) {
            shared_.stop.store(true, std::memory_order_relaxed);
          }
          break;
        }
      }
      if (index_ == 0) {
        shared_.solve_limit_ms.store(budget.SolveLimitMs(), std::memory_order_relaxed);
        shared_.solving_root.store(true, std::memory_order_relaxed);
      }
      score = SolveRoot(keys, previous_score, bounds, solved_move);
    } else {
      score = AspirationSearch(keys, depth, previous_score, 0, callbacks);
    }
    if (shared_.stop.load(std::memory_order_relaxed)) break;

    // A finished iteration: its best move and line are the result so far.
    const Move best = depth == plies_left ? solved_move : pv_[0][0];
    stable_iterations = best == result_.best_move ? stable_iterations + 1 : 0;
    result_.best_move = best;
    result_.score = score;
    result_.depth = depth;
    result_.exact = depth >= plies_left;
    result_.proven = result_.exact ? ResultOfValue(score) : ProvenResult::kUnknown;
    result_.bound = Bound::kExact;
    if (depth == plies_left) {
      result_.pv = PrincipalVariation(best);
    } else {
      result_.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
    }
    // The other lines, each without the moves of those above it.
    if (several_lines && !SearchLaterLines(keys, depth, false, callbacks)) break;
    if (index_ != 0) {
      // A helper's solve ends the search: its result is chosen (Searcher::Search), and the
      // main worker has nothing left to add. `go infinite` still waits for `stop`.
      if (ResultIsFinal()) {
        if (!shared_.limits.infinite) shared_.stop.store(true, std::memory_order_relaxed);
        break;
      }
      if (SolveNext(depth, plies_left, score)) depth = plies_left - 1;  // as the main worker does
      continue;
    }

    result_.nodes = NodesOfAll();
    result_.time_ms = shared_.Elapsed();
    if (several_lines) {
      ReportLines(callbacks);
    } else if (callbacks && callbacks->on_iteration) {
      callbacks->on_iteration(IterationInfoOf(result_, seldepth_, shared_.tt.HashFull()));
    }
    // Step 9. Time: stop when an exact result is in, or when the next iteration would likely
    // run past the budget, scaled by how settled the best move and the score are.
    if (result_.exact) break;
    // A fixed move time (soft == hard) is used in full; only a clock's budget flexes.
    if (shared_.budget.soft_ms > 0 && shared_.budget.soft_ms < shared_.budget.hard_ms) {
      const double factor = TimeFactors::BestMoveStability(stable_iterations) *
                            TimeFactors::ScoreDrop(previous_score, score);
      if (shared_.Elapsed() >= shared_.budget.soft_ms * factor * kNewIterationShare) break;
    }
    previous_score = score;
    // Once the end is within reach, the evaluation's iterations teach little: solve, unless
    // the solve cannot end before the hard limit (deeper iterations then use the time).
    if (max_depth == plies_left && SolveNext(depth, plies_left, score)) depth = plies_left - 1;
  }
}

// The line from the root along the table's moves, starting with `first`.
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

IterationInfo IterationInfoOf(const SearchResult& result, int seldepth, int hashfull, Bound bound) {
  IterationInfo info;
  info.depth = result.depth;
  info.seldepth = seldepth;
  info.score = result.score;
  info.bound = bound;
  info.exact = result.exact;
  info.proven = result.proven;
  if (bound == Bound::kExact) info.bound = result.bound;
  info.nodes = result.nodes;
  info.time_ms = result.time_ms;
  info.hashfull = hashfull;
  info.pv = result.pv.empty() ? std::vector<Move>{result.best_move} : result.pv;
  return info;
}

IterationInfo LineInfoOf(const SearchResult& result, int multipv, int seldepth, int hashfull) {
  const RootLine& line = result.lines[multipv - 1];
  const SearchResult one{.best_move = line.move,
                         .score = line.score,
                         .exact = line.exact,
                         .proven = line.proven,
                         .bound = line.bound,
                         .depth = line.depth,
                         .nodes = result.nodes,
                         .time_ms = result.time_ms,
                         .pv = line.pv,
                         .lines = {}};
  IterationInfo info = IterationInfoOf(one, seldepth, hashfull);
  info.multipv = multipv;
  return info;
}

namespace {

// The root's moves a search ranks: one per symmetry class, of `searchmoves` (the legal ones)
// if it names any.
MoveList RootMoves(const Position& root, const std::vector<Move>& searchmoves) {
  MoveList named;
  for (const Move move : searchmoves) {
    if (root.IsLegal(move)) named.Add(move);
  }
  return named.empty() ? DistinctMoves(root) : DistinctMoves(root, named);
}

}  // namespace

Searcher::Searcher(std::size_t hash_megabytes) { tt_.Resize(hash_megabytes); }
Searcher::~Searcher() = default;

bool Searcher::SetHashMegabytes(std::size_t megabytes) { return tt_.Resize(megabytes); }

void Searcher::NewGame() {
  tt_.Clear();
  won_at_ply_ = -kTotalPlies;
}

SearchResult Searcher::Search(const Position& root, const SearchLimits& limits,
                              const SearchCallbacks& callbacks) {
  SearchResult result;
  if (root.IsGameOver()) return result;

  if (options_.threads > 1 && !moves_in_progress_) {
    moves_in_progress_ = std::make_unique<MovesInProgress>();
  }
  SharedSearch shared{root,
                      RootMoves(root, limits.searchmoves),
                      limits,
                      {},
                      Clock::now(),
                      tt_,
                      stop_,
                      options_.eval_weights,
                      options_.endgame_solver_plies,
                      options_.threads > 1 ? moves_in_progress_.get() : nullptr};
  shared.budget = PlanTime(limits, root.SideToMove(), root.Ply(), options_.move_overhead_ms);
  shared.searchmoves =
      !limits.searchmoves.empty() && shared.root_moves.size() < DistinctMoves(root).size();
  shared.several_lines = options_.multipv > 1;
  shared.line_count = std::clamp(options_.multipv, 1, shared.root_moves.size());
  // A win known for the root is no win of some of its moves.
  if (ProvesFirst(limits) && !shared.searchmoves) {
    TTEntry entry;
    shared.known_win = won_at_ply_ == root.Ply() - 2 ||
                       (tt_.Probe(SymmetricKeys::Of(root).Canonical().key, entry) &&
                        entry.depth >= root.PliesLeft() && entry.ProvesAtLeast(kWinBoundary));
  }
  tt_.NewSearch();

  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < std::max(1, options_.threads); ++i) {
    workers.push_back(std::make_unique<Worker>(shared, i));
  }
  auto nodes_of_all = [&workers] {
    std::uint64_t total = 0;
    for (const auto& worker : workers) total += worker->nodes();
    return total;
  };
  for (auto& worker : workers) worker->set_nodes_of_all(nodes_of_all);

  std::vector<std::thread> helpers;
  for (size_t i = 1; i < workers.size(); ++i) {
    helpers.emplace_back([&worker = *workers[i]] { worker.Run(nullptr); });
  }
  workers[0]->Run(&callbacks);
  // `go infinite` waits for `stop` even when the search has nothing left to do.
  while (limits.infinite && !stop_.load(std::memory_order_relaxed)) {
    if (callbacks.on_poll) callbacks.on_poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  stop_.store(true, std::memory_order_relaxed);
  for (std::thread& helper : helpers) helper.join();

  // The deepest finished iteration of any worker (an exact solve is the deepest, then a
  // proof of the result), the main worker's at equal depth: a helper one ply ahead when the
  // time ran out knows more. With several lines, then the one with more lines of that
  // iteration (a worker stopped within it keeps older lines after the new ones).
  auto knowledge = [](const SearchResult& r) {
    const auto of_iteration =
        std::count_if(r.lines.begin(), r.lines.end(),
                      [&r](const RootLine& line) { return line.depth == r.depth; });
    return (4 * r.depth + (r.exact                              ? 2
                           : r.proven != ProvenResult::kUnknown ? 1
                                                                : 0)) *
               (kMaxLines + 1) +
           of_iteration;
  };
  const Worker* chosen = workers[0].get();
  for (const auto& worker : workers) {
    if (knowledge(worker->result()) > knowledge(chosen->result())) chosen = worker.get();
  }
  result = chosen->result();
  // Lines were asked for: a search stopped before its first line ended has its move's.
  if (shared.several_lines && result.lines.empty()) result.lines.push_back(BestLineOf(result));
  result.nodes = nodes_of_all();
  result.time_ms = shared.Elapsed();
  won_at_ply_ = result.proven == ProvenResult::kWin ? root.Ply() : -kTotalPlies;
  ClearStop();
  return result;
}

}  // namespace divercite
