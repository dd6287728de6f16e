// One thread's search (a Worker) and what the threads of a search share. Internal to the
// search: node_search.cc holds the node search, root_search.cc the iterations and the lines
// of the root, root_solve.cc the root's solve, searcher.cc the threads.
#ifndef DIVERCITE_SEARCH_WORKER_H_
#define DIVERCITE_SEARCH_WORKER_H_

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/canonical_key.h"
#include "engine/move.h"
#include "engine/position.h"
#include "engine/symmetry.h"
#include "search/endgame.h"
#include "search/move_order.h"
#include "search/moves_in_progress.h"
#include "search/network.h"
#include "search/network_eval_state.h"
#include "search/root_moves.h"
#include "search/search.h"
#include "search/search_limits.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "search/value.h"

namespace divercite {

using SearchClock = std::chrono::steady_clock;

// What all workers of one search share.
struct SharedSearch {
  Position root;
  MoveList root_moves;  // distinct up to the root's symmetries (of `go searchmoves`, if given)
  SearchLimits limits;
  TimeBudget budget;
  SearchClock::time_point start;
  TranspositionTable& tt;
  std::atomic<bool>& stop;
  std::shared_ptr<const NetworkWeights> eval_weights;
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
    return std::chrono::duration_cast<std::chrono::milliseconds>(SearchClock::now() - start)
        .count();
  }
  bool StopRequested() const { return stop.load(std::memory_order_relaxed); }
  void RequestStop() { stop.store(true, std::memory_order_relaxed); }
};

// How a node finds its evaluation state: made from its parent's after the move that led to
// it, or from scratch at the root (parent null). A node makes it only once it needs it: a node
// that ends on the table or in the solver never does.
struct EvalLink {
  const NetworkEvalState* parent = nullptr;
  Move move;
};

class Worker {
 public:
  Worker(SharedSearch& shared, int index);

  // Iterative deepening; the main worker (index 0) also reports and keeps time.
  void Run(const SearchCallbacks* callbacks);

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  const SearchResult& result() const { return result_; }
  void set_nodes_of_all(std::function<std::uint64_t()> f) { nodes_of_all_ = std::move(f); }

 private:
  // --- The node search (node_search.cc) ---

  // Search() from the root.
  int SearchRoot(const SymmetricKeys& keys, int alpha, int beta, int depth, bool pv_node);
  // Negamax with alpha-beta (fail-soft). Returns v from the side to move's view:
  // v <= alpha: an upper bound on the true value; v >= beta: a lower bound; otherwise exact
  // (for the given depth). When the remaining depth reaches the end of the game the value is
  // the exact final margin (no reductions below such a node). Returns 0 once stopped.
  int Search(const Position& position, const SymmetricKeys& keys, const EvalLink& link, int alpha,
             int beta, int depth, int ply, bool pv_node);
  // A null-window node one ply above the horizon.
  int FrontierSearch(const Position& position, const NetworkEvalState& eval, int beta, int ply);
  const NetworkWeights& Weights() const { return *shared_.eval_weights; }
  NetworkEvalState StateOf(const Position& position, const EvalLink& link) const {
    return link.parent ? link.parent->After(position, link.move, Weights())
                       : NetworkEvalState(position, Weights());
  }
  // Whether the search must stop. Every kNodesBetweenChecks nodes counted (leaves included),
  // the main worker first looks at the clock and the node limit.
  bool PollStop() {
    if (shared_.StopRequested()) return true;
    if (index_ == 0 && nodes() >= next_check_) {
      next_check_ = nodes() + params::kNodesBetweenChecks;
      CheckLimits();
    }
    return shared_.StopRequested();
  }
  void CheckLimits();
  void CountNode() {
    nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  void UpdatePv(int ply, Move move) {
    pv_[ply][ply] = move;
    for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
  }

  // --- The root: iterations, aspiration, lines (root_search.cc) ---

  // Every worker's nodes where the searcher gave their sum (the main worker), else its own.
  std::uint64_t NodesOfAll() const { return nodes_of_all_ ? nodes_of_all_() : nodes(); }
  // Line `line` of an iteration of the evaluation to `depth` (the moves the table selected):
  // aspiration windows around `guess`, widened on failure. Null if stopped.
  std::optional<RootLine> SearchLine(const SymmetricKeys& keys, int line, int depth, int guess);
  // The lines after the first, once the first is result_: searched as it was (to `depth`, or
  // solved at the end of the game, `proof_only`: proven only), each one taken as it ends.
  // False if stopped.
  bool SearchLaterLines(const SymmetricKeys& keys, int depth, bool proof_only);
  // The score line `line` had in the last iteration (the guess its search starts from).
  int PreviousScore(int line) const;
  // The move the iterations gave line `line`: its answer when its proof shows it lost, where
  // no move is better than another by the proof.
  Move IterationsMove(int line) const;
  // The line from the root along the table's moves, starting with `first`.
  std::vector<Move> PrincipalVariation(Move first);
  // The line the last root search found (pv_[0]).
  std::vector<Move> RootPv() const {
    return std::vector<Move>(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
  }
  void ReportBestLine();
  void ReportLines();
  // Whether this worker's result ends the search: an exact value, or a proof when only the
  // proof was asked for.
  bool ResultIsFinal() const {
    return result_.best.exact ||
           (shared_.limits.prove && result_.best.proven != ProvenResult::kUnknown);
  }

  // --- The root's solve (root_solve.cc) ---

  // Whether the iteration after `depth` (whose score is `score`) should solve the root; sets
  // prove_first_ for that solve.
  bool SolveNext(int depth, int plies_left, int score);
  // Whether the root's solve starts with the proof of its result.
  bool ShouldProveFirst(int plies_left, int score) const;
  // What the root's solve has proven so far: lower <= value <= upper.
  struct RootBounds {
    int lower = -kInfiniteValue;
    int upper = kInfiniteValue;
  };
  enum class RootGoal { kResult, kExactValue };
  // Narrows `bounds` on the selected moves' value with null-window searches until `goal` is
  // reached. Returns the last search's value, null if stopped.
  std::optional<int> NarrowRootBounds(const SymmetricKeys& keys, int guess, RootGoal goal,
                                      RootBounds& bounds, Move& best);
  // A line solved at the end of the game, and whether it ended at the proof of its result.
  struct SolvedLine {
    RootLine line;
    bool ended_at_proof = false;
  };
  // Line `line` solved: the proof first (when prove_first_ or `go prove`), then the exact
  // value unless the proof ends it. Null if stopped.
  std::optional<SolvedLine> SolveLine(const SymmetricKeys& keys, int line, int guess,
                                      bool proof_only);
  // The line a finished proof gives: its move is `best`, or `fallback` for a loss.
  RootLine ProofLine(const RootBounds& bounds, Move best, Move fallback);
  // The main worker's hard limit for the root's solve from now on.
  void LimitSolve(std::int64_t limit_ms);

  SharedSearch& shared_;
  const int index_;
  std::atomic<std::uint64_t> nodes_{0};
  std::function<std::uint64_t()> nodes_of_all_;
  const SearchCallbacks* callbacks_ = nullptr;  // the main worker's
  std::uint64_t next_check_ = params::kNodesBetweenChecks;
  EndgameSolver endgame_;
  int seldepth_ = 0;
  // The root's solve that SolveNext chose starts with the proof (ShouldProveFirst).
  bool prove_first_ = false;
  MoveHistory history_;
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 2> pv_length_{};
  RootMoves root_;
  SearchResult result_;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_WORKER_H_
