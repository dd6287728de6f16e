// The search: iterative-deepening principal-variation search over a shared, symmetry-reduced
// transposition table, run by one or more threads (Lazy SMP). No I/O: it reports through
// SearchCallbacks, and the protocol turns that into text.
#ifndef DIVERCITE_SEARCH_SEARCH_H_
#define DIVERCITE_SEARCH_SEARCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/move.h"
#include "engine/position.h"
#include "search/network.h"
#include "search/network_file.h"
#include "search/search_limits.h"
#include "search/search_params.h"
#include "search/tt.h"
#include "search/value.h"

namespace divercite {

class MovesInProgress;

struct IterationInfo {
  // The line's rank (1 = the best) when several lines are searched (MultiPV); 0 with one.
  int multipv = 0;
  int depth = 0;
  int seldepth = 0;
  int score = 0;
  Bound bound = Bound::kExact;  // kLower / kUpper for aspiration failures and proofs
  bool exact = false;           // solved to the end of the game
  ProvenResult proven = ProvenResult::kUnknown;  // the result, once proven (or exact)
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  int hashfull = 0;
  std::vector<Move> pv;
};

// A root move and what the search knows of its value: the result's best line, and each of
// the root's best lines when several are searched (MultiPV). Each line's score is that of the
// best root move once the lines above it are left out, so it is its own move's value (or a
// bound on it, as `bound` says).
struct RootLine {
  Move move;  // None only when the game is over
  int score = 0;
  Bound bound = Bound::kExact;
  bool exact = false;  // the score is the exact value: solved to the end of the game
  // The game's result once a search to the end proved it (an exact value proves it too). A
  // proof that is not the exact value bounds the score: kLower for a win (the score is a
  // value the game reaches at least, and `move` keeps the win), kUpper for a loss.
  ProvenResult proven = ProvenResult::kUnknown;
  int depth = 0;
  std::vector<Move> pv;
};

struct SearchResult {
  RootLine best;  // the move to play and its line
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  // With several lines (MultiPV > 1): the best lines, best first, lines[0] the result's best.
  // A search stopped within an iteration keeps that iteration's finished lines, then the
  // previous iteration's for the other moves (each line says its depth). Empty with one line.
  std::vector<RootLine> lines;
};

// What a report of `result` says, the one builder of IterationInfo: each iteration's report
// (the search's callback) and the final one (the protocol's) alike. `seldepth`, `hashfull`
// and `bound` are the reporter's (the result's own bound when `bound` is exact); the line is
// the result's, or its best move alone when the search ended before its first iteration.
IterationInfo IterationInfoOf(const SearchResult& result, int seldepth, int hashfull,
                              Bound bound = Bound::kExact);
// The report of the result's line `multipv` (1 = the best; result.lines holds it): the line's
// own move, score and what it is, the result's nodes and time.
IterationInfo LineInfoOf(const SearchResult& result, int multipv, int seldepth, int hashfull);

struct SearchCallbacks {
  // Main thread, once per iteration (once per line of it, best first, with several lines).
  std::function<void(const IterationInfo&)> on_iteration;
  // Main thread, at each look at the clock (every 1024 nodes) and while `go infinite` waits
  // for its stop: where a host without threads (the single-threaded browser build) hands in
  // the commands that came during the search, `stop` among them. Empty elsewhere.
  std::function<void()> on_poll;
};

// The table's size when nothing says otherwise (the engine's Hash option starts there).
inline constexpr std::size_t kDefaultHashMegabytes = 16;

// The most lines a search reports (MultiPV): every legal move of a position.
inline constexpr int kMaxLines = kMaxMoves;

// The defaults here are the engine's option defaults too (tools/uci/engine_session.cc).
struct SearchOptions {
  int threads = 1;
  std::int64_t move_overhead_ms = 30;
  // The evaluation's network (default: the compiled-in one, search/network.net).
  std::shared_ptr<const NetworkWeights> eval_weights = DefaultNetworkWeights();
  // Solving nodes with at most this many plies left go to the lean endgame solver; the tests
  // set 0 to check the main search's own solving path against brute force.
  int endgame_solver_plies = params::kEndgameSolverPlies;
  // How many of the root's best moves the search ranks and reports (MultiPV, 1..kMaxLines):
  // each iteration searches the best line, then the best of the other moves, and so on, each
  // line with its own aspiration window. Fewer when the root has fewer moves (up to
  // symmetry). With one line the search is the plain one.
  int multipv = 1;
};

class Searcher {
 public:
  explicit Searcher(std::size_t hash_megabytes = kDefaultHashMegabytes);
  ~Searcher();

  // Resizes the table (clearing it). False if the memory cannot be had.
  bool SetHashMegabytes(std::size_t megabytes);
  // Options without evaluation weights get the default ones.
  void SetOptions(const SearchOptions& options) {
    options_ = options;
    if (!options_.eval_weights) options_.eval_weights = DefaultNetworkWeights();
  }
  const SearchOptions& options() const { return options_; }

  // Forgets everything learnt: table, history.
  void NewGame();

  // Searches `root` within `limits`, blocking; Stop() from another thread ends it early.
  // Always returns a legal move unless the game is over.
  SearchResult Search(const Position& root, const SearchLimits& limits,
                      const SearchCallbacks& callbacks);
  // Ends the running search, or, if none runs, the next one as soon as it starts (so a stop
  // that races the start of a search is never lost). Search() clears it when it returns.
  void Stop() { stop_.store(true, std::memory_order_relaxed); }
  void ClearStop() { stop_.store(false, std::memory_order_relaxed); }

  const TranspositionTable& tt() const { return tt_; }

 private:
  TranspositionTable tt_;
  // Shared by the threads of a search; made the first time a search has more than one.
  std::unique_ptr<MovesInProgress> moves_in_progress_;
  SearchOptions options_;
  std::atomic<bool> stop_{false};
  // The root's ply when the last search proved a win (none: -kTotalPlies): the search two
  // plies later proves it again whatever the proof typically costs.
  int won_at_ply_ = -kTotalPlies;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_SEARCH_H_
